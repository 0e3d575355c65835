// SPDX-License-Identifier: MIT
// The instrumented kernel's trace state: the ring (trace/trace_ring.c) over a contiguous block
// from pmem, the out-of-line halves of the hooks, the TraceEvent() kernel call, the snapshot
// written at START, and the synthetic interrupt that tells the logger a buffer is ready.
// Payloads of the kernel's events are listed in docs/trace-events.md.
// The ring is mapped read-only into the process that allocated it (its logger), which takes
// full buffers with KTRACE_TAKEBUFFER, writes them out and gives them back.
#include <kernel/ktrace.h>
#include <kernel/ktrace_stack.h>
#include <kernel/kprof.h>
#include <arch_kcall.h>
#include <kernel/kview.h>
#include <kernel/arch.h>
#include <kernel/smp.h>
#include <kernel/kdtrace.h>
#include <kernel/kuring.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kev_emit.h>
#include <d/dprobes.h>
#include <uapi/kcall.h>
#include <uapi/ktrace.h>

struct trace_ring ktrace;
uint8_t ktrace_cls_on[KEV_NCLASS];
uint32_t ktrace_kernel_on;
struct ktrace_hot ktrace_hot;   // the inline paths' words (ktrace.h, ktrace_kcall.h)

// Each CPU's exit key (cpu.h trace_ran): the thread its last traced exit returned to, and
// RAN_D while a D program runs, so that every traced exit reaches ktrace_switched (D's
// remain-cpu, on-cpu). ran_d: the bit as ktrace_sync last set it.
#define RAN_D ((uintptr_t)1u)
static bool ran_d;

// Sets every CPU's bit to d; with forget, forgets their threads too (a capture starts: each
// CPU's next traced exit writes an ONCPU and tells the ring who runs there). Another CPU may
// be in its own exit meanwhile: at worst it keeps its old bit until its next switch.
static __attribute__((noinline)) void ran_set_all(bool forget, bool d)
{
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        k_cpus[c].trace_ran = (forget ? 0 : k_cpus[c].trace_ran & ~RAN_D) | (d ? RAN_D : 0);
    ran_d = d;
}

// The calls whose results are not errno-style (ktrace_kcall_exit_words): their exit events
// carry the result registers as they are. Indexed by the call's number + 1 (t->kc_trace).
const uint8_t ktrace_kc_raw[KEV_KC_MAX + 1u] = {
    [KC_ClockCycles + 1] = 1, [KC_ClockTime + 1] = 1, [KC_Semihost + 1] = 1,
};
// ktrace_kcall_exit_words looks at the table only for calls numbered KC_Semihost and up.
_Static_assert(KC_ClockCycles >= KC_Semihost && KC_ClockTime >= KC_Semihost,
               "the raw calls are numbered from KC_Semihost up");
static struct proc *ring_owner;     // the process the ring is mapped into
static void *ring_mem;
static unsigned ring_nbufs;


// Brings the hooks' flags up to date with the ring and the D provider (after anything that
// may change them): a class's hooks run while the ring records it or a D program runs.
static uint32_t synced_classes = 0xffffffffu;

static __attribute__((noinline)) void sync_classes(uint32_t want)
{
    synced_classes = want;
    for (unsigned c = 0; c < KEV_NCLASS; c++)
        ktrace_cls_on[c] = (uint8_t)((want >> c) & 1u);
}

// Arches whose entry tests ktrace_kernel_on have nothing to rewrite (kernel/arch.h).
__attribute__((weak)) void arch_trace_entry_select(bool traced)
{
    (void)traced;
}

static __attribute__((noinline)) void kernel_on_changed(uint32_t on)
{
    ktrace_kernel_on = on;
    arch_trace_entry_select(on);
}

