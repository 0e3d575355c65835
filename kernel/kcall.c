// SPDX-License-Identifier: MIT
// Kernel-call decoding. Every call checks its arguments (ids, ranges, user pointers) and
// returns a negative errno when they are wrong; only then does it act. A call that blocks
// leaves the caller's result to whoever wakes it: kcall_dispatch() writes the result only
// when the caller is still running.
#include <kernel/kcall.h>
#include <kernel/kview.h>
#include <kernel/thread.h>
#include <kernel/sched.h>
#include <kernel/proc.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/irq.h>
#include <kernel/utimer.h>
#include <kernel/shost.h>
#include <kernel/kconsole.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/ktimer.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kcrash.h>
#include <d/dprobes.h>
#include <kernel/smp.h>
#include <kernel/cpu_sum.h>
#include <kernel/kversion.h>
#include <trace/kev_ident.h>
#include <arch_kcall.h>
#include <uapi/kcall.h>

uint64_t k_kcall_count;

_Static_assert(KSTACK_GUARD >= 32 && (KSTACK_GUARD & (KSTACK_GUARD - 1)) == 0,
               "a stack guard is a power of two an MPU region or a page can be");
// The least a new thread's stack holds: its first frame (kern.h THREAD_STACK_MIN).
#define KSTACK_FIRST_FRAME 64u

// The guard of a thread's stack [base, top) that asked for one (kern.h THREAD_GUARDED: a KSTACK
// stack, or one the library allocated): the KSTACK_GUARD bytes at the first multiple of
// KSTACK_GUARD in it, which the thread may not touch (arch_stack_guard), and above them at
// least its first frame; 0 when the stack has no room for both.
static uint32_t stack_guard_of(uint32_t base, uint32_t top)
{
    uint32_t guard = (base + (KSTACK_GUARD - 1u)) & ~(KSTACK_GUARD - 1u);
    if (guard < base || top < guard || top - guard < KSTACK_GUARD + KSTACK_FIRST_FRAME)
        return 0;
    return guard;
}

static int do_thread_create(struct thread *t, uint32_t entry, uint32_t fn, uint32_t arg,
                            uint32_t stack_top, uint32_t prio_policy, uint32_t stack_base)
{
    struct proc *p = t->proc;
    int prio = (int)(prio_policy & 0xff);
    int policy = (int)((prio_policy >> 8) & 0xff);
    bool detached = (prio_policy >> 16) & 1u;
    bool guarded = (prio_policy >> 17) & 1u;

    if (prio == 0)
        prio = t->base_prio;
    if (prio < KPRIO_MIN || (policy != 0 && policy != SCHED_POLICY_FIFO &&
                             policy != SCHED_POLICY_RR) || (prio_policy >> 18))
        return -EINVAL;
    if (prio > proc_prio_ceiling(p))
        return -EPERM;
    // The stack [stack_base, stack_top) must lie in the process's RAM, its top 8-byte aligned.
    // A stack given plain is the thread's whole (QNX's and POSIX's rule), at least its first
    // frame; one that asked for a guard holds it with room for the first frame above it.
    if ((stack_top & 7u) || stack_base >= stack_top ||
        !proc_can_write(p, stack_base, stack_top - stack_base) ||
        !proc_can_read(p, entry & ~1u, 2))
        return -EFAULT;
    uint32_t guard = guarded ? stack_guard_of(stack_base, stack_top) : 0u;
    if (guarded ? !guard : stack_top - stack_base < KSTACK_FIRST_FRAME)
        return -EINVAL;
    if (p->exiting)
        return -ESRCH;
    struct thread *n = thread_alloc(p);
    if (!n)
        return -EAGAIN;
    n->tid = (uint16_t)p->next_tid++;
    thread_set_trace_ids(n, (uint32_t)p->pid, n->tid);
    n->base_prio = n->prio = (uint8_t)prio;
    n->policy = (uint8_t)(policy ? policy : t->policy);
    n->detached = detached;
    n->stack_guard = guard;
    n->stack_base = stack_base;
    n->stack_top = stack_top;
    list_push_back(&p->threads, &n->plink);
    p->nthreads++;
    arch_thread_setup(n, entry, fn, arg, stack_top, false);
    ktrace_thread(n, KEV_TH_CREATE);
    sched_make_ready(n, false);
    return n->tid;
}

