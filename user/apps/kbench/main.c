// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("kbench\n");
    return 0;
}
