// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("kt_peer\n");
    return 0;
}
