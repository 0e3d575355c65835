// SPDX-License-Identifier: MIT
// The one mapping from the kernel's ids, names and priorities to the Linux / LTTng conventions
// that Perfetto's trace processor and Trace Compass's kernel analyses are written for. Every
// converter (kev2ctf, kev2json, kev2perfetto) goes through these functions, so a thread has
// the same tid, a process the same pid and a thread the same priority in every output
// (docs/converters.md, "Ids, names and priorities"):
//   tid   idle thread (process 0, or a thread named "idle") -> 0 on every CPU, like Linux's
//         swapper; any other thread -> pid * 1000 + QNX tid (QNX tids are per process).
//   pid   a process's pid is its main thread's tid: pid * 1000 + 1 (Linux tgid); idle: 0.
//   ppid  the parent's pid; 0 when unknown or when the parent holds only the idle thread
//         (QNX's procnto: its children are children of swapper, like Linux's init).
//   comm  the thread's name for a named secondary thread, else the process name (Linux gives
//         a thread its process's comm until it renames itself); idle: "swapper".
//   prio  QNX 1..255, larger = more urgent, are fixed-priority (FIFO/RR) threads: Linux's
//         kernel prio of a real-time task of rt_priority p is 99 - p (lower = more urgent),
//         so 1..98 -> 98..1 and 99..255 -> 0 (Linux has 99 real-time levels); 0 (idle) and
//         unknown -> 120, a normal task. ftrace and Perfetto show the kernel prio, LTTng
//         writes kernel prio - 100 (so -99..-2 real-time, 20 normal).
#ifndef TOOLS_KX_IDS_H
#define TOOLS_KX_IDS_H

#include "kx.h"

#define KX_TID_MUL 1000u

// Thread index th (KX_NO_THREAD allowed: an unknown thread counts as idle) is the idle thread.
int kx_is_idle(const struct kx_model *m, int th);
// Linux tid of (pid, tid) and of a model thread.
int32_t kx_tid_of(uint32_t pid, uint32_t tid);
int32_t kx_ltid(const struct kx_model *m, int th);
// Linux pid (tgid) of a process and of a model thread's process.
int32_t kx_pid_of(uint32_t pid);
int32_t kx_lpid(const struct kx_model *m, int th);
// Linux pid of the parent of QNX process pid (0: none known, or a process of idle only).
int32_t kx_lppid(const struct kx_model *m, uint32_t pid);
// Process pid has a thread other than idle in the model.
int kx_proc_has_threads(const struct kx_model *m, uint32_t pid);
// Linux comm of a model thread (never NULL; may be "").
const char *kx_lcomm(const struct kx_model *m, int th);
// Linux kernel prio (ftrace, Perfetto) and LTTng prio of a QNX priority (-1: unknown).
int32_t kx_kernel_prio(int qnx_prio);
int32_t kx_lttng_prio(int qnx_prio);
// The QNX priority of a model thread as last seen (-1 unknown).
int kx_qprio(const struct kx_model *m, int th);

#endif
