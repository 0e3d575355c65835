// SPDX-License-Identifier: MIT
// pfcheck: prints every case of printf_cases.h, one "pf N: <text>" line each, with the
// board's C library; test/qemu/test_printf.sh compares them with the host's printf of the
// same cases (test/qemu/printf_host.c). Floating point only where the C library has it
// (not x86-pc's own runtime: it prints "pf float: none").
#include <stdio.h>
#include "printf_cases.h"

int main(void)
{
    int n = 0;
#define PF_CASE(fmt, ...) printf("pf %d: " fmt "\n", n++, __VA_ARGS__);
    PRINTF_INT_CASES(PF_CASE)
#if defined(__i386__)
    printf("pf float: none\n");
#else
    PRINTF_FLOAT_CASES(PF_CASE)
#endif
#undef PF_CASE
    printf("pf done: %d cases\n", n);
    return 0;
}
