// SPDX-License-Identifier: MIT
// The two faults of kt_fault that need the instruction set, AArch64:
// - running code placed in RAM (a static buffer or the stack): program RAM is execute-never
//   at EL0 (UXN), an instruction abort;
// - a kernel call with the stack pointer aimed at kernel memory: `svc` never uses the user
//   stack (the exception is taken on SP_EL1), so the call works and the first store to the
//   stack after it faults (a data abort: kernel pages are not EL0's).
#include <stdint.h>
#include <board_user.h>
#include <uapi/kcall.h>

void fault_exec_at(void *ram);
void fault_bad_stack_call(void);
void fault_breakpoint(void);

// Writes `ret` twice at ram (8 bytes, word-aligned) and calls it. No cache maintenance: the
// fetch must fault on the page's permission before anything is executed.
void fault_exec_at(void *ram)
{
    volatile uint32_t *code = ram;
    code[0] = 0xd65f03c0u;
    code[1] = 0xd65f03c0u;
    ((void (*)(void))(uintptr_t)ram)();
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

// A breakpoint instruction, which no debugger here takes: the process is killed (on ARMv7-M
// in QEMU it comes as a HardFault, which the kernel hands down to the faults' level first:
// kernel/arch/armv7m/entry.S).
void fault_breakpoint(void)
{
    __asm__ volatile("brk #1" ::: "memory");
}
