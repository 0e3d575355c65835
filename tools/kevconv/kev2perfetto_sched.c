// SPDX-License-Identifier: MIT
// kev2perfetto's scheduling events (kev2perfetto.h), as Linux's ftrace records them and
// Perfetto's trace processor builds its CPU and thread-state views from them: per-CPU
// FtraceEventBundles of sched_switch (a RUNNING), sched_waking (a READY of a blocked thread,
// or a switch to a thread whose wake-up was not recorded), irq_handler_entry and _exit; the
// CPU's current thread as Linux has it; losses as a bundle's lost_events and as FtraceStats'
// overrun counts.
#include <string.h>

#include "kev2perfetto.h"
#include <kevhost/kx_fields.h>
#include <kevhost/kx_digits.h>

#define EVENTS_PER_BUNDLE 512u

// The CPU's bundle as a packet: FtraceEventBundle {cpu, lost_events, the events} and the
// sequence id, the bundle's events written from where they were gathered.
void pf_flush_bundle(struct conv *c, unsigned cpu)
{
    if (!c->nbundle[cpu] && !c->lost_pending[cpu])
        return;
    c->sub.len = 0;
    pb_int(&c->sub, 1, cpu);
    if (c->lost_pending[cpu])
        pb_int(&c->sub, 3, 1);
    c->lost_pending[cpu] = 0;
    size_t inner = c->sub.len + c->bundle[cpu].len;
    c->ev.len = 0;
    pb_int(&c->ev, 10, 1 + cpu);
    c->pkt.len = 0;
    pb_varint(&c->pkt, 1 << 3 | 2); // TracePacket.ftrace_events, its length
    pb_varint(&c->pkt, inner);
    const struct pb *part[] = { &c->pkt, &c->sub, &c->bundle[cpu], &c->ev };
    pf_put_parts(c, part, 4, c->pkt.len + inner + c->ev.len);
    c->pkt.len = 0;
    c->bundle[cpu].len = 0;
    c->nbundle[cpu] = 0;
}

// Begins FtraceEvent {timestamp, pid, <field> = {...}} in the CPU's bundle: the caller writes
// the field's content into the buffer returned, then calls event_end with at.
static struct pb *event_begin(struct conv *c, unsigned cpu, uint64_t t, int32_t pid,
                              unsigned field, size_t at[2])
{
    struct pb *b = &c->bundle[cpu];
    at[0] = pb_open(b, 2);
    pb_int(b, 1, (int64_t)pf_ns(c, t));
    pb_int(b, 2, pid);
    at[1] = pb_open(b, field);
    return b;
}

static void event_end(struct conv *c, unsigned cpu, const size_t at[2])
{
    pb_close(&c->bundle[cpu], at[1]);
    pb_close(&c->bundle[cpu], at[0]);
    if (++c->nbundle[cpu] >= EVENTS_PER_BUNDLE)
        pf_flush_bundle(c, cpu);
}

static int64_t linux_state(unsigned st)
{
    if (st == KEV_TH_RUNNING || st == KEV_TH_READY || st == KX_STATE_UNKNOWN)
        return 0;      // R: preempted
    return st == KEV_TH_DEAD ? 64 : 1; // dead, else S: sleeping
}

// sched_waking of thread th by cur (the CPU's current thread: the waker trace processor shows).
// target_cpu is the run queue the woken thread goes to, the CPU it last ran on (the waker's
// CPU only for a thread not seen running yet), as Linux's select_task_rq() result.
static void waking(struct conv *c, const struct kev_event *e, int th, int32_t prio, int cur)
{
    size_t at[2];
    struct pb *b = event_begin(c, e->cpu, e->t64, kx_ltid(c->m, cur), 20, at);
    pb_str(b, 1, kx_lcomm(c->m, th));
    pb_int(b, 2, kx_ltid(c->m, th));
    pb_int(b, 3, prio);
    pb_int(b, 4, 1);
    pb_int(b, 5, c->last_cpu[th] ? (unsigned)(c->last_cpu[th] - 1) : e->cpu);
    event_end(c, e->cpu, at);
}