static int do_thread_join(struct thread *t, int tid, uint32_t status_ptr)
{
    struct thread *j = thread_by_tid(t->proc, tid);
    if (!j)
        return -ESRCH;
    if (j == t)
        return -EDEADLK;
    if (j->detached)
        return -EINVAL;
    if (status_ptr && !proc_can_write(t->proc, status_ptr, 4))
        return -EFAULT;
    if (j->state == THS_DEAD) {
        if (status_ptr)
            *(volatile int32_t *)(uintptr_t)status_ptr = j->exit_status;
        thread_free(j);
        return 0;
    }
    t->join_tid = tid;
    t->info_buf = status_ptr;
    thread_block(t, THS_JOIN, NULL);
    return 0;
}

static int do_set_prio(struct thread *t, int tid, int prio, int policy)
{
    struct thread *x = tid == 0 ? t : thread_by_tid(t->proc, tid);
    if (!x || x->state == THS_DEAD)
        return -ESRCH;
    if (prio < KPRIO_MIN || prio > KPRIO_MAX ||
        (policy != 0 && policy != SCHED_POLICY_FIFO && policy != SCHED_POLICY_RR))
        return -EINVAL;
    if (prio > proc_prio_ceiling(t->proc))
        return -EPERM;
    if (policy)
        x->policy = (uint8_t)policy;
    thread_set_base_prio(x, (uint8_t)prio);
    return 0;
}

// The test image's forced kernel fault (kernel/kcrash.h): null unless kcrash.c is linked.
__attribute__((weak)) int (*kdebug_fault_hook)(struct thread *t, uint32_t how);
// The test image's write of the test-only row (uapi/kapi.h KTCTL_KDEBUG_ROW): null unless
// test/tools/test_event_row_kernel.c is linked.
__attribute__((weak)) int (*kdebug_row_hook)(struct thread *t, uint32_t data); // kdebug_row.h

static int do_thread_ctl(struct thread *t, uint32_t cmd, uint32_t data)
{
    uint32_t mask = data, old = t->affinity;
    if (cmd == KTCTL_KDEBUG_FAULT)      // present only in images linked with kernel/kcrash.c
        return kdebug_fault_hook ? kdebug_fault_hook(t, data) : -EINVAL;
    if (cmd == KTCTL_KDEBUG_ROW)        // present only in the kevrowlive test image
        return kdebug_row_hook ? kdebug_row_hook(t, data) : -EINVAL;
    if (cmd != KTCTL_RUNMASK && cmd != KTCTL_RUNMASK_GET_AND_SET)
        return -EINVAL;
    if (cmd == KTCTL_RUNMASK_GET_AND_SET) {
        if (!proc_can_write(t->proc, data, sizeof(uint32_t)))
            return -EFAULT;
        mask = *(volatile uint32_t *)(uintptr_t)data;
        *(volatile uint32_t *)(uintptr_t)data = old;    // the old mask, whatever follows
        if (!mask)
            return 0;
    }
    if (t->affinity_fixed)
        return -EPERM;
    return sched_set_runmask(t, mask);  // last: it may put t back on the ready queue
}

static int do_name(struct thread *t, int tid, uint32_t uname)
{
    char name[KNAME_MAX];
    struct thread *x = tid == 0 ? t : thread_by_tid(t->proc, tid);
    if (!x || x->state == THS_DEAD)
        return -ESRCH;
    int r = proc_copy_string(t->proc, uname, name, sizeof(name));
    if (r < 0)
        return r;
    thread_set_name(x, name);
    ktrace_thread_name(x);
    return 0;
}

_Static_assert(KC_ProcSpawn == DPROBE_KCALL_PROC_SPAWN, "dtrace -i's ProcSpawn (d/dprobes.h)");

static int do_spawn(struct thread *t, uint32_t uname, int prio, uint32_t arg)
{
    char name[KAPP_NAME_MAX];
    int r = proc_copy_string(t->proc, uname, name, sizeof(name));
    if (r >= 0)
        r = proc_spawn(name, prio, arg, t->proc);
    else
        name[0] = '\0';
    if (r < 0 && kdt_active)    // proc:::exec, exec-failure (no child: the spawner's context)
        kdt_fire_spawn_failed(name, -r);
    return r;
}

