// SPDX-License-Identifier: MIT
// The kernel's emit helpers: for each event whose row in the event table (trace/kev_events.c)
// feeds D from its own site (KEV_D_EMIT, a probe of D's lists or of the row's own), one call that takes the
// event's values once, named as the row names its fields (and the values its probes add, the
// row's ?NAME), writes the ring's slot(s) from them and, with D, fires the row's probes with
// the same values, in the row's order, at the event's own stamp (ktrace_site_take), all under
// one hold of the D lock (kdt_hold), so that two CPUs' events reach D and the capture in one
// order (what the parity tests compare). The build generates them from the rows
// (tools/emitgen: <kev_emit_gen.h>, included below): every helper whose site needs nothing but
// its values, and each row probe's argument order (KEV_D_<ROW>_<PROBE>(FIRE)). The helpers
// written here are the sites that add something of their own (a kernel call's wide words and
// lockstat, the thread states' sched probes, the tick, a fault's stack, a thread's first run,
// a user event's payload); they fire the generated argument orders, or the derived probes'
// below, whose rows say them in words.
// `how` (or `d`) is the caller's test: a D program runs and the site wants its probes. A caller
// passes a constant (the path without D inlines to the ring's write alone) or keeps the D copy
// out of line; the values its probes add are read only with D.
// test/unit/test_kev_emit.c calls every helper and holds its ring words and its firings
// against the table's row.
// Locking: the ring's writers' (trace/trace_ring.h); the D lock is taken here, with D.
#ifndef KERNEL_KEV_EMIT_H
#define KERNEL_KEV_EMIT_H

#include <kernel/ktrace.h>
#include <kernel/kdtrace.h>
#include <kernel/ktrace_stack.h>
#include <uapi/ktrace.h>
#include <trace/kev_events.h>
#include <d/dprobes.h>
#include <trace/kev_rows.h>
#include <kernel/smp.h>
#include <uapi/kcall.h>

// One time per site (kdtrace.h kdt_hold): a hook that records an event and fires D probes
// reads this CPU's last slot stamp before it writes its event (ktrace_stamp_here), then
// ktrace_site_take(before) gives the event's own stamp to the probes it fires; nothing when
// no slot was written (the class not recorded, the event filtered or lost: the probes keep
// the time the hold began). Inline, so that no fbt probe lies between the two reads.
static inline uint32_t ktrace_stamp_here(void)
{
    return ktrace.tr_cpu[trace_port_cpu()].tc_last;
}
static inline void ktrace_site_take(uint32_t before)
{
    uint32_t now = ktrace_stamp_here();
    if (now != before)
        kdt_site_set(now);
}

// One firing, as a KEV_D_<ROW>_<PROBE>(FIRE) macro gives it: FIRE(id, arguments...), each
// argument the helper's parameter or local of that name (kdt_fire_n_in pads the rest with 0).
#define KEV_EMIT_ARGS(...) (const uint64_t[]){ __VA_ARGS__ }, \
    (unsigned)(sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))
#define KEV_EMIT_FIRE(id, ...) kdt_fire_n_in(NULL, (id), KEV_EMIT_ARGS(__VA_ARGS__), 0);
// The same with the firing's errno: the helper's `err`.
#define KEV_EMIT_FIRE_ERRNO(id, ...) kdt_fire_n_in(NULL, (id), KEV_EMIT_ARGS(__VA_ARGS__), err);
// The same in the context of the helper's thread `t` (not k_current).
#define KEV_EMIT_FIRE_AS(id, ...) kdt_fire_n_in(t, (id), KEV_EMIT_ARGS(__VA_ARGS__), 0);

// The site's bracket: with d, the D lock and this CPU's last stamp before the event is written
// (kev_site_open), the event's own stamp given to the firings once it is (kev_site_stamp: none
// when no slot was written, the class filtered or the event lost), and the lock let go.
// Inline, so that no fbt probe lies between the stamp's two reads.
static inline uint32_t kev_site_open(bool d)
{
    if (!d)
        return 0;
    kdt_hold();
    return ktrace_stamp_here();
}

