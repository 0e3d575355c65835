// SPDX-License-Identifier: MIT
// Kernel-call numbers: the user-visible ABI, shared by the kernel, the user runtime and every
// tool that names kernel calls (the trace decoder, the D engine's kercall provider).
//
// Calling convention (ARMv7-M): r12 = call number, arguments in r0-r3, r4, r5; `svc 0`.
// The result comes back in r0 (r0:r1 for 64-bit results): >= 0 on success, or a negative
// errno value (uapi/kerrno.h). Trace event ids: entry = number, exit = number + 128, so < 128.
//
// Numbers are QNX's (<sys/kercalls.h> __KER_*), so that QNX's own traceprinter names our calls:
// a call with a QNX counterpart has its number (MsgSend = __KER_MSG_SENDV 11, MutexLock =
// __KER_SYNC_MUTEX_LOCK 80, ThreadYield = __KER_SCHED_YIELD 90, ...). Calls QNX does not have
// take numbers QNX leaves SPARE (3-6, 9, 33, 34, 38, 44, 45, 53, 54, 61-64, 69, 76, 77, 98, 99), which
// QNX's printer shows as "<GROUP>_SPARE<n>" with two hex words. Numbers are stable from here on:
// trace files and D scripts name them (format 1.02, docs/kev-format.md).
#ifndef UAPI_KCALL_H
#define UAPI_KCALL_H

// X(number, name, argument count)
#define KCALL_LIST(X) \
    X(0, Null, 0) \
    X(1, TraceEvent, 4) \
    X(3, ThreadSelf, 0) \
    X(4, CondCreate, 0) \
    X(5, CondDestroy, 1) \
    X(6, SemCreate, 1) \
    X(9, SemDestroy, 1) \
    X(11, MsgSend, 5) \
    X(13, MsgError, 2) \
    X(14, MsgReceive, 4) \
    X(15, MsgReply, 4) \
    X(20, MsgSendPulse, 4) \
    X(33, DTrace, 4) \
    X(34, ThreadInfo, 2) \
    X(35, ChannelCreate, 1) \
    X(36, ChannelDestroy, 1) \
    X(38, ProcInfo, 2) \
    X(39, ConnectAttach, 2) \
    X(40, ConnectDetach, 1) \
    X(44, ProcSpawn, 3) \
    X(45, ProcExit, 1) \
    X(46, ThreadCreate, 4) \
    X(47, ThreadExit, 1) \
    X(50, ThreadJoin, 2) \
    X(53, ThreadSleep, 2) \
    X(54, ThreadName, 2) \
    X(55, InterruptAttachEvent, 3) \
    X(57, InterruptDetach, 1) \
    X(59, InterruptMask, 2) \
    X(60, InterruptUnmask, 2) \
    X(61, InterruptTrigger, 1) \
    X(62, ProcWait, 2) \
    X(63, ProcSelf, 0) \
    X(64, Semihost, 2) \
    X(65, ClockTime, 0) \
    X(69, ClockCycles, 0) \
    X(70, TimerCreate, 3) \
    X(71, TimerDestroy, 1) \
    X(72, TimerSettime, 3) \
    X(75, TimerTimeout, 2) \
    X(76, DebugWrite, 2) \
    X(77, SysInfo, 2) \
    X(78, MutexCreate, 0) \
    X(79, MutexDestroy, 1) \
    X(80, MutexLock, 1) \
    X(81, MutexUnlock, 1) \
    X(82, CondWait, 2) \
    X(83, CondSignal, 2) \
    X(84, SemPost, 1) \
    X(85, SemWait, 1) \
    X(89, ThreadSetPrio, 3) \
    X(90, ThreadYield, 0) \
    X(98, ProcKill, 1) \
    X(52, ThreadCtl, 2) \
    X(99, NameCtl, 3)
// Calls added after the host tools' generated workloads were fixed (their golden files were
// printed by QNX's own traceprinter): the last KCALL_ADDED_LATER entries above, which
// tools/common/kev_capture.c leaves out of its draw so that its traces stay the same.
#define KCALL_ADDED_LATER 2

enum kcall_number {
#define KCALL_ENUM(num, name, nargs) KC_##name = num,
    KCALL_LIST(KCALL_ENUM)
#undef KCALL_ENUM
    KC_COUNT = KC_NameCtl + 1       // the highest number + 1 (the list is not in order)
};

#endif
