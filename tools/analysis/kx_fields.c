// SPDX-License-Identifier: MIT
// The model's fields of the event table, looked up once, before main (kx_fields.h).
#include <kevhost/kx_fields.h>

struct kx_fields kx_fields_table;

static const struct kev_field_desc *get(unsigned cls, unsigned ev, const char *name)
{
    return kev_field_desc_get(cls, ev, name);
}

// fd's word when fd is a whole word (KX_NO_WORD: it is not, or there is no fd).
static uint8_t whole(const struct kev_field_desc *fd)
{
    return fd && fd->layout == KEV_L_WORD && !fd->bits && fd->word < KX_NO_WORD ? fd->word
                                                                               : KX_NO_WORD;
}

__attribute__((constructor)) static void kx_fields_init(void)
{
    struct kx_fields *f = &kx_fields_table;
    f->prio_who = get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "who");
    f->prio_new = get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "new_prio");
    f->prio_old = get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "old_prio");
    f->prio_cause = get(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE, "cause");
    f->snap_what = get(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, "what");
    f->snap_cpu = get(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, "cpu");
    f->snap_who = get(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, "who");
    f->sync_object = get(KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, "object");
    f->sync_owner = get(KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, "owner");
    f->rmsg_who = get(KEV_C_COMM, KEV_COMM_REC_MESSAGE, "who");
    f->rpulse_who = get(KEV_C_COMM, KEV_COMM_REC_PULSE, "who");
    f->th_prio = get(KEV_C_PR_TH, KEV_TH_RUNNING, "prio");
    f->fexit_offset = get(KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, "offset");
    f->fexit_value = get(KEV_C_SYSTEM, KEV_SYS_FUNC_EXIT, "value");
    f->oncpu_who = get(KEV_C_SYSTEM, KEV_SYS_ONCPU, "who");
    f->dropped_lost = get(KEV_C_CONTROL, KEV_CTL_DROPPED, "lost");
    for (unsigned k = 0; k < 2; k++) {
        f->func_fn[k] = get(KEV_C_SYSTEM, KEV_SYS_FUNC_ENTER + k, "this_fn");
        f->func_site[k] = get(KEV_C_SYSTEM, KEV_SYS_FUNC_ENTER + k, "call_site");
    }
    for (unsigned ev = 0; ev < KX_TH_EVENTS; ev++) {
        f->th_pid[ev] = get(KEV_C_PR_TH, ev, "pid");
        f->th_tid[ev] = get(KEV_C_PR_TH, ev, "tid");
    }
    for (unsigned k = 1; k <= KEV_PR_THREAD_NAME / 64u; k++) {
        f->pr_ppid[k] = get(KEV_C_PR_TH, 64u * k, "ppid");
        f->pr_pid[k] = get(KEV_C_PR_TH, 64u * k, "pid");
    }
    f->tname_pid = get(KEV_C_PR_TH, KEV_PR_THREAD_NAME, "pid");
    f->tname_tid = get(KEV_C_PR_TH, KEV_PR_THREAD_NAME, "tid");
    for (unsigned ev = 0; ev <= KEV_INT_HANDLER_EXIT; ev++) {
        f->int_irq[ev] = get(KEV_C_INT, ev, "irq");
        f->int_pid[ev] = get(KEV_C_INT, ev, "pid");
    }
    for (unsigned ev = 0; ev < KEV_COMM_NEVENTS; ev++) {
        f->comm_rcvid[ev] = get(KEV_C_COMM, ev, "rcvid");
        f->comm_pid[ev] = get(KEV_C_COMM, ev, "pid");
    }
    f->spulse_coid = get(KEV_C_COMM, KEV_COMM_SND_PULSE, "coid");
    f->spulse_chid = get(KEV_C_COMM, KEV_COMM_SND_PULSE, "chid");
    f->spulse_code = get(KEV_C_COMM, KEV_COMM_SND_PULSE, "code");
    f->rpulse_chid = get(KEV_C_COMM, KEV_COMM_REC_PULSE, "chid");
    f->rpulse_code = get(KEV_C_COMM, KEV_COMM_REC_PULSE, "code");
    f->reply_status = get(KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, "status");
    for (unsigned i = 0; i < KX_TH_SLOTS; i++)
        f->th_pid_w[i] = whole(f->th_pid[i]), f->th_tid_w[i] = whole(f->th_tid[i]);
    for (unsigned i = 0; i < KX_PR_SLOTS; i++)
        f->pr_pid_w[i] = whole(f->pr_pid[i]);
    for (unsigned i = 0; i < KX_INT_SLOTS; i++)
        f->int_irq_w[i] = whole(f->int_irq[i]);
    for (unsigned i = 0; i < KX_COMM_SLOTS; i++)
        f->comm_rcvid_w[i] = whole(f->comm_rcvid[i]), f->comm_pid_w[i] = whole(f->comm_pid[i]);
}
