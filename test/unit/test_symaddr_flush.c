// SPDX-License-Identifier: MIT
// symaddr_flush (tools/common/symaddr.c) under ASan + UBSan: with no row kept (every dtrace run
// that prints no symbolic printa( ) row) it prints nothing and passes no NULL array to qsort;
// with rows, they come out sorted by value, merged by key, as printa sorts them.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kevhost/stacksym.h>
#include <kevhost/tool_elfsym.h>

// symaddr.c names addresses through the ELF files; no file is loaded here.
int elfsym_lookup(uint64_t addr, int kernel, char *mod, size_t mod_n, char *fn, size_t fn_n,
                  uint64_t *off)
{
    (void)addr, (void)kernel, (void)mod, (void)mod_n, (void)fn, (void)fn_n, (void)off;
    return -1;
}

static void test_flush_empty(void **st)
{
    (void)st;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    symaddr_flush(f);          // nothing kept: qsort must not see a NULL array
    fclose(f);
    assert_int_equal(len, 0);
    free(out);
}

static void test_flush_sorted(void **st)
{
    (void)st;
    char *out = NULL;
    size_t len = 0;
    assert_int_equal(symaddr_row("  kernel`b      7", "count"), 0);
    assert_int_equal(symaddr_row("  kernel`a      3", "count"), 0);
    assert_int_equal(symaddr_row("  kernel`b      2", "count"), 0);
    FILE *f = open_memstream(&out, &len);
    symaddr_flush(f);
    fclose(f);
    assert_string_equal(out, "  kernel`a      3\n  kernel`b      9\n");
    free(out);
    f = open_memstream(&out, &len); // flushed: empty again
    symaddr_flush(f);
    fclose(f);
    assert_int_equal(len, 0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flush_empty),
        cmocka_unit_test(test_flush_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