// (th: the event's thread, kx_thread's)
void pf_sched_thread(struct conv *c, const struct kev_event *e, int th)
{
    struct kx_model *m = c->m;
    if (th < 0 || m->in_snapshot)
        return;
    const struct kev_field_desc *wide = kx_fields()->th_prio; // (wide mode's)
    int32_t prio = kx_kernel_prio(kev_field_has(e, wide) ? (int)kev_field(e, wide) : kx_qprio(m, th));
    int cur = pf_current_of(m, e->cpu);
    const struct kx_thread *t = &m->th[th];
    if (e->ev == KEV_TH_RUNNING) // (a waking written now targets this CPU)
        c->last_cpu[th] = (int16_t)(e->cpu + 1);
    if (e->ev == KEV_TH_RUNNING && cur != th && !kx_is_idle(m, th) && t->cpu < 0 &&
        t->state != KEV_TH_READY && t->state != KEV_TH_RUNNING && t->state != KX_STATE_UNKNOWN)
        waking(c, e, th, prio, cur); // its READY was not recorded (or lost): woken by now
    if (e->ev == KEV_TH_RUNNING) {
        size_t at[2];
        struct pb *b = event_begin(c, e->cpu, e->t64, kx_ltid(m, cur), 4, at);
        pb_str(b, 1, kx_lcomm(m, cur));
        pb_int(b, 2, kx_ltid(m, cur));
        pb_int(b, 3, kx_kernel_prio(kx_qprio(m, cur)));
        pb_int(b, 4, cur >= 0 && !kx_is_idle(m, cur) ? linux_state(m->th[cur].state) : 0);
        pb_str(b, 5, kx_lcomm(m, th));
        pb_int(b, 6, kx_ltid(m, th));
        pb_int(b, 7, prio);
        event_end(c, e->cpu, at);
    } else if (e->ev == KEV_TH_READY && t->cpu < 0 && t->state != KEV_TH_READY &&
               !kx_is_idle(m, th)) {   // (idle is Linux's swapper, tid 0: never woken)
        waking(c, e, th, prio, cur);
    }
}

// "irq<n>" at out (room for 14 bytes), as printf's "irq%u" writes it: its length.
static size_t irq_name(char *out, uint32_t irq)
{
    memcpy(out, "irq", 3);
    return 3 + kx_put_dec(out + 3, irq);
}

void pf_sched_irq(struct conv *c, const struct kev_event *e)
{
    if (e->ev != KEV_INT_ENTER && e->ev != KEV_INT_EXIT)
        return;
    size_t at[2];
    struct pb *b = event_begin(c, e->cpu, e->t64, kx_ltid(c->m, pf_current_of(c->m, e->cpu)),
                               e->ev == KEV_INT_ENTER ? 36 : 37, at);
    uint32_t irq = kx_int_irq(e);
    pb_int(b, 1, (int32_t)irq);
    if (e->ev == KEV_INT_ENTER) {
        char name[16];
        pb_bytes(b, 2, name, irq_name(name, irq));
    } else {
        pb_int(b, 2, 1);
    }
    event_end(c, e->cpu, at);
}

// A DROPPED on e's CPU: the events before the gap go out in their bundle, the next bundle says
// "lost", and the count joins the end statistics.
void pf_sched_lost(struct conv *c, const struct kev_event *e)
{
    pf_flush_bundle(c, e->cpu); // the events before the gap; the next bundle says "lost"
    c->lost[e->cpu] += kev_field(e, kx_fields()->dropped_lost);
    c->lost_pending[e->cpu] = 1;
}

// FtraceStats of a phase (1 start, 2 end): each CPU's lost events as the kernel's overrun
// count, so trace processor's ftrace_cpu_overrun_delta is the number lost.
void pf_ftrace_stats(struct conv *c, unsigned phase, uint64_t t, unsigned ncpu)
{
    struct pb st = { 0 };
    pb_int(&st, 1, phase);
    for (unsigned cpu = 0; cpu < ncpu; cpu++) {
        c->sub.len = 0;
        pb_int(&c->sub, 1, cpu);
        pb_int(&c->sub, 3, phase == 2 ? (int64_t)c->lost[cpu] : 0);
        pb_bytes(&st, 2, c->sub.p, c->sub.len);
    }
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, (int64_t)pf_ns(c, t));
    pb_bytes(&c->pkt, 34, st.p, st.len);
    pb_int(&c->pkt, 10, 100);
    pf_put_packet(c);
    free(st.p);
}

// Losses no DROPPED reported (after the last buffer): an empty bundle saying "lost" and the
// count in the end statistics.
void pf_trailing_losses(struct conv *c, const struct kev_reader *r, unsigned ncpu)
{
    for (unsigned cpu = 0; cpu < ncpu && r->kr_have_trailer; cpu++)
        if (r->kr_trl_lost[cpu] > c->lost[cpu]) {
            c->lost[cpu] = r->kr_trl_lost[cpu];
            c->lost_pending[cpu] = 1;
            pf_flush_bundle(c, cpu);
        }
}
