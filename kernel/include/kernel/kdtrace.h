// SPDX-License-Identifier: MIT
// The kernel's D provider (kdtrace.c): the DTrace kernel call, and the firing of D probes
// from the trace hooks (ktrace.c). kdt_active is set while a loaded program runs; the hooks
// reach kdt_fire() only then (the flags ktrace_sync computes include it), so a disabled probe
// costs what the plain hook costs. Firings hold the D lock (kdtrace.c, LOCKING): they may come
// from shared entries on several CPUs at once.
#ifndef KERNEL_KDTRACE_H
#define KERNEL_KDTRACE_H

#include <kernel/kernel.h>
#include <kernel/cpu.h>     // KMAX_CPUS
#include <kernel/ktrace.h>

struct thread;
struct proc;

// kdt_active and kdt_call: the core's hooks (kernel/ktrace.h).
// Fires probe `id` (d/dprobes.h) in the context of the current thread, with up to 6 arguments.
void kdt_fire(uint32_t id, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3);
// The same in the context of thread t (sched:::off-cpu: the thread going off, not k_current).
void kdt_fire_as(const struct thread *t, uint32_t id, uint64_t a0, uint64_t a1, uint64_t a2,
                 uint64_t a3);
// The same with 64-bit arguments a[0..n) (the rest 0), in the context of thread t (NULL:
// k_current; sched:::on-cpu gives the thread coming on) and with the firing's errno err (0 but
// at kercall:::return of a call that failed): the emit helpers' (kernel/kev_emit.h). Out of
// line: stack( ) starts at the frame that called it.
void kdt_fire_n_in(const struct thread *t, uint32_t id, const uint64_t *a, unsigned n,
                   uint32_t err);
static inline void kdt_fire_n(uint32_t id, const uint64_t *a, unsigned n)
{
    kdt_fire_n_in(NULL, id, a, n, 0);
}
// Fires the loaded program's probe of index pidx (its dif_probe; the fbt provider maps each
// placed site to it once, kernel/kfbt.c) with args (DVM_NARGS of them).
void kdt_fire_probe(uint32_t pidx, const uint64_t *args);
// kdt_vtime_switch: `next` was chosen to run on this CPU (its RUNNING event, while a program
// is active): the CPU time of the thread that ran until then is added to its vtimestamp, at
// the site's time (kdt_hold below).
void kdt_vtime_switch(struct thread *next);
// The program's tick-N and profile-N probes (kernel/kprof.c runs them on each CPU, from its
// profile timer or from the tick): kdt_timers_run fires those due on this CPU by the time
// `cycles` (board_cycles(): the STACK event's own stamp when a sample was just taken),
// profile-N on every CPU and tick-N where tick_cpu; kdt_timers_next gives the earliest time
// (ns since boot) one of them is next due on cpu, 0 for none (no program running, none there).
void kdt_timers_run(bool tick_cpu, uint64_t cycles);
uint64_t kdt_timers_next(unsigned cpu, bool tick_cpu);
// Whether the loaded program's consumer may trace p: privileged (KAPP_F_PRIV), or p runs the
// consumer's own program (docs/hostile.md, "What a consumer may do").
bool kdt_may_trace(const struct proc *p);
// An exclusive exit with notifications (ktrace.c ktrace_exit_notify): when a shared firing ran
// exit(), the probes go off now (kdtrace.c, LOCKING).
void kdt_settle(void);
// The D lock held across a hook's trace event and its firings while a program runs
// (ktrace.c), so that D fires in the order the capture records; kdt_fire and the others nest
// inside. The outermost hold opens the hook's site: its firings all have one time, the time
// the hold began, or the hook's event's stamp once kdt_site_set gave it (ts32: the slot's low
// cycle word), so that each probe's timestamp is its event's (docs/d-probes.md "Time").
void kdt_hold(void);
// What the firings cost since KDT_GO (uapi/kdtrace.h KDT_COST): kdt_cost_reset at the go, then
// kdt_cost_read (exclusive: no firing under way).
struct kdt_cost;
void kdt_cost_reset(void);
void kdt_cost_read(struct kdt_cost *out);
void kdt_cost_stop(void);    // at KDT_STOP: frozen, and the capture's DCOST event
// Whether probe id fires now (a program runs and enables it, on this CPU under -x cpu).
bool kdt_wanted(uint32_t id);
void kdt_release(void);
void kdt_site_set(uint32_t ts32);
// The open site's time (cycles); only within a hold.
uint64_t kdt_site_cycles(void);
// user:::event for a user event stored in more than one slot (kdtrace_text.c, d/dutext.h):
// arg1 DUTEXT_ADDR, where copyin/copyinstr read `bytes` (dutext_size(nwords) of them, the
// stored payload, zero-padded), arg2 that size. kdt_text_read is kdt_uread's first step.
void kdt_fire_payload(uint32_t code, const void *bytes, unsigned nwords);
int kdt_text_read(void *dst, uint64_t addr, unsigned n);
// One firing f of a spawn's rule (trace/kev_derived.h kev_derived_spawned at a spawned
// process's first thread's first run, kev_derived_spawn_failed) in thread t's context (NULL:
// the site's), under t's parent's name where the rule says so (KEV_DAS_PARENT), arg0's text
// the program's name where it says so (kev_dfire_program): `program`, or NULL for t's process's.
struct kev_dfire;
void kdt_fire_spawn(const struct thread *t, const struct kev_dfire *f, const char *program);
// The text copyin( )/copyinstr( ) read at DUTEXT_ADDR while a probe fires (kdtrace_text.c): len
// bytes at p; kdt_text_clear( ) after the firing.
void kdt_text_set(const void *p, unsigned len);
void kdt_text_clear(void);

