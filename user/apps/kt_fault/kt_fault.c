// SPDX-License-Identifier: MIT
// kt_fault: commits the fault ProcArg() names, so that the tests can check the kernel kills
// the process, reports it, and keeps running. See t_proc.c for the list.
#include <kern.h>
#include <board_user.h>

static uint8_t stack2[512] __attribute__((aligned(8)));

static int fault_thread(void *arg)
{
    (void)arg;
    *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = 1;
    return 0;
}

int main(void)
{
    volatile uint32_t *p;
    static uint16_t code_in_ram[2] = { 0x4770, 0x4770 };     // bx lr

    switch (ProcArg()) {
    case 1:
        *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = 0xdead;
        break;
    case 2:
        p = (volatile uint32_t *)APP_RAM_BASE;      // slot 0's RAM (not ours)
        return (int)*p;
    case 3:
        ((void (*)(void))((uintptr_t)code_in_ram | 1))();
        break;
    case 4:
        __asm__ volatile("mov r0, sp\n\tmov sp, %0\n\tsvc 0\n\tmov sp, r0"
                         :: "r"(BOARD_KERNEL_RAM_ADDR + 0x100u) : "r0", "memory");
        break;
    case 5: {
        volatile int zero = 0;
        return 10 / zero;
    }
    case 6:
        *(volatile uint32_t *)BOARD_OTHER_DEV_ADDR = 'x';    // e.g. the console UART
        break;
    case 7:
        ThreadCreate(fault_thread, NULL, stack2, sizeof(stack2), 0, 0);
        ThreadSleep(1000000000ull);
        return 1;
    case 8:
        return 42;
    case 9: {
        volatile uint32_t *volatile code = (volatile uint32_t *)BOARD_CODE_ADDR;
        *code = 1;
        break;
    }
    }
    return 0;
}
