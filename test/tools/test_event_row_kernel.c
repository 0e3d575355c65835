// SPDX-License-Identifier: MIT
// The test-only row's emit site in the kernel (kernel/kdebug_row.h): the kevrowlive test image
// alone links this file (<image>_KOBJS), so that a program's ThreadCtl(KTCTL_KDEBUG_ROW) writes
// TEST_ONLY for the calling thread through the helper the build generated from the row
// (tools/emitgen -a: kev_emit_test_only): the ring's event and, while a D program runs,
// kevtest:::test-only with the row's D-column arguments, under the id of its name, which the
// host's dcompile gives it too, with no probe list naming it and no table in the kernel
// (test/qemu/test_kevrow_live.sh).
#include <kernel/kdebug_row.h>
#include <kernel/kev_emit.h>
#include <kernel/kview.h>
#include <uapi/kapi.h>
#include <uapi/kerrno.h>
#include <kev_emit_gen_added.h>

static int kdebug_row(struct thread *t, uint32_t data)
{
    struct kdebug_row r;
    if (!proc_can_read(t->proc, data, sizeof(r)))
        return -EFAULT;
    kmemcpy(&r, (const void *)(uintptr_t)data, sizeof(r));
    if (r.level >= 1u << 12 || r.flagged > 1u)
        return -EINVAL;
    kev_emit_test_only(kdt_active, ktrace_who(t), r.level, r.flagged, r.where, "kevrow");
    return 0;
}

int (*kdebug_row_hook)(struct thread *t, uint32_t data) = kdebug_row;
