// SPDX-License-Identifier: MIT
// The kernel's D provider: one loaded D program at a time. KDT_LOAD copies the DIF object into
// a block from the contiguous allocator and lets the engine (trace/d) verify it and lay out its
// buffers in the same block, which is then mapped read-only into the consumer. KDT_GO fires
// BEGIN and turns the probes on: the trace hooks call kdt_fire() for their probe ids
// (d/dprobes.h); the engine runs the enabled clauses, predicates first, so a false predicate
// records nothing. KDT_READ hands the consumer the records of a principal buffer; KDT_STOP
// fires END.
//
// LOCKING (docs/smp.md, "D on several CPUs"). The engine has one state (struct
// dvm_state: global variables, the dynamic-variable hash and its free list, thread-locals,
// aggregations, speculations) and no lock of its own ("the caller runs dvm_fire() with
// interrupts off" and one firing at a time). Probes fire on both sides of the big-reader lock
// (kernel/klock.h): in exclusive entries, and, with several CPUs, in shared ones (message and
// sync calls, reschedule IPIs, event interrupts, the user-event drain), several CPUs at once.
// So every call into the engine from a firing path holds kdt_lock (rank KLOCK_RANK_D, the
// last: a leaf among the kernel's ranks, taken with any other shared-side lock held; only the
// trace ring's own locks are taken under it, by the hooks' hold below): the
// fire functions below, kdt_timers_run's firings (through kdt_fire), and kdt_vtime_switch (the
// threads' vtimestamp clocks, which firings read). The trace hooks that fire D and record an
// event (ktrace.c: a state change, a message, an interrupt, a priority) hold it across both
// (kdt_hold; the firings inside nest), so that D sees two CPUs' events in the order the
// capture records them: the parity test's live answers equal dtrace -i's over the capture
// (off by one or two in six scripts without it). Under it the engine calls back into
// kdt_uread (proc_can_read: memory maps, changed on the exclusive side alone; kdt_text_read:
// this CPU's window), kstack_for_d (this thread's stacks, this CPU's probe site) and
// vtime_ns: none takes a lock. The consumer's commands (kdt_call: KDT_LOAD, GO, READ, STOP,
// UNLOAD, AGG*) run exclusive, with no other CPU in the kernel (a64_kernel_lock waits for every
// CPU's shared word), so no firing is under way and they take no lock. One CPU
// (KMAX_CPUS == 1): entries never nest and the lock compiles away.
// exit() in a shared firing: the engine sets dst->exiting, after which nothing fires (dvm_fire
// tests it, and so does fire_begin under the lock); kdt_active is cleared by the exclusive side
// only, since the hooks' flags and the entry's call instruction follow it (ktrace_sync, the
// exclusive side's work): the firing CPU queues a notification as the ring does when it stops
// itself (ktrace_kdt_exited), whose exclusive delivery clears it (kdt_settle).
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/thread.h>
#include <kernel/proc.h>
#include <kernel/pmem.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/ktimer.h>
#include <d/dvm.h>
#include <d/dprinfo.h>
#include <trace/period_due.h>
#include <d/dprobes.h>
#include <d/dtimers.h>
#include <d/dstacks.h>
#include <d/dutext.h>
#include <kernel/kstack.h>
#include <kernel/kunmap.h>
#include <kernel/klock.h>
#include <kernel/kfbt.h>
#include <kernel/kusdt.h>
#include <kernel/kpid.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kprof.h>
#include <kernel/kdata.h>
#include <uapi/kdtrace.h>

bool kdt_active;
static struct dvm_state *dst;       // at the start of the block, mapped into the consumer
static void *block;
static uint32_t block_len;
static struct proc *consumer;

#define KDT_MAX_TIMERS 8
// tick-N fires on one CPU (one firing a period): CPU 0, from its profile timer, or, on a board
// without one, the CPU that takes the kernel's tick; profile-N on every CPU (DTrace's rule), so
// it keeps a next time per CPU (kernel/kprof.c runs them; next_ns is CPU c's, written by CPU c
// there or by the exclusive side at KDT_GO).
static struct {
    uint32_t id, flags;
    uint64_t period_ns, next_ns[KMAX_CPUS];
} timers[KDT_MAX_TIMERS];
static unsigned ntimers;
// -x cpu=N: N + 1 (0: every CPU). As DTrace's option, only CPU N traces: the probes of the
// kernel's providers and profile-N fire there alone. BEGIN and END (the consumer's), ERROR
// (raised by a firing that passed) and tick-N (the system's clock, which fires on one CPU of
// its own) fire wherever they come, so that a program still starts, ends and counts time.
static uint32_t cpu_only;

// The engine's lock (LOCKING above; several CPUs only, with one it compiles away), and the
// site's time. A CPU may hold the lock across a hook's trace event and its firings (kdt_hold),
// so that the order of D's firings is the capture's order: the firings inside nest (this CPU's
// count). The outermost hold opens a site: every firing inside it has one time, its
// `timestamp` (docs/d-probes.md "Time"), the hook's event's stamp once the hook gave it
// (kdt_site_set), else the time the hold began. So a probe's time is the instant the kernel
// reached its site, never later for the clauses that ran before it, and the very time its
// event carries. A firing outside any hold is a site of its own, at its own time; one nested
// in a site's firings (a hold inside a hold) has that site's time. Per CPU, written by that
// CPU alone.
static uint8_t d_held[KMAX_CPUS];       // this CPU's nested holds
static uint64_t site_at[KMAX_CPUS];     // the open site's time (cycles)
#if KMAX_CPUS > 1
static struct kspin kdt_lock;
static inline bool in_shared(void) { return arch_kernel_in_shared(); }
#else
static inline bool in_shared(void) { return false; }
#endif
static inline void d_lock(void)
{
    unsigned c = cpu_id();
    if (d_held[c]++ == 0) {
#if KMAX_CPUS > 1
        kspin_lock(&kdt_lock, KLOCK_RANK_D);
#endif
        site_at[c] = board_cycles();
    }
}
static inline void d_unlock(void)
{
#if KMAX_CPUS > 1
    if (--d_held[cpu_id()] == 0)
        kspin_unlock(&kdt_lock, KLOCK_RANK_D);
#else
    d_held[0]--;
#endif
}

