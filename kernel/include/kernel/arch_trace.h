// SPDX-License-Identifier: MIT
// What the tracing layer asks of an architecture (kernel/arch/<arch>/ implements it, as it
// implements kernel/arch.h): the fbt provider's text patching and trapped context, the USDT
// and pid providers' traps, and the unwinders behind stack( ) and the STACK event. The
// architecture's own constants for them are in its <arch_fbt.h> and <arch_usdt.h>.
#ifndef KERNEL_ARCH_TRACE_H
#define KERNEL_ARCH_TRACE_H

#include <stdbool.h>
#include <stdint.h>

struct thread;
struct fbt_regs;        // the trapped context (the architecture's arch_fbt.h)
struct dfbt_site;       // a site of the image's fbt table (d/dfbt.h)

// ---- a thread's user registers (kernel/arch/<arch>/unwind.c) --------------------------------
// Thread t's registers as its process left them at its last kernel entry, in the order an ELF
// core file's NT_PRSTATUS gives them (ARM: r0-r15, then xPSR; AArch64: x0-x30, sp, pc,
// pstate), into regs (at most 34), and its stack pointer in *sp: how many, 0 when the arch
// keeps none or the saved frame is not in the process's memory (an incident record,
// kernel/kincident.c).
unsigned arch_thread_uregs(const struct thread *t, uint64_t *regs, uint64_t *sp);

// ---- fbt (kernel/arch/<arch>/fbt_patch.c, fbt_trap.c; kernel/kfbt.h) -----------------------
// The trap's bytes (the site's ds_len of them) and whether a site holds it now.
unsigned arch_fbt_trap_insn(uint8_t out[4]);
// Writing text: begin (text made writable), each write, end (the writes made visible to
// instruction fetch on every CPU before any runs them: docs/fbt.md "Placing on several
// CPUs"). Called on the exclusive side with interrupts off.
void arch_fbt_patch_begin(void);
void arch_fbt_write(uintptr_t addr, const void *bytes, unsigned len);
void arch_fbt_patch_end(void);
// The trapped context: a register by its DWARF number; the canonical frame address at a
// function's first instruction (where its stack arguments start); the stack pointer; the
// return value (8 bytes: two registers on 32-bit architectures); resuming at pc.
uint64_t arch_fbt_reg(const struct fbt_regs *r, unsigned dwarf_reg);
uintptr_t arch_fbt_sp(const struct fbt_regs *r);
uintptr_t arch_fbt_entry_cfa(const struct fbt_regs *r);
uint64_t arch_fbt_retval(const struct fbt_regs *r);
uint64_t arch_fbt_link(const struct fbt_regs *r);
void arch_fbt_resume(struct fbt_regs *r, uintptr_t pc);
// The kernel stack from the probed function's caller on (kernel/arch/<arch>/unwind.c).
unsigned arch_fbt_unwind(const struct fbt_regs *r, const struct dfbt_site *s, uint64_t *pcs,
                         unsigned max);

// ---- USDT (kernel/arch/<arch>/usdt.c; kernel/kusdt.h) -------------------------------------
// <arch_usdt.h>: ARCH_USDT_NOP, the no-op the header writes, and ARCH_USDT_TRAP, the trap
// that replaces it, each ARCH_USDT_LEN bytes (1, 2 or 4; as a little-endian load of them reads).
// Writes a site's instruction (its len bytes) in a program's text, made visible to
// instruction fetch before it returns (on every CPU).
void arch_usdt_write(uintptr_t addr, uint32_t insn);
// The assembler syntax of the argument places in this architecture's notes (DUSDT_SYNTAX_*).
unsigned arch_usdt_syntax(void);
// The faulting thread's pc when its fault was an undefined instruction; false for any other
// fault (the fault's status untouched either way: the fault path reports it).
bool arch_usdt_trapped(struct thread *t, uint32_t *pc);
// A user register of the faulting thread (DWARF number), and resuming it at pc (the fault's
// status cleared: it was dealt with).
uintptr_t arch_usdt_reg(const struct thread *t, unsigned n);
void arch_usdt_resume(struct thread *t, uint32_t pc);

// ---- pid (kernel/arch/<arch>/pid.c; kernel/kpid.h) ----------------------------------------
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

// ---- the unwinders (kernel/arch/<arch>/unwind.c) -------------------------------------------
// The architecture's unwinders. arch_unwind_user: the user stack of thread t as it entered
// the kernel (its saved context), read with the kernel's checked user-access path
// (proc_can_read). arch_unwind_kernel: the kernel's own stack at the caller of this
// function. Each returns the number of pcs written (0 when t has no user context).
unsigned arch_unwind_user(const struct thread *t, uint64_t *pcs, unsigned max);
unsigned arch_unwind_kernel(uint64_t *pcs, unsigned max);

#endif