static inline void kev_site_stamp(bool d, uint32_t before)
{
    if (d)
        ktrace_site_take(before);
}

static inline void kev_site_close(bool d)
{
    if (d)
        kdt_release();
}

// ---- the inline paths' ring writes ----------------------------------------------------------------
// What the traced paths' inline events (kernel/ktrace_kcall.h) and the general paths
// (kernel/ktrace_ev.c) both write, with no class test of their own: the caller's.

// A class on the inline path: recorded, fast mode, no filter, no D (ktrace_hot, ktrace_sync).
static inline bool ktrace_fast_on(unsigned cls)
{
    return __builtin_expect((ktrace_hot.fast >> cls) & 1u, 1);
}

// A call's exit words: [result, 0] on success, [-1, errno] on failure, as QNX's exit
// events; 64-bit results (ClockCycles, ClockTime) and semihosting's (the host's own answer)
// are not errno-style and go as they are.
// 1 for those calls, indexed by t->kc_trace (the number + 1, at most KEV_KC_MAX; ktrace.c).
extern const uint8_t ktrace_kc_raw[KEV_KC_MAX + 1u];

// The raw ones are numbered from KC_Semihost up (kcall.h; checked in ktrace.c), so on AArch64
// a call below it, the common case, is told by one compare instead of a table's address and
// load.
static inline void ktrace_kcall_exit_words(unsigned kc, uint32_t *r0, uint32_t *r1)
{
    if ((!KSMP || __builtin_expect(kc > KC_Semihost, 0)) && ktrace_kc_raw[kc])
        return;     // (one CPU: the Cortex-M's table load is as short as the compare)
    uint32_t v = *r0;
    if (KSMP) {     // AArch64: success (the common case) is a test of the sign and a zero
        bool neg = (int32_t)v < 0;
        *r1 = neg ? 0u - v : 0u;
        *r0 = neg ? 0xffffffffu : v;
    } else {        // the Cortex-M: the sign mask, as short there
        uint32_t neg = (uint32_t)((int32_t)v >> 31); // all ones when v < 0
        *r1 = (0u - v) & neg;
        *r0 = v | neg;
    }
}

// ---- how a helper with an inline path writes -----------------------------------------------------
// An event written both on a traced path's inline code and on the general path has one helper,
// which every path calls: `how` says how it writes. KEV_RING is the ring's general write
// (class, filters), KEV_D the same and the probe (true converts to it), KEV_INLINE the inline
// path, for a caller that saw the class recorded plainly (ktrace_kcall.h): the slot's write
// alone.
enum { KEV_RING = 0, KEV_D = 1, KEV_INLINE = 2 };

static inline void kev_write_simple(unsigned how, unsigned cls, unsigned ev, uint32_t a,
                                    uint32_t b)
{
    if (how == KEV_INLINE)
        trace_emit_simple_fast(&ktrace, cls, ev, a, b);
    else
        trace_emit_simple(&ktrace, cls, ev, a, b);
}

// ---- the generated helpers and argument orders (tools/emitgen, from the rows) --------------------
#include <kev_emit_gen.h>

