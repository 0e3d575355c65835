// SPDX-License-Identifier: MIT
// The host's printf of the cases pfcheck prints on the board (user/apps/pfcheck/
// printf_cases.h, c99_cases.h), in the same "pf N: <text>" and "c99 N: <text>" lines, with
// the host's C library: the truth test/qemu/test_printf.sh holds the board's lines to.
// `printf_host` prints all; `printf_host -i` the integer printf cases alone. Run with TZ=UTC.
#include <stdio.h>
#include <string.h>
#include "printf_cases.h"
#include "c99_cases.h"

int main(int argc, char **argv)
{
    int n = 0;
#define PF_CASE(fmt, ...) printf("pf %d: " fmt "\n", n++, __VA_ARGS__);
    PRINTF_INT_CASES(PF_CASE)
    if (argc > 1 && strcmp(argv[1], "-i") == 0)
        printf("pf float: none\n");
    else {
        PRINTF_FLOAT_CASES(PF_CASE)
    }
#undef PF_CASE
    printf("pf done: %d cases\n", n);
    printf("c99 done: %d cases\n", c99_cases());
    return 0;
}
