// SPDX-License-Identifier: MIT
// Task instances (jobs), as Tracealyzer's actor instances: the one rule kevstat (-s tasks), the
// report's Tasks section and kevsql's `instance` table show (docs/analysis.md, "Task instances").
//   * A thread's activation point is where it waits between jobs: blocked in a receive
//     (RECEIVE: a timer's or an interrupt's pulse, a message), an interrupt wait (INTR) or a
//     sleep (NANOSLEEP); or a receive that finds what it receives already queued. A thread is
//     a task from the first time it waits there.
//   * An instance is released when the thread is woken there (its READY, or its RUNNING when
//     no READY came first), at the send of the message or pulse it received there when the
//     capture names one; or, when it receives without blocking (what it receives came while
//     it ran: an overrun), at that message's send, the instance before ending at the receive.
//   * It ends when the thread waits at its activation point again. Blocking
//     elsewhere meanwhile (a send and its reply, a mutex, a semaphore, a condition variable, a
//     join) belongs to the instance: its blocked time. One the thread's death ends ran its
//     exit path (the code after its loop: a printf, a join): it is no job, neither judged nor
//     in the response and execution times; counted (exits).
//   * A task is periodic when a timer's pulses release it (most of its instances): directly (the
//     pulse a timer sent in the tick, kx_msg.timer) or through a thread a timer releases (a
//     pulse that thread sent: cadence's clock thread relaying its timer to a worker). Its
//     period is the timer's interval (kx_timer.h: programmed, as the capture recorded it, else
//     the one its expiries keep); relayed, the whole number of those intervals nearest its
//     releases' median interval. Every other task is event-driven: released by interrupts
//     (their pulses, an interrupt wait), messages, other threads' pulses, sleeps. It has
//     response and execution times and the intervals between its arrivals, and no period and
//     no deadline: none is inferred, so none of its instances is judged until one is given
//     (--deadline, --period).
//   * A job that did its work and then left its loop (the thread's death ends the instance) is
//     judged: its job ends at the first kernel call the task's ended jobs never made (the loop's
//     end: a TimerDestroy, a printf's write, the exit), the rest is its exit path (an instance
//     of its own, exit set: no job, not judged). With no such call, or before the task ended a
//     job, the whole instance is its exit path.
//   * A pulse sent for it that the kernel dropped (kx_msg.h, "Lost pulses") is a missed
//     period of the task whose channel it was sent to (missed_periods): a release with no job.
//   * Per instance: release, start (its first run), end, response (end - release), execution
//     (running), ready (runnable, not running) and blocked times, preemptions (RUNNING ->
//     READY). The time before a thread first waits at its activation point is no instance.
//   * Per task, at the end of the trace: its period (given, else a periodic task's timer's),
//     its deadline (given, else the period; none for an event-driven task),
//     each instance's lateness (end - release - deadline) and whether it missed (ended after
//     its deadline, or was still open at the end of the trace after it).
//   * An instance a window of events the capture lost touches (kx_emul_in_lost) is not judged
//     (its release, end or a wait in it may not have been recorded): counted apart (spoiled),
//     so that the task's misses are "at least" its count.
//   * The emulator's part (kx_emul.h), at the end: the time of the instance the emulator held
//     (its tick gaps, its stalls of the thread's CPU: kx_emul_inside). A miss whose lateness
//     that time covers is the emulator's: without it the instance would have met its deadline.
//     The others are the program's; a task counts the two apart.
// The instances are kept (an array grown as they come, like the wait records) until
// kx_tasks_free: a task's period, and so every instance's deadline, is known only at the end.
// A live view of a long run may drop the ended ones (kx_tasks_forget): the end then judges
// only those released since.
// Threads are the model's indices (kx.h). Single-threaded; the struct is large (on the heap).
#ifndef TOOLS_KX_TASK_H
#define TOOLS_KX_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "kx.h"
#include "kx_dist.h"
#include "kx_emul.h"
#include "kx_timer.h"
#include "tool_opts.h"

#define KX_MAX_TIMING 32u     // --deadline and --period rules
#define KX_RECENT_GAPS 15u    // release intervals a live verdict takes its period from

// What released an instance.
enum kx_rel_how {
    KX_REL_WAKE,              // woken at its activation point: a sleep's end, an interrupt, a timeout
    KX_REL_MSG,               // a message it received
    KX_REL_PULSE,             // a pulse another thread sent
    KX_REL_TIMER,             // a timer's pulse
    KX_REL_IRQ,               // an interrupt's pulse
    KX_REL_NHOW
};

