// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <kern.h>
int main(void)
{
    printf("init: hello from pid %d\n", ProcSelf());
    return 3;
}
