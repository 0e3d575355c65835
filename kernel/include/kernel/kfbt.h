// SPDX-License-Identifier: MIT
// The fbt provider (docs/fbt.md): probes on the entry and the returns of kernel functions,
// placed by replacing an instruction with a trap while a D program enables them, and nothing
// at all otherwise. The image's fbt table (d/dfbt.h, linked after all code by the image's
// second link) says which instructions may be replaced, with what, and holds each site's
// out-of-line code (its slot): the displaced instruction, or an equivalent, and a branch back.
//
// Two halves: kfbt.c places and removes probes (the D provider's KDT_GO, KDT_STOP and
// unload, on the exclusive side: no other CPU runs kernel code meanwhile); kfbt_fire.c is the
// trap's: it finds the site, fires its probes and resumes in the slot. The patching layer
// (arch_fbt_* below, kfbt_live) is written for any text whose sites a table describes, so that
// a process's text can have its own site list (the pid provider) on the same mechanism.
#ifndef KERNEL_KFBT_H
#define KERNEL_KFBT_H

#include <kernel/kernel.h>
#include <kernel/cpu.h>
#include <d/dfbt.h>

struct dvm_state;
struct proc;
struct fbt_regs;       // the trapped context (the architecture's arch_fbt.h)

// The enabled sites, looked up by address in the trap (an open-addressing hash, allocated
// from the contiguous pool at enabling: 2 entries a site, a power of two; KFBT_MAX_SITES at
// most, so at most 64 KB).
#define KFBT_MAX_SITES 4096u
struct kfbt_live {
    uint16_t site;          // site index + 1 (0: an empty slot of the hash)
    uint16_t entry_pidx;    // the D program's probe index + 1 of its entry probe, or 0
    uint16_t return_pidx;   // the same for its return probe
    uint16_t pad;
};
struct kfbt_sites {
    const struct dfbt *table;
    struct kfbt_live *live;
    uint32_t mask;          // entries - 1 (0: none)
    uint32_t nlive;
};
extern struct kfbt_sites kfbt_kernel;   // the kernel's own text

// The hash's slot for a site address (mask: entries - 1).
static inline uint32_t kfbt_hash(uint32_t addr, uint32_t mask)
{
    return (addr >> 1) * 2654435761u >> 8 & mask;
}

// The image's table, checked once (NULL: this image has none, or a damaged one).
const struct dfbt *kfbt_table(void);
// Places the fbt probes program st enables (its probes with DPROBE_FBT ids): under the
// exclusive lock, before the program's probes go on. The number of sites placed (0: none);
// or -errno with *why saying it in DTrace's words ("fbt: ...").
int kfbt_enable(struct dvm_state *st, const char **why);
// Removes every fbt probe (under the exclusive lock; nothing if none is placed).
void kfbt_disable(void);
// KDT_FBT_TABLE: copies the table's description (header, functions, names) to the caller's
// buf when len holds it; returns its size either way (ask with len 0, then with room), or
// -errno (ENOENT: this kernel has no table; EFAULT).
int kfbt_copy_table(struct proc *p, uint32_t buf, uint32_t len);
// Figures for the consumer and the tests: sites placed now, traps taken on a site no longer
// enabled (a CPU that had fetched the trap before its removal), nested traps skipped.
struct kfbt_stats {
    uint32_t placed, stale, nested;
};
extern struct kfbt_stats kfbt_stats;

// The trap (kfbt_fire.c), from the architecture's kernel fault path: true when pc is an fbt
// site (its probes fired, the context set to resume in its slot), false for any other fault.
bool kfbt_trap(struct fbt_regs *r, uintptr_t pc);
// stack( ) while this CPU fires an fbt probe (kernel/kstack.c's hook, installed by
// kfbt_enable): the probed function's caller first, at most max pcs; -1 when none fires here.
int kfbt_stack(uint64_t *pcs, unsigned max);

#endif
