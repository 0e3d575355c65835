// SPDX-License-Identifier: MIT
// The trace hooks' out-of-line halves (kernel/ktrace.h, ktrace_kcall.h): each builds its
// event, and its D probes while a program runs, through the emit helpers (kernel/kev_emit.h),
// from the values its site handed it; the traced exit's general path (a switch's ONCPU, D's
// side of the exit). Payloads of the kernel's events are in docs/trace-events.md. They call
// only what lies below them in the tracing layer (the emit helpers, D's firings, the ring), so
// no hook's path comes back to its own file.
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kev_emit.h>
#include <kernel/kdtrace.h>
#include <kernel/kview.h>
#include <d/dprobes.h>
#include <d/lockstat.h>
#include <uapi/kcall.h>
#include <arch_kcall.h>

// The calls whose results are not errno-style (ktrace_kcall_exit_words): their exit events
// carry the result registers as they are. Indexed by the call's number + 1 (t->kc_trace).
const uint8_t ktrace_kc_raw[KEV_KC_MAX + 1u] = {
    [KC_ClockCycles + 1] = 1, [KC_ClockTime + 1] = 1, [KC_Semihost + 1] = 1,
};

// ktrace_kcall_exit_words looks at the table only for calls numbered KC_Semihost and up.
_Static_assert(KC_ClockCycles >= KC_Semihost && KC_ClockTime >= KC_Semihost,
               "the raw calls are numbered from KC_Semihost up");

// The decisions' events and their probes (kernel/ktrace.h): the row's helper writes the event
// and, with D, fires the probe at its stamp.
void ktrace_signal_send_ev(const struct thread *victim, uint32_t pid)
{
    (void)pid;      // (the event's who carries it: who.pid)
    kev_emit_signal_send(kdt_on(KEV_C_SYSTEM), ktrace_who(victim), KSIG_KILL);
}

void ktrace_surrender_ev(const struct thread *cur, unsigned cpu)
{
    kev_emit_surrender(kdt_on(KEV_C_SYSTEM), ktrace_who(cur), cur->prio, cpu);
}

// STEAL [who, prio | from << 8] into the ring alone: no probe fires at it (the RUNNING event
// that follows fires dequeue, live from the thread's rq_cpu, which sched.c set to `from`, and
// over a capture from this event: kevreplay.c).
void ktrace_steal_ev(const struct thread *t, unsigned from)
{
    uint32_t w[2];
    kev_pack_steal(w, ktrace_who(t), t->prio, from);
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_STEAL, w[0], w[1]);
}

// The switch's end with D (ktrace_switched): the ONCPU event and, at its stamp, on-cpu in the
// context of the thread coming on, then at its first run a spawned process's proc:::start,
// exec and exec-success and a new thread's lwp-start (kev_emit_oncpu). Out of line, so that
// the path without D keeps no frame for it.
static __attribute__((noinline)) void oncpu_ev_d(struct thread *next, unsigned c)
{
    const bool first = next->dt_unstarted != 0;
    next->dt_unstarted = 0;
    kev_emit_oncpu(true, next, ktrace_who(next), c, next->prio, first);
}

