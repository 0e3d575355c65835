// SPDX-License-Identifier: MIT
// The two faults of kt_fault that need the instruction set: running code placed in RAM, and
// making a kernel call with the stack pointer aimed at kernel memory.
#include <stdint.h>
#include <board_user.h>

void fault_exec_ram(void);
void fault_bad_stack_call(void);

void fault_exec_ram(void)
{
    static uint16_t code_in_ram[2] = { 0x4770, 0x4770 };     // bx lr
    ((void (*)(void))((uintptr_t)code_in_ram | 1))();
}

void fault_bad_stack_call(void)
{
    __asm__ volatile("mov r0, sp\n\tmov sp, %0\n\tsvc 0\n\tmov sp, r0"
                     :: "r"(BOARD_KERNEL_RAM_ADDR + 0x100u) : "r0", "memory");
}