// ---- the probes the hand helpers derive -----------------------------------------------------------
// Their rows say them in words (derived: a reader's state over many events gives them): the
// argument orders here, each argument the helper's parameter or local of that name.
// sched:::tick at the tick's entry, in the interrupted thread's context.
#define KEV_D_INT_ENTR_TICK(FIRE) FIRE(DPROBE_SCHED_TICK, cur_who, cur_pid, cur_prio)
// A thread's state change: arg0 the thread's who, arg1 its pid, arg2 its priority, arg3 what
// the change adds: the state it sleeps in (sleep), the object it waits on (block-*: `block` the
// probe of its state, obj the connection, the channel or the thread joined, else 0), the state
// it left (wakeup), the CPU whose run queue it joins or leaves (enqueue, dequeue).
#define KEV_D_THSTATE_SLEEP(FIRE) FIRE(DPROBE_SCHED_SLEEP, who, pid, prio, state)
#define KEV_D_THSTATE_BLOCK(FIRE) FIRE(block, who, pid, prio, obj)
#define KEV_D_THSTATE_WAKEUP(FIRE) FIRE(DPROBE_SCHED_WAKEUP, who, pid, prio, prev)
#define KEV_D_THSTATE_PREEMPT(FIRE) FIRE(DPROBE_SCHED_PREEMPT, who, pid, prio, 0)
#define KEV_D_THSTATE_ENQUEUE(FIRE) FIRE(DPROBE_SCHED_ENQUEUE, who, pid, prio, rq_cpu)
#define KEV_D_THSTATE_DEQUEUE(FIRE) FIRE(DPROBE_SCHED_DEQUEUE, who, pid, prio, rq_cpu)
#define KEV_D_THSTATE_LWP_EXIT(FIRE) FIRE(DPROBE_PROC_LWP_EXIT, who, pid, prio, 0)
#define KEV_D_THCREATE_CREATE(FIRE) FIRE(DPROBE_SCHED_CREATE, who, pid, prio)
#define KEV_D_THCREATE_LWP(FIRE) FIRE(DPROBE_PROC_LWP_CREATE, who, pid, prio)
#define KEV_D_THDESTROY_EXIT(FIRE) FIRE(DPROBE_SCHED_EXIT, who, status)
// proc:::fault: the signal (its ustack() the STACK of kind fault that follows).
#define KEV_D_FAULT_FAULT(FIRE) FIRE(DPROBE_PROC_FAULT, signal)
// At a thread's first run, after on-cpu: lwp-start with on-cpu's arguments.
#define KEV_D_ONCPU_LWP_START(FIRE) FIRE(DPROBE_PROC_LWP_START, who, kev_who_pid(who), prio, 0)
// user:::event ($ev $user): the event's code, then a one-slot event's two words (a payload's
// window and size: kdt_fire_payload, d/dutext.h).
#define KEV_D_USER_EVENT(FIRE) FIRE(DPROBE_USER_EVENT, code, a, b)

// ---- a program's probe and its event ------------------------------------------------------------

// FUNC_ENTER, FUNC_EXIT (fbt, pid) and USDT: the loaded program's enabled probe pidx fires with
// args, and when `ring` (the caller's test: SYSTEM traced) the event w[0..nw) is written first,
// the probe at its stamp, within one hold. The probe's arguments are its own (the function's,
// the site's registers), not the event's fields: the rows are KEV_D_OWN.
static inline void kev_emit_probe_event(bool ring, unsigned ev, const uint32_t *w, unsigned nw,
                                        uint32_t pidx, const uint64_t *args)
{
    if (!ring) {
        kdt_fire_probe(pidx, args);
        return;
    }
    uint32_t before = kev_site_open(true);
    if (nw == 2)
        trace_emit_simple(&ktrace, KEV_C_SYSTEM, ev, w[0], w[1]);
    else
        trace_emit_words(&ktrace, KEV_C_SYSTEM, ev, w, nw);
    kev_site_stamp(true, before);
    kdt_fire_probe(pidx, args);
    kev_site_close(true);
}

// ---- KER_CALL -----------------------------------------------------------------------------------
// The general paths of a kernel call's events (kernel/ktrace.c; the common case is inline,
// ktrace_kcall.h): `ring` the caller's test (KER_CALL recorded), call the call's number, t the
// calling thread; within the site, lockstat's view of a SYNC_* call (klockstat_call_entry,
// klockstat_call_return) after the kercall probe.

