// SPDX-License-Identifier: MIT
// The kernel's build date as SysInfo gives it and the tracelogger writes it back
// (trace/kev_ident.h): each case's yyyymmdd written by hand from C's __DATE__ format
// ("Mmm dd yyyy", the day padded with a space), and the text back byte for byte; this
// compiler's own __DATE__ goes round trip, and what is no date is 0 and "unknown".
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <trace/kev_ident.h>

static void round_trip(const char *text, uint32_t value)
{
    char back[12];
    assert_int_equal(kev_ident_date_value(text), value);
    kev_ident_date_text(value, back);
    assert_string_equal(back, text);
}

static void test_dates(void **state)
{
    (void)state;
    round_trip("Nov 28 2026", 20261128);
    round_trip("Jan  1 2027", 20270101);
    round_trip("Dec 31 1999", 19991231);
    round_trip("Feb  9 2030", 20300209);
    round_trip(__DATE__, kev_ident_date_value(__DATE__));
    assert_true(kev_ident_date_value(__DATE__) > 20200101);
}

static void test_not_dates(void **state)
{
    (void)state;
    char back[12];
    assert_int_equal(kev_ident_date_value("Nox 28 2026"), 0);
    assert_int_equal(kev_ident_date_value("Nov-28 2026"), 0);
    kev_ident_date_text(0, back);
    assert_string_equal(back, "unknown");
    kev_ident_date_text(20261300, back);
    assert_string_equal(back, "unknown");
    kev_ident_date_text(20261132, back);
    assert_string_equal(back, "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_not_dates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
