// SPDX-License-Identifier: MIT
// The analyses behind kevstat and kevreport, computed in one pass over the events:
//   * CPU time per thread (hence per process) and per priority, time in each thread state;
//   * kernel calls: count, errors by errno, latency entry -> exit (power-of-two histogram);
//   * interrupts: count, rate, interrupt and handler time, interrupt-to-thread latency (from
//     the interrupt's entry to the first run of a thread it made ready);
//   * messages per channel (client thread -> server process): count, errors, send -> reply
//     latency, and the critical path of each request across the threads it went through;
//   * lost-event windows: where events are missing and which classes surrounded the gap;
//   * user events: count per event id and process (and their first and last time).
// Times are in cycles. Usage: kx_stats_init, kx_stats_event for every decoded event (it
// updates the model itself), kx_stats_finish at the end. Single-threaded; the struct is large.
#ifndef TOOLS_KX_STATS_H
#define TOOLS_KX_STATS_H

#include "kx_msg.h"
#include "kx_wait.h"
#include <trace/kev_userreg.h>

#define KX_HIST 65u          // bucket b holds values v with kx_log2_bucket(v) == b
#define KX_MAX_IRQ 1024u     // interrupts 0..1022 tracked one by one; others share the last
#define KX_MAX_CHAN 256u
#define KX_MAX_PATHSUM 1024u
#define KX_MAX_GAPS 256u
#define KX_MAX_ERRNO 160u
#define KX_PATH_MAX 64u
#define KX_NPRIO 256u
#define KX_MAX_USER 256u     // (id, process) pairs counted one by one; the rest in user_other

struct kx_dist {
    uint64_t n, sum, min, max;
    uint64_t hist[KX_HIST];
};

struct kx_th_stats {
    uint64_t state_t[KEV_TH_NSTATES]; // cycles in each state (RUNNING = CPU time)
    unsigned state;                   // current state or KX_STATE_UNKNOWN
    uint64_t since;
    int prio_run;                     // priority while running
    uint64_t runs;                    // times it was switched in
    uint64_t migrations;              // times it was switched in on another CPU than before
    unsigned run_cpu;                 // CPU + 1 it runs or last ran on, 0 when not yet seen
    uint64_t kc_t, kc_call;           // pending kernel call: entry time, call + 1
    uint64_t wake_t;                  // pending interrupt wake-up: entry time of the irq
    unsigned wake_irq;                // irq + 1, 0 when none
};

struct kx_kc_stats {
    struct kx_dist lat;
    uint64_t entries, errors, interrupted;
    uint64_t err[KX_MAX_ERRNO];       // by errno (the last counts larger numbers)
};

struct kx_irq_stats {
    uint64_t count;
    uint64_t first, last;
    struct kx_dist handler, total, latency;
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
    const struct kev_reader *r;
    struct kx_th_stats th[KX_MAX_THREADS];
    uint64_t prio_t[KX_NPRIO];
    uint64_t idle_t[KEV_MAX_CPUS];    // no thread known to run
    uint64_t busy_t[KEV_MAX_CPUS];    // a known thread running (the threads' CPU time per CPU)
    uint64_t migrations;              // every thread's, summed
    uint64_t idle_since[KEV_MAX_CPUS];
    struct kx_kc_stats kc[KEV_KC_MAX];
    struct kx_irq_stats irq[KX_MAX_IRQ];
    unsigned cpu_irq[KEV_MAX_CPUS];   // irq + 1 in progress on each CPU
    uint64_t cpu_irq_t[KEV_MAX_CPUS], cpu_hnd_t[KEV_MAX_CPUS];
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
};

void kx_stats_init(struct kx_stats *s, const struct kev_reader *r);
void kx_stats_event(struct kx_stats *s, const struct kev_event *e);
void kx_stats_finish(struct kx_stats *s);
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
void kx_dist_add(struct kx_dist *d, uint64_t v);
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
// The "waits" member of the JSON object (kx_wait_json.c), after a comma.
void kx_wait_json(const struct kx_stats *s, FILE *f);

#endif
