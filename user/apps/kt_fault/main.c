// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("kt_fault\n");
    return 0;
}
