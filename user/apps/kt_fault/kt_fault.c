// SPDX-License-Identifier: MIT
// kt_fault: commits the fault ProcArg() names, so that the tests can check the kernel kills
// the process, reports it, and keeps running. See t_proc.c for the list.
#include <kern.h>
#include <board_user.h>

static uint8_t stack2[512] __attribute__((aligned(8)));

// user/arch/<arch>/fault_arch.c
void fault_exec_at(void *ram);
void fault_bad_stack_call(void);

static int fault_thread(void *arg)
{
    (void)arg;
    *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = 1;
    return 0;
}

int main(void)
{
    volatile uint32_t *p;

    switch (ProcArg()) {
    case 1:
        *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = 0xdead;
        break;
    case 2:
        p = (volatile uint32_t *)APP_RAM_BASE;      // slot 0's RAM (not ours)
        return (int)*p;
    case 3: {
        static uint32_t code_in_ram[2];
        fault_exec_at(code_in_ram);
        break;
    }
    case 4:
        fault_bad_stack_call();
        break;
    case 5: {
        volatile int zero = 0;
#ifdef __aarch64__
        // AArch64 division by zero does not trap (the quotient is 0): the check a compiler
        // inserts (-fsanitize=integer-divide-by-zero -fsanitize-trap) traps instead (brk).
        if (zero == 0)
            __builtin_trap();
#endif
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
    case 10:                // no fault: spins until killed (kt_smp kills it on another CPU)
        for (volatile int forever = 1; forever;)
            ;
        break;
    case 11:
        return (int)*(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR;
    case 12: {
        uint32_t code_on_stack[2];
        fault_exec_at(code_on_stack);
        break;
    }
    }
    return 0;
}