// Runs at every traced kernel exit: the common case (nothing changed) is a compare.
static inline void ktrace_sync(void)
{
    uint32_t want = ktrace.tr_active | (kdt_active ? 0xffu : 0u);
    if (__builtin_expect(want != synced_classes, 0))
        sync_classes(want);
    uint32_t on = ktrace.tr_running || ktrace_hot.notes || kdt_active;
    if (__builtin_expect(on != ktrace_kernel_on, 0))
        kernel_on_changed(on);
    // D's exits out of line (ktrace_exit_end), before the inline paths may be taken again
    if (__builtin_expect(kdt_active != ran_d, 0))
        ran_set_all(false, kdt_active);
    // The inline paths: classes recorded in fast mode with no filter, none while D runs
    // (its probes are on the general paths).
    ktrace_hot.plain = kdt_active ? 0u : ktrace.tr_active & ~ktrace.tr_slow;
    ktrace_hot.fast = ktrace_hot.plain & ~ktrace.tr_wide;
    ktrace_hot.kc_limit = (ktrace_hot.fast >> KEV_C_KER_CALL) & 1u ? KEV_KC_MAX : 0u;
}

void ktrace_resync(void)
{
    ktrace_sync();
}

// Is the ring recording this class? (The hooks also run for D probes.)
static bool ring_on(unsigned cls)
{
    return trace_on(&ktrace, cls);
}

void ktrace_init(void)
{
    kpanic_set_recorder(ktrace_panic);
    kmemset(&ktrace, 0, sizeof(ktrace));
    ring_owner = NULL;
    ring_mem = NULL;
    ring_nbufs = 0;
    kmemset(&ktrace_hot, 0, sizeof(ktrace_hot));
    ktrace_notes_reset();
    ran_set_all(true, false);
    for (unsigned i = 0; i < KMAX_CPUS; i++)     // the fast path's (trace_port_kernel.h)
        cpu_set_trace(&k_cpus[i], &ktrace.tr_cpu[i], &ktrace.tr_cpu[i].tc_limit);
}

// ---- notifications ---------------------------------------------------------------------------


void ktrace_exit_notify(ktrace_raise_fn raise)
{
    ktrace_notes_raise(raise);
    if (KSMP)
        kdt_settle();   // a shared firing ran exit(): D's probes go off (kdtrace.c)
    ktrace_sync();  // tracing may have stopped: the entry stays traced only while it runs
}

void ktrace_notes_defer(void)
{
    smp_kick(cpu_id());
}

// D's view of each CPU: the thread its last RUNNING event chose (kdt_chosen: off-cpu fires
// there, at that event's site, as dtrace -i fires it at the capture's THRUNNING), and the
// thread its last traced exit returned to (kdt_on_cpu: sched:::remain-cpu, which has no event,
// fires at an exit that returns to the thread the CPU ran before). Per CPU, under the D lock
// (kdt_chosen) or by this CPU alone (kdt_on_cpu).
static const struct thread *kdt_chosen[KMAX_CPUS];
static const struct thread *kdt_on_cpu[KMAX_CPUS];

void ktrace_kdt_go(const struct thread *running)
{
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        kdt_chosen[c] = kdt_on_cpu[c] = NULL;  // other CPUs: their next choice fires no off-cpu
    kdt_chosen[cpu_id()] = kdt_on_cpu[cpu_id()] = running;
}

// next was chosen to run on this CPU (its RUNNING event, within its site:
// kev_emit_thread_state): the switch starts. As Solaris's, off-cpu fires in the context of
// the thread going off (args[0] the one coming on, arg3 the state the one going off is left
// in, as its last event recorded it), and vtimestamp's clocks switch; on-cpu waits for the
// kernel's exit into next (ktrace_switched). In next's name, not k_current's (still the thread
// going off).
// D's probes the core asks for with no event of their own (kernel/ktrace.h).
void ktrace_signal_send_ev(const struct thread *victim, uint32_t pid)
{
    kdt_fire(DPROBE_PROC_SIGNAL_SEND, ktrace_who(victim), pid, KSIG_KILL, 0);
}

void ktrace_surrender_ev(const struct thread *cur, unsigned cpu)
{
    kdt_fire(DPROBE_SCHED_SURRENDER, ktrace_who(cur), ktrace_pid(cur), cur->prio, cpu);
}

void ktrace_kdt_switch(struct thread *next)
{
    unsigned c = cpu_id();
    const struct thread *prev = kdt_chosen[c];
    if (next == prev)
        return;
    kdt_chosen[c] = next;
    kdt_vtime_switch(next);
    if (prev)
        kdt_fire_as(prev, DPROBE_SCHED_OFFCPU, ktrace_who(next), ktrace_pid(next), next->prio,
                    prev->traced_state);
}

