// SPDX-License-Identifier: MIT
// The two faults of kt_fault that need the instruction set, AArch64:
// - running code placed in RAM: program RAM is execute-never at EL0 (UXN), an instruction
//   abort;
// - a kernel call with the stack pointer aimed at kernel memory: `svc` never uses the user
//   stack (the exception is taken on SP_EL1), so the call works and the first store to the
//   stack after it faults (a data abort: kernel pages are not EL0's).
#include <stdint.h>
#include <board_user.h>
#include <uapi/kcall.h>

void fault_exec_ram(void);
void fault_bad_stack_call(void);

void fault_exec_ram(void)
{
    static uint32_t code_in_ram[2] = { 0xd65f03c0u, 0xd65f03c0u };     // ret
    ((void (*)(void))(uintptr_t)code_in_ram)();
}

void fault_bad_stack_call(void)
{
    __asm__ volatile("mov x9, sp\n\t"
                     "mov sp, %0\n\t"
                     "mov x8, %1\n\t"
                     "svc #0\n\t"
                     "str x0, [sp, #-16]!\n\t"
                     "mov sp, x9"
                     :: "r"((uint64_t)BOARD_KERNEL_RAM_ADDR + 0x100u), "r"((uint64_t)KC_ProcSelf)
                     : "x0", "x8", "x9", "memory");
}
