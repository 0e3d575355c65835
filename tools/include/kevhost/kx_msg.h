// SPDX-License-Identifier: MIT
// Message matching for the analysis model: links COMM events into messages, each a send
// (SND_MESSAGE / SND_PULSE in the client's context), its receive (REC_* in the server's
// context) and its reply (REPLY_MESSAGE / MSG_ERROR), and nests the messages a server sends
// while it serves another (client -> server -> driver) so that a request's critical path can
// be rebuilt when the outer request is replied to.
// Matching rules: a receive in the server's context takes the oldest pending send from the
// sender pid it names to the receiving process (docs/kev-format.md); a receive written in the
// sender's context (the kernel hands the message to a waiting receiver, named as
// pid << 16 | tid) takes the sender's newest pending send with the same id; one the kernel
// writes in the receiver's own context (naming itself) takes the oldest pending send with the
// same id (a pulse: SND_PULSE's second word); a reply takes the
// message its server is serving with that receive id (and client pid, when not 0). Sends
// never received and replies without a send are counted, not fatal. A thread blocks in
// MsgSend until the reply, so a new message from it ends any earlier one still open (its
// events were lost): that one is dropped and counted as stale (messages sent when the
// running thread is unknown count as one thread).
// Lost pulses: the kernel queues a pulse nobody waits for (FIFO within its priority) and
// drops it when its sender's process already has KX_PULSES_PER_PROC queued (a timer's pulse is
// charged to the timer's owner, the TIMER event before it names it; an interrupt's to nobody):
// the SND_PULSE is written, no receive ever comes. Two rules keep such a pulse from being taken
// for a later receive: at its send, a pulse charged to a process that already has that many
// pending on any channel, one of them on this one (so no receiver waits there), is marked lost;
// and a thread that blocks in a receive finds its channel empty, so every pulse still pending
// on the channel it last received a pulse on, sent before then, was lost (kx_msgs_purge: it
// also catches a bound the first rule did not see). A lost pulse is never matched. A kernel
// that writes an event for each timer pulse it drops makes the first rule exact for timers:
// kx_msgs_pulse_lost.
// Records live in a fixed pool; a request and the messages nested in it are freed when it
// completes. Single-threaded.
#ifndef TOOLS_KX_MSG_H
#define TOOLS_KX_MSG_H

#include "kx.h"

#define KX_MSG_MAX 512u // messages in flight (a lossy trace's stale ones are dropped when full)
#define KX_TIMER_UNNAMED 0xffffffffu // a timer's pulse whose TIMER event the capture lacks
#define KX_PULSES_PER_PROC 16u // the kernel's bound on the pulses queued by one process's sends
                               // (KMAX_PULSES_PER_PROC, kernel/include/kernel/kernel.h)

enum kx_msg_step { KX_MSG_NONE, KX_MSG_SEND, KX_MSG_RECV, KX_MSG_REPLY };

struct kx_msg {
    int used, pulse, done, error;
    int lost;                        // a pulse the kernel dropped (never received): done too
    uint32_t charge;                 // a pulse's charged process (pid), 0 nobody
    int client, server;              // thread indices (server: KX_NO_THREAD until received;
                                     // client: KX_NO_THREAD when an interrupt sent it)
    unsigned irq;                    // irq + 1 when sent from an interrupt, else 0
    unsigned send_cpu;               // the CPU the send was written on
    uint32_t client_pid, srv_pid, coid, rcvid;
    uint32_t chid;                   // a pulse's channel (its send's chid field)
    uint32_t timer;                  // a timer's pulse (sent in the tick): the TIMER event's
                                     // timer id, KX_TIMER_UNNAMED with no TIMER before it; 0
                                     // not a timer's
    uint64_t t_send, t_recv, t_reply;
    uint64_t id;                     // 1, 2, ... in send order (a flow id)
    int parent, first_child, next_sibling; // nesting (indices, -1 = none)
};

struct kx_msgs {
    struct kx_msg m[KX_MSG_MAX];
    int serving[KX_MAX_THREADS];     // innermost message each thread serves, or -1
    int live[KX_MSG_MAX];            // indices of used records, unordered
    unsigned nlive;
    int pos[KX_MSG_MAX];             // where each used record is in live[]
    // Scan keys of live[k], kept beside it so that lookups stay in a few cache lines:
    // lst = 1 pulse | 2 received | 4 done, lkey = srv_pid, lsrv = server, lcli = client thread.
    uint8_t lst[KX_MSG_MAX];
    uint32_t lkey[KX_MSG_MAX];
    int lsrv[KX_MSG_MAX], lcli[KX_MSG_MAX];
    int freel[KX_MSG_MAX];           // unused records
    unsigned nfree;
    uint64_t next_id;
    uint64_t unmatched_recv, unmatched_reply, overflow;
    uint64_t stale;                  // messages dropped: their client sent again (events lost)
    uint32_t timer_pid[KEV_MAX_CPUS]; // a TIMER's owner, for the pulse the CPU sends next
    uint32_t timer_id[KEV_MAX_CPUS];  // ... and its id
    uint32_t rchid[KX_MAX_THREADS];  // the channel each thread last received a pulse on + 1
    uint64_t lost_pulses;            // pulses sent and never received (lost, not pending)
    int told_lost;                   // the trace says each timer pulse the kernel drops
};

// One step of a critical path: thread `th` worked on the request from t0 to t1 (`waiting`:
// the client blocked before the server received the message).
struct kx_seg {
    int th;
    uint64_t t0, t1;
    int waiting;
};

void kx_msgs_init(struct kx_msgs *q);
// The same on records already zero.
void kx_msgs_setup(struct kx_msgs *q);
// Apply a COMM event (e->cls == KEV_C_COMM; the model gives the current thread). Returns the
// step and sets *msg to the record concerned (valid until the next call), or KX_MSG_NONE.
enum kx_msg_step kx_msgs_event(struct kx_msgs *q, struct kx_model *m, const struct kev_event *e,
                               const struct kx_msg **msg);
// After a KX_MSG_REPLY of a request that nests no deeper than its client (a root): its
// critical path into seg[0..max), returned count; *depth gets the number of threads chained.
unsigned kx_msgs_path(const struct kx_msgs *q, const struct kx_msg *root, struct kx_seg *seg,
                      unsigned max, unsigned *depth);
// Free a completed root and what it nests (call after kx_msgs_path).
// A TIMER event on `cpu` (timer id, owner pid): the pulse the CPU sends next, in the interrupt,
// is that timer's, charged to pid.
void kx_msgs_timer(struct kx_msgs *q, unsigned cpu, uint32_t id, uint32_t pid);
// The interrupt lines whose pulses are timers' (the kernel's tick and a CPU's share of it:
// uapi/ktrace.h KIRQ_TICK, KIRQ_CPUTICK); irq as kx_msg.irq holds it (irq + 1).
static inline int kx_msg_tick_irq(unsigned irq1)
{
    return irq1 == 0x101u || irq1 == 0x102u;
}
// The kernel says the timer pulse `cpu` just sent (in its interrupt) was dropped: it is marked
// lost, if the bound rule did not already; from then on timer pulses are marked so alone.
void kx_msgs_pulse_lost(struct kx_msgs *q, unsigned cpu);
// Thread th blocked in a receive at t (or, `marked` set, the trace ended there): the pulses
// still pending on the channel it last received a pulse on, sent before t (with `marked`, only
// those marked lost at their send), were never received. Frees and counts them; their number.
unsigned kx_msgs_purge(struct kx_msgs *q, int th, uint64_t t, int marked);
void kx_msgs_release(struct kx_msgs *q, const struct kx_msg *root);

#endif
