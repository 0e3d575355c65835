// SPDX-License-Identifier: MIT
// The test-only row's emit site in the kernel (kernel/kdebug_row.h): the kevrowlive test image
// alone links this file and test_event_row.c (<image>_KOBJS), so that its kernel's table has
// the row (added before its first write) and a program's ThreadCtl(KTCTL_KDEBUG_ROW) writes
// TEST_ONLY for the calling thread through kev_emit_row: the ring's event and, while a D
// program runs, kevtest:::test-only with the row's D-column arguments, under the id the host's
// dcompile gave it, with no probe list naming it (test/qemu/test_kevrow_live.sh).
#include "test_event_row.h"
#include <kernel/kdebug_row.h>
#include <kernel/kev_emit.h>
#include <kernel/kview.h>
#include <uapi/kapi.h>
#include <uapi/kerrno.h>

static int kdebug_row(struct thread *t, uint32_t data)
{
    struct kdebug_row r;
    if (!proc_can_read(t->proc, data, sizeof(r)))
        return -EFAULT;
    kmemcpy(&r, (const void *)(uintptr_t)data, sizeof(r));
    if (r.level >= 1u << 12 || r.flagged > 1u)
        return -EINVAL;
    kev_events_add(kev_test_rows, 1);   // (the same row each time: kept by pointer)
    const uint32_t who = ktrace_who(t), level = r.level, flagged = r.flagged;
    const uint64_t where = r.where;
    const uint32_t w[4] = { KEV_PACK(KEV_F_TEST_ONLY, 0), KEV_PACK(KEV_F_TEST_ONLY, 1),
                            KEV_PACK(KEV_F_TEST_ONLY, 2), KEV_PACK(KEV_F_TEST_ONLY, 3) };
    kev_emit_row(kdt_active, KEV_C_SYSTEM, KEV_SYS_TEST_ONLY, w, 4);
    return 0;
}

int (*kdebug_row_hook)(struct thread *t, uint32_t data) = kdebug_row;
