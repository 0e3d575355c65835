// SPDX-License-Identifier: MIT
// User-side kernel-call wrappers (see kern.h). Each is the trap plus errno handling.
#include <kern.h>
#include <errno.h>
#include "trace_uring.h"
#include "thread_stack.h"
#include <user_cycles.h>

_Static_assert(EFAULT == 14 && ETIMEDOUT == 116 && ECANCELED == 140 && ENAMETOOLONG == 91,
               "uapi/kerrno.h must match the C library's errno values");

int kresult(int32_t r)
{
    if (r < 0) {
        errno = -r;
        return -1;
    }
    return r;
}

void __kthread_start(thread_fn fn, void *arg);

// A stack given plain is the thread's whole; a KSTACK one asks for its guard; none: the
// library's, with a guard (thread_stack.c).
static int thread_create(thread_fn fn, void *arg, void *stack, size_t size, uint32_t flags)
{
    void *node = NULL;
    if (!stack) {
        stack = thread_stack_alloc(&size, &node);
        if (!stack)
            return kresult(-EAGAIN);
        flags |= THREAD_GUARDED;
    } else if (thread_stack_guarded(stack)) {
        flags |= THREAD_GUARDED;
    }
    uint32_t top = ((uint32_t)(uintptr_t)stack + (uint32_t)size) & ~7u;
    trace_uring_thread_stack(stack, size);  // its own user-event ring (several CPUs)
    int32_t r = KCALL6(KC_ThreadCreate, __kthread_start, fn, arg, top, flags, stack);
    if (r < 0)
        trace_uring_thread_failed(stack, size);
    if (node)
        thread_stack_created(node, r);
    return kresult(r);
}

int ThreadCreate(thread_fn fn, void *arg, void *stack, size_t stack_size, int prio, int policy)
{
    return thread_create(fn, arg, stack, stack_size,
                         ((uint32_t)prio & 0xff) | ((uint32_t)policy & 0xff) << 8);
}

int ThreadCreateDetached(thread_fn fn, void *arg, void *stack, size_t stack_size, int prio)
{
    return thread_create(fn, arg, stack, stack_size, ((uint32_t)prio & 0xff) | THREAD_DETACHED);
}

_Noreturn void ThreadExit(int status)
{
    trace_uring_thread_end();   // a user-event ring it never used, free again (several CPUs)
    KCALL1(KC_ThreadExit, status);
    __builtin_unreachable();
}

int ThreadJoin(int tid, int *status)
{
    int r = kresult(KCALL2(KC_ThreadJoin, tid, status));
    thread_stack_reap();        // the joined thread's stack, when the library allocated it
    return r;
}
int ThreadYield(void) { return kresult(KCALL0(KC_ThreadYield)); }
int ThreadSetPrio(int tid, int prio, int policy)
{
    return kresult(KCALL3(KC_ThreadSetPrio, tid, prio, policy));
}
int ThreadCtl(int cmd, void *data) { return kresult(KCALL2(KC_ThreadCtl, cmd, data)); }
int ThreadSleep(uint64_t ns)
{
    return kresult(KCALL2(KC_ThreadSleep, (uint32_t)ns, (uint32_t)(ns >> 32)));
}
int ThreadName(int tid, const char *name) { return kresult(KCALL2(KC_ThreadName, tid, name)); }
int ThreadSelf(void) { return KCALL0(KC_ThreadSelf); }

int ChannelCreate(unsigned flags) { return kresult(KCALL1(KC_ChannelCreate, flags)); }
int ChannelDestroy(int chid) { return kresult(KCALL1(KC_ChannelDestroy, chid)); }
int ConnectAttach(int pid, int chid) { return kresult(KCALL2(KC_ConnectAttach, pid, chid)); }
int ConnectDetach(int coid) { return kresult(KCALL1(KC_ConnectDetach, coid)); }
int NameCtl(int cmd, int arg, const char *name)
{
    return kresult(KCALL3(KC_NameCtl, cmd, arg, name));
}

int32_t MsgSend_r(int coid, const void *smsg, size_t sbytes, void *rmsg, size_t rbytes)
{
    return KCALL5(KC_MsgSend, coid, smsg, sbytes, rmsg, rbytes);
}
int MsgSend(int coid, const void *smsg, size_t sbytes, void *rmsg, size_t rbytes)
{
    return kresult(MsgSend_r(coid, smsg, sbytes, rmsg, rbytes));
}
int MsgReceive(int chid, void *msg, size_t bytes, struct kmsg_info *info)
{
    return kresult(KCALL4(KC_MsgReceive, chid, msg, bytes, info));
}
int32_t MsgReply_r(int rcvid, int status, const void *msg, size_t bytes)
{
    return KCALL4(KC_MsgReply, rcvid, status, msg, bytes);
}
int MsgReply(int rcvid, int status, const void *msg, size_t bytes)
{
    return kresult(MsgReply_r(rcvid, status, msg, bytes));
}
int MsgError(int rcvid, int err) { return kresult(KCALL2(KC_MsgError, rcvid, err)); }
int MsgSendPulse(int coid, int prio, int code, int value)
{
    return kresult(KCALL4(KC_MsgSendPulse, coid, prio, code, value));
}

