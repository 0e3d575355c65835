// SPDX-License-Identifier: MIT
// AArch64 definitions shared by the arch layer and the virt board: the context offsets
// entry.S uses, the entry sources, and the arch-internal entry points.
#ifndef A64_H
#define A64_H

// Offsets in struct arch_context (arch_context.h).
#define A64_CTX_SP     248
#define A64_CTX_PC     256
#define A64_CTX_TPIDR  272      // tpidr, then tpidrro
#define A64_CTX_ESR    288      // esr, then far
#define A64_CTX_FPCR   304
#define A64_CTX_Q      320
#define A64_CTX_SIZE   832

// What brought the CPU into the kernel (entry.S -> a64_kernel_entry).
#define A64_ENTRY_SYNC 0        // svc or a fault, from EL0 or a kernel thread (EL1t)
#define A64_ENTRY_IRQ  1

#define A64_KSTACK     16384    // kernel stack per CPU (entry.S)
#define A64_CPU_ID     8        // offsetof(struct cpu, id) (entry.S; checked in smp.c)
#define A64_CPU_USER_ROOT 16    // offsetof(struct cpu, user_root) (entry.S; checked in smp.c)
#define A64_CPU_ENTRY_ROOT 24   // offsetof(struct cpu, entry_root) (likewise)

// The CPU whose generic-timer CNTP is the programs' device timer (context.c): the boot CPU,
// where the interrupt controller routes the devices' lines too.
#define A64_DEVTIMER_CPU 0u

#define SPSR_EL0T      0x0u
#define SPSR_EL1T      0x4u

#ifndef __ASSEMBLER__
#include <stdint.h>

#define A64_SYSREG_READ(name) ({ uint64_t v_; __asm__ volatile("mrs %0, " #name : "=r"(v_)); v_; })
#define A64_SYSREG_WRITE(name, v) __asm__ volatile("msr " #name ", %0" :: "r"((uint64_t)(v)) : "memory")

static inline void a64_isb(void) { __asm__ volatile("isb" ::: "memory"); }

// cpu.c
_Noreturn void a64_boot(uint64_t boot_el);
extern uint64_t a64_boot_el;     // CurrentEL at reset (smp.c)
void a64_kernel_entry(unsigned source);
void a64_kernel_entry_traced(unsigned source);
// entry.S
extern uint8_t a64_vectors[];
extern uint8_t a64_kstack_top[];
extern uint8_t a64_kstacks[];
extern uint32_t a64_entry_call[];  // the `bl` entry_select.c rewrites
_Noreturn void a64_start_boot_thread(uint64_t stack_top);
_Noreturn void a64_enter_current(uint64_t stack_top);
// smp.c
void a64_kernel_lock(void);
void a64_kernel_unlock(void);
// after a change of kernel text, under the exclusive lock (fbt_patch.c)
void a64_fbt_resync_others(void);
// irq_timer.c
void a64_irq_init(void);
void a64_tick_start_cpu(void);
unsigned a64_irq_kind(int line);
struct ktick_span;
bool a64_tick_shared(struct ktick_span *took);
unsigned a64_cputick_take(void);
bool a64_more_work(unsigned *kind);
struct thread;
// Whether thread t's synchronous exception was `brk #imm` (ESR_EL1: class 0x3C, the comment),
// *pc its address: the user-text traps of USDT (#0xfc) and pid (#0xfd), usdt.c.
bool a64_brk_trapped(const struct thread *t, unsigned imm, uint32_t *pc);
// fault.c
_Noreturn void a64_kernel_fault(uint64_t esr, uint64_t elr, uint64_t far, uint64_t spsr);
// mmu.c
void a64_mmu_init(void);
void a64_mmu_start_secondary(void);
extern uint64_t a64_kernel_ttbr;
#endif

#endif
