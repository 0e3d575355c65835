// SPDX-License-Identifier: MIT
// The event table's fields the analysis model and the converters read (trace/kev_events.h),
// each looked up once by its name in its event's row: they read an event's values where the
// table says they are, never by unpacking its words by hand. A field several rows have (a
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
// The arrays by event number are a power of two long, so that any number indexes them (its
// low bits): a number past the rows' finds NULL, or a row of its own kind (read by callers
// that checked the event's kind).
#define KX_TH_SLOTS   32u                          // >= KX_TH_EVENTS
#define KX_PR_SLOTS   8u                           // >= KEV_PR_THREAD_NAME / 64 + 1
#define KX_INT_SLOTS  8u                           // >= KEV_INT_HANDLER_EXIT + 1
#define KX_COMM_SLOTS 16u                          // >= KEV_COMM_NEVENTS
#define KX_NO_WORD    0xffu

struct kx_fields {
    const struct kev_field_desc *prio_who, *prio_new, *prio_old, *prio_cause; // PRIO_CHANGE
    const struct kev_field_desc *snap_what, *snap_cpu, *snap_who;             // SNAPSHOT
    const struct kev_field_desc *sync_object, *sync_owner;                    // SYNC_WAIT
    const struct kev_field_desc *rmsg_who, *rpulse_who;                       // REC_*
    const struct kev_field_desc *th_prio;     // a thread state's priority (wide; every state's row)
    const struct kev_field_desc *fexit_offset, *fexit_value;                  // FUNC_EXIT
    const struct kev_field_desc *oncpu_who;                                   // ONCPU
    const struct kev_field_desc *dropped_lost;                                // DROPPED
    const struct kev_field_desc *func_fn[2], *func_site[2]; // FUNC_ENTER [0], FUNC_EXIT [1]
    // by event number: a thread event's process and thread; a process event's (PROCCREATE ...
    // PROCDESTROY_NAME, by number / 64) parent and process, PROCTHREAD_NAME's process and
    // thread; an INT event's interrupt and the process told
    const struct kev_field_desc *th_pid[KX_TH_SLOTS], *th_tid[KX_TH_SLOTS];
    const struct kev_field_desc *pr_ppid[KX_PR_SLOTS], *pr_pid[KX_PR_SLOTS];
    const struct kev_field_desc *tname_pid, *tname_tid;
    const struct kev_field_desc *int_irq[KX_INT_SLOTS], *int_pid[KX_INT_SLOTS];
    // COMM's by event number (NULL where the row has no such field): the message's id (rcvid),
    // the connection (coid), the channel's owner (pid), a pulse's channel key (SND_PULSE's and
    // REC_PULSE's chid and code), a reply's status
    const struct kev_field_desc *comm_rcvid[KX_COMM_SLOTS], *comm_pid[KX_COMM_SLOTS];
    // the same fields' words where each is a whole word (KX_NO_WORD: not one, or no field):
    // the common case read in a load (kx_word_field)
    uint8_t th_pid_w[KX_TH_SLOTS], th_tid_w[KX_TH_SLOTS], pr_pid_w[KX_PR_SLOTS];
    uint8_t int_irq_w[KX_INT_SLOTS], comm_rcvid_w[KX_COMM_SLOTS], comm_pid_w[KX_COMM_SLOTS];
    const struct kev_field_desc *spulse_coid, *spulse_chid, *spulse_code;
    const struct kev_field_desc *rpulse_chid, *rpulse_code, *reply_status;
};
extern struct kx_fields kx_fields_table;
static inline const struct kx_fields *kx_fields(void)
{
    return &kx_fields_table;
}

// Field fd of e; 0 when e's payload is too short for it (or fd is NULL). A one-word field is
// read inline (every event's thread, interrupt, message id), the rest by the table's reader.
static inline uint32_t kx_field(const struct kev_event *e, const struct kev_field_desc *fd)
{
    if (fd && fd->layout == KEV_L_WORD && fd->word < e->nw)
        return kev_field_bits(fd, e->w[fd->word]);
    uint64_t v = 0;
    kev_field_read(e, fd, &v);
    return (uint32_t)v;
}
// Whether e holds the one-word field fd (a wide-mode field of a fast event does not).
static inline int kx_field_has(const struct kev_event *e, const struct kev_field_desc *fd)
{
    return fd && fd->layout == KEV_L_WORD && fd->word < e->nw;
}
static inline uint64_t kx_field64(const struct kev_event *e, const struct kev_field_desc *fd)
{
    uint64_t v = 0;
    kev_field_read(e, fd, &v);
    return v;
}

// The word of e that holds field fd (a KEV_L_WORD field), kept whole as a key of the fields it
// holds together (a pulse's channel and code, in SND_PULSE's second word and REC_PULSE's first;
// kev_field_of_word reads them out of it again); 0 when e is too short.
static inline uint32_t kx_field_word(const struct kev_event *e, const struct kev_field_desc *fd)
{
    return fd && fd->layout == KEV_L_WORD && fd->word < e->nw ? e->w[fd->word] : 0u;
}

// Field fd of e, which is the whole word w when w is not KX_NO_WORD (the table said so, once).
static inline uint32_t kx_word_field(const struct kev_event *e, unsigned w,
                                     const struct kev_field_desc *fd)
{
    return w < e->nw ? e->w[w] : kx_field(e, fd);
}

// A thread event's (e->ev < KX_TH_EVENTS) process and thread.
static inline uint32_t kx_th_pid(const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    unsigned i = e->ev & (KX_TH_SLOTS - 1u);
    return kx_word_field(e, f->th_pid_w[i], f->th_pid[i]);
}
static inline uint32_t kx_th_tid(const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    unsigned i = e->ev & (KX_TH_SLOTS - 1u);
    return kx_word_field(e, f->th_tid_w[i], f->th_tid[i]);
}
// A process event's (PROCCREATE, PROCDESTROY and their _NAME forms) parent and process.
static inline uint32_t kx_pr_ppid(const struct kev_event *e)
{
    return kx_field(e, kx_fields()->pr_ppid[(e->ev >> 6) & (KX_PR_SLOTS - 1u)]);
}
static inline uint32_t kx_pr_pid(const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    unsigned i = (e->ev >> 6) & (KX_PR_SLOTS - 1u);
    return kx_word_field(e, f->pr_pid_w[i], f->pr_pid[i]);
}
// An INT event's interrupt (INT_HANDLER_ENTR's by kev_int_irq, which also reads the older
// two-word form no row describes).
static inline uint32_t kx_int_irq(const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    unsigned i = e->ev & (KX_INT_SLOTS - 1u);
    return e->ev == KEV_INT_HANDLER_ENTER ? kev_int_irq(e)
                                          : kx_word_field(e, f->int_irq_w[i], f->int_irq[i]);
}
// A COMM event's message id (rcvid) and channel owner (pid), where its row has them.
static inline uint32_t kx_comm_rcvid(const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    unsigned i = e->ev & (KX_COMM_SLOTS - 1u);
    return kx_word_field(e, f->comm_rcvid_w[i], f->comm_rcvid[i]);
}
static inline uint32_t kx_comm_pid(const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    unsigned i = e->ev & (KX_COMM_SLOTS - 1u);
    return kx_word_field(e, f->comm_pid_w[i], f->comm_pid[i]);
}

#endif
