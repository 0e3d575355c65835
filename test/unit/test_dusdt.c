// SPDX-License-Identifier: MIT
// A USDT note's argument places (trace/d/dusdt.c) in both syntaxes, as Debian's sys/sdt.h
// and the cross compilers write them: most places below are copied from the notes
// arm-none-eabi-gcc and aarch64-linux-gnu-gcc wrote (readelf -n) for the probes of usdtdemo
// and of a program with struct members, locals, constants and narrow signed arguments, at -O0
// and -O2; the rest (marked) are hand-written. Each is read into the register's DWARF number (ARM r0-r15 with sp 13; AArch64
// x0-x30, sp 31), the offset or value, and the size; what this reader does not know is
// refused with the place named, never read as something else. i386 (AT&T) places: test_i386.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <d/dusdt.h>

static void expect(const struct dusdt_arg *a, int kind, int reg, int size, int32_t value)
{
    assert_int_equal(a->kind, kind);
    assert_int_equal(a->reg, reg);
    assert_int_equal(a->size, size);
    assert_int_equal(a->value, value);
}

static void test_arm(void **state)
{
    (void)state;
    struct dusdt_arg a[DUSDT_MAXARGS];
    const char *bad = NULL;
    // arm-none-eabi-gcc -O2 (Cortex-M3): struct members, constants, registers
    assert_int_equal(dusdt_parse("-4@[r0, #12] -4@[r0, #32] -4@#5 -4@#-7 -4@r4 -4@r1",
                                 DUSDT_SYNTAX_ARM, a, &bad), 6);
    expect(&a[0], DUSDT_MEM, 0, -4, 12);
    expect(&a[1], DUSDT_MEM, 0, -4, 32);
    expect(&a[2], DUSDT_IMM, 0, -4, 5);
    expect(&a[3], DUSDT_IMM, 0, -4, -7);
    expect(&a[4], DUSDT_REG, 4, -4, 0);
    expect(&a[5], DUSDT_REG, 1, -4, 0);
    // -O2's narrow ones in registers (ip), -O0's in the frame; usdtdemo's third
    assert_int_equal(dusdt_parse("-2@r3 -1@ip -4@r2", DUSDT_SYNTAX_ARM, a, &bad), 3);
    expect(&a[1], DUSDT_REG, 12, -1, 0);
    assert_int_equal(dusdt_parse("-2@[r7, #2] -1@[r7, #48] -4@[r7, #4]", DUSDT_SYNTAX_ARM, a,
                                 &bad), 3);
    expect(&a[0], DUSDT_MEM, 7, -2, 2);
    expect(&a[1], DUSDT_MEM, 7, -1, 48);
    assert_int_equal(dusdt_parse("4@r3 -4@r7", DUSDT_SYNTAX_ARM, a, &bad), 2);
    expect(&a[1], DUSDT_REG, 7, -4, 0);
    expect(&a[2], DUSDT_NONE, 0, 0, 0);
    // hand-written: the other names, a negative offset
    assert_int_equal(dusdt_parse("4@[fp] 4@lr 4@sp 4@sl -4@[r3, #-4]", DUSDT_SYNTAX_ARM, a,
                                 &bad), 5);
    expect(&a[0], DUSDT_MEM, 11, 4, 0);
    expect(&a[1], DUSDT_REG, 14, 4, 0);
    expect(&a[2], DUSDT_REG, 13, 4, 0);
    expect(&a[3], DUSDT_REG, 10, 4, 0);
    expect(&a[4], DUSDT_MEM, 3, -4, -4);
    assert_int_equal(dusdt_parse("-8@#20015998348237 1@r1", DUSDT_SYNTAX_ARM, a, &bad), -1);
    assert_int_equal(dusdt_parse("", DUSDT_SYNTAX_ARM, a, &bad), 0);
    // AArch64's places are not ARM's
    const char *t = "4@r1 4@x0";
    assert_int_equal(dusdt_parse(t, DUSDT_SYNTAX_ARM, a, &bad), -1);
    assert_ptr_equal(bad, t + 5);
    assert_int_equal(dusdt_parse("4@5", DUSDT_SYNTAX_ARM, a, &bad), -1);
    assert_int_equal(dusdt_parse("4@[sp, 8]", DUSDT_SYNTAX_ARM, a, &bad), -1);
    assert_int_equal(dusdt_parse("4@r13", DUSDT_SYNTAX_ARM, a, &bad), -1);
}

