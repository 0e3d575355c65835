// SPDX-License-Identifier: MIT
// Function calls from the fbt and pid firings a capture recorded (SYSTEM FUNC_ENTER and
// FUNC_EXIT, trace/kev.h; docs/fbt.md, docs/pid.md), paired entry to return on a stack:
// - a kernel function's (fbt) on its CPU's: a kernel function runs on one CPU from its entry to
//   its return, the kernel never suspends in the middle of one (a call that blocks returns to
//   user mode with its thread blocked, and the CPU goes on with another thread), so a call
//   may begin on one thread and return after the CPU switched to the next (the scheduler's
//   choice); interrupts nest on the CPU's stack;
// - a program's (pid) on its thread's: a program is preempted anywhere. A function is a
//   program's when it lies in the image of the process whose thread made the event (from
//   the image's first byte, IMAGE events, to the next image's above it); else the kernel's.
// Per function: how often it was entered or returned from, how many calls were timed (both
// ends in the capture) and their total and longest time. A capture records only the probes
// its D program enabled: a function whose return was not enabled has calls and no times; one
// whose entry was not enabled has returns alone. A return with no entry of its function on
// its stack (entered before the capture, or not enabled) is counted and not timed; entries
// left above a return of an outer function (their returns not recorded) end there untimed,
// and so does an open call of a kernel function entered again on the same CPU (kernel
// functions do not call themselves: its return was not recorded). Each call is also a row
// (kx_rows.h struct kx_func_row) for a tool that wants them one by one (slices in
// kev2perfetto and kevsql): a timed one at its return, one with no return recorded (t1 0)
// when it ends unrecorded, so every call's parent is a row too.
// Single-threaded; memory grows with the functions and threads seen (bounded per thread).
#ifndef TOOLS_KX_FUNCS_H
#define TOOLS_KX_FUNCS_H

#include "kx_rows.h"
#include <trace/kev_decode.h>

#define KX_FUNC_DEPTH 64u    // calls open per stack; past it they all end unrecorded (counted)

struct kx_func_stats {
    uint64_t fn;             // the function's address as the event holds it (Thumb: bit 0 set)
    uint64_t entries, returns;
    uint64_t timed, total, max; // calls with both ends; their time (cycles)
};

struct kx_funcs;
// NULL out of memory.
struct kx_funcs *kx_funcs_new(void);
void kx_funcs_free(struct kx_funcs *f);
// e an IMAGE event: where a process's image lies.
struct kev_reader;
void kx_funcs_image(struct kx_funcs *f, const struct kev_reader *r, const struct kev_event *e);
// e a FUNC_ENTER or FUNC_EXIT event (anything else is ignored), made while thread th of
// process pid ran (the model's current thread of its CPU, -1 none known; a call's row names
// its entry's); each call's row goes to k->func if set.
void kx_funcs_event(struct kx_funcs *f, const struct kev_event *e, int th, uint32_t pid,
                    const struct kx_sink *k);
// At the end of the trace: the calls still open end, unrecorded (rows without an end).
void kx_funcs_finish(struct kx_funcs *f, const struct kx_sink *k);
// The functions seen, in the order they were first seen.
const struct kx_func_stats *kx_funcs_table(const struct kx_funcs *f, unsigned *n);
// Events the tables had no memory for.
uint64_t kx_funcs_dropped(const struct kx_funcs *f);
// Entries that ended with no return seen: above an outer return, entered again, on a full stack
// (all of its calls), or open at the end (kx_funcs_finish).
uint64_t kx_funcs_unpaired(const struct kx_funcs *f);

#endif