// KER_CALL entry ev (KEV_KC_ENTRY of call, or of the last number for an unknown call) [a[0],
// a[1]; in wide mode a[0..6)]: kercall::<call>:entry with the six arguments.
static inline void kev_emit_kcall_entry(bool d, bool ring, struct thread *t, uint32_t call,
                                        unsigned ev, const uint32_t *a)
{
    uint32_t before = kev_site_open(d);
    if (ring && trace_is_wide(&ktrace, KEV_C_KER_CALL, ev))
        trace_emit_words(&ktrace, KEV_C_KER_CALL, ev, a, 6);
    else if (ring)
        trace_emit_simple(&ktrace, KEV_C_KER_CALL, ev, a[0], a[1]);
    if (!d)
        return;
    kev_site_stamp(d, before);
    if (call < DPROBE_KCALL_MAX)
        KEV_D_KER_CALL_ENTRY(KEV_EMIT_FIRE)
    klockstat_call_entry(t, call, a);
    kev_site_close(d);
}

// KER_EXIT of call [w0, w1]: the words ktrace_kcall_exit_words makes of the result registers
// (the result, or -1 and the errno; a raw call's registers as they are). The probe's values are
// the words', read as dtrace -i reads them: the result, -errno on failure, and the errno.
static inline void kev_emit_kcall_exit(bool d, bool ring, struct thread *t, unsigned call,
                                       uint32_t w0, uint32_t w1, bool raw)
{
    uint32_t before = kev_site_open(d);
    if (ring)
        trace_emit_simple(&ktrace, KEV_C_KER_CALL, KEV_KC_EXIT(call), w0, w1);
    if (!d)
        return;
    kev_site_stamp(d, before);
    const uint32_t err = raw ? 0u : w1;
    const int32_t result = err ? -(int32_t)err : (int32_t)w0;
    if (call < DPROBE_KCALL_MAX)
        KEV_D_KER_EXIT_RETURN(KEV_EMIT_FIRE_ERRNO)
    klockstat_call_return(t, call, result);
    kev_site_close(d);
}

// ---- INT ----------------------------------------------------------------------------------------

// INT_ENTR, INT_EXIT, INT_HANDLER_EXIT [irq, who]: interrupt::irqN:entry and :exit, and at the
// entry of the tick (the kernel's, or a CPU's share) sched:::tick in the interrupted thread's
// context: cur (NULL: none) and its who, pid and priority.
static inline void kev_emit_int(bool d, unsigned ev, uint32_t irq, uint32_t who,
                                const struct thread *cur, uint32_t cur_who, uint32_t cur_pid,
                                unsigned cur_prio)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_INT, ev, irq, who);
    if (!d)
        return;
    kev_site_stamp(d, before);
    if (irq < DPROBE_IRQ_MAX && ev == KEV_INT_ENTER)
        KEV_D_INT_ENTR_ENTRY(KEV_EMIT_FIRE)
    if (irq < DPROBE_IRQ_MAX && ev == KEV_INT_EXIT)
        KEV_D_INT_EXIT_EXIT(KEV_EMIT_FIRE)
    if ((irq == KIRQ_TICK || irq == KIRQ_CPUTICK) && ev == KEV_INT_ENTER && cur)
        KEV_D_INT_ENTR_TICK(KEV_EMIT_FIRE)
    kev_site_close(d);
}

// ---- PR_TH --------------------------------------------------------------------------------------

