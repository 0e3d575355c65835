// SPDX-License-Identifier: MIT
// The model's fields of the event table, looked up once (kx_fields.h).
#include <kevhost/kx_fields.h>

const struct kx_fields *kx_fields(void)
{
    static struct kx_fields f;
    static int done;
    if (!done) {
        f.prio_who = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "who");
        f.prio_new = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "new_prio");
        f.prio_old = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "old_prio");
        f.prio_cause = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "cause");
        f.snap_what = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, "what");
        f.snap_cpu = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, "cpu");
        f.snap_who = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, "who");
        f.sync_object = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, "object");
        f.sync_owner = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, "owner");
        f.rmsg_who = kev_field_desc_get(KEV_C_COMM, KEV_COMM_REC_MESSAGE, "who");
        f.rpulse_who = kev_field_desc_get(KEV_C_COMM, KEV_COMM_REC_PULSE, "who");
        f.th_prio = kev_field_desc_get(KEV_C_PR_TH, KEV_TH_RUNNING, "prio");
        f.fexit_offset = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, "offset");
        f.fexit_value = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, "value");
        f.oncpu_who = kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_ONCPU, "who");
        done = 1;
    }
    return &f;
}