// Where the CPU lets a program read the kernel's counter (user_cycles.h: AArch64, x86), no
// kernel call: a busy-wait on it costs no trace events. Elsewhere the kernel reads it.
uint64_t ClockCycles(void)
{
#if USER_CYCLES
    return user_cycles();
#else
    return kcall64(KC_ClockCycles);
#endif
}
uint64_t ClockTime(void) { return kcall64(KC_ClockTime); }
uint32_t ClockCyclesPerSec(void)
{
    uint32_t v = 0;
    SysInfo(KSYSINFO_CYCLES_PER_SEC, &v);
    return v;
}
int TimerTimeout(uint64_t ns)
{
    return kresult(KCALL2(KC_TimerTimeout, (uint32_t)ns, (uint32_t)(ns >> 32)));
}
int TimerCreate(int coid, int code, int value)
{
    return kresult(KCALL3(KC_TimerCreate, coid, code, value));
}
int TimerSettime(int id, uint32_t first_us, uint32_t interval_us)
{
    return kresult(KCALL3(KC_TimerSettime, id, first_us, interval_us));
}
int TimerDestroy(int id) { return kresult(KCALL1(KC_TimerDestroy, id)); }

int InterruptAttachEvent(unsigned irq, int coid, int code)
{
    return kresult(KCALL3(KC_InterruptAttachEvent, irq, coid, code));
}
int InterruptDetach(int id) { return kresult(KCALL1(KC_InterruptDetach, id)); }
int InterruptMask(unsigned irq, int id) { return kresult(KCALL2(KC_InterruptMask, irq, id)); }
int InterruptUnmask(unsigned irq, int id) { return kresult(KCALL2(KC_InterruptUnmask, irq, id)); }
int InterruptTrigger(unsigned irq) { return kresult(KCALL1(KC_InterruptTrigger, irq)); }

int MutexCreate(void) { return kresult(KCALL0(KC_MutexCreate)); }
int MutexLock(int id) { return kresult(KCALL1(KC_MutexLock, id)); }
int MutexUnlock(int id) { return kresult(KCALL1(KC_MutexUnlock, id)); }
int MutexDestroy(int id) { return kresult(KCALL1(KC_MutexDestroy, id)); }
int CondCreate(void) { return kresult(KCALL0(KC_CondCreate)); }
int CondWait(int cid, int mid) { return kresult(KCALL2(KC_CondWait, cid, mid)); }
int CondSignal(int cid) { return kresult(KCALL2(KC_CondSignal, cid, 0)); }
int CondBroadcast(int cid) { return kresult(KCALL2(KC_CondSignal, cid, 1)); }
int CondDestroy(int cid) { return kresult(KCALL1(KC_CondDestroy, cid)); }
int SemCreate(int count) { return kresult(KCALL1(KC_SemCreate, count)); }
int SemWait(int id) { return kresult(KCALL1(KC_SemWait, id)); }
int SemPost(int id) { return kresult(KCALL1(KC_SemPost, id)); }
int SemDestroy(int id) { return kresult(KCALL1(KC_SemDestroy, id)); }

int ProcSpawn(const char *name, int prio, uint32_t arg)
{
    return kresult(KCALL3(KC_ProcSpawn, name, prio, arg));
}
_Noreturn void ProcExit(int status)
{
    KCALL1(KC_ProcExit, status);
    __builtin_unreachable();
}
int ProcWait(int pid, int *status) { return kresult(KCALL2(KC_ProcWait, pid, status)); }
int ProcKill(int pid) { return kresult(KCALL1(KC_ProcKill, pid)); }
int ProcSelf(void) { return KCALL0(KC_ProcSelf); }
int ProcParent(void)
{
    struct kproc_info pi;
    int self = ProcSelf();
    for (unsigned slot = 0;; slot++) {     // a free slot is ESRCH; past the last, EINVAL
        if (ProcInfo(slot, &pi) == 0) {
            if (pi.pid == self)
                return pi.ppid;
        } else if (errno != ESRCH) {
            return -1;
        }
    }
}
int ProcInfo(unsigned slot, struct kproc_info *out) { return kresult(KCALL2(KC_ProcInfo, slot, out)); }
int ThreadInfo(unsigned slot, struct kthread_info *out)
{
    return kresult(KCALL2(KC_ThreadInfo, slot, out));
}

int TraceEvent(unsigned cmd, uint32_t a, uint32_t b, uint32_t c)
{
    // A 2-word user event goes into this process's ring when it can (trace_uring.c).
    if (cmd == KTRACE_INSERTSUSEREVENT && trace_uring_insert(a, b, c) == 0)
        return 0;
    return kresult(KCALL4(KC_TraceEvent, cmd, a, b, c));
}

// The kernel writes at most a chunk per call (its work per call is bounded);
// the rest goes in further calls, between which higher priorities run.
int DebugWrite(const char *buf, size_t len)
{
    size_t done = 0;
    do {
        int n = kresult(KCALL2(KC_DebugWrite, buf + done, len - done));
        if (n < 0)
            return n;
        done += (size_t)n;
    } while (done < len);
    return (int)done;
}
int SysInfo(unsigned what, uint32_t *out) { return kresult(KCALL2(KC_SysInfo, what, out)); }
