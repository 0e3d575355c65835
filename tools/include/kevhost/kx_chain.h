// SPDX-License-Identifier: MIT
// Wait chains: every wait of a thread on another followed to its root, with the time of each
// link, and the deadlocks (a chain that comes back to one of its threads): one mechanism, the
// one kevstat (-s chains, and -s waits's deadlocks), the report's findings and kevsql's
// blocked_by and deadlock tables show (docs/waits.md, "Wait chains").
//   * A thread waits on another (a link) while it is blocked
//       SEND    on the thread that receives its message (known at the receive),
//       REPLY   on the thread that received it (its reply),
//       MUTEX   on the mutex's owner now (a mutex handed on: its new owner; from the unlock
//               to the hand-over, still the old one),
//       SEM     on the thread that took the semaphore and has not posted (a hint),
//       CONDVAR on nobody known while it waits.
//     A link whose thread is unknown while it lasts (a send not yet received, a condvar, a
//     semaphore or mutex whose taker the capture did not see) is given, when it ends, the thread
//     that ended it: the receiver, the thread that woke the waiter (`given`); what that thread
//     did meanwhile is not followed.
//   * A chain: the waiter, the thread it waits on, the thread that one waits on, ..., up to a
//     thread that waits on no thread (running, ready, or blocked in a receive, a sleep, an
//     interrupt wait: the root, to which the time is attributed), an unknown thread, a thread
//     already in it (a cycle: a deadlock), or KX_CHAIN_MAX links (cut).
//   * A root blocked in a receive, a sleep or an interrupt wait waits for input: the stretch's
//     time goes to what woke it, known when it does (kx_chains_state's irq): an interrupt (a
//     device's line, a peer's bytes through it) or a timer (the tick: a timer's pulse, a
//     sleep's end), a root of its own (KX_ROOT_INPUT), not to the thread that only waited;
//     woken by a thread (a message, a pulse it sent), the waiting thread stays the root.
//   * A wait: a thread's time waiting on threads without a break (a send and then its reply is
//     one wait), cut into stretches with one chain each (kx_sink.chain: the rows of blocked_by).
//     Each link of a stretch's chain and its root get the stretch's time: per wait, the time of
//     each link (by position, from, to, how) and of each root; per waiter, its waits, their total
//     and the worst of them kept whole; per (waiter, root), the time attributed.
//   * Deadlocks: a link that closes a cycle through its own thread records the cycle (from that
//     thread, each thread waiting on the next), once while it stays open; a link of it that
//     changes breaks it (a timeout, a kill). On a truncated trace a cycle open at the end is
//     still blocked there.
// Inputs, in event order: each thread's state (kx_chains_state), its messages (send, receive,
// reply) and its wait on a mutex, semaphore or condvar with the holder the wait analysis knows
// (kx_chains_sync); kx_chains_step after each event follows the chains when a link changed.
// Threads are the model's indices (kx.h). Single-threaded; the struct is large (on the heap).
#ifndef TOOLS_KX_CHAIN_H
#define TOOLS_KX_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "kx.h"

#define KX_CHAIN_MAX   16u    // links followed (a longer chain is cut: KX_END_CUT)
#define KX_WAIT_LINKS  8u     // links kept per wait (their time past it: link_other)
#define KX_WAIT_ROOTS  8u     // roots kept per wait (their time past it: root_other)
#define KX_MAX_DEADLOCK 16u   // deadlock cycles kept (more: counted in dl_dropped)

enum kx_link_kind { KX_LINK_NONE, KX_LINK_SEND, KX_LINK_REPLY, KX_LINK_MUTEX, KX_LINK_SEM,
                    KX_LINK_COND, KX_LINK_NKINDS };

// What a thread waits on.
struct kx_link {
    uint8_t kind;             // enum kx_link_kind
    uint8_t given;            // `to` given when the link ended (unknown while it lasted)
    int to;                   // the thread, -1 unknown
    int obj;                  // MUTEX, SEM, CONDVAR: the wait analysis's object (kw.obj), -1
    uint32_t pid;             // SEND, REPLY: the server's process (0 unknown)
};

enum kx_chain_end {
    KX_END_ROOT,              // th[n] waits on no thread: the root
    KX_END_UNKNOWN,           // link[n - 1] waits on a thread not known (th[n] -1)
    KX_END_CYCLE,             // th[n] is already in the chain: a deadlock
    KX_END_CUT,               // KX_CHAIN_MAX links followed, th[n] waits on more
    KX_END_INPUT,             // th[n] waits for input (a receive, a sleep, an interrupt wait);
                              // once it came, `input` says what it was
};

