// SPDX-License-Identifier: MIT
// What only D needs of a capture beside the analysis model (kevhost/kx.h), which every reader
// shares and which keeps the threads (their states, priorities, CPUs), the processes (their
// parents, their threads' count) and what each CPU runs: the context dtrace -i's probes fire
// with and the values the board's probes read that no event carries. Per thread of the model
// (by its index): its vtimestamp clock, the change of state that fires now, the kernel call it is in with its entry's arguments,
// its lockstat wait, whether it has run yet, the state its change left while that change
// fires; per CPU: whose vtimestamp clock runs there, whether its next choice fires no off-cpu,
// the STEAL and FAULT awaiting the event they pair with, whose state event it recorded last;
// per message: its connection and size. Plain tables, reset with the replay.
#ifndef DTRACE_KEVREPLAY_CTX_H
#define DTRACE_KEVREPLAY_CTX_H

#include <d/dvm.h>
#include <kevhost/kx.h>
#include <stdint.h>

/* A thread of the model as D's probes need it beyond the model. kc: the kernel call it is in
 * (its entry event seen and no exit yet), with the arguments the entry carried (kc_nw: 2 fast,
 * 6 wide). */
struct rctx_thread {
    uint32_t obj, owner;        /* a SYNC_* call's object and the owner it waits for */
    uint8_t unstarted;          /* created while the replay fired: its first run is to come */
    uint8_t kc_open, kc_nw;
    uint16_t kc;
    uint32_t kc_a[6];
    uint8_t changing;           /* its state change fires now (outside the snapshot): D reads */
    uint8_t entering, left;     /* the state it enters (the kernel sets it before the change's
                                 * site fires) and the one it left (a wakeup's: the one it
                                 * slept in), as the kernel's traced_state */
    uint64_t blocked_at;        /* cycles; 0: not blocked on a SYNC_* object in this call */
    uint64_t vt, vt_since;      /* vtimestamp's clock, as kernel/kdtrace.c keeps it: cycles on
                                 * a CPU since the capture began, and since when it runs (0:
                                 * it does not) */
};

/* A client's message as its MsgSend's entry told it, keyed by its receive id (which names the
 * client thread: every message of one thread has the same): the connection and the size the
 * board's msg probes give as arg0 and arg2 (kernel/ktrace.c kdt_msg). */
struct rctx_msg {
    uint32_t rcvid, coid, bytes;
    uint8_t used, coid_known, bytes_known;
};
#define RCTX_MSGS 1024u

/* A CPU's pending pairings and clocks (model thread indexes; KX_NO_THREAD: none). */
struct rctx_cpu {
    int vt_running;             /* whose vtimestamp clock runs there */
    int last_state;             /* whose state event it recorded last (SYNC_WAIT's) */
    uint8_t fresh;              /* its next choice fires no off-cpu: at a span's go, every
                                 * CPU but the consumer's (kernel/ktrace.c) */
    struct { int on; uint32_t who, from; } steal;   /* a STEAL awaiting its RUNNING */
    struct { int on; uint32_t who, sig; } fault;    /* a FAULT awaiting its STACK */
};

struct rctx {
    struct rctx_thread th[KX_MAX_THREADS];
    struct rctx_cpu cpu[DVM_MAXCPU];
    struct rctx_msg msg[RCTX_MSGS];
};

/* rctx_reset: nothing known (every CPU's threads none). */
void rctx_reset(struct rctx *c);
/* rctx_thread: model thread idx's entry; a scratch one, zero, for KX_NO_THREAD (a full model:
 * nothing remembered). */
struct rctx_thread *rctx_thread(struct rctx *c, int idx);
/* rctx_msg: the message of receive id rcvid, added when new (a full table: a scratch one,
 * nothing known). */
struct rctx_msg *rctx_msg(struct rctx *c, uint32_t rcvid);

#endif