static void test_a64(void **state)
{
    (void)state;
    struct dusdt_arg a[DUSDT_MAXARGS];
    const char *bad = NULL;
    // aarch64-linux-gnu-gcc -O2: struct members, constants, a local on the stack, a register
    assert_int_equal(dusdt_parse("-4@[x0, 12] -8@[x0, 32] -4@5 -4@-7 -4@[sp, 12] -4@x1",
                                 DUSDT_SYNTAX_A64, a, &bad), 6);
    expect(&a[0], DUSDT_MEM, 0, -4, 12);
    expect(&a[1], DUSDT_MEM, 0, -8, 32);
    expect(&a[2], DUSDT_IMM, 0, -4, 5);
    expect(&a[3], DUSDT_IMM, 0, -4, -7);
    expect(&a[4], DUSDT_MEM, 31, -4, 12);
    expect(&a[5], DUSDT_REG, 1, -4, 0);
    // -O0: narrow signed ones in the frame; usdtdemo's
    assert_int_equal(dusdt_parse("-2@[sp, 18] -1@[sp, 17] -8@[sp, 8]", DUSDT_SYNTAX_A64, a,
                                 &bad), 3);
    expect(&a[0], DUSDT_MEM, 31, -2, 18);
    expect(&a[1], DUSDT_MEM, 31, -1, 17);
    expect(&a[2], DUSDT_MEM, 31, -8, 8);
    // usdtdemo's third, then hand-written: the other names, a negative offset
    assert_int_equal(dusdt_parse("4@[x9] -4@x8 8@x30 4@w3 8@sp 4@[x29, -8] 4@#6",
                                 DUSDT_SYNTAX_A64, a, &bad), -1);    // seven: one too many
    assert_int_equal(dusdt_parse("4@[x9] -4@x8 8@x30 4@w3 8@sp 4@[x29, -8]",
                                 DUSDT_SYNTAX_A64, a, &bad), 6);
    expect(&a[0], DUSDT_MEM, 9, 4, 0);
    expect(&a[1], DUSDT_REG, 8, -4, 0);
    expect(&a[2], DUSDT_REG, 30, 8, 0);
    expect(&a[3], DUSDT_REG, 3, 4, 0);
    expect(&a[4], DUSDT_REG, 31, 8, 0);
    expect(&a[5], DUSDT_MEM, 29, 4, -8);
    // a constant wider than 32 bits (gcc writes a 64-bit one as it is): refused, named
    const char *t = "-8@20015998348237 1@x1";
    assert_int_equal(dusdt_parse(t, DUSDT_SYNTAX_A64, a, &bad), -1);
    assert_ptr_equal(bad, t);
    // ARM's names are not AArch64's; nor x31, nor a vector register
    assert_int_equal(dusdt_parse("4@r0", DUSDT_SYNTAX_A64, a, &bad), -1);
    assert_int_equal(dusdt_parse("8@x31", DUSDT_SYNTAX_A64, a, &bad), -1);
    assert_int_equal(dusdt_parse("8@xzr", DUSDT_SYNTAX_A64, a, &bad), -1);
    assert_int_equal(dusdt_parse("8@v0", DUSDT_SYNTAX_A64, a, &bad), -1);
    assert_int_equal(dusdt_parse("3@x0", DUSDT_SYNTAX_A64, a, &bad), -1);
    assert_int_equal(dusdt_parse("8@[x0, 12", DUSDT_SYNTAX_A64, a, &bad), -1);
    assert_int_equal(dusdt_parse("8@x0", 7, a, &bad), -1);
}

