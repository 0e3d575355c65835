// SPDX-License-Identifier: MIT
// kevtop's intervals: the live reader's events fed to the analysis model (kx_stats.h) and cut
// into frames of a fixed span of trace time, from the first event: each frame is the model's
// figures at its end less those at its start (CPU time by kx_stats_th_time, its executed share
// by kx_exec_time; kernel calls,
// messages, interrupts and waits as the model's records complete), so that the frames of a
// whole trace add up to the model's totals over it, which kevstat prints.
#ifndef KEVTOP_TOP_H
#define KEVTOP_TOP_H

#include <stdint.h>
#include <kevhost/kev_live.h>
#include <kevhost/kx_stats.h>

// One thread's line of a frame.
struct top_row {
    int th;                    // the model's index
    uint32_t pid, tid;
    char label[64];            // kx_label: "process/thread"
    unsigned state;            // KEV_TH_* at the frame's end, or KX_STATE_UNKNOWN
    int prio;                  // -1 unknown
    uint64_t cpu;              // CPU time in the interval (cycles)
    uint64_t exec;             // of it, what its CPU executed (kx_exec_time; frame.turns)
    uint64_t kcalls, msgs, ints; // kernel calls ended, messages sent or received, interrupts
                               // handled, in the interval
    uint64_t wait;             // its longest wait that ended in the interval (cycles)
};

#define TOP_LOSS_TEXT 400u

// A frame: the interval [t0, t1) of trace time (cycles since boot).
struct top_frame {
    const struct kx_stats *s;  // the model (names), valid during the frame callback
    uint64_t cps;              // cycles per second
    unsigned seg;              // the trace segment (a board reset starts the next)
    uint64_t t0, t1;
    uint64_t events, ints;     // events in the interval, interrupts that entered in it
    unsigned ncpu;
    int turns;                 // an emulator ran the CPUs in turn: exec is below cpu
    const struct top_row *rows; // threads with something in the interval, unsorted
    unsigned nrows;
    // losses: events in the interval and in all, and which CPU and why, in a sentence
    uint64_t lost, lost_total;
    uint64_t buffers_lost;     // buffers the stream lost in transit (events unknown), in all
    char loss_text[TOP_LOSS_TEXT];
    // the longest wait that ended in the interval: who, how long, on what, held by whom
    int wait_th, wait_owner, wait_obj; // -1 none
    uint64_t wait_t;
    int last;                  // the segment ended with this frame
    // the reader outside the board, as its last READER frame said (kev_stream.h): buffers it
    // had not written yet and the kernel's drops so far; reader_said 0: no such frame came
    int reader_said;
    uint32_t reader_behind;
    uint64_t reader_dropped;
};

struct top;

// A view of frames span_s seconds long; frame(user, f) is called for each (f valid during the
// call). NULL out of memory.
struct top *top_new(double span_s, void (*frame)(void *user, const struct top_frame *f),
                    void *user);
void top_free(struct top *t);
// The consumer to attach to the live reader.
struct kev_live_consumer top_consumer(struct top *t);
// halt(user) true: stop closing frames (the view quits, or has printed -n frames), even in
// the middle of the frames a heartbeat passes.
void top_halt(struct top *t, int (*halt)(void *user));
// The faults the live reader said, for the loss line (kev_live.h counts them).
void top_counts(struct top *t, const struct kev_live_counts *c);

#endif
