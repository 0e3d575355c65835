// SPDX-License-Identifier: MIT
// The model's fields of the event table, looked up once, before main (kx_fields.h).
#include <kevhost/kx_fields.h>

struct kx_fields kx_fields_table;

static const struct kev_field_desc *get(unsigned cls, unsigned ev, const char *name)
{
    return kev_field_desc_get(cls, ev, name);
}

// x: field name of each row of class cls numbered (slot << by), slot < KX_EV_SLOTS, and its
// word where it is a whole word.
static void by_event(struct kx_ev_field *x, unsigned cls, unsigned by, const char *name)
{
    for (unsigned i = 0; i < KX_EV_SLOTS; i++) {
        const struct kev_field_desc *fd = get(cls, i << by, name);
        x->fd[i] = fd;
        x->w[i] = fd && fd->layout == KEV_L_WORD && !fd->bits && fd->word < KX_NO_WORD
                      ? fd->word : KX_NO_WORD;
    }
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
    f->steal_who = get(KEV_C_SYSTEM, KEV_SYS_STEAL, "who");
    f->steal_from = get(KEV_C_SYSTEM, KEV_SYS_STEAL, "from");
    f->dprog_what = get(KEV_C_SYSTEM, KEV_SYS_DPROG, "what");
    f->dprog_timers = get(KEV_C_SYSTEM, KEV_SYS_DPROG, "timers");
    f->dprog_who = get(KEV_C_SYSTEM, KEV_SYS_DPROG, "who");
    f->dtimer_who = get(KEV_C_SYSTEM, KEV_SYS_DTIMER, "who");
    f->dtimer_at = get(KEV_C_SYSTEM, KEV_SYS_DTIMER, "at");
    f->timer_pid = get(KEV_C_SYSTEM, KEV_SYS_TIMER, "pid");
    f->timer_id = get(KEV_C_SYSTEM, KEV_SYS_TIMER, "timer_id");
    f->dropped_lost = get(KEV_C_CONTROL, KEV_CTL_DROPPED, "lost");
    for (unsigned k = 0; k < 2; k++) {
        f->func_fn[k] = get(KEV_C_SYSTEM, KEV_SYS_FUNC_ENTER + k, "this_fn");
        f->func_site[k] = get(KEV_C_SYSTEM, KEV_SYS_FUNC_ENTER + k, "call_site");
    }
    f->tname_tid = get(KEV_C_PR_TH, KEV_PR_THREAD_NAME, "tid");
    f->spulse_coid = get(KEV_C_COMM, KEV_COMM_SND_PULSE, "coid");
    f->spulse_chid = get(KEV_C_COMM, KEV_COMM_SND_PULSE, "chid");
    f->rpulse_chid = get(KEV_C_COMM, KEV_COMM_REC_PULSE, "chid");
    by_event(&f->th_pid, KEV_C_PR_TH, 0, "pid");
    by_event(&f->th_tid, KEV_C_PR_TH, 0, "tid");
    by_event(&f->pr_ppid, KEV_C_PR_TH, 6, "ppid");
    by_event(&f->pr_pid, KEV_C_PR_TH, 6, "pid");
    by_event(&f->int_irq, KEV_C_INT, 0, "irq");
    by_event(&f->comm_rcvid, KEV_C_COMM, 0, "rcvid");
    by_event(&f->comm_pid, KEV_C_COMM, 0, "pid");
}
