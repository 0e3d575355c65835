// SPDX-License-Identifier: MIT
// The kernel API for user programs: QNX-flavoured names over the kernel calls of
// uapi/kcall.h. Functions return -1 and set errno on failure (the `_r` forms return the
// negative error instead), like QNX's. Times are in nanoseconds unless a name says otherwise.
#ifndef USER_KERN_H
#define USER_KERN_H

#include <stdint.h>
#include <stddef.h>
#include <uapi/kcall.h>
#include <uapi/kapi.h>
#include <uapi/kstate.h>
#include <uapi/ktrace.h>

// The raw trap, kcall6() and kcall64(): user/arch/<arch>/include/kcall_arch.h.
#include <kcall_arch.h>

// A kernel-call argument: an integer or a pointer (user addresses lie below 4 GB on every
// board, so a 64-bit pointer travels in 32 bits).
#define KARG(a)                     ((uint32_t)(uintptr_t)(a))
#define KCALL0(n)                   kcall6((n), 0, 0, 0, 0, 0, 0)
#define KCALL1(n, a)                kcall6((n), KARG(a), 0, 0, 0, 0, 0)
#define KCALL2(n, a, b)             kcall6((n), KARG(a), KARG(b), 0, 0, 0, 0)
#define KCALL3(n, a, b, c)          kcall6((n), KARG(a), KARG(b), KARG(c), 0, 0, 0)
#define KCALL4(n, a, b, c, d)       kcall6((n), KARG(a), KARG(b), KARG(c), KARG(d), 0, 0)
#define KCALL5(n, a, b, c, d, e)    kcall6((n), KARG(a), KARG(b), KARG(c), KARG(d), KARG(e), 0)
#define KCALL6(n, a, b, c, d, e, f) kcall6((n), KARG(a), KARG(b), KARG(c), KARG(d), KARG(e), KARG(f))

// Turns a raw result into the -1/errno convention.
int kresult(int32_t r);

typedef int (*thread_fn)(void *arg);
#define THREAD_DETACHED 0x10000u
// (The library's, not a program's: the stack keeps its guard at its bottom, for a KSTACK stack
// and for the one ThreadCreate allocates. The kernel takes it as the call's request.)
#define THREAD_GUARDED  0x20000u

// Threads. prio 0 = the caller's priority; policy 0 = the caller's policy. The stack, as QNX's
// ThreadCreate and POSIX threads take one (docs/applications.md, "Thread stacks"):
// - a stack the program gives, [stack, stack + stack_size), is the thread's whole: any array
//   of the program's RAM of at least THREAD_STACK_MIN bytes, no guard in it; an overflow runs
//   into the memory below it, as on QNX;
// - a stack declared with KSTACK keeps a guard at its bottom: the KSTACK_GUARD bytes at the
//   first multiple of KSTACK_GUARD in it (a page under an MMU, an MPU region's 128 bytes on the
//   Cortex-M boards), which the thread may not touch: an overflow faults there, and the kernel
//   says "stack overflow" (docs/hostile.md, "Stack guards"). KSTACK puts the stack in the
//   section .bss.kstack, which the library knows by its bounds (so a KSTACK is static or at
//   file scope: a local takes no section); n bytes lie above the guard:
//       static KSTACK(stack, 1024);             ThreadCreate(fn, arg, stack, sizeof(stack), ...)
//       static KSTACK(stacks[4], 1024);         ... stacks[k], sizeof(stacks[k]) ...
// - no stack (NULL, stack_size 0 for THREAD_STACK_DEFAULT bytes, or the size wanted): the
//   library allocates one from the heap with a guard below it, freed by the first ThreadJoin or
//   ThreadCreate with no stack after its thread has ended (EAGAIN when the heap has no room).
#define THREAD_STACK_MIN 64u
#define THREAD_STACK_DEFAULT 4096u
#define KSTACK_SIZE(n) (KSTACK_GUARD + ((n) + KSTACK_GUARD - 1u) / KSTACK_GUARD * KSTACK_GUARD)
#define KSTACK(name, n) uint8_t name[KSTACK_SIZE(n)] \
    __attribute__((aligned(KSTACK_GUARD), section(".bss.kstack")))
int ThreadCreate(thread_fn fn, void *arg, void *stack, size_t stack_size, int prio, int policy);
int ThreadCreateDetached(thread_fn fn, void *arg, void *stack, size_t stack_size, int prio);
_Noreturn void ThreadExit(int status);
int ThreadJoin(int tid, int *status);
int ThreadYield(void);
int ThreadSetPrio(int tid, int prio, int policy);
int ThreadSleep(uint64_t ns);
// KTCTL_RUNMASK (data: the mask itself, cast) and KTCTL_RUNMASK_GET_AND_SET (uapi/kapi.h).
int ThreadCtl(int cmd, void *data);
// After ProcSpawn("tracelogger") of a passive (-d1) logger: all classes on, tracing started,
// waiting (up to 1 s) for the logger to be ready when it runs on another CPU. 0 or -1 (errno).
int TraceStartWithLogger(void);
// A program that records itself: a passive tracelogger spawned at prio and tracing started
// with it (TraceStartWithLogger). The logger's pid, or -1 after a line "<name>: ..." saying
// what failed. TraceStopLogger(logger) stops tracing, waits for the logger to save the trace
// and returns its exit status (4 when it did not exit).
int TraceSpawnLogger(const char *name, int prio);
int TraceStopLogger(int logger);
int ThreadName(int tid, const char *name);
int ThreadSelf(void);

