// SPDX-License-Identifier: MIT
// The analyses behind kevstat, kevreport and kevsql, computed in one pass over the events:
//   * CPU time per thread (hence per process) and per priority, time in each thread state;
//     each CPU's time running threads, running its idle thread, and with no thread known;
//   * kernel calls: count, errors by errno, latency entry -> exit (power-of-two histogram);
//   * interrupts: count, rate over the time the source was active, interrupt and handler
//     time, interrupt-to-thread latency of every interrupt that had a thread (kx_rows.h: to
//     the moment the thread had its pulse while running, or ran after it was made ready);
//   * messages per channel (client thread -> server process): count, errors, send -> reply
//     latency, and the critical path of each request across the threads it went through;
//   * lost-event windows: where events are missing and which classes surrounded the gap;
//   * user events: count per event id and process (and their first and last time);
//   * task instances: each thread's jobs from its release to its end, judged against its
//     task's period or deadline (kx_task.h);
//   * wait chains: every wait on another thread followed to its root, and deadlocks
//     (kx_chain.h).
// Each of them is the sum of records (kx_rows.h) that a tool may also have one by one
// (kx_stats_sink). Times are in cycles. Usage: kx_stats_init, kx_stats_event for every decoded
// event in time order (it updates the model itself), kx_stats_finish at the end.
// Single-threaded; the struct is large.
#ifndef TOOLS_KX_STATS_H
#define TOOLS_KX_STATS_H

#include "kx_chain.h"
#include "kx_dist.h"
#include "kx_funcs.h"
#include "kx_load.h"
#include "kx_msg.h"
#include "kx_rows.h"
#include "kx_task.h"
#include "kx_wait.h"
#include <trace/kev_userreg.h>

#define KX_MAX_IRQ 1024u     // interrupts 0..1022 tracked one by one; others share the last
#define KX_MAX_CHAN 256u
#define KX_MAX_PATHSUM 1024u
#define KX_MAX_GAPS 256u
#define KX_MAX_ERRNO 160u
#define KX_PATH_MAX 64u
#define KX_NPRIO 256u
#define KX_MAX_USER 256u     // (id, process) pairs counted one by one; the rest in user_other
#define KX_MAX_IRQ_OPEN 256u
#define KX_WAIT_MIN_NS 100000u // the default threshold of a listed wait (kx_stats.wait_min_ns) // interrupts waiting for their thread (older ones end unhandled)

struct kx_th_stats {
    uint64_t state_t[KEV_TH_NSTATES]; // cycles in each state (RUNNING = CPU time)
    unsigned state;                   // current state or KX_STATE_UNKNOWN
    uint64_t since;
    uint64_t iv_id;                   // the current interval's id (kx_state_row)
    int woken;                        // READY from a blocked state (kx_state_row)
    int waker;                        // its waker (READY), -1 none
    uint64_t waker_id;
    unsigned waker_irq;               // irq + 1 when woken inside an interrupt
    unsigned block_call;              // the kernel call it blocked in + 1, 0 none
    int prio_run;                     // priority when it was switched in (its state row's)
    int prio_now;                     // priority it runs at now (PRIO_CHANGE while it runs)
    uint64_t prio_since;              // its running time before this is charged (prio_t)
    uint64_t runs;                    // times it was switched in
    uint64_t migrations;              // times it was switched in on another CPU than before
    unsigned run_cpu;                 // CPU + 1 it runs or last ran on, 0 when not yet seen
    uint64_t kc_t, kc_call;           // pending kernel call: entry time, call + 1
    unsigned kc_slot;                 // its row of the kernel-call table (kx_kc_slot)
    uint64_t kc_id;
    uint32_t kc_arg[4];
    unsigned kc_nargs, kc_cpu;
    int irq_wait;                     // an interrupt (open slot) handled when it next runs, -1
};

// The kernel-call table's rows: a call by number (< KEV_KC_MAX), CondBroadcast apart from
// CondSignal (QNX's one number), then each call the capture's logger made (kx_is_logger) apart
// from the program's: KX_KC_LOGGER + number.
#define KX_KC_BROADCAST KEV_KC_MAX
#define KX_KC_LOGGER (KEV_KC_MAX + 1u)
#define KX_KC_SLOTS (2u * KEV_KC_MAX + 1u)

struct kx_kc_stats {
    struct kx_dist lat;
    uint64_t entries, errors, interrupted;
    uint64_t err[KX_MAX_ERRNO];       // by errno (the last counts larger numbers)
};