// A traced exit returns into next, and the exit's inline path left it here (ktrace_exit_end):
// another thread than this CPU ran last, whose ONCPU the inline path does not write (SYSTEM
// filtered, wide or off), or any thread while the D program needs the exits (DPROBE_H_EXIT). At a switch the ring learns its current
// thread (its filters), then the ONCPU event and D's on-cpu at that event's stamp, so that
// off-cpu (the RUNNING event, earlier on this CPU) to on-cpu is the switch's time, live and
// over the capture alike. A tick's exit into the thread it interrupted: REMAIN_CPU and D's
// remain-cpu at its stamp (ktrace_tick_mark). With D the exit ends here: the call's exit
// event, then D's side.
bool ktrace_switched(struct thread *next)
{
    struct cpu *cpu = this_cpu();
    const struct thread *prev =
        (const struct thread *)(cpu->trace_ran & ~(KTRACE_RAN_D | KTRACE_RAN_TICK));
    const bool was_d = (cpu->trace_ran & KTRACE_RAN_D) != 0;
    const bool ticked = (cpu->trace_ran & KTRACE_RAN_TICK) != 0;
    // (a firing's exit() may clear it: the bit follows at the sync)
    const bool d = (kdt_hooks_now() & DPROBE_H_EXIT) != 0;
    cpu->trace_ran = (uintptr_t)next | (d ? KTRACE_RAN_D : 0u);
    if (next != prev) {
        unsigned c = cpu_id();
        trace_ring_set_current(&ktrace, ktrace_pid(next), ktrace_tid(next));
        if (d && (next->dt_unstarted || kdt_wanted(DPROBE_SCHED_ONCPU)))
            oncpu_ev_d(next, c);
        else    // nothing of D's to fire: no hold (on several CPUs the D lock, at every switch)
            kev_emit_oncpu(false, next, ktrace_who(next), c, 0, false);
    } else if (ticked) {    // a tick's choice kept it: REMAIN_CPU, sched:::remain-cpu
        kev_emit_remain_cpu(d, ktrace_who(next), next->prio);
    }
    if (!d) {
        if (was_d)
            ktrace_sync();  // the program ended since this CPU's last exit: the inline paths
        return false;
    }
    unsigned kc = next->kc_trace;     // the call's exit: the general path, D running
    if (kc) {
        next->kc_trace = 0;
        ktrace_kcall_exit_full(next, kc - 1u);
    }
    ktrace_sync();  // (exit() may have ended the program: the inline paths come back)
    return true;
}

// Whether a call's entry or return site (probe id, call n) has D work: the call's own probe
// enabled, or lockstat's view of a SYNC_* call while one of its probes is.
static bool kcall_d(uint32_t id, uint32_t n)
{
    return kdt_on(KEV_C_KER_CALL) &&
           ((n < DPROBE_KCALL_MAX && kdt_wanted(id)) || (kdt_lockstat && dprobe_lockcall(n)));
}

// The general kernel-call entry: D's probe (all six arguments), wide events, filtered
// classes. Out of line: the common case is ktrace_kcall_entry (ktrace_kcall.h), inline.
void ktrace_kcall_entry_full(struct thread *t, uint32_t n, const uint32_t *a)
{
    unsigned ev = KEV_KC_ENTRY(n < KEV_KC_MAX ? n : KEV_KC_MAX - 1); // unknown ones share it
    // (a firing's exit() may clear kdt_active: the helper lets its hold go still)
    kev_emit_kcall_entry(kcall_d(DPROBE_KCALL_ENTRY(n), n), ktrace_ring_on(KEV_C_KER_CALL), t,
                         n, ev, a);
    t->kc_trace = (uint16_t)(ev + 1);
}

// The same with the arguments read from the saved frame again, as the dispatcher read them
// (arch_kcall.h), and the wide event first (ktrace_kcall.h: on several CPUs, so that the
// traced dispatcher keeps them in registers).
void ktrace_kcall_entry_frame(struct thread *t, uint32_t n)
{
    const uint32_t a[6] = { arch_kc_arg(&t->ctx, 0), arch_kc_arg(&t->ctx, 1),
                            arch_kc_arg(&t->ctx, 2), arch_kc_arg(&t->ctx, 3),
                            arch_kc_arg(&t->ctx, 4), arch_kc_arg(&t->ctx, 5) };
    if (n < KEV_KC_MAX && ((ktrace_hot.plain >> KEV_C_KER_CALL) & 1u) &&
        trace_is_wide(&ktrace, KEV_C_KER_CALL, KEV_KC_ENTRY(n))) {   // wide, no D
        trace_emit_words(&ktrace, KEV_C_KER_CALL, KEV_KC_ENTRY(n), a, 6);
        t->kc_trace = (uint16_t)(n + 1u);
        return;
    }
    ktrace_kcall_entry_full(t, n, a);
}