// The open site's time (cycles): one reading of the clock a site.
static inline uint64_t site_cycles(void)
{
    return site_at[cpu_id()];
}

static uint64_t now_ns(void) { return ktimer_cycles_to_ns(board_cycles()); }

uint64_t kdt_site_cycles(void)
{
    return site_cycles();
}

// ts32 was stamped after the hold began (its low word), far less than 2^32 cycles later.
void kdt_site_set(uint32_t ts32)
{
    unsigned c = cpu_id();
    if (d_held[c] == 1)     // the outermost hold's site (a nested one keeps its time); a
                            // drained record's slot may lie before the hold began (kuring.c)
        site_at[c] += (uint64_t)(int64_t)(int32_t)(ts32 - (uint32_t)site_at[c]);
}

static bool kdt_user_allowed(const struct thread *t);

// copyin's reader (dvm_uread): the current process's memory, only the bytes proc_can_read
// allows it (its RAM, flash and mappings), so a bad address is a fault to ERROR, never a
// kernel fault; and only a process the consumer may trace (else DVM_UREAD_PRIV, the ERROR's
// privilege fault). A user event's payload is the trace's, which any consumer captures: read
// in any process.
static int kdt_uread(void *dst, uint64_t addr, unsigned n)
{
    const struct thread *t = k_current;
    int text = kdt_text_read(dst, addr, n);     // a user event's payload (kdtrace_text.c)
    if (text)
        return text > 0 ? 0 : -1;
    if (!kdt_user_allowed(t))
        return DVM_UREAD_PRIV;
    if (!t || !t->proc || addr > UINT32_MAX || !proc_can_read(t->proc, (uint32_t)addr, n))
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

// Whether the consumer may trace process p (DTrace's dtrace_proc, docs/pid.md "Who may"):
// a privileged consumer any process, another only its own program's (a program runs as one
// process at a time). The rule of the pid provider's placing (kpid.c) and of the actions that
// read user memory (dvm_user_ok below). Read in firings: consumer and the apps change on the
// exclusive side alone.
bool kdt_may_trace(const struct proc *p)
{
    return consumer && p && ((consumer->app->flags & KAPP_F_PRIV) || consumer->app == p->app);
}

// dvm_user_ok: the firing's process (the thread on the CPU) is one the consumer may trace; a
// kernel thread has no user memory, and its reads stay kdt_uread's invalid addresses.
static bool kdt_user_allowed(const struct thread *t)
{
    return !t || !t->proc || kdt_may_trace(t->proc);
}

static int kdt_user_ok(void)
{
    return kdt_user_allowed(k_current);
}

// D's `name (dvm_kread): the kernel variable's bytes, for a privileged consumer only (DTrace's
// dtrace_kernel; a program that reads one is refused at KDT_GO otherwise: kvar_allowed), and
// only inside the kernel's own data and bss (kernel/kdata.c), which the compiler's symbol
// table names; anything else is an invalid address.
static int kdt_kread(void *dst, uint64_t addr, unsigned n)
{
    if (!consumer || !(consumer->app->flags & KAPP_F_PRIV))
        return DVM_UREAD_PRIV;
    if (!kdata_holds(addr, n))
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

// dvm_lwpinfo, D's translated types (d/dprinfo.h): thread `who` (pid << 16 | tid, its trace_who), or the
// process who >> 16 when who's tid is 0, from the thread and process tables. Read in a firing
// under the D lock: the tables are written on the exclusive side (a thread's state and
// priority also under the locks of the site that fires, as fill_ctx_of's fields), and the
// state a firing reads is the one its site has just set, as the capture's event says it.
// traced_state, until the site's event is written, is the state the thread left.
int dvm_lwpinfo(uint32_t who, struct dvm_lwpinfo *out)
{
    const struct proc *p = NULL;
    if (who >> 16) {
        p = proc_by_pid((int)(who >> 16));
        if (!p)
            return -1;
    }
    out->ppid = p ? p->ppid : 0;
    out->nlwp = p ? p->nthreads : 1;
    out->fname = p ? p->name : "kernel";
    if (!(who & 0xffffu))
        return 0;
    for (unsigned i = 0; i < KMAX_THREADS; i++) {
        const struct thread *t = &k_threads[i];
        if (!t->in_use || t->trace_who != who)
            continue;
        out->state = t->state;
        out->left = t->traced_state;
        out->cpu = t->cpu;
        out->idle = !t->proc && t == k_cpus[t->cpu].idle;
        return 0;
    }
    return -1;
}

// vtimestamp: the time a thread has spent on the CPU while D programs ran. Its clock switches
// at each RUNNING event while a program is active (kdt_vtime_switch, from ktrace.c's
// ktrace_kdt_switch, at that event's site time), so it costs nothing otherwise and dtrace -i
// keeps the same clocks from the capture's THRUNNING events; KDT_GO starts the clock for the
// thread that is running. vt_running is the thread whose clock runs on each CPU. Under the D lock: a
// thread's clock (vt_since, vt_cycles) is opened by the CPU it goes on and closed by the one it
// left, and on several CPUs the two may come in either order (the thread blocked on CPU A and
// CPU B chose it before A's next choice), so B's opening closes what A left running first and
// takes it off A's slot: A's next choice then closes nothing of it.
static struct thread *vt_running[KMAX_CPUS];   // per CPU, under the D lock

static void vtime_switch_locked(struct thread *next)
{
    unsigned me = cpu_id();
    struct thread **running = &vt_running[me];
    if (next == *running)
        return;
    uint64_t now = site_cycles();
    if (*running && (*running)->vt_since) {
        (*running)->vt_cycles += now - (*running)->vt_since;
        (*running)->vt_since = 0;
    }
    if (KMAX_CPUS > 1 && next->vt_since) {  // still open on the CPU it left (see above)
        for (unsigned c = 0; c < KMAX_CPUS; c++)
            if (c != me && vt_running[c] == next)
                vt_running[c] = NULL;
        next->vt_cycles += now - next->vt_since;
    }
    *running = next;
    next->vt_since = now;
}

void kdt_vtime_switch(struct thread *next)
{
    d_lock();
    vtime_switch_locked(next);
    d_unlock();
}

// t's vtimestamp at `now` (the site's cycles), under the D lock.
static uint64_t vtime_ns(const struct thread *t, uint64_t now)
{
    if (!t)
        return 0;
    uint64_t c = t->vt_cycles;
    if (t->vt_since)
        c += now - t->vt_since;
    return ktimer_cycles_to_ns(c);
}

// walltimestamp's base: the host's date at boot in ns since 1970, read once per program at
// KDT_GO with semihosting's SYS_TIME (whole seconds) less the time since boot; 0 on a board
// without semihosting (walltimestamp is then the time since boot). A capture's is its header's
// boot date (the tracelogger reads the same clock; kevreplay.c boot_date_ns).
static uint64_t wall_base_ns;

static void wall_base_read(uint64_t now)
{
    wall_base_ns = 0;
    if (!board_has_semihosting())
        return;
    int32_t secs = arch_semihost(0x11, 0);      // SYS_TIME: seconds since 1970 on the host
    uint64_t ns = secs > 0 ? (uint64_t)secs * 1000000000ull : 0;
    wall_base_ns = ns > now ? ns - now : 0;
}

// A firing's context, in thread t's name (k_current, or the thread going off the CPU for
// sched:::off-cpu), at the time `cycles` (the site's). t's fields read here (proc, tid, index, prio; the process's pid, ppid,
// name, nthreads) are written on the exclusive side, or (prio) under the locks of the site that
// fires (thread.c, sync.c): a shared firing "as" another thread sees them as that site does.
static void fill_ctx_of(struct dvm_ctx *ctx, const struct thread *t, uint64_t cycles)
{
    const struct proc *p = t ? t->proc : NULL;
    ctx->cpu = cpu_id();   // D's principal buffers, aggregations and speculations are per CPU
    ctx->pid = p ? p->pid : 0;
    ctx->tid = p ? t->tid : (t ? t->index + 1 : 0);
    ctx->ppid = p ? p->ppid : 0;
    ctx->errno_ = 0;
    ctx->timestamp = ktimer_cycles_to_ns(cycles);
    ctx->walltimestamp = wall_base_ns + ctx->timestamp;
    ctx->vtimestamp = vtime_ns(t, cycles);
    ctx->execname = p ? p->name : "kernel";
    ctx->prio = t ? t->prio : 0;
    ctx->nlwp = p ? p->nthreads : 1;
}

// Table probes are fired only when enabled; timer probes (ids from DPROBE_TIMER_BASE) exist
// only when the program has them. Read without the D lock: kdt_active, dst, cpu_only and the
// enabled table change on the exclusive side alone (a shared exit() leaves kdt_active to it).
static bool wanted(uint32_t id)
{
    if (KMAX_CPUS > 1 && kdt_active && cpu_only && id > DPROBE_ERROR &&
        id < DPROBE_TIMER_BASE && cpu_id() != cpu_only - 1u)
        return false;
    return kdt_active && (id >= DPROBE_TIMER_BASE || dvm_enabled(dst, id));
}

bool kdt_wanted(uint32_t id)
{
    return wanted(id);
}

// exit() ran (dst->exiting): END is the consumer's to fire, at KDT_STOP, and nothing fires
// meanwhile (dvm_fire tests exiting). The probes go off here on the exclusive side; a shared
// firing leaves that to its CPU's next exclusive exit (LOCKING above).
static void exited(void)
{
    if (in_shared())
        ktrace_kdt_exited();
    else
        kdt_active = false;
}

// One firing of probe id in t's context: under the D lock, the context filled and the engine
// run, at the open site's time; execname: the name the firing gives the process (NULL: its
// own).
static void fire_errno(const struct thread *t, uint32_t id, const uint64_t args[DVM_NARGS],
                       const char *execname, int32_t err)
{
    struct dvm_ctx ctx;
    d_lock();
    fill_ctx_of(&ctx, t, site_cycles());
    ctx.errno_ = err;
    if (execname)
        ctx.execname = execname;
    dvm_fire(dst, &ctx, id, args);
    if (dst->exiting)
        exited();
    d_unlock();
}

static void fire_named(const struct thread *t, uint32_t id, const uint64_t args[DVM_NARGS],
                       const char *execname)
{
    fire_errno(t, id, args, execname, 0);
}

static void fire_as(const struct thread *t, uint32_t id, const uint64_t args[DVM_NARGS])
{
    fire_named(t, id, args, NULL);
}

// A spawn is Solaris's fork and exec at once (docs/d-probes.md): when the new process's first
// thread first runs, proc:::start and proc:::exec fire as in a forked child before its exec,
// in that thread with its parent's name (execname, curpsinfo->pr_fname), exec's args[0] the
// program's name (at DUTEXT_ADDR, as a long user event's payload); then exec-success as
// itself. dtrace -i fires the same at the thread's first RUNNING (kevreplay.c spawned).
void kdt_fire_spawned(const struct thread *t)
{
    const struct proc *p = t->proc, *parent = p && p->ppid ? proc_by_pid(p->ppid) : NULL;
    const char *pname = parent ? parent->name : "kernel";
    if (!p)
        return;
    KSTACK_MARK_PROBE_SITE();
    if (wanted(DPROBE_PROC_START)) {
        uint64_t args[DVM_NARGS] = { ktrace_who(t), ktrace_pid(t), t->prio };
        fire_named(t, DPROBE_PROC_START, args, pname);
    }
    if (wanted(DPROBE_PROC_EXEC)) {
        uint64_t args[DVM_NARGS] = { DUTEXT_ADDR };
        kdt_text_set(p->name, (unsigned)strlen(p->name) + 1u);
        fire_named(t, DPROBE_PROC_EXEC, args, pname);
        kdt_text_clear();
    }
    if (wanted(DPROBE_PROC_EXEC_SUCCESS)) {
        uint64_t args[DVM_NARGS] = { ktrace_pid(t) };
        fire_as(t, DPROBE_PROC_EXEC_SUCCESS, args);
    }
}

// A failed ProcSpawn (kcall.c): exec for the program it named, then exec-failure with the
// error, in the spawner's context (no child exists), before the call's return probe.
void kdt_fire_spawn_failed(const char *name, int err)
{
    KSTACK_MARK_PROBE_SITE();
    if (wanted(DPROBE_PROC_EXEC)) {
        uint64_t args[DVM_NARGS] = { DUTEXT_ADDR };
        kdt_text_set(name, (unsigned)strlen(name) + 1u);
        fire_as(k_current, DPROBE_PROC_EXEC, args);
        kdt_text_clear();
    }
    if (wanted(DPROBE_PROC_EXEC_FAILURE)) {
        uint64_t args[DVM_NARGS] = { (uint64_t)err };
        fire_as(k_current, DPROBE_PROC_EXEC_FAILURE, args);
    }
}

// (KSTACK_MARK_PROBE_SITE in each of these, not in fire_as: stack( ) starts at the site that
// called them, their return address; kernel/kstack.c.)
void kdt_fire(uint32_t id, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    if (!wanted(id))
        return;
    KSTACK_MARK_PROBE_SITE(); // stack( ) starts at the probe's site (kernel/kstack.c)
    uint64_t args[DVM_NARGS] = { a0, a1, a2, a3 };
    fire_as(k_current, id, args);
}

void kdt_fire_as(const struct thread *t, uint32_t id, uint64_t a0, uint64_t a1, uint64_t a2,
                 uint64_t a3)
{
    if (!wanted(id))
        return;
    KSTACK_MARK_PROBE_SITE(); // stack( ) starts at the probe's site (kernel/kstack.c)
    uint64_t args[DVM_NARGS] = { a0, a1, a2, a3 };
    fire_as(t, id, args);
}

void kdt_fire_probe(uint32_t pidx, const uint64_t *args)
{
    if (!kdt_active || (KMAX_CPUS > 1 && cpu_only && cpu_id() != cpu_only - 1u))
        return;
    KSTACK_MARK_PROBE_SITE(); // stack( ) starts at the probe's site (kernel/kstack.c)
    struct dvm_ctx ctx;
    d_lock();
    fill_ctx_of(&ctx, k_current, site_cycles());
    dvm_fire_probe(dst, &ctx, pidx, args);
    if (dst->exiting)
        exited();
    d_unlock();
}

void kdt_fire_n_in(const struct thread *t, uint32_t id, const uint64_t *a, unsigned n,
                   uint32_t err)
{
    if (!wanted(id))
        return;
    KSTACK_MARK_PROBE_SITE(); // stack( ) starts at the probe's site (kernel/kstack.c)
    uint64_t args[DVM_NARGS] = { 0 };
    for (unsigned i = 0; i < n && i < DVM_NARGS; i++)
        args[i] = a[i];
    fire_errno(t ? t : k_current, id, args, NULL, (int32_t)err);
}

#if KMAX_CPUS > 1
// lockstat's spin probes (kernel/klock.h): arg0 the lock's address; spin-spin's arg1 the ns
// spent waiting for it (illumos gives the spin count or time there). Board only: a capture
// has no event for a spin lock (dtrace -i says so).
bool kspin_probed;

void kspin_lock_probed(struct kspin *l, unsigned rank)
{
    klock_check_acquire(rank);
    uint64_t waited = 0;
    if (!arch_spin_trylock(&l->word)) {
        uint64_t t0 = board_cycles();
        arch_spin_lock(&l->word);
        waited = ktimer_cycles_to_ns(board_cycles() - t0);
        if (wanted(DPROBE_LOCK_SPIN_SPIN))
            kdt_fire(DPROBE_LOCK_SPIN_SPIN, (uintptr_t)l, waited, 0, 0);
    }
    if (wanted(DPROBE_LOCK_SPIN_ACQUIRE))
        kdt_fire(DPROBE_LOCK_SPIN_ACQUIRE, (uintptr_t)l, 0, 0, 0);
}

void kspin_unlock_probed(struct kspin *l, unsigned rank)
{
    klock_check_release(rank);
    arch_spin_unlock(&l->word);
    if (wanted(DPROBE_LOCK_SPIN_RELEASE))
        kdt_fire(DPROBE_LOCK_SPIN_RELEASE, (uintptr_t)l, 0, 0, 0);
}

// The spin probes go on with the program (KDT_GO) when it enables one, off when it stops.
static void spin_probes(bool on)
{
    kspin_probed = on && (dvm_enabled(dst, DPROBE_LOCK_SPIN_ACQUIRE) ||
                          dvm_enabled(dst, DPROBE_LOCK_SPIN_SPIN) ||
                          dvm_enabled(dst, DPROBE_LOCK_SPIN_RELEASE));
}

#else
static void spin_probes(bool on) { (void)on; }
#endif

void kdt_hold(void)
{
    d_lock();
}

void kdt_release(void)
{
    d_unlock();
}

void kdt_settle(void)
{
    if (kdt_active && dst && dst->exiting) {
        kdt_active = false;
        kprof_update();
    }
}

// Whether timer i runs on cpu: profile-N on every CPU (the -x cpu one alone), tick-N on the
// tick's (tick_cpu).
static bool timer_on(unsigned i, unsigned cpu, bool tick_cpu)
{
    if (!(timers[i].flags & DIF_PRF_PROFILE))
        return tick_cpu;
    return !cpu_only || cpu == cpu_only - 1u;
}

void kdt_timers_run(bool tick_cpu, uint64_t cycles)
{
    if (!kdt_active || !ntimers)
        return;
    unsigned cpu = cpu_id();
    // As in DTrace: arg0 the interrupted kernel pc (the idle thread here), arg1 the user pc.
    const struct thread *t = k_current;
    uint32_t pc = t ? arch_thread_pc(t) : 0;
    uint64_t kernel_pc = t && !t->proc ? pc : 0, user_pc = t && t->proc ? pc : 0;
    const struct dvm_state *d = dst;
    if (kernel_pc && (!d || d->scrub)) // a consumer without KAPP_F_PRIV sees no kernel address
        kernel_pc = DVM_KADDR_HIDDEN;
    uint64_t now = ktimer_cycles_to_ns(cycles);
    bool due = false;
    for (unsigned i = 0; i < ntimers && !due; i++)
        due = timer_on(i, cpu, tick_cpu) &&
              timers[i].next_ns[timers[i].flags & DIF_PRF_PROFILE ? cpu : 0] <= now;
    if (!due)
        return;
    this_cpu()->stack_at_interrupt = t && !t->proc;
    // One site: the run's DTIMER event (trace/kev.h), whose stamp the firings take, with the
    // time they were decided by, so that dtrace -i fires them at the same place in the capture.
    d_lock();
    uint32_t before = ktrace_stamp_here();
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_DTIMER, t ? ktrace_who(t) : 0,
                      (uint32_t)cycles);
    ktrace_site_take(before);
    for (unsigned i = 0; i < ntimers; i++) {
        if (!timer_on(i, cpu, tick_cpu))
            continue;
        uint64_t *next = &timers[i].next_ns[timers[i].flags & DIF_PRF_PROFILE ? cpu : 0];
        // Fell behind (a late interrupt, docs/timers.md): fire once, not a burst of the
        // firings missed, and keep the phase (as illumos's cyclics do past their catch-up).
        // dtrace -i replays captures by the same rule.
        // profile-N fires for the periods a late interrupt passed over too, as the capture's
        // samples are taken (period_fires_catch_up, ktrace_stack.c); tick-N once.
        uint64_t period = timers[i].period_ns;
        unsigned n = timers[i].flags & DIF_PRF_PROFILE
                         ? period_fires_catch_up(next, period, now, PERIOD_CATCH_UP_MAX)
                         : (unsigned)period_fires(next, period, now, 0);
        while (n--)
            kdt_fire(timers[i].id, kernel_pc, user_pc, 0, 0);
    }
    d_unlock();
    this_cpu()->stack_at_interrupt = false;
}

uint64_t kdt_timers_next(unsigned cpu, bool tick_cpu)
{
    uint64_t at = 0;
    if (!kdt_active)
        return 0;
    for (unsigned i = 0; i < ntimers; i++) {
        if (!timer_on(i, cpu, tick_cpu))
            continue;
        uint64_t n = timers[i].next_ns[timers[i].flags & DIF_PRF_PROFILE ? cpu : 0];
        if (!at || n < at)
            at = n;
    }
    return at;
}

static void unmap(void)
{
    if (consumer) {
        consumer->map2_base = consumer->map2_len = 0;
        if (k_current && k_current->proc == consumer)
            arch_mpu_switch(consumer);
    }
    // Off the other CPUs' tables too: a thread of the consumer may read it there from EL0
    // until its CPU switches again (kernel/kunmap.c).
    if (block)
        kunmap_others((uint32_t)(uintptr_t)block, block_len);
}

static void unload(void)
{
    kdt_active = false;
    kfbt_disable();
    kusdt_disable();
    kpid_disable();
    spin_probes(false);
    ktrace_sync_d_stop();
    unmap();
    if (block) {
        // Cleared before reuse: the next owner of this memory (a trace ring, another
        // consumer's block) must not read this program's buffers and variables.
        kmemset(block, 0, block_len);
        pmem_free(&k_pmem, block);
    }
    block = NULL;
    dst = NULL;
    consumer = NULL;
    ntimers = 0;
    cpu_only = 0;
    kprof_update();
}

void kdt_proc_gone(struct proc *p)
{
    if (block && consumer == p)
        unload();
    kpid_proc_gone(p);      // the pid probes on p come off its program's text
}

// The largest compiled program KDT_LOAD takes: KDT_OBJ_MAX, or the board's own where its
// memory has room for a larger block (BOARD_KDT_OBJ_MAX in boards/<b>/board.mk: a heavy program
// on every fbt probe, docs/fbt.md, "Heavy programs").
#ifdef BOARD_KDT_OBJ_MAX
#define KDT_OBJ_LIMIT ((uint32_t)(BOARD_KDT_OBJ_MAX))
#else
#define KDT_OBJ_LIMIT KDT_OBJ_MAX
#endif

static uint32_t align8(uint32_t v)
{
    return (v + 7u) & ~7u;
}

static void copy_err(struct proc *p, const struct kdt_load *l, const char *msg)
{
    if (!l->errlen || !proc_can_write(p, l->errbuf, l->errlen))
        return;
    kstrlcpy((char *)(uintptr_t)l->errbuf, msg, l->errlen);
}

// A refusal of KDT_LOAD: its reason in the consumer's buffer (every refusal has one), e.
static int refuse(struct proc *p, const struct kdt_load *l, int e, const char *msg)
{
    copy_err(p, l, msg);
    return e;
}

// The block of a program refused after it was made: cleared as unload clears it (the refused
// object and what the engine wrote of its state must not show through in the next ring or
// block made of this memory) and given back.
static void block_drop(void)
{
    kmemset(block, 0, block_len);
    pmem_free(&k_pmem, block);
    ktrace_sync_d_stop();
    block = NULL;
    dst = NULL;
    ntimers = 0;
}

static int load(struct proc *p, uint32_t uargs)
{
    struct kdt_load l;
    char err[128];

    if (!proc_can_read(p, uargs, sizeof(l)))
        return -EFAULT;     // (no buffer to say so in)
    kmemcpy(&l, (const void *)(uintptr_t)uargs, sizeof(l));
    if (block)
        return refuse(p, &l, -EEXIST, "a D program is already loaded (one at a time)");
    if (!l.objlen || l.objlen > KDT_OBJ_LIMIT) {
        ksnprintf(err, sizeof(err), "the compiled program is %u bytes: this kernel loads 1 to "
                  "%u (BOARD_KDT_OBJ_MAX in the board's board.mk raises it)",
                  (unsigned)l.objlen, (unsigned)KDT_OBJ_LIMIT);
        return refuse(p, &l, -EINVAL, err);
    }
    if (!proc_can_read(p, l.obj, l.objlen))
        return refuse(p, &l, -EFAULT, "the compiled program is not in the caller's memory");
    if (l.bufpolicy > DVM_BUF_RING)
        return refuse(p, &l, -EINVAL, "bufpolicy: not switch, fill or ring");
    if (l.nspec > DVM_MAXSPEC)
        return refuse(p, &l, -EINVAL, "nspec: more speculations than the engine keeps "
                      "(DVM_MAXSPEC)");
    if (l.bufsize > (1u << 20) || l.aggsize > (1u << 20) || l.dynvarsize > (1u << 20) ||
        l.specsize > (1u << 20))
        return refuse(p, &l, -EINVAL, "bufsize, aggsize, dynvarsize and specsize are at most "
                      "1m each");
    if (l.cpu_only && l.cpu_only - 1u >= k_ncpus) {
        char msg[32] = "cpu option: no CPU ";
        size_t at = sizeof("cpu option: no CPU ") - 1u;
        unsigned c = l.cpu_only - 1u;
        if (c >= 10u)
            msg[at++] = (char)('0' + c / 10u % 10u);
        msg[at++] = (char)('0' + c % 10u);
        msg[at] = '\0';
        return refuse(p, &l, -EINVAL, msg);
    }

    // The block: the engine's state, the object, the buffers, the tables. Asking for what the
    // options add up to; with bufresize=auto the engine lowers bufsize to fit a smaller block.
    // Principal buffers, aggregations and speculations are per CPU, as in DTrace.
    unsigned ncpu = k_ncpus < DVM_MAXCPU ? k_ncpus : DVM_MAXCPU;
    // The engine's own tables beside the fixed 16 KB (trace/d/engine.c's dvm_load) grow with
    // the program: a chain link per enabling and a cached aggregation entry per enabling and
    // CPU (4,500 enablings on four AArch64 CPUs are 430 KB), eight strings of scratch per CPU,
    // and the stack table of stack( ) and ustack( ). Read from the object's header, not yet
    // verified, so each bounded: enablings by what the object's size can hold (8 bytes each),
    // strsize by DIF_STRSIZE_MAX.
    struct dif_hdr oh = { 0 };
    if (l.objlen >= sizeof(oh))
        kmemcpy(&oh, (const void *)(uintptr_t)l.obj, sizeof(oh));
    uint32_t necbs = oh.dh_necbs, strsize = (oh.dh_strsize + 7u) & ~7u;
    if (necbs > l.objlen / sizeof(struct dif_ecb))
        necbs = l.objlen / sizeof(struct dif_ecb);
    if (strsize > DIF_STRSIZE_MAX)
        strsize = DIF_STRSIZE_MAX;
    uint32_t need = align8(sizeof(struct dvm_state)) + align8(l.objlen) +
                    ncpu * ((l.bufpolicy == DVM_BUF_SWITCH ? 2u : 1u) * l.bufsize + l.aggsize +
                            l.nspec * l.specsize + 8u * strsize) + l.dynvarsize + 16384u +
                    (necbs + 1u) * (uint32_t)(sizeof(struct dvm_ecb_link) +
                                              ncpu * sizeof(struct dvm_constagg)) +
                    DVM_STACKTAB_SIZE + DVM_STACKTAB_SIZE / 32u;
    uint32_t size = 0, align = 0;
    if (ktrace_sync_d_start() < 0)  // lockstat's per-thread words, before the block takes all
        return refuse(p, &l, -ENOMEM, "no memory for the D provider's per-thread words");
    for (uint32_t want = need; want >= 16384u; want /= 2) {
        arch_map_layout(want, &size, &align);
        block = pmem_alloc(&k_pmem, size, align);
        if (block || l.bufresize_manual)
            break;
    }
    if (!block) {
        ktrace_sync_d_stop();
        ksnprintf(err, sizeof(err), "no memory for the program's block (%u bytes%s): lower "
                  "bufsize, aggsize, dynvarsize, nspec or specsize", (unsigned)need,
                  l.bufresize_manual ? ", bufresize=manual" : "");
        return refuse(p, &l, -ENOMEM, err);
    }
    block_len = size;
    kmemset(block, 0, sizeof(struct dvm_state));
    dst = (struct dvm_state *)block;
    uint8_t *objcopy = (uint8_t *)block + align8(sizeof(struct dvm_state));
    kmemcpy(objcopy, (const void *)(uintptr_t)l.obj, l.objlen);
    uint8_t *mem = objcopy + align8(l.objlen);
    struct dvm_opts o = {
        .bufsize = l.bufsize, .aggsize = l.aggsize, .dynvarsize = l.dynvarsize,
        .bufpolicy = l.bufpolicy, .bufresize_manual = l.bufresize_manual, .ncpu = ncpu,
        .nspec = l.nspec, .specsize = l.specsize,
    };
    if (dvm_load(dst, objcopy, l.objlen, &o, mem, block_len - (uint32_t)(mem - (uint8_t *)block),
                 err, sizeof(err)) < 0) {
        copy_err(p, &l, err);
        block_drop();
        return -EINVAL;
    }
    dst->scrub = !(p->app->flags & KAPP_F_PRIV);  // no kernel pointer left in its mapping
    dvm_uread = kdt_uread;
    dvm_user_ok = kdt_user_ok;  // copyin, copyinstr, ustack: the consumer's processes only
    dvm_kread = kdt_kread;      // `name: a privileged consumer's
    dvm_stack = kstack_for_d; // stack( ), ustack( ) (kernel/kstack.c)
    // Its tick-N / profile-N probes, all of them or the program is refused (a timer left out
    // would never fire, and nothing would say so).
    ntimers = 0;
    for (uint32_t i = 0; i < dst->obj.hdr->dh_nprobes; i++) {
        const struct dif_probe *pr = &dst->obj.probes[i];
        if (!pr->dp_flags)      // not a timer's (a USDT site's dp_period is its address)
            continue;
        if (ntimers == KDT_MAX_TIMERS) {
            ksnprintf(err, sizeof(err), "more than %u tick-N and profile-N probes (this "
                      "kernel runs %u at most)", KDT_MAX_TIMERS, KDT_MAX_TIMERS);
            copy_err(p, &l, err);
            block_drop();
            return -ENOSPC;
        }
        timers[ntimers].id = pr->dp_id;
        timers[ntimers].flags = pr->dp_flags;
        timers[ntimers].period_ns = pr->dp_period;
        ntimers++;
    }
    cpu_only = l.cpu_only;
    consumer = p;
    p->map2_base = (uint32_t)(uintptr_t)block;
    p->map2_len = block_len;
    arch_mpu_switch(p);
    return 0;
}

struct read_ctx {
    uint8_t *dst;
    uint32_t len, off;
};

static void read_one(void *arg, const struct dvm_rechdr *rec)
{
    struct read_ctx *r = arg;
    if (r->off + rec->rh_size <= r->len) {
        kmemcpy(r->dst + r->off, rec, rec->rh_size);
        r->off += rec->rh_size;
    }
}

static int read_records(struct proc *p, uint32_t cpu, uint32_t buf, uint32_t len)
{
    if (cpu >= dst->opts.ncpu)
        return -EINVAL;
    if (len < dst->buf[cpu].size)
        return -ENOSPC;     // a record that does not fit would be lost: refuse instead
    if (!proc_can_write(p, buf, len))
        return -EFAULT;
    struct read_ctx r = { (uint8_t *)(uintptr_t)buf, len, 0 };
    dvm_buf_read(dst, cpu, !kdt_active, read_one, &r);
    return (int)r.off;
}

// fbt's probes are the kernel's functions, their arguments kernel pointers and any process's
// values: DTrace's dtrace_kernel privilege. A consumer without KAPP_F_PRIV that enables one
// is refused at KDT_GO (EPERM), naming the first such probe in msg, and nothing is placed.
// msg is the caller's (on its stack: no kernel RAM is kept for a message, which the smallest
// board has none of to spare).
static int fbt_allowed(const struct proc *p, char *msg, size_t n, const char **why)
{
    if (p->app->flags & KAPP_F_PRIV)
        return 0;
    for (uint32_t k = 0; k < dst->obj.hdr->dh_nprobes; k++) {
        const struct dif_probe *pr = &dst->obj.probes[k];
        if (!DPROBE_IS_FBT(pr->dp_id))
            continue;
        ksnprintf(msg, n, "fbt:kernel:%s:%s: kernel probes need privilege "
                  "(KAPP_F_PRIV)", dif_str(&dst->obj, pr->dp_func),
                  pr->dp_id & 1u ? "return" : "entry");
        *why = msg;
        return -EPERM;
    }
    return 0;
}

// `name reads kernel data: privileged too. The program's instructions name the subroutine.
static int kvar_allowed(const struct proc *p, const char **why)
{
    if (p->app->flags & KAPP_F_PRIV)
        return 0;
    for (uint32_t i = 0; i < dst->obj.hdr->dh_ninsns; i++)
        if (DIF_OP(dst->obj.insns[i]) == DIF_CALL && DIF_IDX(dst->obj.insns[i]) == DIF_S_KVAR) {
            *why = "kernel variables (`name) need privilege (KAPP_F_PRIV)";
            return -EPERM;
        }
    return 0;
}

// The program's span in the capture: a DPROG event (trace/kev.h) at the instant its probes go
// on (KDT_GO) or off (KDT_STOP), in the consumer's name, with its timers' digest, so that
// dtrace -i over a capture of the run fires from the one to the other as the board fired.
// Within a hold (d_lock): the site's time becomes the event's stamp, which BEGIN, END, the
// timers' start and the clocks' take; returned in cycles.
static uint64_t span_mark(uint32_t what)
{
    uint32_t before = ktrace_stamp_here();
    uint32_t timers = dtimer_digest(dst->obj.probes, dst->obj.hdr->dh_nprobes);
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_DPROG, what | timers << 8,
                      ktrace_who(k_current));
    ktrace_site_take(before);
    return site_cycles();
}

