// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("srv\n");
    return 0;
}
