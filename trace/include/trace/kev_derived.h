// SPDX-License-Identifier: MIT
// The derived D probes' rules: which sched and proc probes a thread's change fires, in what
// order and with what arguments, written once for the kernel (kernel/include/kernel/kev_emit.h,
// which fires what a rule returns live) and dtrace -i (tools/dtrace/kevreplay.c, which fires
// the same over a capture), so that both fire the same probes by construction. A rule is a pure
// function from the change (the thread's states before and after, its who, pid and priority,
// the object it waits on, the run queue's CPU) to its firings; the caller keeps the context
// work (whose context a firing runs in, the CPUs' threads, the clocks) and takes the steps a
// rule names at their place (KEV_DSTEP_*). The state -> probe table is trace/kev_derived.c's.
// Freestanding, no state: used on target and host alike. Its test is test/unit/test_kev_derived.c
// (transitions in, firings out); docs/d-probes.md gives each probe's arguments.
#ifndef TRACE_KEV_DERIVED_H
#define TRACE_KEV_DERIVED_H

#include <stdint.h>
#include <d/dprobes.h>

#define KEV_DFIRE_ARGS 6u   // a firing's arguments at most (a kernel call's entry's six)
#define KEV_DFIRE_MAX  4u   // a rule's firings at most (a spawned process's first run)

// Whose context a firing runs in: the site's thread (the kernel's k_current, the replay's
// thread running on the event's CPU), the thread the rule is about (on-cpu and what follows
// it: the thread coming on), the thread going off the CPU (off-cpu), or the thread the rule is
// about under its parent's name (execname, curpsinfo->pr_fname: a spawned process's start and
// exec, as in a forked child before its exec; "kernel" when it has no parent).
enum kev_das { KEV_DAS_SITE, KEV_DAS_THREAD, KEV_DAS_OFF, KEV_DAS_PARENT };

// A step the caller takes itself at that place among the firings (an id no probe has):
// KEV_DSTEP_SWITCH, the thread was chosen to run: the CPU's switch begins (off-cpu in the
// context of the one going off, kev_derived_offcpu; vtimestamp's clocks).
#define KEV_DSTEP_SWITCH  0xfffff001u
#define KEV_DSTEP(id) ((id) >= KEV_DSTEP_SWITCH)

// One firing: the probe (d/dprobes.h) or a step, its context, its n arguments (the rest 0).
struct kev_dfire {
    uint32_t id;
    uint8_t n, as;
    uint64_t a[KEV_DFIRE_ARGS];
};

// Whether f's arg0 is DUTEXT_ADDR (d/dutext.h), where copyinstr( ) reads the name of the program
// a spawn named, NUL included: proc:::exec's args[0], the one firing that has it, which the
// caller serves there while the firing runs (the kernel has it; a capture holds a started
// program's name, not a failed one's). By the probe, so that no firing carries a flag for it.
static inline int kev_dfire_program(const struct kev_dfire *f)
{
    return f->id == DPROBE_PROC_EXEC;
}

// The caller's half of a rule: fire(user, f) fires one firing in the context f->as names (with
// the program's name where kev_dfire_program says so); step(user, id) takes a step (KEV_DSTEP_*;
// NULL for a caller whose rules name none: kev_derived_spawn_failed's).
struct kev_dtake {
    void (*fire)(void *user, const struct kev_dfire *f);
    void (*step)(void *user, uint32_t id);
    void *user;
};
// A rule's n firings in order, each fired or, a step, taken at its place: the one loop the
// kernel's sites (kev_emit.h) and dtrace -i (kevreplay.c) both take a rule's firings by. Inline,
// so that the kernel's constant hooks fold into its caller as the loop it replaced.
static inline void kev_derived_take(const struct kev_dfire *f, unsigned n,
                                    const struct kev_dtake *k)
{
    for (unsigned i = 0; i < n; i++) {
        if (!KEV_DSTEP(f[i].id))
            k->fire(k->user, &f[i]);
        else if (k->step)
            k->step(k->user, f[i].id);
    }
}

// A state the reader has not seen (a thread first met in a capture): wakeup's arg3 is 0.
#define KEV_DSTATE_UNKNOWN 0xffu

// A blocked state's rule: sched:::sleep (arg3 the state), then its block probe (0: none),
// arg3 the object it waits on when the state has one: the first argument of the kernel call
// (`call`, or `call2`; 0: no object, arg3 0) that blocked it, which is what the kernel reads
// from the thread (its connection, its channel, the thread it joins) and dtrace -i takes from
// that call's entry event. Calls by their numbers (uapi/kcall.h's KC_*).
struct kev_dblock {
    uint8_t state;      // KEV_TH_*
    uint32_t probe;     // DPROBE_SCHED_BLOCK_*, or 0
    uint16_t call, call2;
};
// The rule of a blocked state, or NULL: a state with none fires no sleep.
const struct kev_dblock *kev_derived_block(unsigned state);