// An interrupt source. `latency` is the interrupt-to-thread latency (kx_rows.h) of each of
// them that had a thread; `no_thread` woke nobody (a tick with nothing due), `unhandled` had a
// thread that had not got to it by the end of the trace. Its rate is over the time it was
// active, from its first interrupt to its last: (count - 1) / (last - first).
struct kx_irq_stats {
    uint64_t count;
    uint64_t first, last;
    struct kx_dist handler, total, latency;
    uint64_t no_thread, unhandled;
};

// An interrupt in progress or waiting for its thread (kx_rows.h).
struct kx_irq_open {
    struct kx_irq_row row;
    int used;
    int next;                         // the next slot waiting on the same thread, -1
};

struct kx_chan {
    int client;                       // thread index (KX_NO_THREAD: sent by an interrupt)
    unsigned irq;                     // irq + 1 for a pulse from an interrupt handler
    uint32_t srv_pid;
    int pulse;
    uint64_t count, errors, roots;
    struct kx_dist lat, queue;        // send -> reply, send -> receive
};

struct kx_pathsum { int chan, th, waiting; uint64_t t; };

struct kx_gap {
    unsigned cpu;
    uint64_t t0, t1, lost;
    uint32_t classes[KEV_NCLASS];     // events of each class in the window around the gap
    int after_end;                    // losses after the last buffer (the trailer's count)
};

#define KX_USER_VALUE 96u
#define KX_USER_WORDS 32u
struct kx_user {
    uint32_t id;                      // the user event's code
    uint32_t pid;                     // process of the thread that wrote it (0: unknown)
    int th;                           // a thread of it that wrote one (KX_NO_THREAD: none known)
    uint64_t count, first, last;
    // the last one's payload (its first KX_USER_WORDS words), formatted only when shown
    // (kx_user_last): formatting every event would cost more than the rest of its analysis
    uint32_t vw[KX_USER_WORDS];
    unsigned vnw, vslots;
};

struct kx_stats {
    struct kx_model m;
    struct kx_msgs q;
    // each message record's slices for its flows (by its index in q.m): the sender's at the
    // send, the receiver's at the receive
    struct kx_slice_ref msg_out[KX_MSG_MAX], msg_in[KX_MSG_MAX];
    unsigned msg_timer[KX_MSG_MAX];   // a timer's pulse: its timer (kx_tasks_timer), by index
    const struct kev_reader *r;
    struct kx_sink sink;              // who wants the records (kx_stats_sink)
    unsigned skip;                    // KX_SKIP_*
    uint64_t wait_min_ns;             // with wait_min_set, waits listed from this length (0:
    int wait_min_set;                 // all); else each waiter's own threshold, 1% of its
                                      // period, at most KX_WAIT_MIN_NS (kw_wait_groups)
    struct kx_th_stats th[KX_MAX_THREADS];
    uint64_t prio_t[KX_NPRIO];
    // Each CPU's time from the first event to the last, by what ran there (the model's
    // current thread): a thread other than idle, its idle thread, no thread known.
    uint64_t busy_t[KEV_MAX_CPUS], idle_t[KEV_MAX_CPUS], none_t[KEV_MAX_CPUS];
    int acc_cur[KEV_MAX_CPUS];        // the thread these sums last saw there
    uint64_t acc_since[KEV_MAX_CPUS];
    struct kx_load load;              // busy_t over time (kx_load.h)
    unsigned ncpu;                    // CPUs seen (highest + 1)
    uint64_t migrations;              // every thread's, summed
    uint64_t next_iv, next_kc, next_irq, next_flow; // record ids
    struct kx_kc_stats kc[KX_KC_SLOTS]; // by kx_kc_slot
    struct kx_irq_stats irq[KX_MAX_IRQ];
    unsigned cpu_irq[KEV_MAX_CPUS];   // irq + 1 in progress on each CPU
    uint64_t cpu_irq_t[KEV_MAX_CPUS], cpu_hnd_t[KEV_MAX_CPUS];
    int cpu_open[KEV_MAX_CPUS];       // its record (irq_open slot), -1
    struct kx_irq_open irq_open[KX_MAX_IRQ_OPEN];
    uint64_t irq_open_dropped;        // records ended unhandled because the table was full
    struct kx_chan chan[KX_MAX_CHAN];
    unsigned nchan;
    struct kx_pathsum psum[KX_MAX_PATHSUM];
    unsigned npsum;
    struct kx_seg worst[KX_PATH_MAX];  // the slowest request's critical path
    unsigned nworst, worst_depth;
    int worst_chan;
    uint64_t worst_total;
    struct kx_gap gap[KX_MAX_GAPS];
    unsigned ngaps;
    uint64_t gaps_dropped;            // windows past KX_MAX_GAPS (counted, not listed)
    uint8_t recent[KEV_MAX_CPUS][256]; // classes of the last 256 events per CPU
    uint8_t nrecent[KEV_MAX_CPUS];
    unsigned open_gap[KEV_MAX_CPUS];  // gap index + 1 still collecting classes after it
    unsigned after_gap[KEV_MAX_CPUS]; // events counted after it so far
    uint64_t last_t[KEV_MAX_CPUS];
    uint32_t last_seq;
    int have_seq;
    uint64_t class_n[KEV_NCLASS];
    uint64_t events, t_first, t_last;
    struct kx_user user[KX_MAX_USER];
    unsigned nuser;
    uint64_t user_other;              // user events past KX_MAX_USER pairs (counted, not listed)
    struct kw *kw;                    // who blocked whom (kx_wait.c; heap, NULL if none)
    struct kev_userreg *ureg;         // user event names and formats (heap, NULL if none)
    struct kx_funcs *funcs;           // fbt's function calls (heap, NULL until the first)
    struct kx_tasks *tasks;           // task instances (kx_task.c; heap, NULL if none)
    struct kx_chains *chains;         // wait chains, deadlocks (kx_chain.c; heap, NULL if none)
    struct kx_emul *emul;             // how time was kept, the emulator's artefacts (kx_emul.h;
                                      // heap, NULL out of memory)
    // what a tool adds to kx_stats_json's object from the analyses it feeds itself (kevstat's
    // USDT probes): members written before the closing brace, each after a comma; NULL none
    void (*json_more)(const struct kx_stats *s, FILE *f);
};