// ktrace_state_traced's out-of-line copy (ktrace_kcall.h: on several CPUs).
void ktrace_state_call(struct thread *t)
{
    if (ktrace_fast_on(KEV_C_PR_TH)) {
        trace_emit_simple_fast(&ktrace, KEV_C_PR_TH, t->state, ktrace_pid(t), ktrace_tid(t));
        return;
    }
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_state_ev(t);
}

// The general kernel-call exit: D's probe, filtered classes. The return probe and lockstat's
// have the exit event's time (the site's): the time blocked ends where the capture's does.
void ktrace_kcall_exit_full(struct thread *t, unsigned n)
{
    uint32_t w0 = arch_kc_result(&t->ctx, 0), w1 = arch_kc_result(&t->ctx, 1);
    ktrace_kcall_exit_words(n + 1u, &w0, &w1);
    kev_emit_kcall_exit(kcall_d(DPROBE_KCALL_RETURN(n), n), ktrace_ring_on(KEV_C_KER_CALL), t,
                        n, w0, w1, ktrace_kc_raw[n + 1u] != 0);
}

// While KTRACE_START writes its snapshot: the state it records is not news, D fires nothing.
bool ktrace_in_snapshot;

// enqueue's and dequeue's arg3, the CPU whose run queue t is put on or taken from (its args[2],
// a cpuinfo_t): one CPU's own; on several, the queue sched.c put it on (R4), which a capture
// does not hold (dtrace -i gives enqueue -1 there: kevreplay.c runq_cpu), and for a RUNNING
// thread the queue its choice took it from: the choosing CPU's, or the one a thread taken to
// run from another CPU's queue left (sched.c steal_taken), which STEAL records for dtrace -i.
static inline uint64_t runq_cpu(const struct thread *t)
{
    return thread_rq_cpu(t);
}

// The object t's blocked state waits on, which its block-* probe gives when the state's rule
// has one (trace/kev_derived.c: the first argument of the call that blocked it): the
// connection, the channel, the thread joined; else 0.
static inline uint32_t state_obj(const struct thread *t)
{
    switch (t->state) {
    case THS_SEND:
    case THS_REPLY:     return (uint32_t)t->coid;
    case THS_RECEIVE:   return (uint32_t)kview_chid(t);
    case THS_JOIN:      return (uint32_t)t->join_tid;
    default:            return 0;
    }
}

_Static_assert(THS_RUNNING == KEV_TH_RUNNING && THS_READY == KEV_TH_READY &&
               THS_DEAD == KEV_TH_DEAD, "a state's number is its event's (kev_emit.h)");

// t's state event and, with d, its probes (kev_emit.h), from t as it is now; the values only
// D takes are read only under d. Inlined in both its callers, so that each folds its d.
static inline __attribute__((always_inline)) void state_emit(bool d, struct thread *t)
{
    kev_emit_thread_state(d, ktrace_ring_on(KEV_C_PR_TH), t, &t->traced_state, t->state,
                          ktrace_pid(t), ktrace_tid(t), t->prio, t->policy, ktrace_who(t),
                          state_obj(t), runq_cpu(t));
}

// With a D program: out of line, so that the path without it is what it was.
static __attribute__((noinline)) void state_ev_d(struct thread *t)
{
    state_emit(true, t);
}

void ktrace_state_ev(const struct thread *t)
{
    if (kdt_on(KEV_C_PR_TH) && !ktrace_in_snapshot) {
        state_ev_d((struct thread *)t);
        return;
    }
    state_emit(false, (struct thread *)t);
}

