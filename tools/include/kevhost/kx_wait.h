// SPDX-License-Identifier: MIT
// Who blocked whom: the analysis of waits on mutexes, semaphores and condition variables that
// kevstat and kevreport share. Fed every decoded event in time order, it keeps
//   * each thread's state intervals (a ring of the last KW_HIST per thread) with the cause of
//     every wait: the object, its owner, and what the owner did meanwhile (ran, was preempted
//     and by whom, was itself blocked);
//   * priority inversions: a thread blocked on an object whose owner, of lower priority, is
//     preempted by third threads of a priority between the two (time lost; every such thread
//     that ran on the owner's CPU in its place, each with its own share, largest first);
//   * each open wait's object and owner, which the wait chains (kx_chain.h) follow to their
//     roots and to the deadlocks.
// Sources (docs/trace-events.md): SYSTEM SYNC_WAIT [object, owner who] and PRIO_CHANGE
// [who, new | old << 8 | cause << 16] when the capture has them; without them the owner of a
// mutex is derived from MutexLock/MutexUnlock entries and exits, a semaphore's from the last
// SemWait that succeeded and has not posted, priorities from the thread state events (wide
// mode). kw_has_sync_events() and kw_has_prio_events() say which a trace had, so a tool can
// say what is derived and what is missing.
// Threads are the caller's indices (the model's, kx.h); the caller resolves pid/tid with
// the callback given to kw_init. Single-threaded; the struct is large (keep it on the heap).
#ifndef TOOLS_KX_WAIT_H
#define TOOLS_KX_WAIT_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev_decode.h>

#include "kx_prio.h"


#define KW_MAX_THREADS 4096u
#define KW_MAX_CPUS    KEV_MAX_CPUS
#define KW_MAX_OBJ     1024u   // objects tracked (more are counted in kw.obj_overflow)
#define KW_HIST        128u    // state intervals kept per thread (a ring)
#define KW_MAX_WAITS   4096u   // wait records (a ring: the oldest are reused)
#define KW_MAX_INV     64u     // inversion findings (per waiter, owner, preemptor, object)
#define KW_MAX_PARTS   8u      // parts of a split segment
#define KW_MAX_PRE     8u      // threads named per wait / inversion (the rest counted apart)

enum kw_kind { KW_NONE, KW_MUTEX, KW_SEM, KW_COND };

struct kw_obj {
    uint32_t id;       // the SYNC_* call's first argument
    enum kw_kind kind;
    int owner;         // thread index, -1 none or unknown
    int owner_known;   // the owner is known (0: taken before the capture, or never seen)
};

// A thread that ran on the owner's CPU while the owner was preempted during a wait: how long
// in all (t) and how long of it with a priority between the waiter's and the owner's (inv_t:
// the time the inversion lost to it).
struct kw_pre {
    int th;
    uint64_t t, inv_t;
};

// One wait on an object: what its owner did while the waiter waited (cycles).
struct kw_wait {
    uint64_t serial;   // 1, 2, ... (0: unused)
    int th, owner, obj; // obj: index in kw.obj, -1 when the object is unknown; a condvar
                       // has no owner: once its wait ended, who signalled it (-1 none known)
    int prio, owner_prio; // their priorities when it began (the waiter's inherited included;
                       // the owner's before the boost the wait gives it), -1 unknown
    unsigned state;    // the waiter's KEV_TH_* state
    uint64_t t0, t1;   // t1 0 while open
    uint64_t seg_t;    // start of the owner's segment not yet accounted
    uint64_t own_run, own_ready, own_blocked, own_other;
    uint64_t own_wake; // the owner woken and not yet running where only idle or a lower
                       // priority ran on its CPU: a wake-up's latency (across CPUs, the IPI
                       // and that CPU's response), not a preemption (not in own_ready)
    int by;            // the thread that preempted the owner for the longest (-1 none)
    uint64_t inv_t;    // time the owner was preempted by a priority between the two
    struct kw_pre pre[KW_MAX_PRE]; // who preempted the owner, in the order first seen
    unsigned npre;
    uint64_t pre_other, inv_other; // t, inv_t of preemptors past KW_MAX_PRE (not lost)
    int owner_obj;     // what the owner was blocked on (obj index), -1 none
};