struct kx_inst {
    uint64_t id;              // 1, 2, ... in the order they were released
    int th;                   // the task's thread
    unsigned task;            // its index in kx_tasks.task
    uint64_t release, start, end; // cycles since boot; start 0: never ran; end 0: open at the end
    uint64_t exec, ready, blocked; // cycles running, runnable, blocked inside it
    uint32_t preempt;         // times preempted (RUNNING -> READY)
    uint8_t how;              // enum kx_rel_how
    uint8_t queued;           // received without blocking: released while the thread still ran
    uint8_t emul_miss;        // missed, and the emulator's time inside covers the lateness
    uint8_t exit;             // ended by the thread's death: its exit path, not a job
    uint8_t relayed;          // timer: relayed by the thread that sent its pulse (src)
    uint8_t lost;             // a window of lost events touches it: its end or release may be
                              // wrong, so it is not judged (its task's `spoiled`)
    unsigned timer;           // the timer whose pulse released it (kx_timers entry), 0 none
    int src;                  // the thread that sent what released it, -1 none known
    unsigned irq;             // irq + 1 when an interrupt sent it, else 0
    // judged at the end (kx_tasks_finish): the task's period and deadline (cycles, 0 none known),
    // end (or the trace's end, when still open) - (release + deadline), past its deadline
    uint64_t period, deadline;
    int64_t lateness;
    int missed;
    uint64_t emul;            // cycles of it (to the trace's end, when open) the emulator held
};

struct kx_task {
    int th;
    uint64_t n, ended, unfinished;        // instances released, ended, still open at the end
    uint64_t period, deadline;            // cycles, 0 unknown (no deadline: nothing judged)
    int period_given, deadline_given;     // from a rule (kx_tasks_rule)
    uint64_t gaps, gap_min, gap_max, gap_sum; // intervals between consecutive releases
    uint64_t misses, preempt;             // misses: the program's
    uint64_t emul_misses;                 // the emulator's misses (emul_miss)
    uint64_t stretched, emul;             // instances the emulator held time of, that time
    int64_t late_max;                     // the largest lateness of its judged instances but
                                          // the emulator's misses (INT64_MIN: none judged)
    uint64_t worst;                       // the instance (id) with the longest response, 0 none
    uint64_t by[KX_REL_NHOW];             // its releases by enum kx_rel_how
    uint64_t by_timer, by_relay;          // its releases a timer drove: all, relayed ones
    unsigned timer;                       // the timer of its latest such release (0 none)
    int periodic;                         // most releases a timer's (kx_tasks_finish)
    int relayed;                          // most of those relayed by a thread
    uint64_t interval;                    // its timer's interval (cycles, 0 unknown)
    uint64_t jobs;                        // instances ended at its activation point so far
    uint64_t calls[4];                    // kernel calls (numbers < 256) its ended jobs made
    uint64_t missed_periods;              // its pulses the kernel dropped: releases, no job
    uint64_t exits;                       // instances its death ended (exit paths, not jobs)
    uint64_t spoiled;                     // jobs not judged: the capture lost events in them
                                          // (its misses are then at least `misses`)
    struct kx_dist resp, exec;            // of its ended instances
    // the intervals between its latest releases (a ring), for a verdict before the end
    // (kx_tasks_judge_now); kept whatever kx_tasks_forget drops
    uint64_t last_rel, recent[KX_RECENT_GAPS];
    unsigned nrecent;
};

struct kx_task_th {
    int task;                 // its task + 1, 0 not one
    size_t open;              // its open instance's index + 1, 0 none
    int at;                   // waiting at its activation point
    uint64_t rel;             // what it received there: the send's time (0 none yet) ...
    int rel_src;              // ... its sender, irq + 1, kind
    unsigned rel_irq;
    uint8_t rel_how;
    unsigned rel_timer;
    unsigned last_timer;      // the timer that drove its open (or last) instance's release, 0 none
    unsigned state;           // its state as seen here (KX_STATE_UNKNOWN at first) and since
    uint64_t since;
    // the open instance's kernel calls, and its state at the first one its task's ended jobs
    // never made (t 0: none yet): where its job ends if the thread dies before waiting again
    uint64_t icalls[4];
    struct { uint64_t t, exec, ready, blocked; uint32_t preempt; } cut;
};

// A given period or deadline: a task named `name` (its label "process/thread", or its name as
// Linux gives it: a main thread its program's) has it.
struct kx_timing {
    char name[64];
    uint64_t ns;
    int deadline;             // 1 a deadline, 0 a period
    unsigned matched;         // tasks it named (kx_tasks_finish)
};

// The --deadline and --period options, one table and one parser for every tool that shows the
// instances (kevstat, kevreport, kevsql; kx_timing.c): a tool splices kx_timing_opts into its
// options ({ .also = kx_timing_opts }) and hands each option it gets to kx_timing_take, which
// parses it into a set (so a bad one is said before any trace is read), then gives the set to
// its analyses (kx_tasks_rules).
enum { KX_TIMING_OPT_DEADLINE = 0x2100, KX_TIMING_OPT_PERIOD };
extern const struct tool_opt kx_timing_opts[];
struct kx_timing_set {
    struct kx_timing rule[KX_MAX_TIMING];
    unsigned n;
};
// id with its value: 1 taken into set, 0 not one of these, -1 after saying why on stderr.
int kx_timing_take(struct kx_timing_set *set, const char *tool, int id, const char *val);
// "NAME=TIME" (TIME as kx_time_arg reads it) of option `opt` ("deadline" or "period") into
// *r; -1 with the reason on stderr, prefixed with the tool's name.
int kx_timing_parse(const char *tool, const char *opt, const char *arg, struct kx_timing *r);

