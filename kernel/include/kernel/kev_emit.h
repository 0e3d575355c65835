// SPDX-License-Identifier: MIT
// The kernel's emit helpers: for each event whose row in the event table (trace/kev_events.c)
// feeds D from its own site (KEV_D_EMIT, a probe of D's lists or of the row's own), one call that takes the
// event's values once, named as the row names its fields (and the values its probes add, the
// row's ?NAME), writes the ring's slot(s) from them and, with D, fires the row's probes with
// the same values, in the row's order, at the event's own stamp (ktrace_site_take), all under
// one hold of the D lock (kdt_hold), so that two CPUs' events reach D and the capture in one
// order (what the parity tests compare). The build generates them from the rows
// (tools/emitgen: <kev_emit_gen.h>, included below; docs/event-table.md lists each by name):
// every helper whose site needs nothing but its values or one rule's firings, each row
// probe's firing from its values (kev_d_<row>_<probe>(...): struct kev_dfire), and the
// packers of the rows a hand-written site writes (kev_pack_<row>(w, fields...)). The helpers
// written here are the sites that add something of their own (a kernel call's wide words and
// lockstat, the thread states, the tick, a fault's stack, a thread's first run, a user event's
// payload); each passes its values to those functions by position, binding none by its name,
// and fires what they return, the row probes' firings and the derived probes' rules
// (trace/kev_derived.h, which dtrace -i's replay follows too).
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
#include <trace/kev_derived.h>
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

// One firing f (a row probe's, kev_d_<row>_<probe>, or a rule's, trace/kev_derived.h) in
// thread t's context (NULL: the site's, k_current), with the errno err (kdt_fire_n_in pads
// the arguments past f.n with 0).
static inline void kev_emit_fire(const struct thread *t, struct kev_dfire f, uint32_t err)
{
    kdt_fire_n_in(t, f.id, f.a, f.n, err);
}

// The kernel's hooks of a rule's loop (trace/kev_derived.h kev_derived_take), about thread t:
// a firing in the site's context, or t's where the rule says so (KEV_DAS_THREAD), a spawn's
// under t's parent's name and with its program's (kdt_fire_spawn); the switch to t
// (ktrace_kdt_switch: off-cpu, the clocks).
static inline void kev_emit_rule_fire(void *t, const struct kev_dfire *f)
{
    if (f->as == KEV_DAS_PARENT || kev_dfire_program(f))
        kdt_fire_spawn(t, f, NULL);
    else    // (kev_emit_fire's call, without its copy of the firing)
        kdt_fire_n_in(f->as == KEV_DAS_THREAD ? t : NULL, f->id, f->a, f->n, 0);
}

static inline void kev_emit_rule_step(void *t, uint32_t id)
{
    (void)id;   // (KEV_DSTEP_SWITCH, the one step)
    ktrace_kdt_switch(t);
}

// A rule's n firings in order, about thread t (kev_derived_take, the hooks above).
// Out of line: a helper inlined at a site without D keeps the ring's write alone.
static __attribute__((noinline, unused)) void kev_emit_fire_all(struct thread *t,
                                                                const struct kev_dfire *f,
                                                                unsigned n)
{
    const struct kev_dtake k = { kev_emit_rule_fire, kev_emit_rule_step, t };
    kev_derived_take(f, n, &k);
}

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

// The hand-written helpers below are inlined at every call whatever their size, as the
// generated ones are for their few lines: a caller's constant d (false: the path without D)
// folds the D half away, so that path is the ring's write alone, with none of the values only
// D takes read.
#define KEV_EMIT_INLINE static inline __attribute__((always_inline))

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

// ---- the generated helpers, firings and packers (tools/emitgen, from the rows) ----------------
#include <kev_emit_gen.h>

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
KEV_EMIT_INLINE void kev_emit_kcall_entry(bool d, bool ring, struct thread *t, uint32_t call,
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
        kev_emit_fire(NULL, kev_d_ker_call_entry(call, a), 0);
    klockstat_call_entry(t, call, a);
    kev_site_close(d);
}