// A state interval of a thread. For a wait, `wait` is the wait record's serial; for READY,
// `by` is the thread running on its CPU when it was preempted (-1 unknown).
struct kw_iv {
    uint64_t t0, t1;
    uint8_t state;
    int by;
    uint64_t wait;
};

struct kw_thread {
    unsigned state;     // KEV_TH_*, 255 unknown
    uint64_t since;
    int cpu;            // CPU it runs or last ran on, -1 unknown
    int prio;           // effective priority, -1 unknown
    int by;             // while READY: who took its CPU
    int woken;          // READY from a blocked state (a wake-up), not from its CPU
    unsigned kc_call;   // pending SYNC_* call + 1
    uint32_t kc_obj;
    int wait;           // open wait record index, -1 none
    uint64_t boosts;    // boosts by mutex inheritance (kx_prio_is_boost: the one rule)
    uint64_t prio_n[KX_PRIO_NKINDS]; // its PRIO_CHANGE events by kind (kx_prio_kind)
    int base_prio;      // priority before the current boost, -1 none
    int own_prio;       // its own priority (set at its start or by itself), -1 unknown
    uint64_t wakes, wake_first, wake_last; // wake-ups from a wait not on a mutex (its period)
    struct kw_iv *hist; // ring of KW_HIST, allocated at the first interval
    unsigned nhist;     // intervals written (hist[(nhist - 1) % KW_HIST] is the newest)
};

// A middle thread of an inversion: its priority when first seen, its share of the time lost.
struct kw_mid {
    int th, prio;
    uint64_t lost;
};

// A priority inversion: every wait of `waiter` on `obj` held by `owner` while a middle thread
// ran in the owner's place. mid[] holds every middle thread, largest share first; the shares
// and `others` (time of middles past KW_MAX_PRE) add up to `lost`. `middle`/`pm` are mid[0]'s
// (the largest share), for the consumers that name one thread.
struct kw_inv {
    int waiter, owner, middle, obj;
    int pw, po, pm;     // their priorities when first seen (pm: the largest middle's)
    uint64_t count, lost, max, first_t;
    struct kw_mid mid[KW_MAX_PRE];
    unsigned nmid;
    uint64_t others;
};

// A part of a thread's time in [t0, t1): running, ready (preempted by `by`), or blocked in
// `state` on obj held by `owner`, with what the owner did (the wait record's summary).
struct kw_part {
    unsigned state;
    int by, obj, owner;
    int owner_prio;     // the owner's priority when the wait began, -1 unknown
    uint64_t t;
    uint64_t own_run, own_ready, own_blocked;
    int own_by;         // who preempted the owner for the longest
    uint64_t own_wake;  // the owner waking (kw_wait.own_wake), not in own_ready
};

// A wait that ended (or was still open at the end: t1 the trace's end), kept for the grouping
// by waiter and object (kx_wait_groups.c).
struct kw_done {
    int th, obj, owner;
    int prio, owner_prio;
    unsigned state;
    uint64_t t0, t1;
};

typedef int (*kw_thread_fn)(void *user, uint32_t pid, uint32_t tid);
typedef int (*kw_idle_fn)(void *user, int th); // th is a CPU's idle thread

typedef void (*kw_wait_fn)(void *user, const struct kw_wait *w);

struct kw {
    kw_thread_fn thread_of;
    kw_idle_fn is_idle;          // NULL: no thread is idle (set after kw_init or kw_setup)
    void *user;
    kw_wait_fn on_wait;          // every wait when it ends, and those open at kw_finish
    void *on_wait_user;
    struct kw_thread th[KW_MAX_THREADS];
    int cur[KW_MAX_CPUS];
    int sync_for[KW_MAX_CPUS];   // thread whose MUTEX/SEM/CONDVAR state event came last on the
                                 // CPU: the one a SYNC_WAIT there is about (-1 none)
    struct kw_obj obj[KW_MAX_OBJ];
    unsigned nobj;
    uint64_t obj_overflow;
    struct kw_wait wait[KW_MAX_WAITS];
    uint64_t nwait;
    int open[KW_MAX_WAITS / 8];  // open wait record indices
    unsigned nopen;
    struct kw_inv inv[KW_MAX_INV];
    unsigned ninv;
    uint64_t sync_events, prio_events, waits_no_owner, t_last;
    struct kw_done *done;        // every wait, in the order they ended (grown; kw_free frees)
    size_t ndone, done_cap;
    uint64_t done_lost;          // waits not kept (out of memory)
    uint64_t done_forgotten;     // waits dropped by kw_forget_done (a live view's)
};

