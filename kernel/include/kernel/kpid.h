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
#include <d/dprobes.h>

struct dvm_state;
struct thread;
struct proc;

// Sites placed at once, at most (static: KPID_MAX_SITES x 24 bytes, docs/pid.md "The site
// table"); the host compiles no more pid probes into one program.
#define KPID_MAX_SITES DPROBE_PID_SITES_MAX

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

#endif
