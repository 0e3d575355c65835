// SPDX-License-Identifier: MIT
// USDT probes (docs/usdt.md): a program's static probes, each site a one-instruction no-op
// (Debian's sys/sdt.h, through user/include/usdt.h). While a D program enables a site's probe
// the kernel writes the architecture's trap over that no-op; the trap comes to the kernel as
// the thread's fault, which fires the probe with the arguments the site's places say and
// resumes after the site (the no-op needs no executing). Without a probe enabled nothing is
// written and a site costs its no-op.
//
// A site comes from the D object (its address and its arguments' places, which the host read
// from the program's ELF file), so the kernel trusts none of it: the consumer must be allowed
// to trace the program the probe names (privileged, or running that program: the pid rule),
// the program's own notes, as its image holds them, must name the probe at that address,
// which must hold the no-op the header wrote, and the semaphore must be the one that note
// names, before anything is written. Removing a site writes back the unit it held.
#ifndef KERNEL_KUSDT_H
#define KERNEL_KUSDT_H

#include <kernel/kernel.h>

struct dvm_state;
struct thread;
struct proc;

// Sites placed at once, at most (the memory for them is static: KUSDT_MAX_SITES x 68 bytes;
// 72 on AArch64).
#define KUSDT_MAX_SITES 64u

// Places the USDT probes program st enables (under the exclusive lock, at KDT_GO); 0, or
// -errno with *why saying it in DTrace's words. Nothing is left placed on an error.
// consumer: the process that loaded st (its program decides what it may trace).
int kusdt_enable(struct dvm_state *st, const struct proc *consumer, const char **why);
// Removes every USDT probe (nothing if none is placed).
void kusdt_disable(void);
// A process of a program was just loaded (its memory fresh from the image): the semaphores
// of its placed sites are raised in it (docs/usdt.md, "Is-enabled").
void kusdt_proc_start(const struct proc *p);
// From the thread-fault path: true when thread t's fault was a placed site's trap (its probe
// fired, the thread resumes after the site), false for any other fault.
bool kusdt_fault(struct thread *t);
// Sites placed now, and traps taken on a site no longer placed (resumed all the same); only
// where sites are placed (kusdt.c: not in kusdt_none.c, whose boards' kernel RAM is full).
struct kusdt_stats {
    uint32_t placed, fired, stale;
};
extern struct kusdt_stats kusdt_stats;

#endif
