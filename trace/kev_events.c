// SPDX-License-Identifier: MIT
// The event table (trace/kev_events.h): one row per kernel trace event, the only place its
// layout and meaning are written, and the generic decoder that reads events by it. The
// kernel-call rows' fields are each call's arguments (trace/kev_kercall.c: this kernel's, and
// QNX's layouts for a QNX system's capture). A row gives: class,
// number(s), name, when it is written, its fields (its layout, trace/kev_rows.h), the payload
// words in fast and wide mode (0: a combine event of variable length), QNX's encoding (NULL:
// ours, on a number QNX leaves free) and the D probes its site fires. The decoder that reads
// events by these rows is trace/kev_fields.c.
// Adding an event: docs/adding-an-event.md. docs/trace-events.md's tables are checked equal to
// these rows by test/tools/test_event_table.sh (over `kevtable`'s output).
// Pure data and lookups, freestanding: no libc, no state but kev_events_add's one pointer
// (set once before decoding; not locked).
#include <trace/kev_events.h>
#include <trace/kev_kercall.h>
#include <trace/kev_stack.h>
#include <trace/kev_rows.h>

#if defined(__has_include)
#if __has_include(<uapi/kcall.h>)
#include <uapi/kcall.h>
#define KEV_HAVE_KCALL_LIST 1
#endif
#endif

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

// ---- value names (enumerations of fields) -----------------------------------------------------

static const char *const kev_class_names[KEV_NCLASS] = {
    "EMPTY", "CONTROL", "KER_CALL", "INT", "PR_TH", "SYSTEM", "USER", "COMM",
};

const char *kev_class_name(unsigned cls)
{
    return cls < KEV_NCLASS ? kev_class_names[cls] : NULL;
}

const char *kev_prio_cause_name(unsigned cause)
{
    static const char *const names[KEV_PRIO_NCAUSES] = {
        "initial", "call", "mutex inheritance", "message inheritance", "inheritance ends",
        "ceiling" };
    return cause < KEV_PRIO_NCAUSES ? names[cause] : NULL;
}

const char *kev_stack_kind_name(unsigned kind)
{
    static const char *const names[] = { "?", "user", "kernel", "fault" };
    return kind < NELEM(names) ? names[kind] : "?";
}

// The kernel's unwind errors (kernel/unwind.h enum unwind_err), in its order.
const char *kev_stack_ended_name(unsigned ended)
{
    static const char *const names[] = { "complete", "unreadable frame", "unaligned frame",
                                         "frame loop", "frame out of bounds",
                                         "no unwind information" };
    return ended < NELEM(names) ? names[ended] : "?";
}

const char *kev_fault_kind_name(unsigned kind)
{
    static const char *const names[KEV_FAULT_NKINDS] = {
        "other", "access", "exec", "alignment", "undefined instruction", "divide by zero",
        "bus error", "stacking", "breakpoint" };
    return kind < KEV_FAULT_NKINDS ? names[kind] : "?";
}

// The target's signal numbers (uapi/kapi.h KSIG_*).
const char *kev_signal_name(unsigned sig)
{
    switch (sig) {
    case 4: return "SIGILL";
    case 7: return "SIGBUS";
    case 8: return "SIGFPE";
    case 9: return "SIGKILL";
    case 11: return "SIGSEGV";
    default: return "?";
    }
}

// The target's errno numbers (newlib's and picolibc's, uapi/kerrno.h), spelled out because a
// host build of kerrno.h takes the host's values.
const char *kev_errno_name(unsigned err)
{
    switch (err) {
    case 1: return "EPERM";
    case 2: return "ENOENT";
    case 3: return "ESRCH";
    case 4: return "EINTR";
    case 5: return "EIO";
    case 9: return "EBADF";
    case 10: return "ECHILD";
    case 11: return "EAGAIN";
    case 12: return "ENOMEM";
    case 14: return "EFAULT";
    case 16: return "EBUSY";
    case 17: return "EEXIST";
    case 22: return "EINVAL";
    case 28: return "ENOSPC";
    case 45: return "EDEADLK";
    case 88: return "ENOSYS";
    case 116: return "ETIMEDOUT";
    case 134: return "ENOTSUP";
    case 140: return "ECANCELED";
    default: return NULL;
    }
}

#ifdef KEV_HAVE_KCALL_LIST
#define KEV_KCALL_NAME(num, name, nargs) [num] = #name,
static const char *const kev_kcall_names[KEV_KC_MAX] = { KCALL_LIST(KEV_KCALL_NAME) };
#undef KEV_KCALL_NAME
#endif

// Kernel-call names come from the kernel's ABI header uapi/kcall.h (KCALL_LIST) when the
// include path has it; without it NULL, and tools print numbers.
const char *kev_kcall_name(unsigned callno)
{
#ifdef KEV_HAVE_KCALL_LIST
    return callno < KEV_KC_MAX ? kev_kcall_names[callno] : NULL;
#else
    (void)callno;
    return NULL;
#endif
}

