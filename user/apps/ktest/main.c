// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("ktest\n");
    return 0;
}