// i386 (AT&T): usdtdemo's notes as i686-linux-gnu-gcc wrote them at -O2 (readelf -n), the
// symbol of `4@passed_third` already the address the host tools put there; the rest hand-written.
static void test_i386(void **state)
{
    (void)state;
    struct dusdt_arg a[DUSDT_MAXARGS];
    const char *bad = NULL;
    assert_int_equal(dusdt_parse("4@8(%ebp) 4@%eax", DUSDT_SYNTAX_I386, a, &bad), 2);
    expect(&a[0], DUSDT_MEM, 5, 4, 8);
    expect(&a[1], DUSDT_REG, 0, 4, 0);
    assert_int_equal(dusdt_parse("4@0x51001c -4@%eax", DUSDT_SYNTAX_I386, a, &bad), 2);
    expect(&a[0], DUSDT_MEM, DUSDT_NOREG, 4, 0x51001c);
    expect(&a[1], DUSDT_REG, 0, -4, 0);
    assert_int_equal(dusdt_parse("4@%ecx 4@%edx 4@%ebx 4@%esp 4@%ebp 4@%esi", DUSDT_SYNTAX_I386,
                                 a, &bad), 6);
    for (int i = 0; i < 6; i++)
        expect(&a[i], DUSDT_REG, i + 1, 4, 0);
    assert_int_equal(dusdt_parse("4@%edi 2@%ax 1@%bl -1@%cl 4@$5 -4@$-3", DUSDT_SYNTAX_I386, a,
                                 &bad), 6);
    expect(&a[0], DUSDT_REG, 7, 4, 0);
    expect(&a[1], DUSDT_REG, 0, 2, 0);
    expect(&a[2], DUSDT_REG, 3, 1, 0);
    expect(&a[3], DUSDT_REG, 1, -1, 0);
    expect(&a[4], DUSDT_IMM, 0, 4, 5);
    expect(&a[5], DUSDT_IMM, 0, -4, -3);
    assert_int_equal(dusdt_parse("-4@-12(%ebp) 4@(%eax) 8@0x10(%esp)", DUSDT_SYNTAX_I386, a,
                                 &bad), 3);
    expect(&a[0], DUSDT_MEM, 5, -4, -12);
    expect(&a[1], DUSDT_MEM, 0, 4, 0);
    expect(&a[2], DUSDT_MEM, 4, 8, 16);
    // refused, the place named: an index register, a symbol the host left, %ah, a bad size,
    // an unclosed operand, a bad immediate; and another syntax's places
    static const struct { const char *text, *at; } no[] = {
        { "4@%eax 4@(%eax,%ebx,4)", "4@(%eax,%ebx,4)" }, { "4@passed_third", "4@passed_third" },
        { "4@%ah", "4@%ah" }, { "4@%eax 3@%ecx", "3@%ecx" }, { "4@8(%ebp", "4@8(%ebp" },
        { "4@$x", "4@$x" }, { "4@r0", "4@r0" }, { "4@[x0, 12]", "4@[x0, 12]" },
    };
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        assert_int_equal(dusdt_parse(no[i].text, DUSDT_SYNTAX_I386, a, &bad), -1);
        assert_string_equal(bad, no[i].at);
    }
    // and an i386 place in the ARM and AArch64 syntaxes
    assert_int_equal(dusdt_parse("4@%eax", DUSDT_SYNTAX_ARM, a, &bad), -1);
    assert_int_equal(dusdt_parse("4@8(%ebp)", DUSDT_SYNTAX_A64, a, &bad), -1);
}

static void test_extend(void **state)
{
    (void)state;
    struct dusdt_arg a[DUSDT_MAXARGS];
    const char *bad;
    assert_int_equal(dusdt_parse("-4@x0 4@x0 -1@x0 2@x0", DUSDT_SYNTAX_A64, a, &bad), 4);
    assert_true(dusdt_extend(&a[0], 0x12345678fffffff6ull) == (uint64_t)-10);
    assert_true(dusdt_extend(&a[1], 0x12345678fffffff6ull) == 0xfffffff6ull);
    assert_true(dusdt_extend(&a[2], 0x80ull) == (uint64_t)-128);
    assert_true(dusdt_extend(&a[3], 0xabcdef01ull) == 0xef01ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arm),
        cmocka_unit_test(test_a64),
        cmocka_unit_test(test_i386),
        cmocka_unit_test(test_extend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