// THxxx, the thread t's new state [pid, tid; in wide mode prio, policy], when `ring` (the
// caller's test: PR_TH recorded), and the sched probes of its change from the state the tracer
// saw last (*seen: D's view of t, read and set under the D lock with d), in the context of
// the thread on the CPU: into a blocked state, sleep and its block-* (block: the probe, 0 for a
// state with none); into READY, preempt (from RUNNING) or wakeup, then enqueue (none for a
// requeue at a new priority: change-pri says it); RUNNING, dequeue, then the switch to t
// (ktrace_kdt_switch: off-cpu); DEAD, lwp-exit. While they fire *seen is still the state left
// (pr_stype at wakeup: the object it slept on), as dtrace -i's replay holds it.
static inline void kev_emit_thread_state(bool d, bool ring, struct thread *t, uint8_t *seen,
                                         unsigned state, uint32_t pid, uint32_t tid,
                                         unsigned prio, unsigned policy, uint32_t who,
                                         uint32_t block, uint32_t obj, uint64_t rq_cpu)
{
    uint32_t before = kev_site_open(d);
    const unsigned prev = *seen;
    if (!d)
        *seen = (uint8_t)state;
    if (ring && trace_is_wide(&ktrace, KEV_C_PR_TH, state)) {
        const uint32_t w[4] = { pid, tid, prio, policy };
        trace_emit_words(&ktrace, KEV_C_PR_TH, state, w, 4);
    } else if (ring) {
        trace_emit_simple(&ktrace, KEV_C_PR_TH, state, pid, tid);
    }
    if (!d)
        return;
    kev_site_stamp(d, before);
    if (state == KEV_TH_RUNNING) {
        KEV_D_THSTATE_DEQUEUE(KEV_EMIT_FIRE)
        ktrace_kdt_switch(t);
    } else if (state == KEV_TH_DEAD) {
        KEV_D_THSTATE_LWP_EXIT(KEV_EMIT_FIRE)
    } else if (state == KEV_TH_READY && prev != KEV_TH_READY) {
        if (prev == KEV_TH_RUNNING)
            KEV_D_THSTATE_PREEMPT(KEV_EMIT_FIRE)
        else
            KEV_D_THSTATE_WAKEUP(KEV_EMIT_FIRE)
        KEV_D_THSTATE_ENQUEUE(KEV_EMIT_FIRE)
    } else if (block) {
        KEV_D_THSTATE_SLEEP(KEV_EMIT_FIRE)
        KEV_D_THSTATE_BLOCK(KEV_EMIT_FIRE)
    }
    *seen = (uint8_t)state;
    kev_site_close(d);
}

// THCREATE [pid, tid]: sched:::thread-create and proc:::lwp-create (who, prio: the thread's).
static inline void kev_emit_thcreate(bool d, uint32_t pid, uint32_t tid, uint32_t who,
                                     unsigned prio)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_PR_TH, KEV_TH_CREATE, pid, tid);
    if (!d)
        return;
    kev_site_stamp(d, before);
    KEV_D_THCREATE_CREATE(KEV_EMIT_FIRE)
    KEV_D_THCREATE_LWP(KEV_EMIT_FIRE)
    kev_site_close(d);
}

// THDESTROY [pid, tid]: sched:::thread-exit (who, status: the thread's exit status).
static inline void kev_emit_thdestroy(bool d, uint32_t pid, uint32_t tid, uint32_t who,
                                      int32_t status)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_PR_TH, KEV_TH_DESTROY, pid, tid);
    if (!d)
        return;
    kev_site_stamp(d, before);
    KEV_D_THDESTROY_EXIT(KEV_EMIT_FIRE)
    kev_site_close(d);
}

// ---- SYSTEM -------------------------------------------------------------------------------------

// FAULT [who, signal | kind << 8 | addr_valid << 16, pc (high, low), addr (high, low)], packed
// by the row's layout (KEV_F_FAULT), when `ring` (the caller's test: SYSTEM recorded), then
// the faulting thread t's STACK of kind FAULT (kernel/ktrace_stack.c) within the same site;
// proc:::fault in t's context (the caller's k_current), whether or not the ring records.
static inline void kev_emit_fault(bool d, bool ring, const struct thread *t, uint32_t who,
                                  int signal, unsigned kind, bool addr_valid, uint64_t pc,
                                  uint64_t addr)
{
    uint32_t before = kev_site_open(d);
    if (ring) {
        const uint32_t w[6] = {
            KEV_PACK(KEV_F_FAULT, 0), KEV_PACK(KEV_F_FAULT, 1), KEV_PACK(KEV_F_FAULT, 2),
            KEV_PACK(KEV_F_FAULT, 3), KEV_PACK(KEV_F_FAULT, 4), KEV_PACK(KEV_F_FAULT, 5),
        };
        trace_emit_words(&ktrace, KEV_C_SYSTEM, KEV_SYS_FAULT, w, 6);
        kev_site_stamp(d, before);
        ktrace_stack_user(t, KEV_STACK_FAULT);
    }
    if (!d)
        return;
    KEV_D_FAULT_FAULT(KEV_EMIT_FIRE)
    kev_site_close(d);
}

