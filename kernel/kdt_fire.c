// SPDX-License-Identifier: MIT
// The D provider's firings (kernel/kdtrace.h): the loaded program's probes run from the
// tracing layer's sites (the emit helpers, kernel/kev_emit.h; the providers' traps; the
// profile timer), at their site's time, in their thread's context, with no lock; the
// engine's callbacks (user and kernel memory, stacks, vtimestamp); D's view of which thread
// each CPU runs (off-cpu). kdtrace.c's commands load, start and stop the program
// on the exclusive side and set the state read here (kdt_dst, kdt_consumer, kdt_timers, ...).
// The bottom of the tracing layer with the ring: it calls nothing of the layer's above it.
//
// LOCKING (docs/smp.md, "D on several CPUs"). No lock around the engine: a firing runs on
// its CPU with interrupts off, one at a time per CPU, and firings on several CPUs run at once
// (the engine's concurrent mode, d/dvm.h "CONCURRENCY": per-CPU buffers, aggregations,
// clause-locals and caches; racy globals, as DTrace's; dynamic variables allocated per CPU and
// freed once no firing holds them; a speculation's lock for its copies). Probes fire on both
// sides of the big-reader lock (kernel/klock.h): in exclusive entries, and, with several CPUs,
// in shared ones (message and sync calls, ticks, reschedule IPIs, event interrupts, the
// user-event drain). What this file keeps per CPU, written by that CPU alone: the open site
// (its nesting and its time: kdt_hold), D's view of which thread the CPU runs (kdt_chosen),
// the CPU's vtimestamp slot (vt_running, which the CPU a thread goes on may clear: below), the
// user-event text window (kdtrace_text.c). A thread's vtimestamp clock is under its vt_lock
// (rank KLOCK_RANK_D, a leaf: the CPU it leaves and the one it goes on may both write it).
// Under a firing the engine calls back into kdt_uread (proc_can_read: memory maps, changed on
// the exclusive side alone; kdt_text_read: this CPU's window), kstack_for_d (this thread's
// stacks, this CPU's probe site) and dvm_lwpinfo (the thread table, read as a sample): none
// takes a lock. The consumer's commands (kdt_call: KDT_LOAD, GO, READ, STOP, UNLOAD, AGG*) run
// exclusive, with no other CPU in the kernel (a64_kernel_lock waits for every CPU's shared
// word), so no firing is under way: they read the buffers and free the dynamic variables
// deleted meanwhile (dvm_dyn_clean).
// D's order and the capture's: a hook that fires D and records an event opens one site
// (kdt_hold) around both, so each firing has its event's stamp; on one CPU the firings come in
// the capture's order; two CPUs' firings come in the order of their stamps where the kernel's
// own locks order the two events (a READY recorded under the run queue's lock before the
// thread can run elsewhere, docs/smp.md "TRACE ORDER"), and otherwise as they ran, as DTrace's
// do (dtrace -i replays them in stamp order: two CPUs' firings that race on one global may
// end differently there).
// exit() in a shared firing: the engine sets dst->exiting, after which nothing fires (dvm_fire
// tests it, and so does fire_begin); kdt_active is cleared by the exclusive side only, since
// the hooks' flags and the entry's call instruction follow it (ktrace_sync, the exclusive
// side's work): the firing CPU queues a notification as the ring does when it stops itself
// (ktrace_kdt_exited), whose exclusive delivery clears it (kdt_settle).
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/kview.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <d/dvm.h>
#include <d/dprinfo.h>
#include <trace/period_due.h>
#include <trace/kev_derived.h>
#include <kernel/kev_emit.h>
#include <kev_emit_gen.h>
#include <d/dprobes.h>
#include <d/dtimers.h>
#include <d/dstacks.h>
#include <d/dutext.h>
#include <kernel/kstack.h>
#include <kernel/smp.h>
#include <kernel/kdata.h>
#include <uapi/kdtrace.h>
#include <d/dobj_file.h>

bool kdt_active;
uint32_t kdt_hooks;
bool kdt_lockstat;
struct dvm_state *kdt_dst;          // at the start of the block, mapped into the consumer
struct proc *kdt_consumer;
// Its .dobj header (its consumer's output options and -w), as KDT_LOAD gave it: an incident
// record keeps it (kincident.c), and its destructive word allows panic( ) and breakpoint( ).
struct dobj_file_hdr kdt_dobj_hdr;

