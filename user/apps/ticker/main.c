// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("ticker\n");
    return 0;
}