// THCREATE (a thread's priority first, from its creation or the snapshot) or THDESTROY, and
// their probes (none for the snapshot's: its state is not news).
void ktrace_thread_ev(const struct thread *t, unsigned ev)
{
    const bool d = kdt_on(KEV_C_PR_TH); // (a firing's exit() may clear it: the hold goes still)
    if (ev == KEV_TH_CREATE) {
        ktrace_prio_ev(t, t->prio, KEV_PRIO_INITIAL);
        kev_emit_thcreate(d && !ktrace_in_snapshot, ktrace_pid(t), ktrace_tid(t), ktrace_who(t),
                          t->prio);
        if (d && !ktrace_in_snapshot)
            ((struct thread *)t)->dt_unstarted = 1;    // its lwp-start is at its first run
    } else {
        kev_emit_thdestroy(d, ktrace_pid(t), ktrace_tid(t), ktrace_who(t), t->exit_status);
    }
}

void ktrace_thread_name_ev(const struct thread *t)
{
    uint32_t w[2] = { ktrace_pid(t), ktrace_tid(t) };
    trace_emit_string(&ktrace, KEV_C_PR_TH, KEV_PR_THREAD_NAME, w, 2, t->name);
}

// PROCCREATE_NAME or PROCDESTROY_NAME, and their probes (none for the snapshot's).
void ktrace_proc_ev(const struct proc *p, unsigned ev)
{
    const bool d = kdt_on(KEV_C_PR_TH);
    if (ev == KEV_PR_CREATE_NAME)
        kev_emit_proccreate_name(d && !ktrace_in_snapshot, (uint32_t)p->ppid, (uint32_t)p->pid, p->name);
    else
        kev_emit_procdestroy_name(d, (uint32_t)p->ppid, (uint32_t)p->pid, p->name,
                                  p->exit_status);
}

// With D: out of line, so that the path without it is the ring's write alone. sched:::tick in
// the context of the thread the interrupt found (every CPU's timer interrupt, the kernel's
// tick or this CPU's share of it).
static __attribute__((noinline)) void int_ev_d(unsigned ev, uint32_t irq, uint32_t who)
{
    const struct thread *cur = k_current;
    kev_emit_int(true, ev, irq, who, cur, cur ? ktrace_who(cur) : 0, cur ? ktrace_pid(cur) : 0,
                 cur ? cur->prio : 0);
}

// An interrupt's site has D work when its line's probe is enabled, or sched:::tick at an entry.
static bool int_d(unsigned ev, uint32_t irq)
{
    if (!kdt_on(KEV_C_INT))
        return false;
    if (ev == KEV_INT_ENTER)
        return (irq < DPROBE_IRQ_MAX && kdt_wanted(DPROBE_IRQ_ENTRY(irq))) ||
               kdt_wanted(DPROBE_SCHED_TICK);
    return ev == KEV_INT_EXIT && irq < DPROBE_IRQ_MAX && kdt_wanted(DPROBE_IRQ_EXIT(irq));
}

void ktrace_int_ev(unsigned ev, uint32_t irq, uint32_t who)
{
    if (int_d(ev, irq)) {
        int_ev_d(ev, irq, who);
        return;
    }
    kev_emit_int(false, ev, irq, who, NULL, 0, 0, 0);
}

void ktrace_int_handler_ev(uint32_t irq, uint32_t pid, uintptr_t ip, uintptr_t area)
{
    uint32_t w[4] = { pid, irq, (uint32_t)ip, (uint32_t)area };
    trace_emit_words(&ktrace, KEV_C_INT, KEV_INT_HANDLER_ENTER, w, 4);
}

// The message events' general path (COMM not recorded plainly: filters, or D runs), from the
// site that holds the message's client (kernel/ipc.c through ktrace_kcall.h): the event's own
// helper, its msg probe's connection and size read from the client (kev_emit.h).
static unsigned msg_how(uint32_t probe)
{
    return kdt_on(KEV_C_COMM) && kdt_wanted(probe) ? KEV_D : KEV_RING;
}

void ktrace_snd_message_ev(uint32_t rcvid, uint32_t pid, const struct thread *client)
{
    kev_emit_snd_message(msg_how(DPROBE_MSG_SEND), rcvid, pid, (uint32_t)client->coid,
                         client->msg_len);
}

void ktrace_rec_message_ev(uint32_t rcvid, uint32_t who, const struct thread *client)
{
    kev_emit_rec_message(msg_how(DPROBE_MSG_RECEIVE), rcvid, who, (uint32_t)client->coid,
                         client->msg_len);
}