// Not inlined into kcall_invoke, whose switch is every call's path: inlined, its calls of
// cpu_counter_sum moved the jump table's block and cost the A53's null call an instruction
// (scripts/bench-kernel.sh, kcall_null_insns_notrace 318 -> 319).
static __attribute__((noinline)) int do_sysinfo(struct thread *t, uint32_t what,
                                                uint32_t out)
{
    uint32_t v;
    switch (what) {
    case KSYSINFO_CYCLES_PER_SEC: v = board_cycles_per_sec(); break;
    case KSYSINFO_TICK_NS:        v = 1000000000u / TICK_HZ; break;
    case KSYSINFO_NPROC:          v = KMAX_PROCS; break;
    case KSYSINFO_TRACE_HOOKS:    v = KTRACE_HOOKS; break;
    case KSYSINFO_NTHREAD:        v = KMAX_THREADS; break;
    case KSYSINFO_NCPUS:          v = k_ncpus; break;
    case KSYSINFO_KENTRIES_EXCLUSIVE: v = (uint32_t)smp_exclusive_entries(); break;
    // The per-CPU counters' totals, modulo 2^32 (kernel/cpu_sum.c).
    case KSYSINFO_KCALLS_SHARED:    v = (uint32_t)cpu_counter_sum(CPU_SHARED_KCALLS); break;
    case KSYSINFO_IPIS:             v = (uint32_t)cpu_counter_sum(CPU_IPIS); break;
    case KSYSINFO_RUNQ_TAKES:       v = (uint32_t)cpu_counter_sum(CPU_RUNQ_TAKES); break;
    case KSYSINFO_RUNQ_FOUND_TAKEN: v = (uint32_t)cpu_counter_sum(CPU_RUNQ_FOUND_TAKEN); break;
    case KSYSINFO_RUNQ_HOLD_CYCLES: v = (uint32_t)cpu_counter_sum(CPU_RUNQ_HOLD_CYCLES); break;
    case KSYSINFO_TICKS:            v = (uint32_t)ktimer_now(); break;
    case KSYSINFO_TICKS_LATE:       v = k_ticks_late; break;
    case KSYSINFO_TICKS_SHARED:     // (one CPU: no shared side, EINVAL as documented)
        if (!KSMP)
            return -EINVAL;
        v = (uint32_t)cpu_counter_sum(CPU_TICKS_SHARED);
        break;
    case KSYSINFO_TIMER_OVERRUNS:   v = k_timer_overruns; break;
    case KSYSINFO_BUILD_DATE:       v = kev_ident_date_value(k_version); break;
    default:                      return -EINVAL;
    }
    if (!proc_can_write(t->proc, out, 4))
        return -EFAULT;
    *(volatile uint32_t *)(uintptr_t)out = v;
    return 0;
}

static int do_proc_info(struct thread *t, uint32_t slot, uint32_t out)
{
    struct kproc_info info;
    if (slot >= KMAX_PROCS)
        return -EINVAL;
    if (!proc_can_write(t->proc, out, sizeof(info)))
        return -EFAULT;
    const struct proc *p = &k_procs[slot];
    if (p->state == PROC_FREE)
        return -ESRCH;
    kmemset(&info, 0, sizeof(info));
    info.pid = p->pid;
    info.ppid = p->ppid;
    info.nthreads = p->nthreads;
    info.state = p->state == PROC_ALIVE ? 1 : 2;
    kstrlcpy(info.name, p->name, sizeof(info.name));
    kmemcpy((void *)(uintptr_t)out, &info, sizeof(info));
    return 0;
}

static int do_thread_info(struct thread *t, uint32_t slot, uint32_t out)
{
    struct kthread_info info;
    if (slot >= KMAX_THREADS)
        return -EINVAL;
    if (!proc_can_write(t->proc, out, sizeof(info)))
        return -EFAULT;
    const struct thread *x = &k_threads[slot];
    if (!x->in_use || (x->state == THS_DEAD && !x->proc))
        return -ESRCH;
    kmemset(&info, 0, sizeof(info));
    info.pid = x->proc ? x->proc->pid : 0;
    info.tid = x->proc ? x->tid : x->index + 1;
    info.state = x->state;
    info.priority = x->prio;
    info.cpu = x->cpu;
    kstrlcpy(info.name, x->name, sizeof(info.name));
    kmemcpy((void *)(uintptr_t)out, &info, sizeof(info));
    return 0;
}

// Writes at most DEBUG_WRITE_CHUNK bytes and says how many: a long write is the caller's
// loop of short kernel calls, so a low-priority writer cannot hold the kernel.
#define DEBUG_WRITE_CHUNK 128u

