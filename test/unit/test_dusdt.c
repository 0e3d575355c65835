// SPDX-License-Identifier: MIT
// USDT argument places (trace/d/dusdt.c) as Debian's sys/sdt.h writes them, against what each
// operand means in its assembler's syntax (the GNU as manuals: ARM's `#imm`, `[reg, #off]`;
// AT&T's `%reg`, `$imm`, `disp(%reg)`, a bare number an address): the kind, the register's
// DWARF number, the offset or value and the size; and places the kernel cannot evaluate
// refused with the reader pointing at them.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <d/dusdt.h>

static void check(const struct dusdt_arg *a, int kind, int reg, int size, int32_t value)
{
    assert_int_equal(a->kind, kind);
    if (kind != DUSDT_IMM)
        assert_int_equal(a->reg, reg);
    assert_int_equal(a->size, size);
    if (kind != DUSDT_REG)
        assert_int_equal(a->value, value);
}

static void test_arm_places(void **state)
{
    (void)state;
    struct dusdt_arg a[DUSDT_MAXARGS];
    const char *bad = NULL;
    assert_int_equal(dusdt_parse("4@r0 -4@r12 4@#5 4@[r7, #8] 4@[sp] -2@[r3, #-4]", a, &bad), 6);
    check(&a[0], DUSDT_REG, 0, 4, 0);
    check(&a[1], DUSDT_REG, 12, -4, 0);
    check(&a[2], DUSDT_IMM, 0, 4, 5);
    check(&a[3], DUSDT_MEM, 7, 4, 8);
    check(&a[4], DUSDT_MEM, 13, 4, 0);
    check(&a[5], DUSDT_MEM, 3, -2, -4);
}

static void test_i386_places(void **state)
{
    (void)state;
    struct dusdt_arg a[DUSDT_MAXARGS];
    const char *bad = NULL;
    // usdtdemo's own notes (readelf -n of the x86-pc build), the symbol already an address
    assert_int_equal(dusdt_parse("4@8(%ebp) 4@%eax", a, &bad), 2);
    check(&a[0], DUSDT_MEM, 5, 4, 8);
    check(&a[1], DUSDT_REG, 0, 4, 0);
    assert_int_equal(dusdt_parse("4@0x51001c -4@%eax", a, &bad), 2);
    check(&a[0], DUSDT_MEM, DUSDT_NOREG, 4, 0x51001c);
    check(&a[1], DUSDT_REG, 0, -4, 0);
    // every register in DWARF's i386 order, the narrow names, immediates, memory forms
    assert_int_equal(dusdt_parse("4@%ecx 4@%edx 4@%ebx 4@%esp 4@%ebp 4@%esi", a, &bad), 6);
    for (int i = 0; i < 6; i++)
        check(&a[i], DUSDT_REG, i + 1, 4, 0);
    assert_int_equal(dusdt_parse("4@%edi 2@%ax 1@%bl -1@%cl 4@$5 -4@$-3", a, &bad), 6);
    check(&a[0], DUSDT_REG, 7, 4, 0);
    check(&a[1], DUSDT_REG, 0, 2, 0);
    check(&a[2], DUSDT_REG, 3, 1, 0);
    check(&a[3], DUSDT_REG, 1, -1, 0);
    check(&a[4], DUSDT_IMM, 0, 4, 5);
    check(&a[5], DUSDT_IMM, 0, -4, -3);
    assert_int_equal(dusdt_parse("-4@-12(%ebp) 4@(%eax) 8@0x10(%esp)", a, &bad), 3);
    check(&a[0], DUSDT_MEM, 5, -4, -12);
    check(&a[1], DUSDT_MEM, 0, 4, 0);
    check(&a[2], DUSDT_MEM, 4, 8, 16);
    assert_int_equal(dusdt_parse("", a, &bad), 0);
    assert_int_equal(a[0].kind, DUSDT_NONE);
}

static void test_refused(void **state)
{
    (void)state;
    struct dusdt_arg a[DUSDT_MAXARGS];
    static const struct { const char *text, *at; } cases[] = {
        { "4@%eax 4@(%eax,%ebx,4)", "4@(%eax,%ebx,4)" },   // an index register
        { "4@passed_third", "4@passed_third" },             // a symbol the host left unresolved
        { "4@%ah", "4@%ah" },                               // bits 8-15
        { "4@%eax 3@%ecx", "3@%ecx" },                      // no such size
        { "4@8(%ebp", "4@8(%ebp" },
        { "4@$x", "4@$x" },
        { "4@r0 4@r1 4@r2 4@r3 4@r4 4@r5 4@r6", "4@r6" },   // a seventh argument
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *bad = NULL;
        assert_int_equal(dusdt_parse(cases[i].text, a, &bad), -1);
        assert_non_null(bad);
        assert_string_equal(bad, cases[i].at);
    }
}

static void test_extend(void **state)
{
    (void)state;
    struct dusdt_arg s = { DUSDT_REG, 0, -1, 0, 0 }, u = { DUSDT_REG, 0, 2, 0, 0 };
    assert_int_equal((int64_t)dusdt_extend(&s, 0x1ff), -1);      // %cl's 0xff, signed
    assert_int_equal(dusdt_extend(&u, 0xabcd1234u), 0x1234);      // %ax of eax
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arm_places),
        cmocka_unit_test(test_i386_places),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_extend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
