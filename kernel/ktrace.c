// SPDX-License-Identifier: MIT
// The trace's control: the TraceEvent() kernel call, the ring (trace/trace_ring.c) over a
// contiguous block from pmem, the snapshot written at START, the delivery of the buffers'
// notifications at a traced exit. The top of the tracing layer: the hooks' halves are
// ktrace_ev.c's, the state ktrace_state.c's, the notifications ktrace_notes.c's.
// The ring is mapped read-only into the process that allocated it (its logger), which takes
// full buffers with KTRACE_TAKEBUFFER, writes them out and gives them back.
#include <kernel/ktrace.h>
#include <kernel/kincident.h>
#include <kernel/ktrace_stack.h>
#include <kernel/kprof.h>
#include <arch_kcall.h>
#include <kernel/kview.h>
#include <kernel/arch.h>
#include <kernel/smp.h>
#include <kernel/kdtrace.h>
#include <kernel/kuring.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/ktrace_probe.h>
#include <kernel/kev_emit.h>
#include <d/dprobes.h>
#include <uapi/kcall.h>
#include <uapi/ktrace.h>

   // the inline paths' words (ktrace.h, ktrace_kcall.h)

static struct proc *ring_owner;     // the process the ring is mapped into
static void *ring_mem;
static unsigned ring_nbufs;

void ktrace_resync(void)
{
    ktrace_sync();
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
    ktrace_ran_set_all(true, false);
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

// Traced kernel calls still open when tracing starts or stops would get an exit event
// from another session: forget them.
static void forget_open_calls(void)
{
    for (unsigned i = 0; i < KMAX_THREADS; i++)
        k_threads[i].kc_trace = 0;
}

// ---- hooks ------------------------------------------------------------------------------------

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

// SNAPSHOT [what 2 | cpu << 8, who]: CPU cpu runs the thread who (the row's layout).
static void snapshot_cpu(unsigned cpu, uint32_t who)
{
    kev_emit_snapshot(KEV_RING, 2, cpu, who);
}

static void snapshot(void)
{
    ktrace_in_snapshot = true;
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
            snapshot_cpu(c, ktrace_who(k_cpus[c].current));
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 1, 0);
    ktrace_in_snapshot = false;
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
    ktrace_probe_gone();
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

// TraceEvent(_NTO_TRACE_START or STARTNOSTATE) from t: the ring runs, then the kernel's image
// and, with `state`, the snapshot of every process and thread (else their images alone).
static int start_capture(struct thread *t, bool state)
{
    struct trace_ring *r = &ktrace;
    int e = trace_ring_start(r);
    if (e < 0)
        return e;
    forget_open_calls();
    ktrace_probe_started();
    kuring_new_capture();
    trace_ring_set_current(r, ktrace_pid(t), ktrace_tid(t));
    ktrace_ran_set_all(true, (kdt_hooks_now() & DPROBE_H_EXIT) != 0);
    ktrace_sync();
    ktrace_image_ev(NULL);  // the kernel's own image, with or without the snapshot
    if (state)
        snapshot();         // each process's image after its CREATE_NAME
    else
        images();
    return 0;
}

// TraceEvent(_NTO_TRACE_STOP): the ring stops; a probe's capture wakes the logger that sleeps
// until it ends.
static void stop_capture(struct trace_ring *r)
{
    trace_ring_stop(r);
    forget_open_calls();
    if (r->tr_quiet)
        ktrace_notes_wake();
}

// The commands that choose what the ring records and how: the classes and events taken (by
// process and thread too) and each one's fast or wide mode. -EINVAL for any other command.
static int filter_command(struct trace_ring *r, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    switch (cmd) {
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
    default:
        return -EINVAL;
    }
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
        return ktrace_bench(a, b);
    if (cmd == KTRACE_INCIDENT)     // no ring needed: an earlier boot's record
        return kincident_call(t, a, b);
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
    case KTRACE_STARTNOSTATE:
        return start_capture(t, cmd == KTRACE_START);
    case KTRACE_STOP:
        stop_capture(r);
        return 0;
    case KTRACE_FLUSHBUFFER:
        return filter_result(trace_ring_flush(r, NULL));
    case KTRACE_QUERYEVENTS:
        return query(p, a);
    case KTRACE_SETRINGMODE:        return filter_result(trace_ring_set_policy(r, TRACE_POLICY_RING));
    case KTRACE_SETLINEARMODE:      return filter_result(trace_ring_set_policy(r, TRACE_POLICY_SWITCH));
    case KTRACE_SETPOLICY:          return filter_result(trace_ring_set_policy(r, a));
    case KTRACE_PROBE:
        return p == ring_owner ? ktrace_probe_call(p, a, b) : -EPERM;
    case KTRACE_WITHHOLDCLASSES:
        if (p != ring_owner)
            return -EPERM;
        trace_filter_withhold(r, a);
        return 0;
    case KTRACE_TAKEBUFFER:
        return p == ring_owner ? take_buffer(p, a) : -EPERM;
    case KTRACE_RELEASEBUFFER:
        return p == ring_owner ? filter_result(trace_ring_release(r, a)) : -EPERM;
    default:
        return filter_command(r, cmd, a, b, c);
    }
}
