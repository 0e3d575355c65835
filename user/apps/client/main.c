// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("client\n");
    return 0;
}