// A root that is an input (kx_chain.root, kx_wroot.th, kx_cpair.root): what a thread waited for
// came from interrupt line irq (KX_ROOT_TICK: the tick, a timer's expiry); -1 stays "no thread
// known" (a cycle, a cut chain, a thread not known).
#define KX_ROOT_INPUT(irq) (-2 - (int)(irq))
#define KX_ROOT_IS_INPUT(r) ((r) <= -2)
#define KX_ROOT_IRQ(r) ((unsigned)(-2 - (r)))
#define KX_ROOT_TICK 0x100u
#define KX_INPUT_OPEN 0xffffu  // kx_chain.input: the input had not come by the end of the trace

// A chain: link[i] goes from th[i] to th[i + 1]; th[0] the waiter.
struct kx_chain {
    unsigned n;               // links, 1 .. KX_CHAIN_MAX
    uint8_t end;              // enum kx_chain_end
    uint8_t waking;           // the root is waking (kx_chains.root_waking): its wake-up's latency
    uint16_t input;           // KX_END_INPUT: irq + 1 of the interrupt that woke th[n], 0 not yet
    int th[KX_CHAIN_MAX + 1];
    struct kx_link link[KX_CHAIN_MAX];
};

// A stretch of a wait with one chain (kevsql's blocked_by rows), given when it ends.
struct kx_chain_row {
    uint64_t id;              // stretches numbered in the order they ended (1, 2 ...)
    uint64_t wait;            // the wait's id
    uint64_t t0, t1;          // cycles since boot
    struct kx_chain c;
};

// A link of a wait's chains and the time it was in them.
struct kx_wlink {
    unsigned pos;             // its position (0: the waiter's own)
    int from;
    struct kx_link l;
    uint64_t t;
};

struct kx_wroot {
    int th;                   // -1: an unknown thread, a cycle or a cut chain
    uint64_t t;
    uint64_t wake;            // of t, the root waking (a wake-up's latency, no work of its own)
};

struct kx_cwait {
    uint64_t id;              // 1, 2 ... in the order they began
    int th;
    int prio;                 // the waiter's priority when it began (inherited included), -1
    uint64_t t0, t1;          // t1 0 while open
    unsigned depth;           // its longest chain's links
    int cycle;                // a stretch of it ended in a cycle
    struct kx_wlink link[KX_WAIT_LINKS];
    unsigned nlink;
    uint64_t link_other;      // link time past KX_WAIT_LINKS links (not lost)
    struct kx_wroot root[KX_WAIT_ROOTS];
    unsigned nroot;
    uint64_t root_other;
    uint64_t seg_t0;          // the current stretch: its start and chain
    struct kx_chain cur;
};

// A waiter's waits: count, total and the worst one whole (heap, NULL until its first).
struct kx_cwaiter {
    uint64_t count, total;
    uint64_t worst_len;       // the worst's length (an open one: up to the end)
    struct kx_cwait worst;
};

// The time of a waiter's waits attributed to one root (-1: unknown, cycles, cut chains).
struct kx_cpair {
    int waiter, root;
    uint64_t t, waits;        // waits: of the waiter's waits, those with time on that root
    uint64_t wake;            // of t, the root waking
};

struct kx_deadlock {
    unsigned n;               // threads in the cycle
    int th[KX_CHAIN_MAX];     // th[i] waits (link[i]) on th[(i + 1) % n]
    struct kx_link link[KX_CHAIN_MAX];
    uint64_t t;               // when it closed
    uint64_t broken_t;        // when a link of it changed (0: still open at the end)
};