// The switch's end with D (ktrace_switched): the ONCPU event and, at its stamp, on-cpu in the
// context of the thread coming on, then at its first run a spawned process's proc:::start,
// exec and exec-success and a new thread's lwp-start (kev_emit_oncpu). Out of line, so that
// the path without D keeps no frame for it.
static __attribute__((noinline)) void oncpu_ev_d(struct thread *next, unsigned c)
{
    const bool first = next->dt_unstarted != 0;
    next->dt_unstarted = 0;
    kev_emit_oncpu(true, next, ktrace_who(next), c, ktrace_pid(next), next->prio, first,
                   first && next->proc && next->tid == 1);
}

// D's side of a kernel exit: sched:::remain-cpu when the scheduler kept the thread this CPU
// ran (here, not in sched.c's hot path).
static void exit_end_kdt(struct thread *next)
{
    unsigned c = cpu_id();
    const struct thread *prev = kdt_on_cpu[c];
    kdt_on_cpu[c] = next;
    if (next == prev)
        kdt_fire(DPROBE_SCHED_REMAIN_CPU, ktrace_who(next), ktrace_pid(next), next->prio, 0);
}

// A traced exit returns into next, and the exit's inline path left it here (ktrace_exit_end):
// another thread than this CPU ran last, whose ONCPU the inline path does not write (SYSTEM
// filtered, wide or off), or any thread while D runs. At a switch the ring learns its current
// thread (its filters), then the ONCPU event and D's on-cpu at that event's stamp, so that
// off-cpu (the RUNNING event, earlier on this CPU) to on-cpu is the switch's time, live and
// over the capture alike. With D the exit ends here: the call's exit event, then D's side.
bool ktrace_switched(struct thread *next)
{
    struct cpu *cpu = this_cpu();
    const struct thread *prev = (const struct thread *)(cpu->trace_ran & ~RAN_D);
    const bool was_d = (cpu->trace_ran & RAN_D) != 0;
    const bool d = kdt_active;  // (a firing's exit() may clear it: the bit follows at the sync)
    cpu->trace_ran = (uintptr_t)next | (d ? RAN_D : 0u);
    if (next != prev) {
        unsigned c = cpu_id();
        trace_ring_set_current(&ktrace, ktrace_pid(next), ktrace_tid(next));
        if (d && (next->dt_unstarted || kdt_wanted(DPROBE_SCHED_ONCPU)))
            oncpu_ev_d(next, c);
        else    // nothing of D's to fire: no hold (on several CPUs the D lock, at every switch)
            kev_emit_oncpu(false, next, ktrace_who(next), c, 0, 0, false, false);
    }
    if (!d) {
        if (was_d)
            ktrace_sync();  // the program ended since this CPU's last exit: the inline paths
        return false;
    }
    ktrace_exit_call(next);
    if (kdt_active)
        exit_end_kdt(next);
    ktrace_sync();  // (exit() may have ended the program: the inline paths come back)
    return true;
}

// Traced kernel calls still open when tracing starts or stops would get an exit event
// from another session: forget them.
static void forget_open_calls(void)
{
    for (unsigned i = 0; i < KMAX_THREADS; i++)
        k_threads[i].kc_trace = 0;
}

// ---- hooks ------------------------------------------------------------------------------------

// The general kernel-call entry: D's probe (all six arguments), wide events, filtered
// classes. Out of line: the common case is ktrace_kcall_entry (ktrace_kcall.h), inline.
void ktrace_kcall_entry_full(struct thread *t, uint32_t n, const uint32_t *a)
{
    unsigned ev = KEV_KC_ENTRY(n < KEV_KC_MAX ? n : KEV_KC_MAX - 1); // unknown ones share it
    // (a firing's exit() may clear kdt_active: the helper lets its hold go still)
    kev_emit_kcall_entry(kdt_active, ring_on(KEV_C_KER_CALL), t, n, ev, a);
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
    ktrace_state_inline(t);
}

// The general kernel-call exit: D's probe, filtered classes. The return probe and lockstat's
// have the exit event's time (the site's): the time blocked ends where the capture's does.
void ktrace_kcall_exit_full(struct thread *t, unsigned n)
{
    uint32_t w0 = arch_kc_result(&t->ctx, 0), w1 = arch_kc_result(&t->ctx, 1);
    ktrace_kcall_exit_words(n + 1u, &w0, &w1);
    kev_emit_kcall_exit(kdt_active, ring_on(KEV_C_KER_CALL), t, n, w0, w1,
                        ktrace_kc_raw[n + 1u] != 0);
}

