// SPDX-License-Identifier: MIT
// The host's one JSON string writer (tools/common/json_out.c) against strings written here by
// hand from RFC 8259 and the HTML standard's script-data rules: quotes and backslashes escaped,
// C0 controls and DEL as \u00XX, well-formed UTF-8 kept, a byte that starts no UTF-8 character
// as \u00XX (valid UTF-8 out, always); with JSON_PAGE also <, >, & and U+2028/2029. And
// json_page_copy over a whole JSON text: only those characters change.
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kevhost/json_out.h>

static char *written(const char *s, unsigned flags)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    json_str(f, s, flags);
    fclose(f);
    return out;
}

static const struct { const char *in, *plain, *page; } cases[] = {
    { "main", "\"main\"", "\"main\"" },
    { "a\"b\\c", "\"a\\\"b\\\\c\"", "\"a\\\"b\\\\c\"" },
    { "\n\r\t\x01\x1f\x7f", "\"\\u000a\\u000d\\u0009\\u0001\\u001f\\u007f\"",
      "\"\\u000a\\u000d\\u0009\\u0001\\u001f\\u007f\"" },
    { "<!--<script>", "\"<!--<script>\"", "\"\\u003c!--\\u003cscript\\u003e\"" },
    { "</script>&amp;", "\"</script>&amp;\"", "\"\\u003c/script\\u003e\\u0026amp;\"" },
    { "x\xe2\x80\xa8y\xe2\x80\xa9", "\"x\xe2\x80\xa8y\xe2\x80\xa9\"", "\"x\\u2028y\\u2029\"" },
    { "w\xc3\xb6rker \xd0\xb7", "\"w\xc3\xb6rker \xd0\xb7\"", "\"w\xc3\xb6rker \xd0\xb7\"" },
    { "dr\x9b" "5n", "\"dr\\u009b5n\"", "\"dr\\u009b5n\"" },          // a lone continuation byte
    { "cut\xe2\x80", "\"cut\\u00e2\\u0080\"", "\"cut\\u00e2\\u0080\"" }, // a cut sequence
    { "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"", "\"\\u00ed\\u00a0\\u0080\"" }, // a surrogate
    { "", "\"\"", "\"\"" },
};

static void test_rule(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *p = written(cases[i].in, 0), *q = written(cases[i].in, JSON_PAGE);
        assert_string_equal(p, cases[i].plain);
        assert_string_equal(q, cases[i].page);
        free(p);
        free(q);
    }
}

static void test_page_copy(void **st)
{
    (void)st;
    static const char json[] = "{\"a\":\"</script><!--\",\"b\":[1,2],\"c\":\"x\xe2\x80\xa8&\"}";
    static const char want[] = "{\"a\":\"\\u003c/script\\u003e\\u003c!--\",\"b\":[1,2],"
                               "\"c\":\"x\\u2028\\u0026\"}";
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    json_page_copy(f, json, sizeof(json) - 1);
    fclose(f);
    assert_string_equal(out, want);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_page_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
