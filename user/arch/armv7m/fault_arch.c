// SPDX-License-Identifier: MIT
// The faults of kt_fault that need the instruction set: running code placed in RAM (a static
// buffer or the stack: RAM is execute-never under the MPU), and making a kernel call with the
// stack pointer aimed at kernel memory.
#include <stdint.h>
#include <board_user.h>

void fault_exec_at(void *ram);
void fault_bad_stack_call(void);
void fault_breakpoint(void);

// Writes `bx lr` twice at ram (4 bytes, halfword-aligned) and calls it in Thumb state.
void fault_exec_at(void *ram)
{
    volatile uint16_t *code = ram;
    code[0] = 0x4770;
    code[1] = 0x4770;
    ((void (*)(void))((uintptr_t)ram | 1))();
}

void fault_bad_stack_call(void)
{
    __asm__ volatile("mov r0, sp\n\tmov sp, %0\n\tsvc 0\n\tmov sp, r0"
                     :: "r"(BOARD_KERNEL_RAM_ADDR + 0x100u) : "r0", "memory");
}

// A breakpoint instruction, which no debugger here takes: the process is killed (on ARMv7-M
// in QEMU it comes as a HardFault, which the kernel hands down to the faults' level first:
// kernel/arch/armv7m/entry.S).
void fault_breakpoint(void)
{
    __asm__ volatile("bkpt #1" ::: "memory");
}
