// SPDX-License-Identifier: MIT
// pid probes (docs/pid.md): pid<PID>:<program>:<function>:entry and :return on a program's
// own function (a return probe's site is each return instruction the host found).
// While a D program enables one, the function's first instruction holds the architecture's
// pid trap; a thread that reaches it takes the trap as its fault, which fires the probe when
// the thread is the probe's process and then runs the displaced instruction in the kernel, by
// emulating it on the thread's registers and stack, and resumes the thread after it. Only
// instructions the architecture's decoder knows can be displaced (arch_pid_decode); a
// function that starts with any other is refused, nothing written.
//
// The function's address and the process come from the D object, which the host built from
// the program's ELF file (its symbol table), so the kernel trusts none of it: the process
// must exist, run the program the probe names, and be the caller's to trace (the caller
// privileged, or running the same program); the address must lie in that program's text, on
// an instruction boundary the architecture needs (ARCH_PID_ALIGN), hold an instruction the
// decoder accepts, and not lie inside another placed site's instruction. Programs' text is shared by every process that runs the program: another process
// of it takes the trap too and runs on, its probe not fired.
#ifndef KERNEL_KPID_H
#define KERNEL_KPID_H

#include <kernel/kernel.h>

struct dvm_state;
struct thread;
struct proc;

// Functions placed at once, at most (static: KPID_MAX_SITES x 20 bytes).
#define KPID_MAX_SITES 32u

// Places the pid probes program st enables (under the exclusive lock, at KDT_GO); consumer is
// the process that loaded st. 0, or -errno with *why saying it in DTrace's words. Nothing is
// left placed on an error.
int kpid_enable(struct dvm_state *st, const struct proc *consumer, const char **why);
// Removes every pid probe (nothing if none is placed).
void kpid_disable(void);
// Process p is ending: the probes on it come off (its sites freed, the text given back its
// instructions where no other process's probe is placed), so nothing of them is left for the
// next process of its program.
void kpid_proc_gone(const struct proc *p);
// From the thread-fault path: true when thread t's fault was a placed pid site's trap (its
// probe fired if t is the probe's process, the displaced instruction run, the thread resumed
// after it), false for any other fault.
bool kpid_fault(struct thread *t);
struct kpid_stats {
    uint32_t placed, fired, passed;     // passed: trapped in a process the probe does not name
    uint32_t stale;     // trapped on a site removed while the thread waited for the kernel
};
extern struct kpid_stats kpid_stats;

// ---- the architecture's part (kernel/arch/<arch>/pid.c) ----------------------------------
// <arch_usdt.h>: ARCH_PID_LEN, the trap's bytes (written over the first of a site's
// instruction; as a little-endian load of them reads), ARCH_PID_ALIGN, the alignment of an
// instruction, ARCH_PID_FUNC_BIT, or'ed into a function's address in a FUNC event as the
// program's symbol table gives it (Thumb's bit 0), and ARCH_PID_TRAP_SEEN (below).
// The pid trap, ARCH_PID_LEN bytes.
uint32_t arch_pid_trap(void);
// From the thread-fault path: true when thread t's fault may be a pid site's trap, *pc its
// address. Where ARCH_PID_TRAP_SEEN is 1 the fault says it was the pid trap itself (A64: the
// brk's comment), not only an instruction that traps (ARMv7-M: any undefined one; x86: int3,
// USDT's too).
bool arch_pid_trapped(struct thread *t, uint32_t *pc);
// Decodes the instruction at addr (in a program's text, readable by the kernel): true when
// it is one the kernel can run out of line (*insn its encoding, *len its bytes).
bool arch_pid_decode(uintptr_t addr, uint32_t *insn, unsigned *len);
// True when insn (len bytes) is a return arch_pid_decode accepts (a :return site's).
bool arch_pid_is_return(uint32_t insn, unsigned len);
// The address the return insn (len bytes) will go to, read from the trapped thread t (its lr
// or its stack), 0 when it cannot be read: the capture's FUNC_EXIT call site.
uint32_t arch_pid_return_address(const struct thread *t, uint32_t insn, unsigned len);
// The address the function thread t just entered returns to (its caller's), 0 when it cannot
// be read: the capture's FUNC_ENTER call site.
uint32_t arch_pid_caller(const struct thread *t);
// The entry arguments of the function thread t just entered, as the architecture's calling
// convention passes integers and pointers, into args[0 .. DVM_NARGS) (zeroed by the caller;
// a word the thread may not read stays 0).
void arch_pid_entry_args(const struct thread *t, uint64_t *args);
// Runs the displaced instruction insn (len bytes, at pc) for the trapped thread t, and
// resumes t after it; false when it cannot (a store outside t's memory): t's fault stands.
bool arch_pid_emulate(struct thread *t, uint32_t pc, uint32_t insn, unsigned len);

#endif