int kcall_debug_write(struct thread *t, uint32_t buf, uint32_t len)
{
    if (len > 4096 || !proc_can_read(t->proc, buf, len))
        return -EFAULT;
    if (len > DEBUG_WRITE_CHUNK)
        len = DEBUG_WRITE_CHUNK;
    kcon_write(t->proc, buf, len);  // whole lines with their source (kconsole.c)
    return (int)len;
}

// The message calls: in the traced dispatcher their traced copies (kernel/ipc.h), which record
// the message events; inline, so each dispatcher keeps one call.
static inline __attribute__((always_inline)) int msg_send(struct thread *t, const uint32_t *a,
                                                          const bool traced)
{
    return traced ? ipc_send_traced(t, (int)a[0], a[1], a[2], a[3], a[4])
                  : ipc_send(t, (int)a[0], a[1], a[2], a[3], a[4]);
}

static inline __attribute__((always_inline)) int msg_receive(struct thread *t,
                                                             const uint32_t *a,
                                                             const bool traced)
{
    return traced ? ipc_receive_traced(t, (int)a[0], a[1], a[2], a[3])
                  : ipc_receive(t, (int)a[0], a[1], a[2], a[3]);
}

static inline __attribute__((always_inline)) int msg_reply(struct thread *t, const uint32_t *a,
                                                           const bool traced)
{
    return traced ? ipc_reply_traced(t, (int)a[0], (int32_t)a[1], a[2], a[3])
                  : ipc_reply(t, (int)a[0], (int32_t)a[1], a[2], a[3]);
}

static inline __attribute__((always_inline)) int msg_error(struct thread *t, const uint32_t *a,
                                                           const bool traced)
{
    return traced ? ipc_error_traced(t, (int)a[0], (int32_t)a[1])
                  : ipc_error(t, (int)a[0], (int32_t)a[1]);
}

// DTrace's commands (kernel/kdtrace.c); its probes switch the trace hooks on and off, so the
// hooks are resynced after each.
static int dtrace_call(struct thread *t, const uint32_t *a)
{
    int r = kdt_call(t, a[0], a[1], a[2], a[3]);
    ktrace_resync();
    return r;
}