// Message passing.
int ChannelCreate(unsigned flags);
int ChannelDestroy(int chid);
int ConnectAttach(int pid, int chid);
int ConnectDetach(int coid);
// The channels' names (KNAMECTL_*, uapi/kapi.h); programs use name_attach() and name_open()
// (<sys/dispatch.h>, user/lib/name.c), which call it.
int NameCtl(int cmd, int arg, const char *name);
int MsgSend(int coid, const void *smsg, size_t sbytes, void *rmsg, size_t rbytes);
// MsgReceive: a rcvid (> 0) for a message, cut to `bytes` (info->msglen copied of
// info->srcmsglen sent), 0 for a pulse (struct kpulse in msg). A buffer smaller than a pulse
// (16 bytes) still receives messages, but a pulse cannot fit it: the call takes the pulse and
// fails with EFAULT, as QNX's does; a receive loop that should see pulses gives a union of
// its message and struct kpulse (docs/ARCHITECTURE.md, "Message passing").
int MsgReceive(int chid, void *msg, size_t bytes, struct kmsg_info *info);
int MsgReply(int rcvid, int status, const void *msg, size_t bytes);
int MsgError(int rcvid, int err);
int MsgSendPulse(int coid, int prio, int code, int value);
int32_t MsgSend_r(int coid, const void *smsg, size_t sbytes, void *rmsg, size_t rbytes);
int32_t MsgReply_r(int rcvid, int status, const void *msg, size_t bytes);

// Time. TimerTimeout arms a timeout for the caller's next kernel call only.
uint64_t ClockCycles(void);
uint64_t ClockTime(void);
uint32_t ClockCyclesPerSec(void);
int TimerTimeout(uint64_t ns);
int TimerCreate(int coid, int code, int value);
int TimerSettime(int id, uint32_t first_us, uint32_t interval_us);
int TimerDestroy(int id);

// Interrupts (programs with KAPP_F_IO).
int InterruptAttachEvent(unsigned irq, int coid, int code);
int InterruptDetach(int id);
int InterruptMask(unsigned irq, int id);
int InterruptUnmask(unsigned irq, int id);
int InterruptTrigger(unsigned irq);

// Synchronisation.
int MutexCreate(void);
int MutexLock(int id);
int MutexUnlock(int id);
int MutexDestroy(int id);
int CondCreate(void);
int CondWait(int cid, int mid);
int CondSignal(int cid);
int CondBroadcast(int cid);
int CondDestroy(int cid);
int SemCreate(int count);
int SemWait(int id);
int SemPost(int id);
int SemDestroy(int id);

// Processes.
// arg: one word handed to the new program (ProcArg() there).
int ProcSpawn(const char *name, int prio, uint32_t arg);
uint32_t ProcArg(void);
_Noreturn void ProcExit(int status);
int ProcWait(int pid, int *status);
// Ends process pid as killed (ProcWait sees KW_TERMSIG == KSIG_KILL). Needs KAPP_F_PRIV (EPERM).
int ProcKill(int pid);
int ProcSelf(void);
// The pid of the process that started this one (its ppid in ProcInfo), or -1.
int ProcParent(void);
int ProcInfo(unsigned slot, struct kproc_info *out);
int ThreadInfo(unsigned slot, struct kthread_info *out);

// Tracing (uapi/ktrace.h): TraceEvent(cmd, a, b, c).
int TraceEvent(unsigned cmd, uint32_t a, uint32_t b, uint32_t c);
// TraceEvent(KTRACE_INSERTSUSEREVENT, code, a, b) with the caller's time instead of the
// library's clock read: ts is the low word of the cycle counter (ClockCycles), or 0 for the
// kernel's time when it drains the user-event ring into the trace (the thread's next kernel
// entry: up to a ring's worth of events later, the order kept). The kernel keeps ts only when
// it lies between the ring's last event and the drain. It saves the insert a clock read, which
// on QEMU takes its global lock (docs/smp.md, "QEMU's host-clock ceiling"). 0 or -1 (errno).
int TraceUserEventAt(uint32_t code, uint32_t ts, uint32_t a, uint32_t b);

int DebugWrite(const char *buf, size_t len);

// The caller's own part of the boot command line (user/lib/kargs.c): the words after the
// part "name ..." (parts separated by ";;"), argv[0] = name, NULL-terminated. Returns argc,
// 0 when no part names the program (it then uses its defaults). buf holds the words.
// -1 (errno E2BIG) when the boot command line does not fit buf, or its part has more words than
// argv holds (max - 1; other parts may have any number): the caller must say so and
// stop, not run with its defaults (a user must never get a silently different run).
int kargs(const char *name, char *buf, size_t size, char **argv, int max);
int kargs_split(char *buf, const char *name, char **argv, int max);

// Decimal text of a 64-bit value, for printf("%s", u64txt(v).s), without printf's 64-bit
// conversion (every C library here has it now: PRIu64 from <inttypes.h> does the same).
struct u64txt {
    char s[21];
};

static inline struct u64txt u64txt(uint64_t v)
{
    struct u64txt t;
    char *p = &t.s[20];
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char *d = t.s;
    while (*p)
        *d++ = *p++;
    *d = '\0';
    return t;
}
int SysInfo(unsigned what, uint32_t *out);

#endif
