// SPDX-License-Identifier: MIT
// Semihosting on behalf of user processes. User programs (through picolibc's semihost layer)
// make a Semihost kernel call instead of a breakpoint; the kernel checks the operation and
// every pointer in its parameter block against the caller's memory, checks that a file
// handle is one the caller opened, and only then asks the host. Exit operations end the
// process, not the machine. Without a host (a board running free), console writes go to the
// board console and file operations fail.
#ifndef KERNEL_SHOST_H
#define KERNEL_SHOST_H

#include <kernel/kernel.h>

struct proc;

// Returns the value for the caller's r0 (semihosting's own convention: -1 on failure).
int32_t shost_call(struct proc *p, uint32_t op, uint32_t param);
// The operations that only write console text (SYS_WRITEC, SYS_WRITE0): they touch the
// caller's memory and the console alone, so several CPUs run them on the shared side
// (kernel/kentry_shared.h) under the console's own lock (kernel/kconsole.c).
#define SHOST_OP_WRITEC 0x03u
#define SHOST_OP_WRITE0 0x04u
static inline bool shost_console_op(uint32_t op)
{
    return op == SHOST_OP_WRITEC || op == SHOST_OP_WRITE0;
}
void shost_proc_gone(struct proc *p);
// Writes the console characters p gathered (SYS_WRITEC) so far, before its other output.
void shost_flush_console(struct proc *p);

#endif