static const char *name_or_null(const char *s) { return s && s[0] != '?' ? s : NULL; }
static const char *stack_kind_names(unsigned v) { return name_or_null(kev_stack_kind_name(v)); }
static const char *stack_ended_names(unsigned v) { return name_or_null(kev_stack_ended_name(v)); }
static const char *fault_kind_names(unsigned v) { return name_or_null(kev_fault_kind_name(v)); }
static const char *signal_names(unsigned v) { return name_or_null(kev_signal_name(v)); }
static const char *policy_names(unsigned v)
{
    static const char *const names[] = { NULL, "FIFO", "RR", "OTHER" };
    return v < NELEM(names) ? names[v] : NULL;
}
static const char *panic_origin_names(unsigned v)
{
    return v == KEV_PANIC_CALL ? "call" : v == KEV_PANIC_EXCEPTION ? "exception" : NULL;
}
static const char *trigger_action_names(unsigned v)
{
    static const char *const names[] = { "freeze", "panic", "breakpoint" };
    return v < NELEM(names) ? names[v] : NULL;
}
static const char *dprog_names(unsigned v)
{
    static const char *const names[] = { NULL, "go", "stop" };
    return v < NELEM(names) ? names[v] : NULL;
}
static const char *snapshot_names(unsigned v)
{
    static const char *const names[] = { "start", "end", "cpu runs" };
    return v < NELEM(names) ? names[v] : NULL;
}