// tick-N fires on one CPU (one firing a period): CPU 0, from its profile timer, or, on a board
// without one, the CPU that takes the kernel's tick; profile-N on every CPU (DTrace's rule), so
// it keeps a next time per CPU (kernel/kprof.c runs them; next_ns is CPU c's, written by CPU c
// there or by the exclusive side at KDT_GO).
struct kdt_timer kdt_timers[KDT_MAX_TIMERS];
unsigned kdt_ntimers;
// -x cpu=N: N + 1 (0: every CPU). As DTrace's option, only CPU N traces: the probes of the
// kernel's providers and profile-N fire there alone. BEGIN and END (the consumer's), ERROR
// (raised by a firing that passed) and tick-N (the system's clock, which fires on one CPU of
// its own) fire wherever they come, so that a program still starts, ends and counts time.
uint32_t kdt_cpu_only;

// The site's time. A CPU opens a site around a hook's trace event and its firings
// (kdt_hold), so that they share one time: the firings inside nest (this CPU's count). The
// outermost hold opens it: every firing inside it has one time, its `timestamp`
// (docs/d-probes.md "Time"), the hook's event's stamp once the hook gave it (kdt_site_set),
// else the time the hold began. So a probe's time is the instant the kernel reached its site,
// never later for the clauses that ran before it, and the very time its event carries. A
// firing outside any hold is a site of its own, at its own time; one nested in a site's
// firings (a hold inside a hold) has that site's time. Per CPU, written by that CPU alone
// (interrupts off): no lock, no other CPU waited for.
static uint8_t d_held[KMAX_CPUS];       // this CPU's nested holds
static uint64_t site_at[KMAX_CPUS];     // the open site's time (cycles)
// What the program's firings cost this CPU since KDT_GO (KDT_COST): their count, and the
// cycles of the D work each outermost site adds to its hook: from its opening to its close,
// less the trace event the hook writes within it (which the capture costs without D too):
// work_from is where the D work resumed, the opening or the end of the event's write.
static struct {
    uint64_t firings, cycles;
} TRACE_PER_CPU_LINE cost[KMAX_CPUS];
static uint64_t work_from[KMAX_CPUS];
static uint64_t cost_since;             // KDT_GO's time (cycles)
static inline bool in_shared(void) { return smp_in_shared(); }
static inline void site_enter(void)
{
    unsigned c = cpu_id();
    if (d_held[c]++ == 0)
        work_from[c] = site_at[c] = board_cycles();
}
static inline void site_leave(void)
{
    unsigned c = cpu_id();
    if (--d_held[c] == 0)
        cost[c].cycles += board_cycles() - work_from[c];
}

static struct kdt_cost cost_at_stop;    // what kdt_cost_stop froze (valid: stopped)
static bool stopped;

void kdt_cost_reset(void)
{
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        cost[c].firings = cost[c].cycles = 0;
    cost_since = board_cycles();
    stopped = false;
}

// At KDT_STOP, after END: the counts frozen, so that the consumer's KDT_COST says what the
// capture's DCOST event says, and the event written while SYSTEM is traced.
void kdt_cost_stop(void)
{
    kdt_cost_read(&cost_at_stop);
    stopped = true;
    kev_emit_dcost(KEV_RING, cost_at_stop.firings, cost_at_stop.site_cycles,
                   cost_at_stop.run_cycles);
}

void kdt_cost_read(struct kdt_cost *out)
{
    if (stopped) {
        *out = cost_at_stop;
        return;
    }
    out->firings = out->site_cycles = 0;
    for (unsigned c = 0; c < KMAX_CPUS; c++) {
        out->firings += cost[c].firings;
        out->site_cycles += cost[c].cycles;
    }
    out->run_cycles = (board_cycles() - cost_since) * (KSMP ? k_ncpus : 1u);
}

// The open site's time (cycles): one reading of the clock a site.
static inline uint64_t site_cycles(void)
{
    return site_at[cpu_id()];
}


uint64_t kdt_site_cycles(void)
{
    return site_cycles();
}

// ts32 was stamped after the hold began (its low word), far less than 2^32 cycles later.
void kdt_site_set(uint32_t ts32)
{
    unsigned c = cpu_id();
    if (d_held[c] != 1)     // the outermost hold's site (a nested one keeps its time)
        return;
    // (a drained record's slot may lie before the hold began: kuring.c)
    site_at[c] += (uint64_t)(int64_t)(int32_t)(ts32 - (uint32_t)site_at[c]);
    if (site_at[c] > work_from[c])      // the D work before the event, then after its write
        cost[c].cycles += site_at[c] - work_from[c];
    work_from[c] = board_cycles();
}