// KER_EXIT of call [w0, w1]: the words ktrace_kcall_exit_words makes of the result registers
// (the result, or -1 and the errno; a raw call's registers as they are). The probe's values are
// the words', read as dtrace -i reads them: the result, -errno on failure, and the errno.
KEV_EMIT_INLINE void kev_emit_kcall_exit(bool d, bool ring, struct thread *t, unsigned call,
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
        kev_emit_fire(NULL, kev_d_ker_exit_return(call, (uint64_t)(int64_t)result), err);
    klockstat_call_return(t, call, result);
    kev_site_close(d);
}

// ---- INT ----------------------------------------------------------------------------------------

// INT_ENTR, INT_EXIT, INT_HANDLER_EXIT [irq, who]: interrupt::irqN:entry and :exit, and at the
// entry of the tick (the kernel's, or a CPU's share) sched:::tick in the interrupted thread's
// context (kev_derived_tick): cur (NULL: none) and its who, pid and priority.
KEV_EMIT_INLINE void kev_emit_int(bool d, unsigned ev, uint32_t irq, uint32_t who,
                                  const struct thread *cur, uint32_t cur_who, uint32_t cur_pid,
                                  unsigned cur_prio)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_INT, ev, irq, who);
    if (!d)
        return;
    kev_site_stamp(d, before);
    if (irq < DPROBE_IRQ_MAX && ev == KEV_INT_ENTER)
        kev_emit_fire(NULL, kev_d_int_entr_entry(irq), 0);
    if (irq < DPROBE_IRQ_MAX && ev == KEV_INT_EXIT)
        kev_emit_fire(NULL, kev_d_int_exit_exit(irq), 0);
    if (ev == KEV_INT_ENTER && cur) {
        struct kev_dfire f[KEV_DFIRE_MAX];
        kev_emit_fire_all(NULL, f, kev_derived_tick(f, irq, cur_who, cur_pid, cur_prio));
    }
    kev_site_close(d);
}

// ---- PR_TH --------------------------------------------------------------------------------------

// THxxx, the thread t's new state [pid, tid; in wide mode prio, policy], when `ring` (the
// caller's test: PR_TH recorded), and the sched probes of its change from the state the tracer
// saw last (*seen: D's view of t, read and set under the D lock with d), in the context of
// the thread on the CPU, as the rule of kev_derived_change gives them (trace/kev_derived.h:
// sleep and block-* into a blocked state, obj the object it waits on when its state has one;
// preempt or wakeup and enqueue into READY; dequeue and the switch to t into RUNNING, off-cpu
// by ktrace_kdt_switch; lwp-exit into DEAD). While they fire *seen is still the state left
// (pr_stype at wakeup: the object it slept on), as dtrace -i's replay holds it.
KEV_EMIT_INLINE void kev_emit_thread_state(bool d, bool ring, struct thread *t, uint8_t *seen,
                                           unsigned state, uint32_t pid, uint32_t tid,
                                           unsigned prio, unsigned policy, uint32_t who,
                                           uint32_t obj, uint64_t rq_cpu)
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
    const struct kev_dchange c = { prev, state, who, pid, prio, obj, rq_cpu };
    struct kev_dfire f[KEV_DFIRE_MAX];
    kev_emit_fire_all(t, f, kev_derived_change(f, &c));
    *seen = (uint8_t)state;
    kev_site_close(d);
}

// THCREATE and THDESTROY: the helpers the build generates from their rows and the rules
// kev_derived_thcreate, kev_derived_thdestroy (kev_emit_thcreate(how, pid, tid, who, prio),
// kev_emit_thdestroy(how, pid, tid, who, status)).

// ---- SYSTEM -------------------------------------------------------------------------------------

// FAULT [who, signal | kind << 8 | addr_valid << 16, pc (high, low), addr (high, low)], packed
// by the row's layout (kev_pack_fault), when `ring` (the caller's test: SYSTEM recorded), then
// the faulting thread t's STACK of kind FAULT (kernel/ktrace_stack.c) within the same site;
// proc:::fault in t's context (the caller's k_current: kev_derived_fault), whether or not the
// ring records.
KEV_EMIT_INLINE void kev_emit_fault(bool d, bool ring, const struct thread *t, uint32_t who,
                                    int signal, unsigned kind, bool addr_valid, uint64_t pc,
                                    uint64_t addr)
{
    uint32_t before = kev_site_open(d);
    if (ring) {
        uint32_t w[6];
        kev_pack_fault(w, who, (uint32_t)signal, kind, addr_valid, pc, addr);
        trace_emit_words(&ktrace, KEV_C_SYSTEM, KEV_SYS_FAULT, w, 6);
        kev_site_stamp(d, before);
        ktrace_stack_user(t, KEV_STACK_FAULT);
    }
    if (!d)
        return;
    struct kev_dfire f[KEV_DFIRE_MAX];
    kev_emit_fire_all(NULL, f, kev_derived_fault(f, (uint64_t)(int64_t)signal));
    kev_site_close(d);
}

