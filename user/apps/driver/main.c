// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("driver\n");
    return 0;
}