// One SYSTEM event of D's own (DPROG, DTIMER), within a hold: its stamp becomes the site's
// time, as a hook's event's does (kev_emit.h ktrace_site_take, which this layer, below the
// hooks, does not include); the hold's time when the ring wrote no slot (SYSTEM not traced).
static void emit_at_site(uint32_t ev, uint32_t w0, uint32_t w1)
{
    const struct trace_cpu *tc = &ktrace.tr_cpu[cpu_id()];
    uint32_t before = tc->tc_last;
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, ev, w0, w1);
    if (tc->tc_last != before)
        kdt_site_set(tc->tc_last);
}

static bool kdt_user_allowed(const struct thread *t);

// copyin's reader (dvm_uread): the current process's memory, only the bytes proc_can_read
// allows it (its RAM, flash and mappings), so a bad address is a fault to ERROR, never a
// kernel fault; and only a process the consumer may trace (else DVM_UREAD_PRIV, the ERROR's
// privilege fault). A user event's payload is the trace's, which any consumer captures: read
// in any process.
int kdt_uread(void *dst, uint64_t addr, unsigned n)
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
    const struct proc *c = kdt_consumer;
    return c && p && ((c->app->flags & KAPP_F_PRIV) || c->app == p->app);
}

// dvm_user_ok: the firing's process (the thread on the CPU) is one the consumer may trace; a
// kernel thread has no user memory, and its reads stay kdt_uread's invalid addresses.
static bool kdt_user_allowed(const struct thread *t)
{
    return !t || !t->proc || kdt_may_trace(t->proc);
}

int kdt_user_ok(void)
{
    return kdt_user_allowed(k_current);
}