// A thread's state change: prev the state it left (as the tracer last saw it, or
// KEV_DSTATE_UNKNOWN), next the state it enters (the event's number), the thread (who, pid,
// priority), the object it waits on (the kernel's value; used when its state's rule has one),
// the CPU whose run queue it joins or leaves (enqueue's, dequeue's arg3).
struct kev_dchange {
    unsigned prev, next;
    uint32_t who, pid, prio;
    uint64_t obj, rq_cpu;
};
// Its firings into out (KEV_DFIRE_MAX): RUNNING: dequeue, then the switch (KEV_DSTEP_SWITCH);
// DEAD: lwp-exit; READY from another state: preempt (from RUNNING) or wakeup (arg3 the state
// left), then enqueue (none for a requeue at a new priority: change-pri says it); a blocked
// state with a rule: sleep and its block probe; any other: none. All in the site's context.
unsigned kev_derived_change(struct kev_dfire *out, const struct kev_dchange *c);

// The run queue a capture gives dequeue (the change's rq_cpu into RUNNING) for a thread chosen
// to run on CPU cpu: `from` when a STEAL event of it came just before its RUNNING on cpu (the
// choice took it from CPU from's queue; KEV_DSTEAL_NONE: none came), else cpu's own: a CPU's
// choice takes its thread from its own queue, one on another CPU's queue moved there first in
// the same choice, which STEAL records (kernel/sched.c steal_taken). The kernel knows the
// queue itself (the thread's rq_cpu); dtrace -i asks this.
#define KEV_DSTEAL_NONE 0xffffffffu
unsigned kev_derived_dequeue_cpu(unsigned cpu, uint32_t from);

// The switch's off-cpu (KEV_DSTEP_SWITCH), in the context of the thread going off: arg0-arg2
// the thread coming on, arg3 the state the one going off is left in, as its last event said.
unsigned kev_derived_offcpu(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio,
                            uint64_t off_state);

// An interrupt's entry on line irq with the thread it interrupts (who, pid, priority): at the
// tick's lines (uapi/ktrace.h KIRQ_TICK the kernel's tick, KIRQ_CPUTICK a CPU's share)
// sched:::tick, in the site's context. The caller has a thread to name.
unsigned kev_derived_tick(struct kev_dfire *out, uint64_t irq, uint64_t who, uint64_t pid,
                          uint64_t prio);

// A thread's first run, after its on-cpu (a thread created while D ran): a spawned process's
// (pid not the kernel's, its first thread) kev_derived_spawned, then proc:::lwp-start (who,
// pid, priority) in its context.
unsigned kev_derived_first_run(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio);
// A spawn is Solaris's fork and exec at once: at the new process's first thread's first run
// (who, pid, priority), proc:::start (who, pid, priority) and proc:::exec (args[0] the
// program's name, kev_dfire_program) as in a forked child before its exec, in that thread under its
// parent's name (KEV_DAS_PARENT), then exec-success (pid) in the thread as itself.
unsigned kev_derived_spawned(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio);
// A spawn that failed with errno err (ProcSpawn's return, before its kercall:::return): no
// child exists, so in the spawner's (the site's) context, proc:::exec (args[0] the name of the
// program it named, kev_dfire_program), then exec-failure (err).
unsigned kev_derived_spawn_failed(struct kev_dfire *out, uint64_t err);

// THCREATE: sched:::thread-create and proc:::lwp-create (who, pid, priority).
unsigned kev_derived_thcreate(struct kev_dfire *out, uint64_t who, uint64_t pid, uint64_t prio);
// THDESTROY: sched:::thread-exit (who, its exit status: the kernel's; no capture holds it).
unsigned kev_derived_thdestroy(struct kev_dfire *out, uint64_t who, uint64_t status);
// FAULT: proc:::fault (the signal the fault gives), in the faulting thread's context.
unsigned kev_derived_fault(struct kev_dfire *out, uint64_t signal);

// The rows whose site fires nothing but one rule's firings, from its values: the build writes
// their emit helpers (tools/emitgen) as it writes the rows' own, kev_emit_<row>(how, fields...,
// values...), the rule's parameters the row's fields of those names and then the site's values.
#define KEV_DERIVED_ROWS(X) \
    X(THCREATE, kev_derived_thcreate, "who pid prio") \
    X(THDESTROY, kev_derived_thdestroy, "who status")

#endif
