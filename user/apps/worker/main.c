// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void)
{
    printf("worker\n");
    return 0;
}