// ---- the rows ---------------------------------------------------------------------------------
// Each row's fields are its layout's, written once in trace/kev_rows.h (the kernel packs its
// words from the same macros): f_<layout> expands KEV_F_<LAYOUT>.
#define FIELDS(arr, layout) static const struct kev_field_desc arr[] = { layout(KEV_FIELD_DESC, 0) }
#define ROW(c, lo, hi, name, when, flds, fw, ww, qnx, probes) \
    { KEV_C_##c, lo, hi, name, when, flds, NELEM(flds), fw, ww, 0, qnx, probes, KEV_D_NONE, NULL }
// A row whose site fires D probes: ds how (enum kev_dsite), dp which, with their arguments.
#define ROWD(ds, c, lo, hi, name, when, flds, fw, ww, qnx, probes, dp) \
    { KEV_C_##c, lo, hi, name, when, flds, NELEM(flds), fw, ww, 0, qnx, probes, KEV_D_##ds, dp }
// A run of kernel-call events: kc its part (ENTRY, EXIT, INTR: enum kev_kcall_part, which
// kev_kcall_part() answers from), the fields the call's layout (trace/kev_kercall.c).
#define KROW(lo, hi, name, when, kc, qnx, probes, ds, dp) \
    { KEV_C_KER_CALL, lo, hi, name, when, NULL, 0, 2, 6, KEV_KCALL_##kc, qnx, probes, \
      KEV_D_##ds, dp }

FIELDS(f_time, KEV_F_TIME);
FIELDS(f_buffer, KEV_F_BUFFER);
FIELDS(f_buffer_end, KEV_F_BUFFER_END);
FIELDS(f_dropped, KEV_F_DROPPED);
FIELDS(f_int, KEV_F_INT);
FIELDS(f_int_handler_enter, KEV_F_INT_HANDLER_ENTER);
FIELDS(f_int_handler_exit, KEV_F_INT_HANDLER_EXIT);
FIELDS(f_thread, KEV_F_THREAD);
FIELDS(f_thread_life, KEV_F_THREAD_LIFE);
FIELDS(f_proc, KEV_F_PROC);
FIELDS(f_proc_name, KEV_F_PROC_NAME);
FIELDS(f_thread_name, KEV_F_THREAD_NAME);
FIELDS(f_func_enter, KEV_F_FUNC_ENTER);
FIELDS(f_func_exit, KEV_F_FUNC_EXIT);
FIELDS(f_slog, KEV_F_SLOG);
FIELDS(f_timer, KEV_F_TIMER);
FIELDS(f_timer_lost, KEV_F_TIMER_LOST);
FIELDS(f_snapshot, KEV_F_SNAPSHOT);
FIELDS(f_oncpu, KEV_F_ONCPU);
FIELDS(f_dprog, KEV_F_DPROG);
FIELDS(f_dtimer, KEV_F_DTIMER);
FIELDS(f_uring_bad, KEV_F_URING_BAD);
FIELDS(f_sync_wait, KEV_F_SYNC_WAIT);
FIELDS(f_prio_change, KEV_F_PRIO_CHANGE);
FIELDS(f_stack, KEV_F_STACK);
FIELDS(f_fault, KEV_F_FAULT);
FIELDS(f_kpanic, KEV_F_KPANIC);
FIELDS(f_dcost, KEV_F_DCOST);
FIELDS(f_trigger, KEV_F_TRIGGER);
FIELDS(f_image, KEV_F_IMAGE);
FIELDS(f_usdt, KEV_F_USDT);
FIELDS(f_user, KEV_F_USER);
FIELDS(f_snd_message, KEV_F_SND_MESSAGE);
FIELDS(f_snd_pulse, KEV_F_SND_PULSE);
FIELDS(f_rec_message, KEV_F_REC_MESSAGE);
FIELDS(f_rec_pulse, KEV_F_REC_PULSE);
FIELDS(f_pulse_other, KEV_F_PULSE_OTHER);
FIELDS(f_signal, KEV_F_SIGNAL);
FIELDS(f_reply, KEV_F_REPLY);
FIELDS(f_msg_error, KEV_F_MSG_ERROR);

// ---- the D column: each probe a site fires and its arguments (struct kev_dprobe) ------------
// The kernel fires these where it writes the event (kernel/ktrace.c), as docs/d-probes.md
// describes them; dtrace -i fires over a capture the ones not derived.
#define D_END { NULL, NULL, NULL, 0 }
static const struct kev_dprobe d_kcall_entry[] = {
    { "kercall::<call>:entry", "$words", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_kcall_exit[] = {
    { "kercall::<call>:return", "$result $call", NULL, 0 },
    { "lockstat:::*-acquire, *-release, *-block", "a SYNC_* call's object; a block's time and "
      "owner (SYNC_WAIT)", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_int_enter[] = {
    { "interrupt::irq<irq>:entry", "irq", NULL, 0 },
    { "sched:::tick", "the interrupted thread (who, its pid, its priority), at lines 0x100 and "
      "0x101", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_int_exit[] = {
    { "interrupt::irq<irq>:exit", "irq", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_thread_state[] = {
    { "sched:::sleep, block-*, wakeup, preempt, enqueue, dequeue, on-cpu, off-cpu; "
      "proc:::lwp-start, lwp-exit, start, exec, exec-success",
      "the thread (who, its pid, its priority), and the state it left or the object it waits "
      "on", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_thread_create[] = {
    { "sched:::thread-create, proc:::lwp-create", "who pid, its priority", "$snapshot", 1 },
    D_END,
};
static const struct kev_dprobe d_thread_destroy[] = {
    { "sched:::thread-exit", "who, its status (not in the event)", "$snapshot", 1 }, D_END,
};
static const struct kev_dprobe d_proc_create[] = {
    { "proc:::create", "pid ppid", "$snapshot", 0 }, D_END,
};
static const struct kev_dprobe d_proc_exit[] = {
    { "proc:::exit", "pid ?status", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_func[] = {
    { "fbt::<function>:entry, :return; pid<p>::<function>:entry, :return",
      "a return's offset and value (typed as the function returns it)", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_sync_wait[] = {
    { "lockstat:::*-block", "at the call's return: the object, the time blocked, the owner",
      NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_prio_change[] = {
    { "sched:::change-pri", "who who.pid new_prio old_prio cause", "cause=0 $snapshot", 0 },
    D_END,
};
static const struct kev_dprobe d_fault[] = {
    { "proc:::fault", "the signal; ustack() the STACK (kind fault) that follows", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_stack[] = {
    { "profile:::profile-N, proc:::fault", "a sample: the kernel pc, the user pc; its pcs the "
      "firing's stack()", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_oncpu[] = {
    { "sched:::on-cpu", "who who.pid ?prio 0", NULL, 0 },
    { "proc:::lwp-start, proc:::start, proc:::exec, proc:::exec-success",
      "at a thread's first run (a spawned process's first thread: start, exec, exec-success "
      "first): who pid, its priority", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_dprog[] = {
    { "dtrace:::BEGIN, dtrace:::END", "at the go and the stop, in who's context (the replay's "
      "span)", NULL, 1 },
    D_END,
};
// The decisions (trace/kev.h KEV_SYS_REMAIN_CPU, SURRENDER, SIGNAL_SEND, STEAL): their layouts
// beside their rows, as no other code packs them (STEAL's site through its generated packer).
#define KEV_F_REMAIN_CPU(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread the tick's choice kept") \
    F(x, prio, PRIO, WORD, 1, 0, 8, 0, NULL, "its priority")
#define KEV_F_SURRENDER(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread running on the CPU interrupted") \
    F(x, prio, PRIO, WORD, 1, 0, 8, 0, NULL, "its priority") \
    F(x, cpu, U32, WORD, 1, 8, 8, 0, NULL, "the CPU interrupted")
#define KEV_F_SIGNAL_SEND(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the killed process's first thread") \
    F(x, sig, U32, WORD, 1, 0, 8, 0, NULL, "the signal (KSIG_KILL)")
#define KEV_F_STEAL(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread taken to run") \
    F(x, prio, PRIO, WORD, 1, 0, 8, 0, NULL, "its priority") \
    F(x, from, U32, WORD, 1, 8, 8, 0, NULL, "the CPU whose run queue it was taken from")
FIELDS(f_remain_cpu, KEV_F_REMAIN_CPU);
FIELDS(f_surrender, KEV_F_SURRENDER);
FIELDS(f_signal_send, KEV_F_SIGNAL_SEND);
FIELDS(f_steal, KEV_F_STEAL);
static const struct kev_dprobe d_remain_cpu[] = {
    { "sched:::remain-cpu", "who who.pid prio", NULL, 0 },
    D_END,
};
static const struct kev_dprobe d_surrender[] = {
    { "sched:::surrender", "who who.pid prio cpu", NULL, 0 },
    D_END,
};
static const struct kev_dprobe d_signal_send[] = {
    { "proc:::signal-send", "who who.pid sig", NULL, 0 },
    D_END,
};
static const struct kev_dprobe d_steal[] = {
    { "sched:::dequeue", "args[2] (arg3) from, at the thread's RUNNING that follows on this CPU",
      NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_dtimer[] = {
    { "profile:::tick-N, profile-N", "the program's timers due by at, in who's context", NULL, 1 },
    D_END,
};
static const struct kev_dprobe d_usdt[] = {
    { "the site's USDT probes", "the recorded arguments", NULL, 1 }, D_END,
};
static const struct kev_dprobe d_user[] = {
    { "user:::event", "$ev $user", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_snd_message[] = {
    { "msg:::send", "?coid rcvid ?bytes pid", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_snd_pulse[] = {
    { "msg:::pulse", "coid code", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_rec_message[] = {
    { "msg:::receive", "?coid rcvid ?bytes who", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_reply[] = {
    { "msg:::reply", "?coid rcvid 0 status", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_msg_error[] = {
    { "msg:::error", "?coid rcvid ?bytes errno", NULL, 0 }, D_END,
};
static const struct kev_dprobe d_signal[] = {
    { "proc:::fault", "with the FAULT before it", NULL, 1 }, D_END,
};

#define THR(st, nm) ROWD(OWN, PR_TH, st, st, nm, "a thread enters this state", f_thread, 2, 4, \
    "_NTO_TRACE_THREAD / _NTO_TRACE_" nm, \
    "sched::: sleep, block-*, wakeup, preempt, enqueue, dequeue; proc:::lwp-exit (THDEAD)", \
    d_thread_state)

const struct kev_event_desc kev_event_table[] = {
    ROW(CONTROL, KEV_CTL_TIME, KEV_CTL_TIME, "TIME", "the ring: the cycle counter's high word moved",
        f_time, 2, 2, "_NTO_TRACE_CONTROL / _NTO_TRACE_CONTROLTIME", ""),
    ROW(CONTROL, KEV_CTL_BUFFER, KEV_CTL_BUFFER, "BUFFER", "the ring: a buffer's first slot",
        f_buffer, 2, 2, "_NTO_TRACE_CONTROL / _NTO_TRACE_CONTROLBUFFER", ""),
    ROW(CONTROL, KEV_CTL_BUFFER_END, KEV_CTL_BUFFER_END, "BUFFER_END", "the ring: a buffer's last slot",
        f_buffer_end, 2, 2, NULL, ""),
    ROW(CONTROL, KEV_CTL_DROPPED, KEV_CTL_DROPPED, "DROPPED", "the ring: events were lost",
        f_dropped, 2, 2, NULL, ""),

    KROW(KEV_KC_ENTRY(0), KEV_KC_ENTRY(KEV_KC_MAX - 1), "KER_CALL", "a kernel call is entered",
         ENTRY,
         "_NTO_TRACE_KERCALLENTER / __KER_*",
         "kercall::<Name>:entry (arg0-arg5 the call's arguments)", EMIT, d_kcall_entry),
    KROW(KEV_KC_EXIT(0), KEV_KC_EXIT(KEV_KC_MAX - 1), "KER_EXIT",
         "the call returns to its thread, blocked time included", EXIT,
         "_NTO_TRACE_KERCALLEXIT / __KER_*",
         "kercall::<Name>:return (arg0 the result, -errno on failure); lockstat at a SYNC_* return", EMIT, d_kcall_exit),
    KROW(KEV_KC_INTERRUPTED(0), KEV_KC_INTERRUPTED(KEV_KC_MAX - 1), "KER_INTR",
         "QNX's interrupted call; never written here", INTR, "_NTO_TRACE_KERCALLINT / __KER_*", "",
         NONE, NULL),

    ROWD(EMIT, INT, KEV_INT_ENTER, KEV_INT_ENTER, "INT_ENTR",
        "a device interrupt, the tick, a CPU's tick share or a reschedule IPI is taken", f_int, 2, 2,
        "_NTO_TRACE_INT / _NTO_TRACE_INTENTER", "interrupt::irqN:entry; sched:::tick (the tick)", d_int_enter),
    ROWD(EMIT, INT, KEV_INT_EXIT, KEV_INT_EXIT, "INT_EXIT", "its end", f_int, 2, 2,
        "_NTO_TRACE_INT / _NTO_TRACE_INTEXIT", "interrupt::irqN:exit", d_int_exit),
    ROW(INT, KEV_INT_HANDLER_ENTER, KEV_INT_HANDLER_ENTER, "INT_HANDLER_ENTR",
        "before a driver's handler, or the pulse sent for an event line", f_int_handler_enter, 0, 0,
        "_NTO_TRACE_INT / _NTO_TRACE_INT_HANDLER_ENTER", ""),
    ROW(INT, KEV_INT_HANDLER_EXIT, KEV_INT_HANDLER_EXIT, "INT_HANDLER_EXIT", "after it",
        f_int_handler_exit, 2, 2, "_NTO_TRACE_INT / _NTO_TRACE_INT_HANDLER_EXIT", ""),

    THR(KEV_TH_DEAD, "THDEAD"), THR(KEV_TH_RUNNING, "THRUNNING"), THR(KEV_TH_READY, "THREADY"),
    THR(KEV_TH_STOPPED, "THSTOPPED"), THR(KEV_TH_SEND, "THSEND"), THR(KEV_TH_RECEIVE, "THRECEIVE"),
    THR(KEV_TH_REPLY, "THREPLY"), THR(KEV_TH_STACK, "THSTACK"), THR(KEV_TH_WAITTHREAD, "THWAITTHREAD"),
    THR(KEV_TH_WAITPAGE, "THWAITPAGE"), THR(KEV_TH_SIGSUSPEND, "THSIGSUSPEND"),
    THR(KEV_TH_SIGWAITINFO, "THSIGWAITINFO"), THR(KEV_TH_NANOSLEEP, "THNANOSLEEP"),
    THR(KEV_TH_MUTEX, "THMUTEX"), THR(KEV_TH_CONDVAR, "THCONDVAR"), THR(KEV_TH_JOIN, "THJOIN"),
    THR(KEV_TH_INTR, "THINTR"), THR(KEV_TH_SEM, "THSEM"), THR(KEV_TH_WAITCTX, "THWAITCTX"),
    THR(KEV_TH_NET_SEND, "THNET_SEND"), THR(KEV_TH_NET_REPLY, "THNET_REPLY"),
    ROW(PR_TH, KEV_TH_WAITCHILD, KEV_TH_WAITCHILD, "THWAITCHILD",
        "files before 2026-11: a thread blocked in ProcWait (now THJOIN)", f_thread, 2, 4, NULL, ""),
    ROWD(EMIT, PR_TH, KEV_TH_CREATE, KEV_TH_CREATE, "THCREATE", "a thread is created", f_thread_life, 2, 2,
        "_NTO_TRACE_THREAD / _NTO_TRACE_THCREATE", "sched:::thread-create, proc:::lwp-create", d_thread_create),
    ROWD(EMIT, PR_TH, KEV_TH_DESTROY, KEV_TH_DESTROY, "THDESTROY",
        "a thread's slot is freed (joined, detached, or its process ended)", f_thread_life, 2, 2,
        "_NTO_TRACE_THREAD / _NTO_TRACE_THDESTROY", "sched:::thread-exit", d_thread_destroy),
    ROWD(NONE, PR_TH, KEV_PR_CREATE, KEV_PR_CREATE, "PROCCREATE", "a process starts (not written here)",
        f_proc, 2, 2, "_NTO_TRACE_PROCESS / _NTO_TRACE_PROCCREATE", "", d_proc_create),
    ROWD(NONE, PR_TH, KEV_PR_DESTROY, KEV_PR_DESTROY, "PROCDESTROY", "a process ends (not written here)",
        f_proc, 2, 2, "_NTO_TRACE_PROCESS / _NTO_TRACE_PROCDESTROY", "", d_proc_exit),
    ROWD(EMIT, PR_TH, KEV_PR_CREATE_NAME, KEV_PR_CREATE_NAME, "PROCCREATE_NAME", "a process starts",
        f_proc_name, 0, 0, "_NTO_TRACE_PROCESS / _NTO_TRACE_PROCCREATE_NAME", "proc:::create", d_proc_create),
    ROWD(EMIT, PR_TH, KEV_PR_DESTROY_NAME, KEV_PR_DESTROY_NAME, "PROCDESTROY_NAME",
        "a process ends (becomes a zombie)", f_proc_name, 0, 0,
        "_NTO_TRACE_PROCESS / _NTO_TRACE_PROCDESTROY_NAME", "proc:::exit", d_proc_exit),
    ROW(PR_TH, KEV_PR_THREAD_NAME, KEV_PR_THREAD_NAME, "PROCTHREAD_NAME",
        "a thread is named (spawn names the main thread \"main\")", f_thread_name, 0, 0,
        "_NTO_TRACE_PROCESS / _NTO_TRACE_PROCTHREAD_NAME", ""),

    ROWD(OWN, SYSTEM, KEV_SYS_FUNC_ENTER, KEV_SYS_FUNC_ENTER, "FUNC_ENTER",
        "an enabled fbt or pid entry probe fired", f_func_enter, 2, 2,
        "_NTO_TRACE_SYSTEM / _NTO_TRACE_SYS_FUNC_ENTER", "fbt::<function>:entry, pid<p>::<function>:entry", d_func),
    ROWD(OWN, SYSTEM, KEV_SYS_FUNC_EXIT, KEV_SYS_FUNC_EXIT, "FUNC_EXIT",
        "an enabled fbt or pid return probe fired", f_func_exit, 5, 5,
        "_NTO_TRACE_SYSTEM / _NTO_TRACE_SYS_FUNC_EXIT",
        "fbt::<function>:return, pid<p>::<function>:return (arg0 offset, arg1 value)", d_func),
    ROW(SYSTEM, KEV_SYS_SLOG, KEV_SYS_SLOG, "SLOG",
        "not an event of the capture: the loss note after the last buffer", f_slog, 0, 0,
        "_NTO_TRACE_SYSTEM / _NTO_TRACE_SYS_SLOG", ""),
    ROW(SYSTEM, KEV_SYS_TIMER, KEV_SYS_TIMER, "TIMER", "a user timer expires", f_timer, 2, 2,
        NULL, ""),
    ROW(SYSTEM, KEV_SYS_SNAPSHOT, KEV_SYS_SNAPSHOT, "SNAPSHOT", "brackets the snapshot START writes",
        f_snapshot, 2, 2, NULL, ""),
    ROW(SYSTEM, KEV_SYS_URING_BAD, KEV_SYS_URING_BAD, "URING_BAD",
        "the kernel rejected records of a process's user-event ring", f_uring_bad, 2, 2, NULL, ""),
    ROWD(LATER, SYSTEM, KEV_SYS_SYNC_WAIT, KEV_SYS_SYNC_WAIT, "SYNC_WAIT",
        "a thread blocks on a mutex, semaphore or condvar", f_sync_wait, 2, 2, NULL,
        "lockstat:::*-block, at the call's return", d_sync_wait),
    ROWD(EMIT, SYSTEM, KEV_SYS_PRIO_CHANGE, KEV_SYS_PRIO_CHANGE, "PRIO_CHANGE",
        "a thread's effective priority is about to change", f_prio_change, 2, 2, NULL,
        "sched:::change-pri (not initial; args[0] the thread, args[2] the new priority)", d_prio_change),
    ROWD(LATER, SYSTEM, KEV_SYS_STACK, KEV_SYS_STACK, "STACK", "a call stack (sample, kernel thread, fault)",
        f_stack, 0, 0, NULL, "proc:::fault's ustack() (kind fault)", d_stack),
    ROWD(EMIT, SYSTEM, KEV_SYS_FAULT, KEV_SYS_FAULT, "FAULT", "a process's thread faulted", f_fault, 6, 6,
        NULL, "proc:::fault (arg0 the signal)", d_fault),
    ROW(SYSTEM, KEV_SYS_KPANIC, KEV_SYS_KPANIC, "KPANIC", "the kernel panicked", f_kpanic, 0, 0,
        NULL, ""),
    ROW(SYSTEM, KEV_SYS_IMAGE, KEV_SYS_IMAGE, "IMAGE", "what a process runs", f_image, 0, 0, NULL, ""),
    ROWD(OWN, SYSTEM, KEV_SYS_USDT, KEV_SYS_USDT, "USDT", "a program's USDT probe fired while enabled",
        f_usdt, 0, 0, NULL, "the site's USDT probe (args the recorded arguments)", d_usdt),
    ROWD(EMIT, SYSTEM, KEV_SYS_ONCPU, KEV_SYS_ONCPU, "ONCPU",
        "the kernel returns into another thread than the CPU ran last", f_oncpu, 2, 2, NULL,
        "sched:::on-cpu, and a new thread's proc:::lwp-start (a process's start, exec)", d_oncpu),
    ROWD(OWN, SYSTEM, KEV_SYS_DPROG, KEV_SYS_DPROG, "DPROG",
        "a D program's probes go on (KDT_GO) or off (KDT_STOP)", f_dprog, 2, 2, NULL,
        "dtrace:::BEGIN, dtrace:::END (dtrace -i replays the span between)", d_dprog),
    ROWD(OWN, SYSTEM, KEV_SYS_DTIMER, KEV_SYS_DTIMER, "DTIMER",
        "a D program's tick-N or profile-N probes were due at a timer interrupt", f_dtimer, 2, 2,
        NULL, "profile:::tick-N, profile-N (those due by `at`)", d_dtimer),
    ROW(SYSTEM, KEV_SYS_TIMER_LOST, KEV_SYS_TIMER_LOST, "TIMER_LOST",
        "a user timer's pulse could not be delivered (no room for it)", f_timer_lost, 3, 3, NULL, ""),
    ROW(SYSTEM, KEV_SYS_TRIGGER, KEV_SYS_TRIGGER, "TRIGGER",
        "a D clause's freeze( ), panic( ) or breakpoint( ) ran: the ring stops after it", f_trigger,
        0, 0, NULL, ""),
    ROW(SYSTEM, KEV_SYS_DCOST, KEV_SYS_DCOST, "DCOST",
        "what a D program's probes cost the board, at its stop (after END)", f_dcost, 6, 6, NULL,
        ""),
    ROWD(EMIT, SYSTEM, KEV_SYS_REMAIN_CPU, KEV_SYS_REMAIN_CPU, "REMAIN_CPU",
        "a clock tick's choice keeps the running thread (at the tick's exit)", f_remain_cpu, 2, 2,
        NULL, "sched:::remain-cpu", d_remain_cpu),
    ROWD(EMIT, SYSTEM, KEV_SYS_SURRENDER, KEV_SYS_SURRENDER, "SURRENDER",
        "this CPU interrupts another for a more urgent thread", f_surrender, 2, 2, NULL,
        "sched:::surrender (in the teller's context)", d_surrender),
    ROWD(EMIT, SYSTEM, KEV_SYS_SIGNAL_SEND, KEV_SYS_SIGNAL_SEND, "SIGNAL_SEND",
        "a process is killed (ProcKill), in the killer's context", f_signal_send, 2, 2, NULL,
        "proc:::signal-send", d_signal_send),
    ROWD(LATER, SYSTEM, KEV_SYS_STEAL, KEV_SYS_STEAL, "STEAL",
        "this CPU's choice takes a thread to run from another CPU's run queue", f_steal, 2, 2,
        NULL, "sched:::dequeue's args[2] (from), at the thread's RUNNING that follows", d_steal),

    ROWD(EMIT, USER, 0, 1023, "USER", "TraceEvent(INSERTSUSEREVENT, INSERTCUSEREVENT, INSERTUSRSTREVENT)",
        f_user, 2, 0, "_NTO_TRACE_USER / the code", "user:::event", d_user),

    ROWD(EMIT, COMM, KEV_COMM_SND_MESSAGE, KEV_COMM_SND_MESSAGE, "SND_MESSAGE", "MsgSend", f_snd_message,
        2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SMSG", "msg:::send", d_snd_message),
    ROWD(EMIT, COMM, KEV_COMM_SND_PULSE, KEV_COMM_SND_PULSE, "SND_PULSE",
        "a pulse is sent (by a process, an interrupt or a timer)", f_snd_pulse, 2, 2,
        "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SPULSE", "msg:::pulse", d_snd_pulse),
    ROWD(EMIT, COMM, KEV_COMM_REC_MESSAGE, KEV_COMM_REC_MESSAGE, "REC_MESSAGE", "a server receives the message",
        f_rec_message, 2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_RMSG", "msg:::receive", d_rec_message),
    ROW(COMM, KEV_COMM_REC_PULSE, KEV_COMM_REC_PULSE, "REC_PULSE", "a thread receives a pulse",
        f_rec_pulse, 2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_RPULSE", ""),
    ROW(COMM, KEV_COMM_SND_PULSE_EXE, KEV_COMM_SND_PULSE_EXE, "SND_PULSE_EXE", "not written here",
        f_pulse_other, 2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SPULSE_EXE", ""),
    ROW(COMM, KEV_COMM_SND_PULSE_DIS, KEV_COMM_SND_PULSE_DIS, "SND_PULSE_DIS", "not written here",
        f_pulse_other, 2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SPULSE_DIS", ""),
    ROW(COMM, KEV_COMM_SND_PULSE_DEA, KEV_COMM_SND_PULSE_DEA, "SND_PULSE_DEA", "not written here",
        f_pulse_other, 2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SPULSE_DEA", ""),
    ROW(COMM, KEV_COMM_SND_PULSE_UN, KEV_COMM_SND_PULSE_UN, "SND_PULSE_UN", "not written here",
        f_pulse_other, 2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SPULSE_UN", ""),
    ROW(COMM, KEV_COMM_SND_PULSE_QUN, KEV_COMM_SND_PULSE_QUN, "SND_PULSE_QUN", "not written here",
        f_pulse_other, 2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SPULSE_QUN", ""),
    ROWD(LATER, COMM, KEV_COMM_SIGNAL, KEV_COMM_SIGNAL, "SIGNAL",
        "a process's thread faulted and is killed with a signal", f_signal, 2, 2,
        "_NTO_TRACE_COMM / _NTO_TRACE_COMM_SIGNAL", "proc:::fault (with FAULT)", d_signal),
    ROWD(EMIT, COMM, KEV_COMM_REPLY_MESSAGE, KEV_COMM_REPLY_MESSAGE, "REPLY_MESSAGE", "MsgReply", f_reply,
        2, 2, "_NTO_TRACE_COMM / _NTO_TRACE_COMM_REPLY", "msg:::reply", d_reply),
    ROWD(EMIT, COMM, KEV_COMM_MSG_ERROR, KEV_COMM_MSG_ERROR, "MSG_ERROR", "MsgError", f_msg_error, 2, 2,
        "_NTO_TRACE_COMM / _NTO_TRACE_COMM_ERROR", "msg:::error", d_msg_error),
};
const unsigned kev_event_table_len = NELEM(kev_event_table);

// ---- the names the readers print, from the rows -----------------------------------------------

static const struct kev_event_desc *kev_extra;
static unsigned kev_nextra;

void kev_events_add(const struct kev_event_desc *rows, unsigned n)
{
    kev_extra = rows;
    kev_nextra = n;
}

static const struct kev_event_desc *find(const struct kev_event_desc *t, unsigned n, unsigned cls,
                                         unsigned ev)
{
    for (unsigned i = 0; i < n; i++)
        if (t[i].cls == cls && ev >= t[i].lo && ev <= t[i].hi)
            return &t[i];
    return NULL;
}

unsigned kev_event_rows(void) { return kev_event_table_len + kev_nextra; }

const struct kev_event_desc *kev_event_row(unsigned i)
{
    return i < kev_event_table_len ? &kev_event_table[i]
           : i < kev_event_rows()  ? &kev_extra[i - kev_event_table_len] : NULL;
}

// The table is in (class, first number) order: the last row at or before (cls, ev) is the
// only one that can hold it (readers call this once an event: a binary search).
// The row last found for each (class, event) pair of the first classes and events, as the row's
// index + 1 (0: not looked up yet): the readers look up every event, and a hit costs a load
// and a compare instead of the binary search. An entry is one 16-bit word, read and written
// relaxed, and checked against the constant table before use, so a stale entry or one written
// by another thread only costs the search. Host tools only (the kernel never looks events up).
#define MEMO_CLASSES 8u
#define MEMO_EVENTS  256u
static uint16_t row_memo[MEMO_CLASSES][MEMO_EVENTS];

const struct kev_event_desc *kev_event_describe(unsigned cls, unsigned ev)
{
    const struct kev_event_desc *d = kev_nextra ? find(kev_extra, kev_nextra, cls, ev) : NULL;
    if (d)
        return d;
    uint16_t *memo = cls < MEMO_CLASSES && ev < MEMO_EVENTS ? &row_memo[cls][ev] : NULL;
    unsigned h = memo ? __atomic_load_n(memo, __ATOMIC_RELAXED) : 0;
    if (h && h <= kev_event_table_len) {
        d = &kev_event_table[h - 1];
        if (d->cls == cls && ev >= d->lo && ev <= d->hi)
            return d;
    }
    unsigned lo = 0, hi = kev_event_table_len; // the answer is below hi
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        const struct kev_event_desc *m = &kev_event_table[mid];
        if (m->cls < cls || (m->cls == cls && m->lo <= ev))
            lo = mid + 1;
        else
            hi = mid;
    }
    d = lo ? &kev_event_table[lo - 1] : NULL;
    if (!d || d->cls != cls || ev < d->lo || ev > d->hi)
        return NULL;
    if (memo && lo <= UINT16_MAX)
        __atomic_store_n(memo, (uint16_t)lo, __ATOMIC_RELAXED);
    return d;
}

static const char *single(unsigned cls, unsigned ev)
{
    const struct kev_event_desc *d = kev_event_describe(cls, ev);
    return d && d->lo == d->hi ? d->name : NULL;
}

// "THRUNNING" -> "RUNNING": the state's name without QNX's prefix.
const char *kev_thread_state_name(unsigned st)
{
    const char *s = st < 64u ? single(KEV_C_PR_TH, st) : NULL;
    return s && s[0] == 'T' && s[1] == 'H' ? s + 2 : s;
}
const char *kev_control_name(unsigned ev) { return single(KEV_C_CONTROL, ev); }
const char *kev_process_event_name(unsigned ev) { return ev >= 64u ? single(KEV_C_PR_TH, ev) : NULL; }
const char *kev_comm_name(unsigned ev) { return single(KEV_C_COMM, ev); }
const char *kev_int_name(unsigned ev) { return single(KEV_C_INT, ev); }
const char *kev_system_name(unsigned ev) { return single(KEV_C_SYSTEM, ev); }

static void put_str(char *buf, size_t n, size_t *k, const char *s)
{
    while (s && *s && *k + 1 < n)
        buf[(*k)++] = *s++;
    if (n)
        buf[*k < n ? *k : n - 1] = 0;
}

static void put_num(char *buf, size_t n, size_t *k, unsigned v)
{
    char d[12];
    unsigned i = sizeof(d) - 1;
    d[i] = 0;
    do
        d[--i] = (char)('0' + v % 10u);
    while ((v /= 10u) && i);
    put_str(buf, n, k, d + i);
}

const char *kev_event_title(unsigned cls, unsigned ev, char *buf, size_t n)
{
    return kev_event_title_of(kev_event_describe(cls, ev), cls, ev, buf, n);
}

const char *kev_event_title_of(const struct kev_event_desc *d, unsigned cls, unsigned ev,
                               char *buf, size_t n)
{
    size_t k = 0;
    if (d && d->kcall) {
        unsigned c = ev - d->lo; // the call's number (kev_kcall_no)
        const char *call = kev_kcall_name(c);
        if (!call && c < QNX_KERCALL_NUM)
            call = qnx_kercalls[c].name;
        put_str(buf, n, &k, d->name);
        put_str(buf, n, &k, "_");
        if (call)
            put_str(buf, n, &k, call);
        else
            put_num(buf, n, &k, c);
        return buf;
    }
    if (d)
        return d->name;
    put_str(buf, n, &k, kev_class_name(cls) ? kev_class_name(cls) : "CLASS");
    put_str(buf, n, &k, "_");
    put_num(buf, n, &k, ev);
    return buf;
}

const char *kev_fkind_name(unsigned kind)
{
    static const char *const names[] = {
        "u32", "s32", "hex", "pid", "tid", "who", "prio", "errno", "irq", "addr", "cycles",
        "enum", "flag", "string", "words", "addrs", "u64s" };
    return kind < NELEM(names) ? names[kind] : "?";
}
