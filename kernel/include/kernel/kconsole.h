// SPDX-License-Identifier: MIT
// The trusted console (kernel/kconsole.c): processes' console text leaves as whole lines
// "<pid>/<name>: text", control characters escaped; kernel lines carry no such prefix.
#ifndef KERNEL_KCONSOLE_H
#define KERNEL_KCONSOLE_H

#include <kernel/kernel.h>

struct proc;

// p's console text, one byte / len bytes at buf (already checked readable by p).
void kcon_putc(struct proc *p, char c);
void kcon_write(struct proc *p, uint32_t buf, uint32_t len);
// Writes p's partial line (before its other output, and when it ends).
void kcon_flush(struct proc *p);

#endif