// D's `name (dvm_kread): the kernel variable's bytes, for a privileged consumer only (DTrace's
// dtrace_kernel; a program that reads one is refused at KDT_GO otherwise: kvar_allowed), and
// only inside the kernel's own data and bss (kernel/kdata.c), which the compiler's symbol
// table names; anything else is an invalid address.
int kdt_kread(void *dst, uint64_t addr, unsigned n)
{
    if (!kdt_consumer || !(kdt_consumer->app->flags & KAPP_F_PRIV))
        return DVM_UREAD_PRIV;
    if (!kdata_holds(addr, n))
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

// dvm_nrunnable, D's curthread->t_cpu->cpu_disp->disp_nrunnable: the threads of processes on
// CPU cpu's ready queues (sched.c's enqueue_on: READY and linked there), not the CPU's idle
// thread, which waits on its queue at priority 0 but is on no Solaris dispatch queue (nor is
// any thread without a process: the capture's pid 0). Read in a firing without the queues'
// locks: a sample, as kloadavg's count is; on one CPU the firing's kernel entry holds them still.
int32_t kdt_nrunnable(unsigned cpu)
{
    int32_t n = 0;
    for (unsigned i = 0; i < KMAX_THREADS; i++) {
        const struct thread *t = &k_threads[i];
        n += t->in_use && t->proc && t->state == THS_READY && list_linked(&t->qlink) &&
             (!KSMP || thread_rq_cpu(t) == cpu);
    }
    return n;
}

// dvm_lwpinfo, D's translated types (d/dprinfo.h): thread `who` (pid << 16 | tid, its trace_who), or the
// process who >> 16 when who's tid is 0, from the thread and process tables. Read in a firing
// without a lock: the tables are written on the exclusive side (a thread's state and
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
// at each RUNNING event while a program that reads it is active (kdt_vtime_switch, from
// ktrace.c's ktrace_kdt_switch, at that event's site time), so it costs nothing otherwise and
// dtrace -i keeps the same clocks from the capture's THRUNNING events; KDT_GO starts the clock
// for the thread that is running. vt_running is the thread whose clock runs on each CPU. A thread's
// clock (vt_since, vt_cycles) is opened by the CPU it goes on and closed by the one it left,
// and on several CPUs the two may come in either order (the thread blocked on CPU A and CPU B
// chose it before A's next choice), so B's opening closes what A left running first and
// takes it off A's slot: A's next choice then closes nothing of it. So a thread's clock and
// the slots that name it change under its vt_lock; a slot is written by its CPU, or cleared by
// another from that thread to none (compare-and-swap), and read atomically.
static struct thread *vt_running[KMAX_CPUS];

static inline struct thread *vt_slot(unsigned c)
{
    return __atomic_load_n(&vt_running[c], __ATOMIC_RELAXED);
}

static inline void vt_lock(struct thread *t)
{
    kspin_lock(&t->vt_lock, KLOCK_RANK_D);
}

static inline void vt_unlock(struct thread *t)
{
    kspin_unlock(&t->vt_lock, KLOCK_RANK_D);
}

static void vtime_switch_at(struct thread *next, uint64_t now)
{
    unsigned me = cpu_id();
    struct thread *prev = vt_slot(me);
    if (next == prev)
        return;
    if (prev) {     // closed here, unless the CPU it went on took it off this slot first
        vt_lock(prev);
        if (vt_slot(me) == prev && prev->vt_since) {
            prev->vt_cycles += now - prev->vt_since;
            prev->vt_since = 0;
        }
        __atomic_store_n(&vt_running[me], NULL, __ATOMIC_RELAXED);
        vt_unlock(prev);
    }
    vt_lock(next);
    if (KSMP && next->vt_since) {  // still open on the CPU it left (see above)
        for (unsigned c = 0; c < KMAX_CPUS; c++) {
            struct thread *was = next;
            if (c != me)
                __atomic_compare_exchange_n(&vt_running[c], &was, NULL, false,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        }
        next->vt_cycles += now - next->vt_since;
    }
    __atomic_store_n(&vt_running[me], next, __ATOMIC_RELAXED);
    next->vt_since = now;
    vt_unlock(next);
}

void kdt_vtime_switch(struct thread *next)
{
    site_enter();
    vtime_switch_at(next, site_cycles());
    site_leave();
}

// t's vtimestamp at `now` (the site's cycles), read under its vt_lock.
static uint64_t vtime_ns(const struct thread *t, uint64_t now)
{
    if (!t)
        return 0;
    struct thread *w = (struct thread *)t;  // (the lock word; nothing else written)
    vt_lock(w);
    uint64_t c = t->vt_cycles;
    if (t->vt_since)
        c += now - t->vt_since;
    vt_unlock(w);
    return kview_ns(c);
}

// walltimestamp's base: the host's date at boot in ns since 1970, read once per program at
// KDT_GO with semihosting's SYS_TIME (whole seconds) less the time since boot; 0 on a board
// without semihosting (walltimestamp is then the time since boot). A capture's is its header's
// boot date (the tracelogger reads the same clock; kevreplay.c boot_date_ns).
static uint64_t wall_base_ns;

void kdt_wall_base_read(uint64_t now)
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
    ctx->timestamp = kview_ns(cycles);
    ctx->walltimestamp = wall_base_ns + ctx->timestamp;
    // (a thread's clock is kept, and read, only for a program that reads it)
    ctx->vtimestamp = kdt_dst->uses & DVM_USES_VTIMESTAMP ? vtime_ns(t, cycles) : 0;
    ctx->execname = p ? p->name : "kernel";
    ctx->prio = t ? t->prio : 0;
    ctx->nlwp = p ? p->nthreads : 1;
}

// Table probes are fired only when enabled; timer probes (ids from DPROBE_TIMER_BASE) exist
// only when the program has them. Read without a lock: kdt_active, dst, cpu_only and the
// enabled table change on the exclusive side alone (a shared exit() leaves kdt_active to it).
static bool wanted(uint32_t id)
{
    if (KSMP && kdt_active && kdt_cpu_only && id > DPROBE_ERROR &&
        id < DPROBE_TIMER_BASE && cpu_id() != kdt_cpu_only - 1u)
        return false;
    return kdt_active && (id >= DPROBE_TIMER_BASE || dvm_enabled(kdt_dst, id));
}

bool kdt_wanted(uint32_t id)
{
    return wanted(id);
}

// KDT_GO (exclusive: no firing under way): every thread's vtimestamp clock stopped and
// `running`'s started, and D's view of the CPUs begun with it here.
void kdt_go_clocks(struct thread *running)
{
    for (unsigned i = 0; i < KMAX_THREADS; i++)
        k_threads[i].vt_since = 0;
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        vt_running[c] = NULL;
    kdt_vtime_switch(running);
    ktrace_kdt_go(running);
}

// The program's span in the capture: a DPROG event (trace/kev.h) at the instant its probes go
// on (KDT_GO) or off (KDT_STOP), in the consumer's name, with its timers' digest, so that
// dtrace -i over a capture of the run fires from the one to the other as the board fired.
// Its words are packed by the row's layout (kev_pack_dprog). Within a hold (kdt_hold): the
// site's time becomes the event's stamp, which BEGIN, END, the timers' start and the clocks'
// take; returned in cycles.
uint64_t kdt_span_mark(uint32_t what)
{
    const uint32_t timers = dtimer_digest(kdt_dst->obj.probes, kdt_dst->obj.hdr->dh_nprobes);
    uint32_t w[2];
    kev_pack_dprog(w, what, timers, ktrace_who(k_current));
    emit_at_site(KEV_SYS_DPROG, w[0], w[1]);
    return site_cycles();
}

// BEGIN's clauses (KDT_GO, exclusive), which stop at the first exit(), as DTrace's: false when
// they ran it. At the go's time (cycles: kdt_span_mark's).
bool kdt_fire_begin(uint64_t cycles)
{
    if (!wanted(DPROBE_BEGIN))
        return true;
    struct dvm_ctx ctx;
    fill_ctx_of(&ctx, k_current, cycles);
    cost[cpu_id()].firings++;
    dvm_fire_begin(kdt_dst, &ctx);
    if (__builtin_expect(kdt_dst->trig_cpu != 0, 0))
        kdt_trigger_ran(kdt_dst, &kdt_dobj_hdr, k_current, DPROBE_BEGIN, NULL, cycles);
    return !kdt_dst->exiting;
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

// One firing of probe id in t's context: in a site (its time: the open one's), the context
// filled and the engine run; execname: the name the firing gives the process (NULL: its
// own).
static void fire_errno(const struct thread *t, uint32_t id, const uint64_t args[DVM_NARGS],
                       const char *execname, int32_t err)
{
    struct dvm_ctx ctx;
    site_enter();
    fill_ctx_of(&ctx, t, site_cycles());
    ctx.errno_ = err;
    if (execname)
        ctx.execname = execname;
    cost[cpu_id()].firings++;
    dvm_fire(kdt_dst, &ctx, id, args);
    if (__builtin_expect(kdt_dst->trig_cpu != 0, 0))   // freeze( ), panic( ), breakpoint( )
        kdt_trigger_ran(kdt_dst, &kdt_dobj_hdr, t, id, args, site_cycles());
    if (kdt_dst->exiting)
        exited();
    site_leave();
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

// A spawn's firings (trace/kev_derived.h kev_derived_spawned, kev_derived_spawn_failed; a spawn
// is Solaris's fork and exec at once, docs/d-probes.md): f in t's context (NULL: the site's), as
// its parent (KEV_DAS_PARENT: execname and curpsinfo->pr_fname the parent's, "kernel" without
// one), arg0's text at DUTEXT_ADDR the program's name (kev_dfire_program: `program`, else t's
// process's, as a long user event's payload).
void kdt_fire_spawn(const struct thread *t, const struct kev_dfire *f, const char *program)
{
    const struct proc *p = t ? t->proc : NULL;
    const struct proc *parent = p && p->ppid ? proc_by_pid(p->ppid) : NULL;
    if (!wanted(f->id))
        return;
    KSTACK_MARK_PROBE_SITE();
    uint64_t args[DVM_NARGS] = { 0 };
    for (unsigned i = 0; i < f->n && i < DVM_NARGS; i++)
        args[i] = f->a[i];
    const char *text = program ? program : p ? p->name : "";
    if (kev_dfire_program(f))
        kdt_text_set(text, (unsigned)strlen(text) + 1u);
    fire_named(t ? t : k_current, f->id, args,
               f->as == KEV_DAS_PARENT ? (parent ? parent->name : "kernel") : NULL);
    if (kev_dfire_program(f))
        kdt_text_clear();
}

static void spawn_failed_fire(void *program, const struct kev_dfire *f)
{
    kdt_fire_spawn(NULL, f, program);
}

// A failed ProcSpawn (kcall.c): its rule's firings in the spawner's context, before the call's
// return probe; `name` the program it named.
void kdt_fire_spawn_failed(const char *name, int err)
{
    struct kev_dfire f[KEV_DFIRE_MAX];
    const struct kev_dtake k = { spawn_failed_fire, NULL, (void *)(uintptr_t)name };
    kev_derived_take(f, kev_derived_spawn_failed(f, (uint64_t)err), &k);
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
    if (!kdt_active || (KSMP && kdt_cpu_only && cpu_id() != kdt_cpu_only - 1u))
        return;
    KSTACK_MARK_PROBE_SITE(); // stack( ) starts at the probe's site (kernel/kstack.c)
    struct dvm_ctx ctx;
    site_enter();
    fill_ctx_of(&ctx, k_current, site_cycles());
    cost[cpu_id()].firings++;
    dvm_fire_probe(kdt_dst, &ctx, pidx, args);
    if (__builtin_expect(kdt_dst->trig_cpu != 0, 0))
        kdt_trigger_ran(kdt_dst, &kdt_dobj_hdr, k_current, kdt_dst->obj.probes[pidx].dp_id,
                        args, site_cycles());
    if (kdt_dst->exiting)
        exited();
    site_leave();
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

// lockstat's spin probes (kernel/klock.h klock_probe, several CPUs): arg0 the lock's address;
// spin-spin's arg1 the ns spent waiting for it (illumos gives the spin count or time there).
// Board only: a capture has no event for a spin lock (dtrace -i says so).
static void spin_lock_probed(struct kspin *l, unsigned rank)
{
    klock_check_acquire(rank);
    uint64_t waited = 0;
    if (!kspin_raw_trylock(l)) {
        uint64_t t0 = board_cycles();
        kspin_raw_lock(l);
        waited = kview_ns(board_cycles() - t0);
        if (wanted(DPROBE_LOCK_SPIN_SPIN))
            kdt_fire(DPROBE_LOCK_SPIN_SPIN, (uintptr_t)l, waited, 0, 0);
    }
    if (wanted(DPROBE_LOCK_SPIN_ACQUIRE))
        kdt_fire(DPROBE_LOCK_SPIN_ACQUIRE, (uintptr_t)l, 0, 0, 0);
}

static void spin_unlock_probed(struct kspin *l, unsigned rank)
{
    klock_check_release(rank);
    kspin_raw_unlock(l);
    if (wanted(DPROBE_LOCK_SPIN_RELEASE))
        kdt_fire(DPROBE_LOCK_SPIN_RELEASE, (uintptr_t)l, 0, 0, 0);
}

// The spin probes go on with the program (KDT_GO) when it enables one, off when it stops.
void kdt_spin_probes(bool on)
{
    static const struct klock_probe spin_probe = { spin_lock_probed, spin_unlock_probed };
    bool any = on && (dvm_enabled(kdt_dst, DPROBE_LOCK_SPIN_ACQUIRE) ||
                      dvm_enabled(kdt_dst, DPROBE_LOCK_SPIN_SPIN) ||
                      dvm_enabled(kdt_dst, DPROBE_LOCK_SPIN_RELEASE));
    klock_set_probe(any ? &spin_probe : NULL);
}

// user:::event for a user event stored in more than one slot: its bytes at DUTEXT_ADDR while
// it fires (kdtrace_text.c).
void kdt_fire_payload(uint32_t code, const void *bytes, unsigned nwords)
{
    unsigned len = dutext_size(nwords);
    kdt_text_set(bytes, len);
    kdt_fire(DPROBE_USER_EVENT, code, DUTEXT_ADDR, len, 0);
    kdt_text_clear();
}

void kdt_hold(void)
{
    site_enter();
}

void kdt_release(void)
{
    site_leave();
}

// Whether timer i runs on cpu: profile-N on every CPU (the -x cpu one alone), tick-N on the
// tick's (tick_cpu).
static bool timer_on(unsigned i, unsigned cpu, bool tick_cpu)
{
    if (!(kdt_timers[i].flags & DIF_PRF_PROFILE))
        return tick_cpu;
    return !kdt_cpu_only || cpu == kdt_cpu_only - 1u;
}

void kdt_timers_run(bool tick_cpu, uint64_t cycles)
{
    if (!kdt_active || !kdt_ntimers)
        return;
    unsigned cpu = cpu_id();
    // As in DTrace: arg0 the interrupted kernel pc (the idle thread here), arg1 the user pc.
    const struct thread *t = k_current;
    uint32_t pc = t ? arch_thread_pc(t) : 0;
    uint64_t kernel_pc = t && !t->proc ? pc : 0, user_pc = t && t->proc ? pc : 0;
    const struct dvm_state *d = kdt_dst;
    if (kernel_pc && (!d || d->scrub)) // a consumer without KAPP_F_PRIV sees no kernel address
        kernel_pc = DVM_KADDR_HIDDEN;
    uint64_t now = kview_ns(cycles);
    bool due = false;
    for (unsigned i = 0; i < kdt_ntimers && !due; i++)
        due = timer_on(i, cpu, tick_cpu) &&
              kdt_timers[i].next_ns[kdt_timers[i].flags & DIF_PRF_PROFILE ? cpu : 0] <= now;
    if (!due)
        return;
    this_cpu()->stack_at_interrupt = t && !t->proc;
    // One site: the run's DTIMER event (trace/kev.h), whose stamp the firings take, with the
    // time they were decided by, so that dtrace -i fires them at the same place in the capture.
    site_enter();
    emit_at_site(KEV_SYS_DTIMER, t ? ktrace_who(t) : 0, (uint32_t)cycles);
    for (unsigned i = 0; i < kdt_ntimers; i++) {
        if (!timer_on(i, cpu, tick_cpu))
            continue;
        uint64_t *next = &kdt_timers[i].next_ns[kdt_timers[i].flags & DIF_PRF_PROFILE ? cpu : 0];
        // Fell behind (a late interrupt, docs/timers.md): fire once, not a burst of the
        // firings missed, and keep the phase (as illumos's cyclics do past their catch-up).
        // dtrace -i replays captures by the same rule.
        // profile-N fires for the periods a late interrupt passed over too, as the capture's
        // samples are taken (period_fires_catch_up, ktrace_stack.c); tick-N once.
        uint64_t period = kdt_timers[i].period_ns;
        unsigned n = kdt_timers[i].flags & DIF_PRF_PROFILE
                         ? period_fires_catch_up(next, period, now, PERIOD_CATCH_UP_MAX)
                         : (unsigned)period_fires(next, period, now, 0);
        while (n--)
            kdt_fire(kdt_timers[i].id, kernel_pc, user_pc, 0, 0);
    }
    site_leave();
    this_cpu()->stack_at_interrupt = false;
}

uint64_t kdt_timers_next(unsigned cpu, bool tick_cpu)
{
    uint64_t at = 0;
    if (!kdt_active)
        return 0;
    for (unsigned i = 0; i < kdt_ntimers; i++) {
        if (!timer_on(i, cpu, tick_cpu))
            continue;
        uint64_t n = kdt_timers[i].next_ns[kdt_timers[i].flags & DIF_PRF_PROFILE ? cpu : 0];
        if (!at || n < at)
            at = n;
    }
    return at;
}

// D's view of each CPU: the thread its last RUNNING event chose (kdt_chosen: off-cpu fires
// there, at that event's site, as dtrace -i fires it at the capture's THRUNNING). Per CPU,
// written by that CPU alone.
static const struct thread *kdt_chosen[KMAX_CPUS];

void ktrace_kdt_go(const struct thread *running)
{
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        kdt_chosen[c] = NULL;   // other CPUs: their next choice fires no off-cpu
    kdt_chosen[cpu_id()] = running;
}

// next was chosen to run on this CPU (its RUNNING event, within its site:
// kev_emit_thread_state): the switch starts. As Solaris's, off-cpu fires in the context of
// the thread going off (kev_derived_offcpu: args[0] the one coming on, arg3 the state the one
// going off is left in, as its last event recorded it), and vtimestamp's clocks switch; on-cpu
// waits for the kernel's exit into next (ktrace_switched). In next's name, not k_current's
// (still the thread going off).
void ktrace_kdt_switch(struct thread *next)
{
    unsigned c = cpu_id();
    const struct thread *prev = kdt_chosen[c];
    if (next == prev)
        return;
    kdt_chosen[c] = next;
    if (kdt_dst->uses & DVM_USES_VTIMESTAMP)
        kdt_vtime_switch(next);
    struct kev_dfire f;
    if (prev && kev_derived_offcpu(&f, ktrace_who(next), ktrace_pid(next), next->prio,
                                   prev->traced_state))
        kdt_fire_as(prev, f.id, f.a[0], f.a[1], f.a[2], f.a[3]);
}