// ONCPU [who, cpu]: the switch's end, the kernel's exit into t (who its who), another thread
// than this CPU ran last. sched:::on-cpu in t's context (pid, prio: t's), then at t's first run
// (`first`: created while D ran) a spawned process's proc:::start, exec and exec-success
// (`spawned`: t is its first thread; kdt_fire_spawned) and proc:::lwp-start. The caller sends
// d false when D runs nothing here; the inline exit writes the event itself
// (ktrace_kcall.h ktrace_exit_end) when SYSTEM is on its path.
static inline void kev_emit_oncpu(bool d, const struct thread *t, uint32_t who, uint32_t cpu,
                                  unsigned prio, bool first, bool spawned)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_ONCPU, who, cpu);
    if (!d)
        return;
    kev_site_stamp(d, before);
    KEV_D_ONCPU_ON_CPU(KEV_EMIT_FIRE_AS)
    if (first) {
        if (spawned)
            kdt_fire_spawned(t);
        KEV_D_ONCPU_LWP_START(KEV_EMIT_FIRE_AS)
    }
    kev_site_close(d);
}

// ---- USER ---------------------------------------------------------------------------------------
// A program's event of code (< KEV_EVENT_MASK): user:::event with what the ring stores.

// USER [a, b] (TraceEvent INSERTSUSEREVENT).
static inline void kev_emit_user(bool d, uint32_t code, uint32_t a, uint32_t b)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_USER, code, a, b);
    if (!d)
        return;
    kev_site_stamp(d, before);
    KEV_D_USER_EVENT(KEV_EMIT_FIRE)
    kev_site_close(d);
}

// USER [a, b] from a record of a process's user-event ring (kernel/kuring.c) stamped ts, *nowp
// the drain's clock: the slot's time, which the probe takes (the record's, moved up as
// trace_emit_simple_at_now says), returned whether or not the class is recorded. Inlined
// always: the drain's loop holds the copy without D, and the ring's write inline in it.
static inline __attribute__((always_inline)) uint32_t
kev_emit_user_at(bool d, uint32_t code, uint32_t ts, uint32_t *nowp, uint32_t a, uint32_t b)
{
    if (d)
        kdt_hold();
    uint32_t at = trace_emit_simple_at_now(&ktrace, KEV_C_USER, code, ts, nowp, a, b);
    if (!d)
        return at;
    kdt_site_set(at);
    KEV_D_USER_EVENT(KEV_EMIT_FIRE)
    kev_site_close(d);
    return at;
}

// USER [w[0..n)] (INSERTCUSEREVENT; w has room for n + 1 words): the probe takes the two words
// of a one-slot event, else the payload as stored, zero-padded to whole slots.
static inline void kev_emit_user_words(bool d, uint32_t code, uint32_t *w, unsigned n)
{
    uint32_t before = kev_site_open(d);
    trace_emit_words(&ktrace, KEV_C_USER, code, w, n);
    if (!d)
        return;
    kev_site_stamp(d, before);
    if (n & 1u)
        w[n] = 0;
    if (n <= 2u) {
        uint32_t a = n ? w[0] : 0, b = n > 1u ? w[1] : 0;
        KEV_D_USER_EVENT(KEV_EMIT_FIRE)
    } else {
        kdt_fire_payload(code, w, n);
    }
    kev_site_close(d);
}

// USER [the text s] (INSERTUSRSTREVENT; s holds `size` bytes): the probe takes the payload as
// stored, the text zero-padded to its slots.
static inline void kev_emit_user_string(bool d, uint32_t code, char *s, unsigned size)
{
    uint32_t before = kev_site_open(d);
    trace_emit_string(&ktrace, KEV_C_USER, code, NULL, 0, s);
    if (!d)
        return;
    kev_site_stamp(d, before);
    unsigned len = 0;
    while (s[len])
        len++;
    __builtin_memset(s + len, 0, size - len);
    kdt_fire_payload(code, s, trace_string_words(len));
    kev_site_close(d);
}

#endif