void kw_init(struct kw *k, kw_thread_fn thread_of, void *user);
// The same on a struct already zero (calloc'd).
void kw_setup(struct kw *k, kw_thread_fn thread_of, void *user);
void kw_free(struct kw *k);
// One event, in time order; `th` is the thread it belongs to (its pid/tid, else the thread
// running on its CPU before the event), -1 when unknown. The inline part lets through only
// what can matter (thread states, SYSTEM, the SYNC_* calls 80-85 and their exits).
void kw_event_slow(struct kw *k, const struct kev_event *e, int th);
static inline void kw_event(struct kw *k, const struct kev_event *e, int th)
{
    k->t_last = e->t64;
    if (e->cls == KEV_C_KER_CALL) {
        unsigned c = kev_kcall_no(e);
        if (c < 80u || c > 85u || th < 0 || th >= (int)KW_MAX_THREADS ||
            (kev_kcall_part(e) != KEV_KCALL_ENTRY && k->th[th].kc_call != c + 1u))
            return;
    } else if (e->cls != KEV_C_PR_TH && e->cls != KEV_C_SYSTEM) {
        return;
    }
    kw_event_slow(k, e, th);
}
// At the end of the trace: close the accounting at t_last (open waits stay open: a truncated
// trace's last states last to its end), and give each open wait (t1 0) to on_wait.
void kw_finish(struct kw *k);
static inline int kw_has_sync_events(const struct kw *k) { return k->sync_events != 0; }
static inline int kw_has_prio_events(const struct kw *k) { return k->prio_events != 0; }
// Drop the ended waits kept for the grouping (a live view of a long run: kx_stats_forget); the
// grouping then covers the waits that ended since.
void kw_forget_done(struct kw *k);
// The wait record with that serial, NULL when reused since.
const struct kw_wait *kw_wait_by_serial(const struct kw *k, uint64_t serial);
// Split thread th's time in [t0, t1) into parts (at most max; returns the count) from its
// state intervals; time older than its ring is reported as state 255 (unknown).
unsigned kw_split(const struct kw *k, int th, uint64_t t0, uint64_t t1, struct kw_part *p,
                  unsigned max);
// Thread th is waking now: READY, woken from a wait, and on its CPU only idle or a lower priority
// runs (kw_wait.own_wake: a wake-up's latency, across CPUs the IPI and that CPU's answer).
int kw_waking(const struct kw *k, int th);
// A thread's period: the mean time between its wake-ups from waits other than a mutex's
// (sleeps, receives, semaphores...), 0 when it woke fewer than 3 times.
uint64_t kw_period(const struct kw *k, int th);

// Waits grouped by waiter, object and holder (kx_wait_groups.c): count, total and worst of
// the waits at or over the threshold, which is `min` cycles when `dflt` is 0, else each
// waiter's own: 1% of its period (kw_period) when under `dflt` cycles, else `dflt` (100 us).
struct kw_group {
    int waiter, obj, owner;
    unsigned state;      // the waiter's KEV_TH_* state (MUTEX, SEM, CONDVAR)
    uint64_t count, total, worst;
    uint64_t worst_t0, first_t0;
    int waiter_prio, owner_prio; // their priorities when the worst wait began (-1 unknown)
    uint64_t min;        // the threshold its waits were held to
    uint64_t under;      // its waits under the threshold (not counted above)
};
// The groups with a wait at or over its threshold, largest total first, in a malloc'd array
// (*out, the caller frees; NULL and 0 when none, or out of memory); *under_all counts the
// waits under their threshold in all groups.
size_t kw_wait_groups(const struct kw *k, uint64_t min, uint64_t dflt, struct kw_group **out,
                      uint64_t *under_all);
// The threshold of thread th's waits by the same rule (cycles). A priority inversion that
// cost its waiter less than that in all is no finding: counted, not listed.
uint64_t kw_threshold(const struct kw *k, int th, uint64_t min, uint64_t dflt);

const char *kw_kind_name(enum kw_kind kind);
// A PRIO_CHANGE cause's name as the event table gives it (kev_prio_cause_name), "unknown" for
// a cause it does not name.
const char *kw_cause_name(unsigned cause);

#endif
