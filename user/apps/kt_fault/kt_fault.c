// SPDX-License-Identifier: MIT
// kt_fault: commits the fault ProcArg() names, so that the tests can check the kernel kills
// the process, reports it, and keeps running. See t_proc.c for the list.
#include <kern.h>

static uint8_t stack2[512] __attribute__((aligned(8)));

static int fault_thread(void *arg)
{
    (void)arg;
    *(volatile uint32_t *)0x20000000u = 1;
    return 0;
}

int main(void)
{
    volatile uint32_t *p;
    static uint16_t code_in_ram[2] = { 0x4770, 0x4770 };     // bx lr

    switch (ProcArg()) {
    case 1:
        *(volatile uint32_t *)0x20000100u = 0xdead;
        break;
    case 2:
        p = (volatile uint32_t *)0x20040000u;       // slot 0's RAM
        return (int)*p;
    case 3:
        ((void (*)(void))((uintptr_t)code_in_ram | 1))();
        break;
    case 4:
        __asm__ volatile("mov r0, sp\n\tldr r1, =0x20000200\n\tmov sp, r1\n\tsvc 0\n\tmov sp, r0"
                         ::: "r0", "r1", "memory");
        break;
    case 5: {
        volatile int zero = 0;
        return 10 / zero;
    }
    case 6:
        *(volatile uint32_t *)0x40004000u = 'x';    // the console UART
        break;
    case 7:
        ThreadCreate(fault_thread, NULL, stack2, sizeof(stack2), 0, 0);
        ThreadSleep(1000000000ull);
        return 1;
    case 8:
        return 42;
    case 9: {
        volatile uint32_t *volatile code = (volatile uint32_t *)0x00000100u;
        *code = 1;
        break;
    }
    }
    return 0;
}