struct kx_sink;
struct kx_chains {
    // each thread's input: its state, its message, its wait on an object
    uint8_t state[KX_MAX_THREADS];      // KEV_TH_*, KX_STATE_UNKNOWN
    uint16_t woke_irq[KX_MAX_THREADS];  // irq + 1 of the interrupt its last wake from an input
                                        // wait came in, 0 none (a thread woke it)
    int msg_to[KX_MAX_THREADS];         // the receiver of its message (-1: not received)
    uint32_t msg_pid[KX_MAX_THREADS];   // its message's server process
    uint8_t msg_open[KX_MAX_THREADS];   // it has a message sent and not replied to
    struct kx_link sync[KX_MAX_THREADS]; // its wait on a mutex, semaphore or condvar
    // each thread's link now, and the thread that ended a link of unknown end this event
    struct kx_link link[KX_MAX_THREADS];
    int given[KX_MAX_THREADS];          // -2 none; else the thread (-1 none known)
    uint8_t given_named[KX_MAX_THREADS]; // that thread is known only by that end (`given`)
    int changed[KX_MAX_THREADS];        // threads whose link changed since the last step
    unsigned nchanged;
    uint8_t is_changed[KX_MAX_THREADS];
    // the waits open now
    struct kx_cwait *slot[KX_MAX_THREADS]; // each thread's wait record (heap, made at its first)
    struct kx_cwait *open[KX_MAX_THREADS]; // its slot while it waits, else NULL
    int open_th[KX_MAX_THREADS];
    unsigned nopen;
    uint64_t next_wait, next_row;
    struct kx_cwaiter *waiter[KX_MAX_THREADS]; // heap, NULL until its first wait
    struct kx_cpair *pair;              // grown; NULL none
    size_t npair, pair_cap;
    uint64_t pair_lost;                 // time not attributed (out of memory)
    struct kx_deadlock dl[KX_MAX_DEADLOCK];
    unsigned ndl;
    uint64_t dl_dropped;                // cycles past KX_MAX_DEADLOCK (counted, not kept)
    uint64_t oom;                       // waits not followed (out of memory)
    const struct kx_model *m;           // the priorities a wait starts with
    const struct kx_sink *sink;         // stretches as they end (sink->chain), may be NULL
    // a root waking (woken, not yet running where nothing more urgent runs: kw_waking), may be
    // NULL; a chain's stretch ends where it changes, at a thread's state like every change
    int (*root_waking)(const void *user, int th);
    const void *root_waking_user;
    int restep;                         // a thread's state changed while waits were open: a
                                        // root's waking may have (its own, or its CPU's thread)
    uint64_t t_last;
};

// Start on a zeroed struct (calloc'd); m gives a waiter's priority when its wait begins, sink
// (may be NULL) takes the stretches.
void kx_chains_setup(struct kx_chains *c, const struct kx_model *m, const struct kx_sink *sink);
void kx_chains_free(struct kx_chains *c);
// Thread th entered state st (KEV_TH_*); `by`: the thread running where that was written (the
// one that woke it, signalled it, handed it a mutex), -1 none or an interrupt; irq: irq + 1 of
// the interrupt it was written in, 0 none.
void kx_chains_state(struct kx_chains *c, int th, unsigned st, int by, unsigned irq);
// A message of client th to process pid was sent; received by thread srv; replied to.
void kx_chains_send(struct kx_chains *c, int th, uint32_t pid);
void kx_chains_recv(struct kx_chains *c, int th, int srv);
void kx_chains_reply(struct kx_chains *c, int th);
// Thread th's wait on object obj (kind KX_LINK_MUTEX, SEM or COND) is held by `holder` now
// (-1 unknown); the wait analysis's view, given after every event that may change it.
void kx_chains_sync(struct kx_chains *c, int th, unsigned kind, int obj, int holder);
// After each event: the waits that began or ended, the chains whose links changed (their
// stretches end), the cycles closed and broken. Inline: most events change no link.
void kx_chains_step_slow(struct kx_chains *c, uint64_t t);
static inline void kx_chains_step(struct kx_chains *c, uint64_t t)
{
    if (c->nchanged || c->restep)
        kx_chains_step_slow(c, t);
}
// At the end of the trace: every open wait's stretch ends at t (the wait stays open: t1 0).
void kx_chains_finish(struct kx_chains *c, uint64_t t);

// The thread at the end of chain ch when it is a root, an input's root (KX_ROOT_INPUT) when it
// waited for an input that came from an interrupt, else -1.
int kx_chain_root(const struct kx_chain *ch);
// The path a wait spent the most time on: from its waiter, at each position the link of the
// most time from the thread reached (into out, at most max; the count).
unsigned kx_cwait_path(const struct kx_cwait *w, const struct kx_wlink **out, unsigned max);
// A link's kind as the tools name it: "send", "reply", "mutex", "semaphore", "condvar".
const char *kx_link_name(unsigned kind);

#endif