// While KTRACE_START writes its snapshot: the state it records is not news, D fires nothing.
static bool in_snapshot;

// enqueue's and dequeue's arg3, the CPU whose run queue t is put on or taken from (its args[2],
// a cpuinfo_t): one CPU's own; on several, the queue sched.c put it on (R4), which a capture
// does not hold (dtrace -i gives -1 there: kevreplay.c runq_cpu).
static inline uint64_t runq_cpu(const struct thread *t)
{
    return thread_rq_cpu(t);
}

// The block-* probe of t's state, a blocked one, and the object it waits on (*obj: the
// connection, the channel, the thread joined; else 0); 0 for a state with none.
static inline uint32_t state_block(const struct thread *t, uint32_t *obj)
{
    *obj = 0;
    switch (t->state) {
    case THS_SEND:      *obj = (uint32_t)t->coid; return DPROBE_SCHED_BLOCK_SEND;
    case THS_RECEIVE:
        *obj = (uint32_t)kview_chid(t);
        return DPROBE_SCHED_BLOCK_RECEIVE;
    case THS_REPLY:     *obj = (uint32_t)t->coid; return DPROBE_SCHED_BLOCK_REPLY;
    case THS_MUTEX:     return DPROBE_SCHED_BLOCK_MUTEX;
    case THS_CONDVAR:   return DPROBE_SCHED_BLOCK_COND;
    case THS_SEM:       return DPROBE_SCHED_BLOCK_SEM;
    case THS_NANOSLEEP: return DPROBE_SCHED_BLOCK_SLEEP;
    case THS_JOIN:      *obj = (uint32_t)t->join_tid; return DPROBE_SCHED_BLOCK_JOIN;
    default:            return 0;
    }
}

_Static_assert(THS_RUNNING == KEV_TH_RUNNING && THS_READY == KEV_TH_READY &&
               THS_DEAD == KEV_TH_DEAD, "a state's number is its event's (kev_emit.h)");

// t's state event and, with d, its probes (kev_emit.h), from t as it is now; the values only
// D takes are read only under d.
static inline void state_emit(bool d, struct thread *t)
{
    uint32_t obj, block = state_block(t, &obj);
    kev_emit_thread_state(d, ring_on(KEV_C_PR_TH), t, &t->traced_state, t->state,
                          ktrace_pid(t), ktrace_tid(t), t->prio, t->policy, ktrace_who(t), block,
                          obj, runq_cpu(t));
}

// With a D program: out of line, so that the path without it is what it was.
static __attribute__((noinline)) void state_ev_d(struct thread *t)
{
    state_emit(true, t);
}

void ktrace_state_ev(const struct thread *t)
{
    if (kdt_active && !in_snapshot) {
        state_ev_d((struct thread *)t);
        return;
    }
    state_emit(false, (struct thread *)t);
}