void ktrace_reply_message_ev(uint32_t rcvid, uint32_t status, const struct thread *client)
{
    kev_emit_reply_message(msg_how(DPROBE_MSG_REPLY), rcvid, status, (uint32_t)client->coid);
}

void ktrace_msg_error_ev(uint32_t rcvid, uint32_t err, const struct thread *client)
{
    kev_emit_msg_error(msg_how(DPROBE_MSG_ERROR), rcvid, err, (uint32_t)client->coid,
                       client->msg_len);
}

// The other COMM events: a pulse's send (msg:::pulse, kev_emit.h), its receipt, a signal (no
// probe of their own: the signal's proc:::fault is FAULT's, kernel/ktrace_fault.c).
void ktrace_comm_ev(unsigned ev, uint32_t a, uint32_t b)
{
    if (ev == KEV_COMM_SND_PULSE)
        kev_emit_snd_pulse(msg_how(DPROBE_MSG_PULSE), a, b & 0xffffu, b >> 16);
    else
        trace_emit_simple(&ktrace, KEV_C_COMM, ev, a, b);
}

void ktrace_timer_ev(uint32_t id, uint32_t pid)
{
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_TIMER, id, pid);
}

// A timer's pulse lost.
void ktrace_timer_lost_ev(uint32_t timer_id, uint32_t pid, uint32_t lost)
{
    kev_emit_timer_lost(KEV_RING, timer_id, pid, lost);
}

// ---- user events ------------------------------------------------------------------------------

#define USER_MAX_WORDS 64
#define USER_MAX_STRING 128

// A user event inserted by a kernel call (QNX's TraceEvent inserts): ktrace_insert_user
// below. Several CPUs: on the shared side too (kernel/kentry_shared.h, shared_trace_insert):
// the caller's rings drain under their own locks (kuring.c), the event goes to this CPU's
// buffer, D's firing is under D's lock, and the caller's memory map read here changes only on
// the exclusive side. This is the insert itself: D's firing (a program running) and the event.
static int insert_user(struct thread *t, uint32_t cmd, uint32_t code, uint32_t a, uint32_t b)
{
    struct proc *p = t->proc;
    // (a firing's exit() may clear kdt_active: the helper lets its hold go still)
    const bool d = __builtin_expect(kdt_on(KEV_C_USER), 0);
    if (cmd == KTRACE_INSERTSUSEREVENT) {
        kev_emit_user(d, code, a, b);
        return 0;
    }
    if (cmd == KTRACE_INSERTCUSEREVENT) {
        uint32_t w[USER_MAX_WORDS];  // (an odd count is below it: room for the helper's pad)
        if (b > USER_MAX_WORDS)
            return -EINVAL;
        if ((a & 3u) || proc_copy_in(p, w, a, b * 4u) < 0)
            return -EFAULT;
        kev_emit_user_words(d, code, w, b);
        return 0;
    }
    char s[USER_MAX_STRING];
    int n = proc_copy_string(p, a, s, sizeof(s));
    if (n == -EFAULT)
        return n;
    // Longer strings are cut to USER_MAX_STRING - 1 bytes (said in docs/trace-api.md).
    kev_emit_user_string(d, code, s, sizeof(s));
    return 0;
}

// With a D program, its firing and the event are one site under one hold of the D lock
// (kev_emit.h), so that D sees two CPUs' inserts in the capture's order; after the drain,
// which takes the rings' locks (the D lock is taken under them, never the reverse: klock.h,
// rank D).
int ktrace_insert_user(struct thread *t, uint32_t cmd, uint32_t code, uint32_t a, uint32_t b)
{
    if (code > KEV_EVENT_MASK)
        return -EINVAL;
    if (cmd == KTRACE_INSERTSUSEREVENT)
        kuring_drain_now(t);        // its ring was full: what it holds comes first
    return insert_user(t, cmd, code, a, b);
}
