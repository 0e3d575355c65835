// SPDX-License-Identifier: MIT
// The two faults of kt_fault that need the instruction set, x86:
// - running code placed in RAM: RAM lies beyond the ring-3 code segment's limit (#GP);
// - a kernel call with the stack pointer aimed at kernel memory: `int $0x80` itself never uses
//   the user stack (the CPU switches to the kernel's), so the call works and the first use of
//   the stack after it faults (#PF on a supervisor page).
#include <stdint.h>
#include <board_user.h>
#include <uapi/kcall.h>

void fault_exec_ram(void);
void fault_bad_stack_call(void);

void fault_exec_ram(void)
{
    static uint8_t code_in_ram[4] = { 0xc3, 0xc3, 0xc3, 0xc3 };    // ret
    ((void (*)(void))(uintptr_t)code_in_ram)();
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