// THCREATE (a thread's priority first, from its creation or the snapshot) or THDESTROY, and
// their probes (none for the snapshot's: its state is not news).
void ktrace_thread_ev(const struct thread *t, unsigned ev)
{
    const bool d = kdt_active;  // (a firing's exit() may clear it: the hold is let go still)
    if (ev == KEV_TH_CREATE) {
        ktrace_prio_ev(t, t->prio, KEV_PRIO_INITIAL);
        kev_emit_thcreate(d && !in_snapshot, ktrace_pid(t), ktrace_tid(t), ktrace_who(t),
                          t->prio);
        if (d && !in_snapshot)
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
    const bool d = kdt_active;
    if (ev == KEV_PR_CREATE_NAME)
        kev_emit_proccreate_name(d && !in_snapshot, (uint32_t)p->ppid, (uint32_t)p->pid, p->name);
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

void ktrace_int_ev(unsigned ev, uint32_t irq, uint32_t who)
{
    if (kdt_active) {
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

// A message event [rcvid, b] from the site that holds its client (ipc.c): b is the server's
// pid, the receiver, the status or the error; msg's probes take the client's connection and
// its message's size from the client (kev_emit.h).
static inline void msg_emit(bool d, unsigned ev, uint32_t rcvid, uint32_t b,
                            const struct thread *client)
{
    uint32_t coid = (uint32_t)client->coid, bytes = client->msg_len;   // (read only under d)
    switch (ev) {
    case KEV_COMM_SND_MESSAGE:   kev_emit_snd_message(d, rcvid, b, coid, bytes); return;
    case KEV_COMM_REC_MESSAGE:   kev_emit_rec_message(d, rcvid, b, coid, bytes); return;
    case KEV_COMM_REPLY_MESSAGE: kev_emit_reply_message(d, rcvid, b, coid); return;
    default:                     kev_emit_msg_error(d, rcvid, b, coid, bytes); return;
    }
}

// With D: out of line, so that the path without it is the ring's write alone.
static __attribute__((noinline)) void msg_ev_d(unsigned ev, uint32_t rcvid, uint32_t b,
                                               const struct thread *client)
{
    msg_emit(true, ev, rcvid, b, client);
}

void ktrace_msg_ev(unsigned ev, uint32_t rcvid, uint32_t b, const struct thread *client)
{
    if (kdt_active) {
        msg_ev_d(ev, rcvid, b, client);
        return;
    }
    msg_emit(false, ev, rcvid, b, client);
}

// The other COMM events: a pulse's send (msg:::pulse, kev_emit.h), its receipt, a signal (no
// probe of their own: the signal's proc:::fault is FAULT's, kernel/ktrace_fault.c).
void ktrace_comm_ev(unsigned ev, uint32_t a, uint32_t b)
{
    if (ev == KEV_COMM_SND_PULSE)
        kev_emit_snd_pulse(kdt_active, a, b & 0xffffu, b >> 16);
    else
        trace_emit_simple(&ktrace, KEV_C_COMM, ev, a, b);
}

void ktrace_timer_ev(uint32_t id, uint32_t pid)
{
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_TIMER, id, pid);
}

void ktrace_set_filter(uint32_t cls_mask, trace_dyn_filter_fn fn, void *arg)
{
    trace_filter_dynamic(&ktrace, fn ? cls_mask : 0, fn, arg);
    ktrace_sync();
}

// ---- the snapshot at START ---------------------------------------------------------------------

static void snapshot_thread(const struct thread *t)
{
    ktrace_thread_ev(t, KEV_TH_CREATE);
    ktrace_thread_name_ev(t);
    ktrace_state_ev(t);
}

static void snapshot(void)
{
    in_snapshot = true;
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 0, 0);
    for (unsigned i = 0; i < KMAX_THREADS; i++)
        if (k_threads[i].in_use && !k_threads[i].proc && k_threads[i].state != THS_DEAD)
            snapshot_thread(&k_threads[i]);
    for (unsigned i = 0; i < KMAX_PROCS; i++) {
        const struct proc *p = &k_procs[i];
        struct list *pos;
        if (p->state != PROC_ALIVE)
            continue;
        ktrace_proc_ev(p, KEV_PR_CREATE_NAME);
        ktrace_image_ev(p);
        list_for_each(pos, &p->threads) {
            const struct thread *t = list_entry(pos, struct thread, plink);
            if (t->state != THS_DEAD)
                snapshot_thread(t);
        }
    }
    // Which thread each CPU runs: the state events above are all on this CPU's buffer.
    smp_for_each_cpu(c)
        if (k_cpus[c].current)
            trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 2u | c << 8,
                              ktrace_who(k_cpus[c].current));
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 1, 0);
    in_snapshot = false;
}

// Without the snapshot (KTRACE_STARTNOSTATE): what each live process runs all the same, so
// that the host tools name its addresses (an image is identity, not state).
static void images(void)
{
    for (unsigned i = 0; i < KMAX_PROCS; i++)
        if (k_procs[i].state == PROC_ALIVE)
            ktrace_image_ev(&k_procs[i]);
}

// KTRACE_STACKSAMPLE's rate (kernel/ktrace_stack.c), then the profile timer armed for it.
static int set_sample_rate(uint32_t hz)
{
    int r = ktrace_stack_set_rate(hz);
    kprof_update();
    return r;
}

// ---- buffers ------------------------------------------------------------------------------------

