// SPDX-License-Identifier: MIT
// The two faults of kt_fault that need the instruction set, x86:
// - running code placed in RAM (a static buffer or the stack): RAM lies beyond the ring-3 code
//   segment's limit (#GP);
// - a kernel call with the stack pointer aimed at kernel memory: `int $0x80` itself never uses
//   the user stack (the CPU switches to the kernel's), so the call works and the first use of
//   the stack after it faults (#PF on a supervisor page).
#include <stdint.h>
#include <board_user.h>
#include <uapi/kcall.h>

void fault_exec_at(void *ram);
void fault_bad_stack_call(void);
void fault_breakpoint(void);

// Writes `ret` four times at ram (4 bytes) and calls it.
void fault_exec_at(void *ram)
{
    volatile uint8_t *code = ram;
    for (int i = 0; i < 4; i++)
        code[i] = 0xc3;
    ((void (*)(void))(uintptr_t)ram)();
}

void fault_bad_stack_call(void)
{
    __asm__ volatile("movl %%esp, %%esi\n\t"
                     "movl %0, %%esp\n\t"
                     "movl %1, %%eax\n\t"
                     "int $0x80\n\t"
                     "pushl %%eax\n\t"
                     "movl %%esi, %%esp"
                     :: "i"(BOARD_KERNEL_RAM_ADDR + 0x100u), "i"(KC_ProcSelf)
                     : "eax", "esi", "memory");
}

// A breakpoint instruction, which no debugger here takes: the process is killed (on ARMv7-M
// in QEMU it comes as a HardFault, which the kernel hands down to the faults' level first:
// kernel/arch/armv7m/entry.S).
void fault_breakpoint(void)
{
    __asm__ volatile("int3" ::: "memory");
}
