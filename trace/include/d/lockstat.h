// SPDX-License-Identifier: MIT
// The lockstat provider's rule, shared by the kernel (kernel/ktrace_sync.c) and dtrace -i
// (tools/dtrace/kevreplay.c) so that both fire the same probes: which SYNC_* kernel call, on
// its successful return, fires which probe, and which one before it when the call blocked
// (docs/d-probes.md). Calls by their numbers (uapi/kcall.h, QNX's __KER_SYNC_*; the kernel
// checks them), since the host tools do not include the kernel's headers.
#ifndef D_LOCKSTAT_H
#define D_LOCKSTAT_H

#include <d/dprobes.h>

struct dprobe_lockcall {
    uint16_t call;      // kernel-call number
    uint16_t blocked;   // fired first when the call blocked (arg1 ns, arg2 owner), or 0
    uint16_t done;      // fired at every successful return (arg0 the object), or 0
};

#define DPROBE_LOCKCALL_MUTEX_LOCK 80u
#define DPROBE_LOCKCALL_MUTEX_UNLOCK 81u
#define DPROBE_LOCKCALL_COND_WAIT 82u
#define DPROBE_LOCKCALL_SEM_POST 84u
#define DPROBE_LOCKCALL_SEM_WAIT 85u

static const struct dprobe_lockcall dprobe_lockcalls[] = {
    { DPROBE_LOCKCALL_MUTEX_LOCK, DPROBE_LOCK_ADAPTIVE_BLOCK, DPROBE_LOCK_ADAPTIVE_ACQUIRE },
    { DPROBE_LOCKCALL_MUTEX_UNLOCK, 0, DPROBE_LOCK_ADAPTIVE_RELEASE },
    { DPROBE_LOCKCALL_COND_WAIT, DPROBE_LOCK_CV_BLOCK, 0 },
    { DPROBE_LOCKCALL_SEM_WAIT, DPROBE_LOCK_SEM_BLOCK, DPROBE_LOCK_SEM_ACQUIRE },
    { DPROBE_LOCKCALL_SEM_POST, 0, DPROBE_LOCK_SEM_RELEASE },
};

// dprobe_lockcall: the rule of kernel call n, or NULL when lockstat does not follow it.
static inline const struct dprobe_lockcall *dprobe_lockcall(unsigned n)
{
    for (unsigned i = 0; i < sizeof(dprobe_lockcalls) / sizeof(dprobe_lockcalls[0]); i++)
        if (dprobe_lockcalls[i].call == n)
            return &dprobe_lockcalls[i];
    return 0;
}

#endif