// The kernel-call table's row of a call by thread idx (arg: its entry's words, NULL for an
// exit without its entry), the row's name ("CondBroadcast", "TraceEvent [logger]") and
// its call number.
unsigned kx_kc_slot(const struct kx_model *m, int idx, unsigned call, const uint32_t *arg,
                    unsigned nargs);
const char *kx_kc_slot_name(unsigned slot, char *buf, size_t n);
unsigned kx_kc_slot_call(unsigned slot);
// What a thread's CPU executed of its RUNNING time, when the model knows better than that time:
// never, today. Under QEMU's -icount the CPUs run in turn on one clock, so a run holds other
// CPUs' turns; the trace says where some of them were (kx_emul.h) but not all, and an even
// share per CPU with work was off by half for a 4-CPU pipeline's workers and +13 % for a hog on
// a busy CPU (against their own clocks). So no estimate is given: kx_exec_in_turns is 0, every
// reader shows RUNNING time alone (kevstat, the report, kevsql, kevweb, kevtop, the CTF), and
// kx_exec_time (a run's kx_state_row.exec) is that RUNNING time.
int kx_exec_in_turns(const struct kx_stats *s);
uint64_t kx_exec_time(const struct kx_stats *s, int idx);
void kx_stats_init(struct kx_stats *s, const struct kev_reader *r);
// The same in memory of its own (calloc: the pages of tables a trace never reaches are never
// touched), NULL out of memory; kx_stats_delete frees it.
struct kx_stats *kx_stats_new(const struct kev_reader *r);
void kx_stats_delete(struct kx_stats *s);
// Parts a caller does not need, skipped (set before the first event): KX_SKIP_MSG message
// matching (and with it the channels, critical paths and interrupts' pulses: an interrupt's
// thread is then only the one it made ready), KX_SKIP_WAIT the wait analysis (no waits, no
// blocking objects in the state records). Everything else is computed as always.
enum { KX_SKIP_MSG = 1, KX_SKIP_WAIT = 2 };
// Records to k as they are made (before the first event).
void kx_stats_sink(struct kx_stats *s, const struct kx_sink *k);
// A period or deadline given to a task (kevstat --deadline imu=2ms; kx_tasks_rule): opt is
// "deadline" or "period", arg "NAME=TIME". Before the first event; -1 with the reason on stderr.
int kx_stats_timing(struct kx_stats *s, const char *tool, const char *opt, const char *arg);
// Interrupts a second of a source over the time it was active (0 with fewer than two).
double kx_irq_rate(const struct kx_stats *s, const struct kx_irq_stats *q);
void kx_stats_event(struct kx_stats *s, const struct kev_event *e);
// Makes s the model pass p feeds (kx_pass.h): p's callbacks see s->m, s takes each event
// between them.
struct kx_pass;
void kx_stats_model(struct kx_pass *p, struct kx_stats *s);
void kx_stats_finish(struct kx_stats *s);
// The time thread idx spent in state st (KEV_TH_*) up to t, in cycles: what the model summed,
// and the part of the interval it is in until t when that is st. Asked between two events
// (every event before t given, none after), it is the figure kx_stats_finish would give for a
// trace ending at t; a live view takes its differences interval by interval (kx_stats_live.c).
uint64_t kx_stats_th_time(const struct kx_stats *s, int idx, unsigned st, uint64_t t);
// A live view of a long run keeps its memory bounded: drop the records the model keeps only for
// its listings at the end of the trace (the ended task instances, the ended waits kept for the
// grouping; kx_tasks_forget, kw_forget_done), once the view has shown them. Every sum, count
// and distribution stays whole; the end's verdicts on instances and the wait groups then cover
// only what came since the last call.
void kx_stats_forget(struct kx_stats *s);
// A user event's value as the tools show it: its text (a string event), its words through the
// format its process registered (trace/kev_userreg.h), else its words in hex.
void kx_user_value(const struct kx_stats *s, const struct kev_event *e, uint32_t pid, char *out,
                   size_t n);