int kdt_call(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    struct proc *p = t->proc;
    if (!(p->app->flags & KAPP_F_TRACE))
        return -EPERM;
    if (cmd == KDT_LOAD)
        return load(p, a);
    if (cmd == KDT_FBT_TABLE)   // every kernel function's address: kernel data, privileged
        return p->app->flags & KAPP_F_PRIV ? kfbt_copy_table(p, a, b) : -EPERM;
    if (cmd < KDT_LOAD || cmd > KDT_AGGREMOVE)
        return -EINVAL;
    if (!block)
        return -ECANCELED;
    if (p != consumer)
        return -EPERM;
    switch (cmd) {
    case KDT_GO: {
        int placed;
        if (kdt_active)
            return -EBUSY;
        wall_base_read(now_ns());
        // the fbt probes first (their sites placed before the others go on), with the
        // reason in the consumer's buffer (a, b) when it cannot
        const char *why = "";
        char fbtmsg[112];
        int e = fbt_allowed(p, fbtmsg, sizeof(fbtmsg), &why);
        if (e == 0)
            e = kvar_allowed(p, &why);
        if (e == 0)
            e = kfbt_enable(dst, &why);
        int u = e < 0 ? 0 : kusdt_enable(dst, consumer, &why);   // then the programs' USDT sites
        if (u == 0 && e >= 0 && (u = kpid_enable(dst, consumer, &why)) < 0)
            kusdt_disable();                           // and their pid probes
        if (u < 0) {
            kfbt_disable();
            e = u;
        }
        if (e < 0) {
            if (b && proc_can_write(p, a, b))
                kstrlcpy((char *)(uintptr_t)a, why, b);
            return e;
        }
        for (unsigned i = 0; i < KMAX_THREADS; i++)
            k_threads[i].vt_since = 0;
        for (unsigned c = 0; c < KMAX_CPUS; c++)
            vt_running[c] = NULL;
        ktrace_kdt_go(k_current);
        d_lock();
        uint64_t go = span_mark(KEV_DPROG_GO);
        kdt_vtime_switch(k_current);
        // tick-N a period from the go; profile-N at its period's next multiple since boot, the
        // times dtrace -i holds a capture's samples to (trace/period_due.h)
        uint64_t now = ktimer_cycles_to_ns(go);
        for (unsigned i = 0; i < ntimers; i++) {
            uint64_t first = timers[i].flags & DIF_PRF_PROFILE
                                 ? period_first_due(timers[i].period_ns, now)
                                 : now + timers[i].period_ns;
            for (unsigned c = 0; c < KMAX_CPUS; c++)
                timers[i].next_ns[c] = first;
        }
        kdt_active = true;
        d_unlock();
        placed = e;   // the fbt sites placed: KDT_GO's result
        spin_probes(true);
        if (wanted(DPROBE_BEGIN)) {   // BEGIN's clauses stop at the first exit(), as DTrace's
            struct dvm_ctx ctx;
            fill_ctx_of(&ctx, k_current, go);    // (exclusive: no firing under way)
            dvm_fire_begin(dst, &ctx);
            if (dst->exiting)
                kdt_active = false;
        }
        kprof_update();     // the profile timers armed for the probes' first times
        return placed;
    }
    case KDT_STOP: {
        // END runs once, even after exit() switched the probes off; the fbt probes come off
        // first, as DTrace disables its probes before END.
        kfbt_disable();
        kusdt_disable();
        kpid_disable();
        bool was = kdt_active;
        kdt_active = true;
        d_lock();
        span_mark(KEV_DPROG_STOP);
        if (was || dst->exiting)
            kdt_fire(DPROBE_END, 0, 0, 0, 0);   // at the mark's time (the hold's site)
        d_unlock();
        kdt_active = false;
        spin_probes(false);
        kprof_update();
        kstack_report(dst->stacks.drops); // walks cut short, stacks lost (kernel/kstack.c)
        return 0;
    }
    case KDT_READ:
        return read_records(p, a, b, c);
    case KDT_STATE:
        return (int)(uintptr_t)dst;
    case KDT_UNLOAD:
        unload();
        return 0;
    case KDT_AGGCLEAR:
        if (a >= dst->obj.hdr->dh_naggs)
            return -EINVAL;
        dvm_agg_clear(dst, a);
        return 0;
    case KDT_AGGREMOVE:
        // The keys must be inside the engine's own block (the consumer passes back what it
        // read from its mapping), all of them: as many bytes as the longest key of the
        // aggregation, which is what the lookup compares (else it would read past the block).
        if (a >= dst->obj.hdr->dh_naggs || b < (uint32_t)(uintptr_t)block ||
            b - (uint32_t)(uintptr_t)block >= block_len ||
            dvm_agg_keylen_max(dst, a) > block_len - (b - (uint32_t)(uintptr_t)block))
            return -EINVAL;
        dvm_agg_remove(dst, a, (const uint8_t *)(uintptr_t)b,
                       block_len - (b - (uint32_t)(uintptr_t)block));
        return 0;
    default:
        return -EINVAL;
    }
}