// The loaded program's .dobj header, as KDT_LOAD gave it (kdtrace.c sets it, kdt_fire.c keeps
// it beside kdt_dst; an incident record keeps it).
struct dobj_file_hdr;
extern struct dobj_file_hdr kdt_dobj_hdr;
// A trigger action (freeze( ), panic( ), breakpoint( )) ran in program d's firing on this CPU
// that just ended, in thread t's context (proc:::fault's args[0] the signal), at the site's
// time `cycles`: the ring frozen, the TRIGGER event, the incident record, and panic( )'s
// panic or breakpoint( )'s halt (kdt_trigger.c).
struct dvm_state;
void kdt_trigger_ran(struct dvm_state *d, const struct dobj_file_hdr *h, const struct thread *t,
                     uint32_t id, const uint64_t *args, uint64_t cycles);

// ---- lockstat (kernel/klockstat.c) -----------------------------------------------------------
// Its per-thread memory while a D program runs (KDT_LOAD / unload; 0 or -ENOMEM); whether it
// has it; a SYNC_* call's entry and return (the kernel-call events' site, kev_emit.h), and the
// thread's block behind `who` at `since` (SYNC_WAIT's site, cycles).
int klockstat_d_start(void);
void klockstat_d_stop(void);
bool klockstat_on(void);
void klockstat_call_entry(struct thread *t, uint32_t n, const uint32_t *a);
void klockstat_call_return(struct thread *t, unsigned n, int32_t result);
void klockstat_blocked(const struct thread *t, uint32_t who, uint64_t since);

// ---- the provider's state ----------------------------------------------------------------
// kdtrace.c's commands write it on the exclusive side (no firing runs then); kdt_fire.c's
// firings read it. The loaded program's engine state (at the start of its block) and its
// consumer (NULL: none), -x cpu (N + 1; 0: every CPU), and its timer probes: tick-N fires on
// one CPU (one firing a period: CPU 0 from its profile timer, or, on a board without one, the
// CPU that takes the kernel's tick), profile-N on every CPU (DTrace's rule), so each keeps a
// next time per CPU (kernel/kprof.c runs them; next_ns is CPU c's, written by CPU c there or by
// the exclusive side at KDT_GO).
struct dvm_state;
extern struct dvm_state *kdt_dst;
extern struct proc *kdt_consumer;
extern uint32_t kdt_cpu_only;
#define KDT_MAX_TIMERS 8
struct kdt_timer {
    uint32_t id, flags;
    uint64_t period_ns, next_ns[KMAX_CPUS];
};
extern struct kdt_timer kdt_timers[KDT_MAX_TIMERS];
extern unsigned kdt_ntimers;
// KDT_GO: walltimestamp's base read now; lockstat's spin probes on (as the program enables
// them) or off; the engine's readers of user and kernel memory and its user-memory rule.
void kdt_wall_base_read(uint64_t now);
void kdt_go_clocks(struct thread *running);
// KDT_GO's and KDT_STOP's DPROG event (KEV_DPROG_GO, _STOP), within a hold: the site's
// cycles, its stamp; BEGIN's clauses at the go's (false: they ran exit()).
uint64_t kdt_span_mark(uint32_t what);
bool kdt_fire_begin(uint64_t cycles);
void kdt_spin_probes(bool on);
int kdt_uread(void *dst, uint64_t addr, unsigned n);
int kdt_user_ok(void);
int kdt_kread(void *dst, uint64_t addr, unsigned n);
int32_t kdt_nrunnable(unsigned cpu);

#endif