struct kx_tasks {
    struct kx_task_th th[KX_MAX_THREADS];
    struct kx_task *task;     // grown
    unsigned ntask;
    size_t task_cap;
    struct kx_inst *inst;     // every instance, in the order released (grown)
    size_t ninst, inst_cap;
    uint64_t lost;            // instances not kept (out of memory): counted, said
    uint64_t next_id;         // the last instance's id
    uint64_t forgotten;       // ended instances dropped by kx_tasks_forget (a live view's)
    struct kx_timing rule[KX_MAX_TIMING];
    unsigned nrule;
    int judged;               // kx_tasks_finish ran
    struct kx_timers timers;  // the timers whose pulses release tasks
};

// A zeroed struct (calloc) is ready; kx_tasks_setup marks every thread's state unknown.
void kx_tasks_setup(struct kx_tasks *k);
void kx_tasks_free(struct kx_tasks *k);
// Thread th entered state st (KEV_TH_*, KEV_TH_DEAD) at t.
void kx_tasks_state(struct kx_tasks *k, int th, unsigned st, uint64_t t);
// Thread th received a message or pulse sent at t_send (how KX_REL_MSG or KX_REL_PULSE, by src
// or irq + 1; a timer's pulse: its kx_timers entry, kx_tasks_timer) at t: `running` in its own
// context while it ran (a receive that did not block), else for it while it waited (the event
// in the sender's context, before its wake-up).
void kx_tasks_recv(struct kx_tasks *k, int th, int running, uint64_t t, uint64_t t_send,
                   enum kx_rel_how how, int src, unsigned irq, unsigned timer);
// A timer's pulse (kx_msg.timer: id, its owner pid, the channel word) sent at t: its kx_timers
// entry (0: none kept).
unsigned kx_tasks_timer(struct kx_tasks *k, uint32_t pid, uint32_t id, uint32_t chan, uint64_t t);
// Process pid armed its timer id (TimerSettime's entry; interval_us 0: not recorded).
void kx_tasks_armed(struct kx_tasks *k, uint32_t pid, uint32_t id, uint32_t interval_us);
// Thread th entered kernel call `call` at t (where an exiting job's work ends).
void kx_tasks_kcall(struct kx_tasks *k, int th, unsigned call, uint64_t t);
// n pulses sent to thread th's channel were never received (the kernel dropped them): n
// missed periods of its task.
void kx_tasks_lost(struct kx_tasks *k, int th, unsigned n);
// "NAME=TIME" (TIME as kx_time_arg reads it) for option `opt` ("deadline" or "period"): a rule
// for kx_tasks_finish; -1 with the reason on stderr, prefixed with the tool's name.
int kx_tasks_rule(struct kx_tasks *k, const char *tool, const char *opt, const char *arg);
// Rules parsed already (kx_timing_take), added to k's.
void kx_tasks_rules(struct kx_tasks *k, const struct kx_timing_set *set);
// At the end of the trace (t_last): every task's period and deadline (the rules by the model's
// names, cps the cycles a second), every instance judged, with the emulator's part when x (its
// pass finished) is not NULL. Open instances stay open (end 0).
void kx_tasks_finish(struct kx_tasks *k, const struct kx_model *m, uint64_t t_last, uint64_t cps,
                     const struct kx_emul *x);
// A live view's verdict on ended instance i before the trace's end, by the rule
// kx_tasks_finish applies at the end: its deadline (cycles, 0 none, into *deadline) is a rule's
// (by the model's names, cps the cycles a second; a deadline over a period), else none for an
// exit path or a task not released so far mostly by a timer (event-driven), else its timer's
// interval so far (kx_timers_interval, recent; relayed: the whole number of it nearest the
// median of the task's last KX_RECENT_GAPS intervals between releases).
// 1 when i ended after release + deadline.
int kx_tasks_judge_now(const struct kx_tasks *k, const struct kx_model *m,
                       const struct kx_inst *i, uint64_t cps, uint64_t *deadline);
// Drop the ended instances (the open ones stay, in order): a live view of a long run, which has
// shown them, keeps its memory bounded (kx_stats_forget).
void kx_tasks_forget(struct kx_tasks *k);
// Thread th's task, NULL when it is none.
const struct kx_task *kx_tasks_of(const struct kx_tasks *k, int th);
// The instance with that id, NULL none.
const struct kx_inst *kx_tasks_inst(const struct kx_tasks *k, uint64_t id);
// "wake", "message", "pulse", "timer", "interrupt"
const char *kx_rel_how_name(unsigned how);
// "periodic" or "event-driven"
const char *kx_task_kind(const struct kx_task *t);
// Where its period comes from: "given", "timer", "relayed timer", NULL none.
const char *kx_task_period_from(const struct kx_task *t);
// What released most of its instances (enum kx_rel_how).
unsigned kx_task_released_by(const struct kx_task *t);

#endif
