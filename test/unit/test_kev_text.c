// SPDX-License-Identifier: MIT
// Names made safe to print (trace/kev_text.c), each case's answer written by hand from the
// console's rules (kernel/kconsole.c) and RFC 3629's well-formed UTF-8: text a terminal would
// obey comes out as escapes, ordinary ASCII and UTF-8 as they are, and an escape or a
// character is never cut in two at the end of the buffer.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <trace/kev_text.h>

// src (its bytes up to its NUL) made safe into a buffer of n bytes must give want.
static void expect(const char *src, size_t n, const char *want)
{
    char out[256];
    memset(out, 'Z', sizeof(out));
    size_t k = kev_text_safe(out, n, (const uint8_t *)src, strlen(src));
    assert_string_equal(out, want);
    assert_int_equal(k, strlen(want));
}

static void test_ordinary_text_kept(void **state)
{
    (void)state;
    expect("procnto", 32, "procnto");
    expect("main\tthread", 32, "main\tthread");             // tab, as the console keeps it
    expect("w\xc3\xb6rker", 32, "w\xc3\xb6rker");           // U+00F6
    expect("\xd0\xb7\xd0\xb0\xd0\xb4", 32, "\xd0\xb7\xd0\xb0\xd0\xb4");
    expect("\xe2\x82\xac \xf0\x9f\x98\x80", 32, "\xe2\x82\xac \xf0\x9f\x98\x80");  // 3, 4 bytes
    expect("a\xc2\xa0" "b", 32, "a\xc2\xa0" "b");           // U+00A0: the first after C1
}

static void test_c0_controls_escaped(void **state)
{
    (void)state;
    expect("cl\x1b[2Jnt", 32, "cl\\e[2Jnt");
    expect("a\rb", 32, "a\\rb");
    expect("bell\x07", 32, "bell\\x07");
    expect("irq\n", 32, "irq\\x0a");
    expect("del\x7f", 32, "del\\x7f");
    expect("\x01\x1f", 32, "\\x01\\x1f");
}

static void test_c1_controls_escaped(void **state)
{
    (void)state;
    expect("sv\xc2\x9b" "31m", 32, "sv\\xc2\\x9b31m");     // CSI in UTF-8
    expect("\xc2\x85" "x", 32, "\\xc2\\x85x");              // NEL
    expect("dr\x9b" "5n", 32, "dr\\x9b5n");                 // lone CSI (8-bit terminals)
}

static void test_bytes_outside_utf8_escaped(void **state)
{
    (void)state;
    expect("\xc0\xaf", 32, "\\xc0\\xaf");                   // overlong '/'
    expect("\xed\xa0\x80", 32, "\\xed\\xa0\\x80");          // a surrogate
    expect("\xf4\x90\x80\x80", 32, "\\xf4\\x90\\x80\\x80"); // above U+10FFFF
    expect("ab\xe2\x82", 32, "ab\\xe2\\x82");               // cut short by the end
    expect("\xe2\x82" "x", 32, "\\xe2\\x82x");              // cut short by ASCII
    expect("\xff", 32, "\\xff");
}

static void test_never_cut_in_two(void **state)
{
    (void)state;
    expect("abc", 3, "ab");                                 // room for the NUL
    expect("a\x1b", 3, "a");                                // "\e" needs 2 more
    expect("a\x1b", 4, "a\\e");
    expect("a\x07", 5, "a");                                // "\x07" needs 4
    expect("a\xc2\x9b", 8, "a");                            // both C1 bytes' escapes or none
    expect("a\xc2\x9b", 10, "a\\xc2\\x9b");
    expect("a\xe2\x82\xac", 4, "a");                        // a character whole or not at all
    expect("a\xe2\x82\xac", 5, "a\xe2\x82\xac");
    char out[1] = { 'Z' };
    assert_int_equal(kev_text_safe(out, 1, (const uint8_t *)"x", 1), 0);
    assert_int_equal(out[0], 0);
}

static void test_nul_and_length_end_it(void **state)
{
    (void)state;
    char out[16];
    assert_int_equal(kev_text_safe(out, sizeof(out), (const uint8_t *)"ab\0cd", 5), 2);
    assert_string_equal(out, "ab");
    assert_int_equal(kev_text_safe(out, sizeof(out), (const uint8_t *)"abcd", 3), 3);
    assert_string_equal(out, "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ordinary_text_kept),
        cmocka_unit_test(test_c0_controls_escaped),
        cmocka_unit_test(test_c1_controls_escaped),
        cmocka_unit_test(test_bytes_outside_utf8_escaped),
        cmocka_unit_test(test_never_cut_in_two),
        cmocka_unit_test(test_nul_and_length_end_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