// Inline in both dispatchers (the traced one is a copy, so the untraced path keeps its
// shape and pays nothing for it); the traced one calls the message calls' traced copies.
static inline __attribute__((always_inline)) int kcall_invoke(struct thread *t, uint32_t n,
                                                              const uint32_t *a,
                                                              const bool traced)
{
    struct proc *p = t->proc;

    switch (n) {
    case KC_Null:            return 0;
    case KC_ThreadCreate:    return do_thread_create(t, a[0], a[1], a[2], a[3], a[4], a[5]);
    case KC_ThreadExit:      thread_destroy(t, (int32_t)a[0]); return 0;
    case KC_ThreadJoin:      return do_thread_join(t, (int)a[0], a[1]);
    case KC_ThreadYield:     sched_yield_current(); return 0;
    case KC_ThreadSetPrio:   return do_set_prio(t, (int)a[0], (int)a[1], (int)a[2]);
    case KC_ThreadCtl:       return do_thread_ctl(t, a[0], a[1]);
    case KC_ThreadSleep:     return kcall_sleep(t, kcall_ns_arg(a[0], a[1]));
    case KC_ThreadName:      return do_name(t, (int)a[0], a[1]);
    case KC_ThreadSelf:      return t->tid;
    case KC_ChannelCreate:   return ipc_channel_create(p, a[0]);
    case KC_ChannelDestroy:  return ipc_channel_destroy(p, (int)a[0]);
    case KC_ConnectAttach:   return ipc_connect_attach(p, (int)a[0], (int)a[1]);
    case KC_ConnectDetach:   return ipc_connect_detach(p, (int)a[0]);
    case KC_NameCtl:         return kname_ctl(t, a[0], a[1], a[2]);
    case KC_MsgSend:         return msg_send(t, a, traced);
    case KC_MsgReceive:      return msg_receive(t, a, traced);
    case KC_MsgReply:        return msg_reply(t, a, traced);
    case KC_MsgError:        return msg_error(t, a, traced);
    case KC_MsgSendPulse: // (its priority capped at the sender's ceiling there)
        return ipc_send_pulse(p, (int)a[0], (int)a[1], (int32_t)a[2], (int32_t)a[3]);
    case KC_TimerTimeout:    return kcall_timer_timeout(t, kcall_ns_arg(a[0], a[1]));
    case KC_TimerCreate:     return utimer_create(p, t->base_prio, (int)a[0], (int32_t)a[1], (int32_t)a[2]);
    case KC_TimerSettime:    return utimer_settime(p, (int)a[0], a[1], a[2]);
    case KC_TimerDestroy:    return utimer_destroy(p, (int)a[0]);
    case KC_ClockCycles:     kcall_clock(t, false); return 0;
    case KC_ClockTime:       kcall_clock(t, true); return 0;
    case KC_InterruptAttachEvent:
        return irq_attach_event(p, t->base_prio, a[0], (int)a[1], (int32_t)a[2]);
    case KC_InterruptDetach:      return irq_detach(p, (int)a[0]);
    case KC_InterruptMask:        return irq_mask(p, a[0], (int)a[1], true);
    case KC_InterruptUnmask:      return irq_mask(p, a[0], (int)a[1], false);
    case KC_InterruptTrigger:     return irq_trigger(p, a[0]);
    case KC_MutexCreate:     return mutex_create(p);
    case KC_MutexLock:       return mutex_lock(t, (int)a[0]);
    case KC_MutexUnlock:     return mutex_unlock(t, (int)a[0]);
    case KC_MutexDestroy:    return mutex_destroy(p, (int)a[0]);
    case KC_CondCreate:      return cond_create(p);
    case KC_CondWait:        return cond_wait(t, (int)a[0], (int)a[1]);
    case KC_CondSignal:      return cond_signal(t, (int)a[0], a[1] != 0);
    case KC_CondDestroy:     return cond_destroy(p, (int)a[0]);
    case KC_SemCreate:       return sem_create(p, (int)a[0]);
    case KC_SemWait:         return sem_wait(t, (int)a[0]);
    case KC_SemPost:         return sem_post(t, (int)a[0]);
    case KC_SemDestroy:      return sem_destroy(p, (int)a[0]);
    case KC_ProcSpawn:       return do_spawn(t, a[0], (int)a[1], a[2]);
    case KC_ProcExit:        proc_exit(p, (int32_t)((a[0] & 0xff) << 8)); return 0;
    case KC_ProcWait:        return proc_wait(t, (int)a[0], a[1]);
    case KC_ProcKill:        return proc_kill(p, (int)a[0]);
    case KC_ProcSelf:        return p->pid;
    case KC_Semihost:        return shost_call(p, a[0], a[1]);
    case KC_DebugWrite:      return kcall_debug_write(t, a[0], a[1]);
    case KC_SysInfo:         return do_sysinfo(t, a[0], a[1]);
    case KC_TraceEvent:      return ktrace_call(t, a[0], a[1], a[2], a[3]);
    case KC_ProcInfo:        return do_proc_info(t, a[0], a[1]);
    case KC_ThreadInfo:      return do_thread_info(t, a[0], a[1]);
    case KC_DTrace:          return dtrace_call(t, a);
    default:                 return -ENOSYS;
    }
}

// The body of both dispatchers; `traced` is a constant in each. The number and arguments
// are read from the saved frame once (arch_kcall.h); the traced one records the entry event
// from them (ktrace_kcall.h), so the event costs no second read.
static inline __attribute__((always_inline)) void dispatch_body(struct thread *t,
                                                                const bool traced)
{
    uint32_t n = arch_kc_number(&t->ctx);
    const uint32_t a[6] = { arch_kc_arg(&t->ctx, 0), arch_kc_arg(&t->ctx, 1),
                            arch_kc_arg(&t->ctx, 2), arch_kc_arg(&t->ctx, 3),
                            arch_kc_arg(&t->ctx, 4), arch_kc_arg(&t->ctx, 5) };
    // (A traced entry retried from the shared fast path recorded its entry event there:
    // kc_trace is set only then, kernel/kentry_shared.h.)
    if (traced && __builtin_expect(!(KSMP && KLOCK_SHARED_TRACED && t->kc_trace), 1))
        ktrace_kcall_entry(t, n, a);
    k_kcall_count++;
    int r = kcall_invoke(t, n, a, traced);
    if (n != KC_TimerTimeout)
        t->timeout_ns = 0;      // TimerTimeout covers only the next kernel call
    // 64-bit results (the clocks) are written by the call itself.
    if (t->state == THS_RUNNING && !kcall_result64(n))
        thread_set_result(t, r);
}

void kcall_dispatch(struct thread *t)
{
    dispatch_body(t, false);
}

void kcall_dispatch_traced(struct thread *t)
{
    dispatch_body(t, KTRACE_HOOKS);
}
