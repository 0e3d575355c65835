// SPDX-License-Identifier: MIT
// How a capture's time was kept, and what the emulator did to it (kx_emul.c). A capture made
// under QEMU says how QEMU kept time in its header item QEMU_CLOCK, which scripts/qemu-run.sh
// passes to the tracelogger (the guest cannot tell): "host" (the host's clock), or "icount,"
// and QEMU's -icount options ("icount,shift=4,sleep=off": the exact mode, time the instruction
// count alone). A capture from real hardware has none. Two things QEMU does to time show in
// the events and would otherwise read as the program's lateness:
//   * skipped timer periods: the kernel's tick (INT 0x100) did not come for a period or more.
//     Counted by the kernel's own rule (kernel/include/kernel/tick_periods.h: a tick counts
//     every period ended by its time + P/8), P the tick's period over the capture. On the
//     host's clock QEMU fires a late timer once for all the periods the host kept it from;
//   * stretched runs, on several CPUs under -icount: QEMU runs the virtual CPUs one at a time,
//     so a thread's run includes the other CPUs' turns. Every CPU takes its own timer
//     interrupt once a tick period (the tick, INT 0x100, or its share, 0x101: docs/smp.md), so
//     a CPU that wrote nothing while another CPU took two of its own was not run for a
//     period or more: a stall. A run holding a stall is a stretched run, by the stalls'
//     time. (The other CPUs' turns inside a run, stretches of consecutive events from one
//     other CPU, are kept too: at least that much of the run was theirs.)
// A tick gap that holds a window of events the capture lost (kx_emul_lost: a DROPPED, losses
// after the last buffer) is the trace's, not the target's nor the emulator's: the ticks there
// may have come and not been recorded. Such gaps are counted apart and said as such.
// kx_stats feeds every event (kx_emul_event, after the model took it) and finishes it; kevstat
// prints kx_emul_print's lines, kevreport shows the JSON's "says" and "warnings". Every gap and
// every stall is kept, so that the task instances can say how much of each the emulator held
// (kx_emul_inside): a miss the emulator's time explains is not the program's lateness.
#ifndef TOOLS_KX_EMUL_H
#define TOOLS_KX_EMUL_H

#include <stdio.h>
#include "kx.h"

enum kx_clock {
    KX_CLOCK_NONE,      // no QEMU_CLOCK item: real hardware, or not made by qemu-run.sh
    KX_CLOCK_HOST,      // QEMU on the host's clock
    KX_CLOCK_ICOUNT,    // -icount without sleep=off: idle time passes on the host's clock
    KX_CLOCK_EXACT,     // -icount ...,sleep=off: the instruction count alone
    KX_CLOCK_OTHER,     // an item this reader does not know
};

struct kx_emul_gap {
    uint64_t t0, t1;    // the ticks before and after the gap (cycles)
    uint64_t missed;    // periods no tick came for
};

struct kx_emul_stall {  // thread th's CPU was not run from t0 to t1 (inside th's run there)
    int th;
    uint64_t t0, t1;
};

struct kx_emul_run {    // a run: thread th on cpu from t0 to t1
    int th;
    unsigned cpu;
    uint64_t t0, t1;
    uint64_t turns;     // other CPUs' turns inside it (at least their time)
    uint64_t stalled;   // its CPU's stalls inside it
};

struct kx_emul {
    const struct kev_reader *r;
    const struct kx_model *m;
    enum kx_clock clock;
    char item[96];              // the header item's value ("" when none)
    uint64_t t_last;
    unsigned ncpu;              // the capture's CPUs (its trailer, else its header)
    unsigned cpus_seen;         // the highest CPU with an event, + 1
    // the tick's entries, in time order
    uint64_t *tick;
    size_t ntick, cap;
    int oom;                    // a list could not grow: what it missed is not known
    // results (kx_emul_finish)
    double period;              // cycles; 0 when fewer than 3 ticks
    uint64_t periods, skipped;  // periods over the ticks' span, and those no tick came for
    struct kx_emul_gap *gap, longest; // every gap, in time order (grown)
    size_t ngaps, gap_cap;
    uint64_t gaps;              // every gap
    // windows of lost events (kx_emul_lost), and the gaps that hold one: the trace's
    struct { uint64_t t0, t1; } *lost;
    size_t nlost, lost_cap;
    uint64_t lost_gaps, lost_skipped; // gaps in lost windows, the periods they span
    int gaps_emulator;          // the gaps are the emulator's (the mode says so: say_ticks)
    // turns and runs (several CPUs under -icount only)
    int turns_on;
    int turn_cpu;
    uint64_t turn_t0, turn_t1;
    uint64_t ticks[KEV_MAX_CPUS];          // each CPU's own timer interrupts so far
    uint64_t seen[KEV_MAX_CPUS][KEV_MAX_CPUS]; // [c][d]: d's, at c's last event
    uint64_t last[KEV_MAX_CPUS];           // each CPU's last event
    struct kx_emul_run open[KEV_MAX_CPUS]; // th < 0: no run open
    uint64_t runs, stretched, run_t, turn_t, stall_t;
    struct kx_emul_run worst;   // the stretched run with the longest stalls (th < 0: none)
    struct kx_emul_stall *stall; // every stall; by thread, then time, after kx_emul_finish
    size_t nstall, stall_cap;
    char says[200];
    char warn[4][800];
    unsigned nwarn;
};

void kx_emul_init(struct kx_emul *x, const struct kev_reader *r, const struct kx_model *m);
// After the model took e: its time, its CPU's turn, the runs it ended or began, a tick.
void kx_emul_event(struct kx_emul *x, const struct kev_event *e);
// The capture lost events between t0 and t1 (any CPU; called in the pass, in time order or not).
void kx_emul_lost(struct kx_emul *x, uint64_t t0, uint64_t t1);
// A window of lost events touches [t0, t1] (0 when x is NULL).
int kx_emul_in_lost(const struct kx_emul *x, uint64_t t0, uint64_t t1);
// The results, and the sentences that say them.
void kx_emul_finish(struct kx_emul *x);
void kx_emul_free(struct kx_emul *x);
// The emulator's time inside [a, b) for thread th, at most b - a (after kx_emul_finish): of each
// tick gap that is the emulator's, its overlap with [a, b) but no more than the periods it
// skipped (the host held QEMU that long somewhere in the gap); and th's own stalls there.
uint64_t kx_emul_inside(const struct kx_emul *x, int th, uint64_t a, uint64_t b);
// kevstat's lines: "time: ..." and each warning.
void kx_emul_print(const struct kx_emul *x, FILE *f);
// The JSON object ("clock" in kx_stats_json).
void kx_emul_json(const struct kx_emul *x, FILE *f);

#endif
