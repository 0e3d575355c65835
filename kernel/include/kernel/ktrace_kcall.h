// SPDX-License-Identifier: MIT
// The traced kernel call's entry event, inline in kernel_entry_traced (main.c) so that the
// common case (fast mode, no D program) costs no call or frame of its own: the call's number
// and first two arguments read once from the saved frame (arch_kcall.h), one slot written.
// D programs and wide mode go to ktrace_kcall_entry_full (ktrace.c). The exit event is
// ktrace_exit_end's (ktrace.c), matched through t->kc_trace.
#ifndef KERNEL_KTRACE_KCALL_H
#define KERNEL_KTRACE_KCALL_H

#include <kernel/thread.h>
#include <kernel/ktrace.h>
#include <kernel/kdtrace.h>
#include <arch_kcall.h>

// Every argument, wide mode, the D provider's kercall:::entry; sets t->kc_trace.
void ktrace_kcall_entry_full(struct thread *t, bool ring);

static inline void ktrace_kcall_entry(struct thread *t)
{
    bool ring = trace_on(&ktrace, KEV_C_KER_CALL);
    if (__builtin_expect(kdt_active, 0)) {
        ktrace_kcall_entry_full(t, ring);
        return;
    }
    if (!ring)
        return;
    uint32_t n = arch_kc_number(&t->ctx);
    unsigned ev = KEV_KC_ENTRY(n < KEV_KC_MAX ? n : KEV_KC_MAX - 1); // unknown ones share it
    if (trace_is_wide(&ktrace, KEV_C_KER_CALL, ev)) {
        ktrace_kcall_entry_full(t, ring);
        return;
    }
    trace_emit_simple(&ktrace, KEV_C_KER_CALL, ev, arch_kc_arg(&t->ctx, 0),
                      arch_kc_arg(&t->ctx, 1));
    t->kc_trace = (uint16_t)(ev + 1);
}

#endif