// The last value of a (code, process) pair as kx_user_value shows it, into out.
void kx_user_last(const struct kx_stats *s, const struct kx_user *u, char *out, size_t n);
// The registered name of user event code for process pid, NULL when none.
const char *kx_user_name(const struct kx_stats *s, uint32_t pid, uint32_t code);
// Free what kx_stats_init allocated (the wait analysis, the user-event registry).
void kx_stats_free(struct kx_stats *s);
// The sender side of a channel: "process/thread", or "irq N" for pulses from a handler.
const char *kx_chan_client(const struct kx_stats *s, const struct kx_chan *c, char *buf,
                           size_t n);
// The file is damaged: the decoder stopped at s->r->kr_err_off (results cover the events
// before it; losses after it are unknown).
int kx_stats_damaged(const struct kx_stats *s);
// Write every result as one JSON object (times in cycles and microseconds).
void kx_stats_json(const struct kx_stats *s, FILE *f);
// The wait analysis's object as every tool names it: "mutex 3", "semaphore 7", "an unknown
// object" (kx_wait_json.c).
const char *kx_wait_obj(const struct kx_stats *s, int obj, char *buf, size_t n);
// The waits grouped by waiter, object and holder at the threshold s->wait_min_* (kw_wait_groups,
// times in cycles); *under the waits under it. The caller frees *out.
size_t kx_wait_groups(const struct kx_stats *s, struct kw_group **out, uint64_t *under);
// Thread th's threshold at s->wait_min_* (kw_threshold, cycles).
uint64_t kx_wait_threshold(const struct kx_stats *s, int th);
// --wait-min's value: "250us", "1.5ms", "2s", "800ns" (a bare number: microseconds) into *ns;
// -1 with the reason on stderr, prefixed with the tool's name, when not understood.
int kx_wait_min_arg(const char *tool, const char *arg, uint64_t *ns);
// A member of the JSON object that an analysis gives, after a comma: its key, then null when the
// analysis did not run (present 0). Returns present: the caller then writes the member's value.
int kx_json_member(FILE *f, const char *key, int present);
// The "waits" member of the JSON object (kx_wait_json.c), after a comma.
void kx_wait_json(const struct kx_stats *s, FILE *f);
// ,"parts":[...]: thread th's time in [t0, t1) split by state (kw_split): each part's "state"
// (KEV_TH_* name, "unknown" before its kept history), "t", and as it applies "by" (who took
// its CPU), "object", "owner", "owner_prio" (the owner's priority when the wait began).
void kx_wait_parts_json(const struct kx_stats *s, FILE *f, int th, uint64_t t0, uint64_t t1);
// The "tasks" member of the JSON object (kx_task_json.c), after a comma.
void kx_task_json(const struct kx_stats *s, FILE *f);
// Events the capture lost in windows (kx_gap) that overlap [t0, t1] on any CPU: a count the
// analyses made over that time may miss what they held (it is "at least" that count).
uint64_t kx_stats_lost_in(const struct kx_stats *s, uint64_t t0, uint64_t t1);
// The tasks' headline every reader says (kevstat -s tasks, the report's Tasks section, kevweb
// over a finished file; kx_task_json.c): the tasks, the deadline misses of those that have a
// deadline (periodic, or given one) named with their counts ("at least" where the capture lost
// events in the task's time), and the tasks judged by no deadline named too. Into b (n bytes).
void kx_tasks_headline(const struct kx_stats *s, char *b, size_t n);
// The "chains" member of the JSON object (kx_chain_json.c), after a comma.
void kx_chain_json(const struct kx_stats *s, FILE *f);

#endif
