// SPDX-License-Identifier: MIT
// The event table's fields the analysis model and the converters read, each looked up once by
// its name in its event's row (kev_field_desc_get) and read by the field API (kev_field,
// trace/kev_events.h): they read an event's values where the table says they are, never by
// unpacking its words by hand. A field several rows have (a
// thread event's pid) is looked up in each row, by event number. Looked up once, when the
// program (or kevsql.so) starts, before main, and kept: the table does not change once a
// program runs, and the readers' hot paths read an event's thread, interrupt and message id
// here with no check.
#ifndef TOOLS_KX_FIELDS_H
#define TOOLS_KX_FIELDS_H

#include <stdint.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>

#define KX_TH_EVENTS  (KEV_TH_DESTROY + 1u)        // a thread event's numbers (states, CREATE, DESTROY)
#define KX_NO_WORD    0xffu

// A field several rows of a class have, looked up in each row: by the event number's low five
// bits (a thread event, an INT or COMM event) or by number / 64 (a process event). A number
// past the rows' finds no field, or a row of its own kind (callers check the event's kind).
#define KX_EV_SLOTS   32u
struct kx_ev_field {
    const struct kev_field_desc *fd[KX_EV_SLOTS];
    uint8_t w[KX_EV_SLOTS];     // its word where it is a whole word (read in a load), else KX_NO_WORD
};

struct kx_fields {
    const struct kev_field_desc *prio_who, *prio_new, *prio_old, *prio_cause; // PRIO_CHANGE
    const struct kev_field_desc *snap_what, *snap_cpu, *snap_who;             // SNAPSHOT
    const struct kev_field_desc *sync_object, *sync_owner;                    // SYNC_WAIT
    const struct kev_field_desc *rmsg_who, *rpulse_who;                       // REC_*
    const struct kev_field_desc *th_prio;     // a thread state's priority (wide; every state's row)
    const struct kev_field_desc *fexit_offset, *fexit_value;                  // FUNC_EXIT
    const struct kev_field_desc *oncpu_who;                                   // ONCPU
    const struct kev_field_desc *steal_who, *steal_from;                      // STEAL
    const struct kev_field_desc *dropped_lost;                                // DROPPED
    const struct kev_field_desc *func_fn[2], *func_site[2]; // FUNC_ENTER [0], FUNC_EXIT [1]
    const struct kev_field_desc *tname_tid;                                   // PROCTHREAD_NAME
    // a pulse's connection (SND_PULSE), its channel (and code, in the same word: SND_PULSE's
    // second, REC_PULSE's first)
    const struct kev_field_desc *spulse_coid, *spulse_chid, *rpulse_chid;
    // by event number: a thread event's process and thread, a process event's parent and
    // process (PROCTHREAD_NAME's process), an INT event's interrupt, a COMM event's message id
    // (rcvid) and channel owner (pid)
    struct kx_ev_field th_pid, th_tid, pr_ppid, pr_pid, int_irq, comm_rcvid, comm_pid;
    const struct kev_field_desc *dprog_what, *dprog_timers, *dprog_who;       // DPROG
    const struct kev_field_desc *dtimer_who, *dtimer_at;                      // DTIMER
    const struct kev_field_desc *timer_pid, *timer_id;                        // TIMER
};
extern struct kx_fields kx_fields_table;
static inline const struct kx_fields *kx_fields(void)
{
    return &kx_fields_table;
}

// Field fd of e, which is the whole word w when w is not KX_NO_WORD (the table said so, once).
static inline uint32_t kx_word_field(const struct kev_event *e, unsigned w,
                                     const struct kev_field_desc *fd)
{
    return w < e->nw ? e->w[w] : kev_field(e, fd);
}

// Field x of e, its row's (by = 0: by the event number; 6: by number / 64).
static inline uint32_t kx_ev_field(const struct kev_event *e, const struct kx_ev_field *x,
                                   unsigned by)
{
    unsigned i = (e->ev >> by) & (KX_EV_SLOTS - 1u);
    return kx_word_field(e, x->w[i], x->fd[i]);
}
// A thread event's (e->ev < KX_TH_EVENTS) process and thread.
static inline uint32_t kx_th_pid(const struct kev_event *e)
{
    return kx_ev_field(e, &kx_fields()->th_pid, 0);
}
static inline uint32_t kx_th_tid(const struct kev_event *e)
{
    return kx_ev_field(e, &kx_fields()->th_tid, 0);
}
// A process event's (PROCCREATE, PROCDESTROY and their _NAME forms) parent and process, and
// PROCTHREAD_NAME's process.
static inline uint32_t kx_pr_ppid(const struct kev_event *e)
{
    return kx_ev_field(e, &kx_fields()->pr_ppid, 6);
}
static inline uint32_t kx_pr_pid(const struct kev_event *e)
{
    return kx_ev_field(e, &kx_fields()->pr_pid, 6);
}
// An INT event's interrupt (INT_HANDLER_ENTR's by kev_int_irq, which also reads the older
// two-word form no row describes).
static inline uint32_t kx_int_irq(const struct kev_event *e)
{
    return e->ev == KEV_INT_HANDLER_ENTER ? kev_int_irq(e)
                                          : kx_ev_field(e, &kx_fields()->int_irq, 0);
}
// A COMM event's message id (rcvid) and channel owner (pid), where its row has them.
static inline uint32_t kx_comm_rcvid(const struct kev_event *e)
{
    return kx_ev_field(e, &kx_fields()->comm_rcvid, 0);
}
static inline uint32_t kx_comm_pid(const struct kev_event *e)
{
    return kx_ev_field(e, &kx_fields()->comm_pid, 0);
}

#endif