// Whether processes other than the ring's owner may control the capture (KTRACE_SHARECONTROL;
// a passive tracelogger shares it, so the program it records starts and stops tracing).
static bool ring_shared;

static int alloc_buffers(struct proc *p, uint32_t nbufs)
{
    uint32_t size, align;
    if (ring_mem)
        return -EEXIST;
    if (nbufs == 0 || nbufs > TRACE_MAX_BUFS)
        return -EINVAL;
    uint32_t len = nbufs * KEV_BUF_BYTES;
    arch_map_layout(len, &size, &align);
    void *mem = kview_alloc(size, align);
    if (!mem)
        return -ENOMEM;
    int r = trace_ring_init(&ktrace, mem, len, nbufs);
    if (r < 0) {
        kview_free(mem);
        return r;
    }
    ring_mem = mem;
    ring_nbufs = nbufs;
    ring_owner = p;
    ring_shared = false;
    p->map_base = (uint32_t)(uintptr_t)mem;
    p->map_len = len;
    arch_mpu_switch(p);     // the caller is running: map it now
    return (int)nbufs;
}

static void free_buffers(void)
{
    if (ring_owner) {
        ring_owner->map_base = ring_owner->map_len = 0;
        if (k_current && k_current->proc == ring_owner)
            arch_mpu_switch(ring_owner);
    }
    // Off the other CPUs' tables too: a thread of the owner may read it there from EL0 until
    // its CPU switches again (kernel/kunmap.c).
    kview_unmap_others((uint32_t)(uintptr_t)ring_mem, ring_nbufs * KEV_BUF_BYTES);
    // Cleared before the memory goes back: the next ring (or D block) must not show the old
    // one's events to whoever it is mapped into.
    kmemset(ring_mem, 0, ring_nbufs * KEV_BUF_BYTES);
    kview_free(ring_mem);
    kmemset(&ktrace, 0, sizeof(ktrace));
    ring_mem = NULL;
    ring_owner = NULL;
    ring_nbufs = 0;
    set_sample_rate(0);     // sampling is the capture's: it ends with its buffers
}

void ktrace_proc_gone(struct proc *p)
{
    // Nobody else can drain the ring: stop and give the memory back.
    if (ring_mem && ring_owner == p) {
        trace_ring_stop(&ktrace);
        free_buffers();
    }
}

static int take_buffer(struct proc *p, uint32_t out)
{
    struct ktrace_buffer b;
    unsigned idx, nslots;
    uint32_t seq;
    if (!proc_can_write(p, out, sizeof(b)))
        return -EFAULT;
    int r = trace_ring_take(&ktrace, &idx);
    if (r < 0)
        return r;
    const struct kev_slot *s = trace_ring_buffer(&ktrace, idx, &nslots, &seq);
    b.index = idx;
    b.seq = seq;
    b.nslots = nslots;
    b.addr = (uint32_t)(uintptr_t)s;
    kmemcpy((void *)(uintptr_t)out, &b, sizeof(b));
    return 0;
}