// ONCPU [who, cpu]: the switch's end, the kernel's exit into t (who its who), another thread
// than this CPU ran last. sched:::on-cpu in t's context (pid, prio: t's), then at t's first run
// (`first`: created while D ran) what kev_derived_first_run gives: a spawned process's
// proc:::start, exec and exec-success (its first thread: kev_derived_spawned) and
// proc:::lwp-start. The caller sends d false when D runs nothing here; the inline exit writes
// the event itself (ktrace_kcall.h ktrace_exit_end) when SYSTEM is on its path.
KEV_EMIT_INLINE void kev_emit_oncpu(bool d, struct thread *t, uint32_t who, uint32_t cpu,
                                    unsigned prio, bool first)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_ONCPU, who, cpu);
    if (!d)
        return;
    kev_site_stamp(d, before);
    kev_emit_fire(t, kev_d_oncpu_on_cpu(who, prio), 0);
    if (first) {
        struct kev_dfire f[KEV_DFIRE_MAX];
        kev_emit_fire_all(t, f, kev_derived_first_run(f, who, kev_who_pid(who), prio));
    }
    kev_site_close(d);
}

// ---- USER ---------------------------------------------------------------------------------------
// A program's event of code (< KEV_EVENT_MASK): user:::event with what the ring stores.

// USER [a, b] (TraceEvent INSERTSUSEREVENT).
KEV_EMIT_INLINE void kev_emit_user(bool d, uint32_t code, uint32_t a, uint32_t b)
{
    uint32_t before = kev_site_open(d);
    trace_emit_simple(&ktrace, KEV_C_USER, code, a, b);
    if (!d)
        return;
    kev_site_stamp(d, before);
    kev_emit_fire(NULL, kev_d_user_event(code, a, b), 0);
    kev_site_close(d);
}

// USER [a, b] from a record of a process's user-event ring (kernel/kuring.c) stamped ts, *nowp
// the drain's clock: the slot's time, which the probe takes (the record's, moved up as
// trace_emit_simple_at_now says), returned whether or not the class is recorded. Inlined
// always: the drain's loop holds the copy without D, and the ring's write inline in it.
KEV_EMIT_INLINE uint32_t
kev_emit_user_at(bool d, uint32_t code, uint32_t ts, uint32_t *nowp, uint32_t a, uint32_t b)
{
    if (d)
        kdt_hold();
    uint32_t at = trace_emit_simple_at_now(&ktrace, KEV_C_USER, code, ts, nowp, a, b);
    if (!d)
        return at;
    kdt_site_set(at);
    kev_emit_fire(NULL, kev_d_user_event(code, a, b), 0);
    kev_site_close(d);
    return at;
}

// USER [w[0..n)] (INSERTCUSEREVENT; w has room for n + 1 words): the probe takes the two words
// of a one-slot event, else the payload as stored, zero-padded to whole slots.
KEV_EMIT_INLINE void kev_emit_user_words(bool d, uint32_t code, uint32_t *w, unsigned n)
{
    uint32_t before = kev_site_open(d);
    trace_emit_words(&ktrace, KEV_C_USER, code, w, n);
    if (!d)
        return;
    kev_site_stamp(d, before);
    if (n & 1u)
        w[n] = 0;
    if (n <= 2u) {
        kev_emit_fire(NULL, kev_d_user_event(code, n ? w[0] : 0, n > 1u ? w[1] : 0), 0);
    } else {
        kdt_fire_payload(code, w, n);
    }
    kev_site_close(d);
}

// USER [the text s] (INSERTUSRSTREVENT; s holds `size` bytes): the probe takes the payload as
// stored, the text zero-padded to its slots.
KEV_EMIT_INLINE void kev_emit_user_string(bool d, uint32_t code, char *s, unsigned size)
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
