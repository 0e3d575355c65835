// SPDX-License-Identifier: MIT
// Kernel-call numbers: the user-visible ABI, shared by the kernel, the user runtime and every
// tool that names kernel calls (the trace decoder, the D engine's kercall provider).
//
// Calling convention (ARMv7-M): r12 = call number, arguments in r0-r3, r4, r5; `svc 0`.
// The result comes back in r0 (r0:r1 for 64-bit results): >= 0 on success, or a negative
// errno value (uapi/kerrno.h). Numbers are stable: append, never renumber (trace files and
// D scripts name them). Trace event ids: entry = number, exit = number + 128, so < 128.
#ifndef UAPI_KCALL_H
#define UAPI_KCALL_H

// X(number, name, argument count)
#define KCALL_LIST(X)                  \
    X(0, Null, 0)                      \
    X(1, ThreadCreate, 4)              \
    X(2, ThreadExit, 1)                \
    X(3, ThreadJoin, 2)                \
    X(4, ThreadYield, 0)               \
    X(5, ThreadSetPrio, 3)             \
    X(6, ThreadSleep, 2)               \
    X(7, ThreadName, 2)                \
    X(8, ThreadSelf, 0)                \
    X(9, ChannelCreate, 1)             \
    X(10, ChannelDestroy, 1)           \
    X(11, ConnectAttach, 2)            \
    X(12, ConnectDetach, 1)            \
    X(13, MsgSend, 5)                  \
    X(14, MsgReceive, 4)               \
    X(15, MsgReply, 4)                 \
    X(16, MsgError, 2)                 \
    X(17, MsgSendPulse, 4)             \
    X(18, TimerTimeout, 2)             \
    X(19, TimerCreate, 3)              \
    X(20, TimerSettime, 3)             \
    X(21, TimerDestroy, 1)             \
    X(22, ClockCycles, 0)              \
    X(23, ClockTime, 0)                \
    X(24, InterruptAttachEvent, 3)     \
    X(25, InterruptDetach, 1)          \
    X(26, InterruptMask, 2)            \
    X(27, InterruptUnmask, 2)          \
    X(28, InterruptTrigger, 1)         \
    X(29, MutexCreate, 0)              \
    X(30, MutexLock, 1)                \
    X(31, MutexUnlock, 1)              \
    X(32, MutexDestroy, 1)             \
    X(33, CondCreate, 0)               \
    X(34, CondWait, 2)                 \
    X(35, CondSignal, 2)               \
    X(36, CondDestroy, 1)              \
    X(37, SemCreate, 1)                \
    X(38, SemWait, 1)                  \
    X(39, SemPost, 1)                  \
    X(40, SemDestroy, 1)               \
    X(41, ProcSpawn, 3)                \
    X(42, ProcExit, 1)                 \
    X(43, ProcWait, 2)                 \
    X(44, ProcSelf, 0)                 \
    X(45, Semihost, 2)                 \
    X(46, DebugWrite, 2)               \
    X(47, SysInfo, 2)                  \
    X(48, TraceEvent, 4)               \
    X(49, ProcInfo, 2)                 \
    X(50, ThreadInfo, 2)               \
    X(51, DTrace, 4)

enum kcall_number {
#define KCALL_ENUM(num, name, nargs) KC_##name = num,
    KCALL_LIST(KCALL_ENUM)
#undef KCALL_ENUM
    KC_COUNT
};

#endif