static int query(struct proc *p, uint32_t out)
{
    struct ktrace_query q;
    struct trace_counts c;
    if (!proc_can_write(p, out, sizeof(q)))
        return -EFAULT;
    kmemset(&q, 0, sizeof(q));
    q.running = ktrace.tr_running;
    q.nbufs = ring_nbufs;
    q.policy = ktrace.tr_policy;
    q.ncpus = k_ncpus;
    q.rejected = kuring_rejected();
    for (unsigned i = 0; i < k_ncpus && i < TRACE_MAX_CPUS; i++) {
        trace_ring_counts(&ktrace, i, &c);
        q.buffers += c.buffers;
        q.recorded += c.recorded;
        q.dropped += c.dropped;
        q.overwritten += c.overwritten;
        if (i < KTRACE_QUERY_CPUS) {
            q.cpu[i].recorded = c.recorded;
            q.cpu[i].dropped = c.dropped;
            q.cpu[i].overwritten = c.overwritten;
        }
    }
    q.generated = q.recorded + q.dropped + q.overwritten;
    kmemcpy((void *)(uintptr_t)out, &q, sizeof(q));
    return 0;
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
    const bool d = __builtin_expect(kdt_active, 0);
    if (cmd == KTRACE_INSERTSUSEREVENT) {
        kev_emit_user(d, code, a, b);
        return 0;
    }
    if (cmd == KTRACE_INSERTCUSEREVENT) {
        uint32_t w[USER_MAX_WORDS];  // (an odd count is below it: room for the helper's pad)
        if (b > USER_MAX_WORDS)
            return -EINVAL;
        if ((a & 3u) || !proc_can_read(p, a, b * 4u))
            return -EFAULT;
        kmemcpy(w, (const void *)(uintptr_t)a, b * 4u);
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
        kuring_drain_thread(t);     // its ring was full: what it holds comes first
    return insert_user(t, cmd, code, a, b);
}

// ---- cost measurement (kbench) ------------------------------------------------------------------

// One loop per kind, so that each loop holds nothing but its hook; the barrier keeps the
// compiler from hoisting the hook's flag load out of the loop.
#define BENCH_LOOP(n, body)                           \
    for (uint32_t i = 0; i < (n); i++) {              \
        body;                                         \
        __asm__ volatile("" ::: "memory");            \
    }

// Out of line: its loops' code does not move with ktrace_call's (BENCH trace_*_event_insns).
static __attribute__((noinline)) int bench(uint32_t kind, uint32_t n)
{
    static const uint32_t w[4] = { 1, 2, 3, 4 };
    if (n > KTRACE_BENCH_MAX)   // bounded kernel work (uapi/ktrace.h)
        return -EINVAL;
    switch (kind) {
    case KTRACE_BENCH_LOOP:
        BENCH_LOOP(n, (void)i);
        return 0;
    case KTRACE_BENCH_DISABLED:     // class SYSTEM, off during the measurement
        BENCH_LOOP(n, ktrace_timer(i, 0));
        return 0;
    case KTRACE_BENCH_SIMPLE:
        BENCH_LOOP(n, trace_emit_simple(&ktrace, KEV_C_USER, 1, i, 0));
        return 0;
    case KTRACE_BENCH_COMBINE:
        BENCH_LOOP(n, trace_emit_words(&ktrace, KEV_C_USER, 2, w, 4));
        return 0;
    case KTRACE_BENCH_STALL:
        return n > KTRACE_BENCH_STALL_MAX ? -EINVAL : kview_stall(n);
    default:
        return -EINVAL;
    }
}

// ---- TraceEvent ---------------------------------------------------------------------------------

static int filter_result(int r)
{
    return r < 0 ? r : 0;
}

static int ktrace_command(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c);

int ktrace_call(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    if (cmd == KTRACE_INSERTSUSEREVENT) // the common one, open to all: no state to resync
        return ktrace_insert_user(t, cmd, a, b, c);
    int r = ktrace_command(t, cmd, a, b, c);
    ktrace_sync();
    return r;
}

static int ktrace_command(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    struct proc *p = t->proc;
    struct trace_ring *r = &ktrace;

    if (cmd == KTRACE_INSERTSUSEREVENT || cmd == KTRACE_INSERTCUSEREVENT ||
        cmd == KTRACE_INSERTUSRSTREVENT)
        return ktrace_insert_user(t, cmd, a, b, c);
    if (cmd == KTRACE_QUERYVERSION)
        return (int)(KEV_VER_MAJOR << 16 | KEV_VER_MINOR);
    if (cmd == KTRACE_USERRING)     // open to all, like the inserts: its own RAM only
        return c == KTRACE_USERRING_THREAD ? kuring_register_thread(t, a, b)
                                           : kuring_register(p, a, b);
    if (cmd == KTRACE_USERDRAIN)    // open to all: the entry drained the caller's rings
        return 0;
    if (cmd >= KTRACE_NCMDS)
        return -EINVAL;
    if (!(p->app->flags & KAPP_F_TRACE))
        return -EPERM;
    if (cmd == KTRACE_ALLOCBUFFER)
        return alloc_buffers(p, a);
    if (cmd == KTRACE_BENCH)
        return bench(a, b);
    if (!ring_mem)
        return -ECANCELED;
    // A capture is its owner's: another KAPP_F_TRACE process may only ask
    // how it goes, unless the owner shared its control.
    if (p != ring_owner && !ring_shared && cmd != KTRACE_QUERYEVENTS)
        return -EPERM;

    switch (cmd) {
    case KTRACE_STACKSAMPLE:
        return set_sample_rate(a);
    case KTRACE_SHARECONTROL:
        if (p != ring_owner)
            return -EPERM;
        ring_shared = a != 0;
        return 0;
    case KTRACE_DEALLOCBUFFER:
        // Only the ring's owner may throw its unread buffers away (another process's
        // DEALLOC/ALLOC during a capture would lose events the file never counts).
        if (p != ring_owner)
            return -EPERM;
        if (r->tr_running)
            return -EBUSY;
        free_buffers();
        return 0;
    case KTRACE_START:
    case KTRACE_STARTNOSTATE: {
        int e = trace_ring_start(r);
        if (e < 0)
            return e;
        forget_open_calls();
        kuring_new_capture();
        trace_ring_set_current(r, ktrace_pid(t), ktrace_tid(t));
        ran_set_all(true, kdt_active);
        ktrace_sync();
        ktrace_image_ev(NULL);  // the kernel's own image, with or without the snapshot
        if (cmd == KTRACE_START)
            snapshot();         // each process's image after its CREATE_NAME
        else
            images();
        return 0;
    }
    case KTRACE_STOP:
        trace_ring_stop(r);
        forget_open_calls();
        return 0;
    case KTRACE_FLUSHBUFFER:
        return filter_result(trace_ring_flush(r));
    case KTRACE_QUERYEVENTS:
        return query(p, a);
    case KTRACE_ADDALLCLASSES:      trace_filter_all(r, 1); return 0;
    case KTRACE_DELALLCLASSES:      trace_filter_all(r, 0); return 0;
    case KTRACE_ADDCLASS:           return filter_result(trace_filter_class(r, a, 1));
    case KTRACE_DELCLASS:           return filter_result(trace_filter_class(r, a, 0));
    case KTRACE_ADDEVENT:           return filter_result(trace_filter_event(r, a, b, 1));
    case KTRACE_DELEVENT:           return filter_result(trace_filter_event(r, a, b, 0));
    case KTRACE_SETALLCLASSESFAST:  trace_mode_all(r, 0); return 0;
    case KTRACE_SETALLCLASSESWIDE:  trace_mode_all(r, 1); return 0;
    case KTRACE_SETCLASSFAST:       return filter_result(trace_mode_class(r, a, 0));
    case KTRACE_SETCLASSWIDE:       return filter_result(trace_mode_class(r, a, 1));
    case KTRACE_SETEVENTFAST:       return filter_result(trace_mode_event(r, a, b, 0));
    case KTRACE_SETEVENTWIDE:       return filter_result(trace_mode_event(r, a, b, 1));
    case KTRACE_SETCLASSPID:        return b ? filter_result(trace_filter_class_pid(r, a, b)) : -EINVAL;
    case KTRACE_SETCLASSTID:        return b ? filter_result(trace_filter_class_tid(r, a, b)) : -EINVAL;
    case KTRACE_CLRCLASSPID:        return filter_result(trace_filter_class_pid(r, a, 0));
    case KTRACE_CLRCLASSTID:        return filter_result(trace_filter_class_tid(r, a, 0));
    case KTRACE_SETEVENTPID:        return c ? filter_result(trace_filter_event_pid(r, a, b, c)) : -EINVAL;
    case KTRACE_SETEVENTTID:        return c ? filter_result(trace_filter_event_tid(r, a, b, c)) : -EINVAL;
    case KTRACE_CLREVENTPID:        return filter_result(trace_filter_event_pid(r, a, b, 0));
    case KTRACE_CLREVENTTID:        return filter_result(trace_filter_event_tid(r, a, b, 0));
    case KTRACE_SETRINGMODE:        return filter_result(trace_ring_set_policy(r, TRACE_POLICY_RING));
    case KTRACE_SETLINEARMODE:      return filter_result(trace_ring_set_policy(r, TRACE_POLICY_SWITCH));
    case KTRACE_SETPOLICY:          return filter_result(trace_ring_set_policy(r, a));
    case KTRACE_TAKEBUFFER:
        return p == ring_owner ? take_buffer(p, a) : -EPERM;
    case KTRACE_RELEASEBUFFER:
        return p == ring_owner ? filter_result(trace_ring_release(r, a)) : -EPERM;
    default:
        return -EINVAL;
    }
}
