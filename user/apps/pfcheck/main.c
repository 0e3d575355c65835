// SPDX-License-Identifier: MIT
// pfcheck: prints every case of printf_cases.h, one "pf N: <text>" line each, then every case
// of c99_cases.h (the C99 headers a program includes: <inttypes.h>'s PRI macros, <limits.h>,
// <ctype.h>, <string.h>, <stdlib.h>, <time.h>...), one "c99 N: <text>" line each, with the
// board's C library; test/qemu/test_printf.sh compares them with the host's of the same
// cases (test/qemu/printf_host.c). Floating point only where the C library has it (not
// x86-pc's own runtime nor newlib-nano, whose printf is the user runtime's, user/include/
// ufmt.h: they print "pf float: none").
#include <stdio.h>
#include "printf_cases.h"
#include "c99_cases.h"

int main(void)
{
    int n = 0;
#define PF_CASE(fmt, ...) printf("pf %d: " fmt "\n", n++, __VA_ARGS__);
    PRINTF_INT_CASES(PF_CASE)
#if defined(__i386__) || (defined(_NEWLIB_VERSION) && !defined(__PICOLIBC__))
    printf("pf float: none\n");
#else
    PRINTF_FLOAT_CASES(PF_CASE)
#endif
#undef PF_CASE
    printf("pf done: %d cases\n", n);
    printf("c99 done: %d cases\n", c99_cases());
    return 0;
}
