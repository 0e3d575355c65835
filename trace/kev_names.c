// SPDX-License-Identifier: MIT
// Name tables for classes and events of the trace format (trace/kev.h), shared by the target
// and the host tools. Pure data and lookups: no state, no locking.
// Kernel-call names come from the kernel's ABI header uapi/kcall.h (KCALL_LIST) when the
// include path has it; without it kev_kcall_name() returns NULL and tools print numbers.
#include <stddef.h>
#include <trace/kev.h>

#if defined(__has_include)
#if __has_include(<uapi/kcall.h>)
#include <uapi/kcall.h>
#define KEV_HAVE_KCALL_LIST 1
#endif
#endif

#define KEV_NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const kev_class_names[KEV_NCLASS] = {
    "EMPTY", "CONTROL", "KER_CALL", "INT", "PR_TH", "SYSTEM", "USER", "COMM",
};

static const char *const kev_state_names[KEV_TH_DESTROY + 1] = {
    "DEAD", "RUNNING", "READY", "STOPPED", "SEND", "RECEIVE", "REPLY", "STACK",
    "WAITTHREAD", "WAITPAGE", "SIGSUSPEND", "SIGWAITINFO", "NANOSLEEP", "MUTEX", "CONDVAR",
    "JOIN", "INTR", "SEM", "WAITCTX", "NET_SEND", "NET_REPLY", "WAITCHILD", NULL, NULL,
    "CREATE", "DESTROY",
};

static const char *const kev_comm_names[KEV_COMM_NEVENTS] = {
    "SND_MESSAGE", "SND_PULSE", "REC_MESSAGE", "REC_PULSE", "SND_PULSE_EXE", "SND_PULSE_DIS",
    "SND_PULSE_DEA", "SND_PULSE_UN", "SND_PULSE_QUN", "SIGNAL", "REPLY_MESSAGE", "MSG_ERROR",
};

static const char *const kev_int_names[] = {
    NULL, "INT_ENTR", "INT_EXIT", "INT_HANDLER_ENTR", "INT_HANDLER_EXIT",
};

#ifdef KEV_HAVE_KCALL_LIST
#define KEV_KCALL_NAME(num, name, nargs) [num] = #name,
static const char *const kev_kcall_names[KEV_KC_MAX] = { KCALL_LIST(KEV_KCALL_NAME) };
#undef KEV_KCALL_NAME
#endif

const char *kev_class_name(unsigned cls)
{
    return cls < KEV_NCLASS ? kev_class_names[cls] : NULL;
}

const char *kev_thread_state_name(unsigned st)
{
    return st < KEV_NELEM(kev_state_names) ? kev_state_names[st] : NULL;
}

const char *kev_control_name(unsigned ev)
{
    switch (ev) {
    case KEV_CTL_TIME: return "TIME";
    case KEV_CTL_BUFFER: return "BUFFER";
    case KEV_CTL_BUFFER_END: return "BUFFER_END";
    case KEV_CTL_DROPPED: return "DROPPED";
    default: return NULL;
    }
}

const char *kev_process_event_name(unsigned ev)
{
    switch (ev) {
    case KEV_PR_CREATE: return "PROCCREATE";
    case KEV_PR_DESTROY: return "PROCDESTROY";
    case KEV_PR_CREATE_NAME: return "PROCCREATE_NAME";
    case KEV_PR_DESTROY_NAME: return "PROCDESTROY_NAME";
    case KEV_PR_THREAD_NAME: return "PROCTHREAD_NAME";
    default: return NULL;
    }
}

const char *kev_comm_name(unsigned ev)
{
    return ev < KEV_NELEM(kev_comm_names) ? kev_comm_names[ev] : NULL;
}

const char *kev_int_name(unsigned ev)
{
    return ev < KEV_NELEM(kev_int_names) ? kev_int_names[ev] : NULL;
}

const char *kev_system_name(unsigned ev)
{
    switch (ev) {
    case KEV_SYS_TIMER: return "TIMER";
    case KEV_SYS_SNAPSHOT: return "SNAPSHOT";
    case KEV_SYS_URING_BAD: return "URING_BAD";
    case 0x203u: return "SYNC_WAIT";   // ours (docs/trace-events.md)
    case 0x204u: return "PRIO_CHANGE";
    case KEV_SYS_KPANIC: return "KPANIC";
    case KEV_SYS_STACK: return "STACK";  // ours: docs/trace-events.md "Stacks and faults"
    case KEV_SYS_FAULT: return "FAULT";
    case KEV_SYS_FUNC_ENTER: return "FUNC_ENTER";  // QNX's (docs/fbt.md)
    case KEV_SYS_FUNC_EXIT: return "FUNC_EXIT";
    case KEV_SYS_IMAGE: return "IMAGE";  // ours: docs/trace-events.md "Images and build ids"
    default: return NULL;
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

const char *kev_prio_cause_name(unsigned cause)
{
    static const char *const names[KEV_PRIO_NCAUSES] = {
        "initial", "call", "mutex inheritance", "message inheritance", "inheritance ends",
        "ceiling" };
    return cause < KEV_PRIO_NCAUSES ? names[cause] : NULL;
}

const char *kev_kcall_name(unsigned callno)
{
#ifdef KEV_HAVE_KCALL_LIST
    return callno < KEV_KC_MAX ? kev_kcall_names[callno] : NULL;
#else
    (void)callno;
    return NULL;
#endif
}
