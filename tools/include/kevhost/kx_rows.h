// SPDX-License-Identifier: MIT
// The records the analysis model computes as it goes (kx_stats.c), one per thing that
// happened: a thread's state interval, a kernel call, an interrupt with the thread that
// handled it, a message, a wait on an object. kx_stats sums them into kevstat's figures at
// the place it makes them; a tool that wants the records themselves (kevreport's timeline,
// kevstat's list of waits, kevsql's tables) gives a sink and gets each one once, at the
// moment it is complete (an interval when it ends, an interrupt when its thread has run, the
// ones still open when kx_stats_finish closes them at the end of the trace). So a total
// printed by kevstat and the sum of the rows a query adds up are the same numbers.
// Times are in cycles since boot; thread numbers are the model's indices (kx.h).
#ifndef TOOLS_KX_ROWS_H
#define TOOLS_KX_ROWS_H

#include <stdint.h>

// A thread's state from t0 to t1. Ids number the intervals in the order they began (1, 2...).
struct kx_state_row {
    uint64_t id;
    uint64_t t0, t1;
    int th;
    unsigned state;      // KEV_TH_*
    unsigned end_state;  // the state it went into at t1; KX_STATE_UNKNOWN: still in it at the end
    int cpu;             // RUNNING: the CPU; else -1
    int prio;            // the priority it had (RUNNING: ran at), -1 unknown
    // READY of a thread that was blocked (woken; a READY after RUNNING is a preemption): who
    // made it ready (waker: the thread running where the READY was written, -1 none; waker_id:
    // that thread's interval then; irq: irq + 1 when an interrupt was in progress there)
    int woken;
    int waker;
    uint64_t waker_id;
    unsigned irq;
    // blocked: the kernel call it blocked in (call + 1, 0 none) and, for a wait on a mutex,
    // semaphore or condition variable, the wait record (kx_wait.h: object, owner)
    unsigned kcall;
    uint64_t wait;       // kw_wait serial, 0 none
    int obj, owner;      // kw obj index, owner thread; -1 none or unknown
    uint64_t exec;       // RUNNING: of t1 - t0, what its CPU executed (kx_stats.h: the CPUs
                         // run in turn, the rest other CPUs'; else all of it); else 0
};

// A kernel call: entry to exit on one thread. A call whose entry came before the capture has
// t0 0 (ts is then its exit); one still in progress at the end, or whose exit was lost (the
// thread entered another), has no exit.
struct kx_kcall_row {
    uint64_t id;
    uint64_t t0, t1;     // 0: not seen
    int th;
    unsigned cpu;        // of the entry (of the exit when no entry)
    unsigned call;
    uint32_t arg[4];     // the entry's first words (fast mode writes two)
    unsigned nargs;
    int exited, interrupted;
    int32_t ret;         // the exit's result (-1 on failure) ...
    uint32_t err;        // ... and errno (0 on success)
};

// An interrupt, entry to exit on one CPU, and the thread that handled it: the thread that
// received the pulse it sent, from the moment that thread had it while running (a receive in
// its own context, or its first run after a receive written while it was blocked), or else the
// first thread it made ready, from that thread's next run. An interrupt that comes while its
// thread is busy or blocked elsewhere is handled when the thread gets to its pulse, so its
// latency includes that wait.
enum kx_irq_how { KX_IRQ_NONE, KX_IRQ_PULSE, KX_IRQ_WAKE };
struct kx_irq_row {
    uint64_t id;
    unsigned irq, cpu;
    uint64_t t0, t1;     // entry, exit (t1 0: no exit seen)
    uint64_t h0, h1;     // handler entry, exit (0: none)
    int th;              // the thread that handled it, -1 none
    uint64_t t_th;       // when it handled it; 0: not by the end of the trace
    enum kx_irq_how how;
    uint64_t msg;        // the pulse's message id (kx_msg.h), 0 none
};

// A function call from its entry to its return (kx_funcs.h): an fbt or pid probe's firings,
// FUNC_ENTER and FUNC_EXIT; t1 0: no return recorded (the rest then 0 too). depth: the calls still open below it on the
// CPU's stack when it began (0: outermost).
struct kx_func_row {
    uint64_t id;         // calls numbered in the order they were entered (1, 2...)
    uint64_t parent;     // the call it was made in (the one below on the stack), 0 none
    uint64_t t0, t1;
    int th;              // the thread running at its entry, -1 none known
    unsigned cpu;
    uint64_t fn;         // the function's address as the events hold it (Thumb: bit 0 set)
    uint64_t call_site;  // the return address into its caller
    uint64_t ret_off;    // the returning instruction's offset in the function
    uint64_t value;      // the return value (the event's words; 0 for a function without one)
    unsigned depth;      // on its stack: its CPU's (a kernel function) or its thread's
    int user;            // a program's function (pid), else the kernel's (fbt)
};

// A slice of the model's records, by kind and record id (kx_kcall_row.id, kx_irq_row.id): what
// a flow joins. KX_SLICE_NONE: none was open.
enum kx_slice_kind { KX_SLICE_NONE, KX_SLICE_KCALL, KX_SLICE_IRQ };
struct kx_slice_ref {
    enum kx_slice_kind kind;
    uint64_t id;
};

// A flow from one slice to another, each open at the flow's moment on its side (kev2perfetto's
// flow ids join a message's points the same way): a message or pulse from the sender's slice at
// the send (its kernel call, or the interrupt it was sent in) to the receiver's kernel call at
// the receive (KX_FLOW_SEND, at the receive); a message from that receive to the client's
// kernel call at the reply (KX_FLOW_REPLY, at the reply); a wakeup from the waker's slice (its
// kernel call, or the interrupt) to the kernel call the woken thread blocked in (KX_FLOW_WAKE,
// at the READY). Given only when both slices are known.
enum kx_flow_kind { KX_FLOW_SEND, KX_FLOW_REPLY, KX_FLOW_WAKE };
struct kx_flow_row {
    uint64_t id;         // flows numbered in the order they were given (1, 2...)
    uint64_t t;
    enum kx_flow_kind kind;
    struct kx_slice_ref out, in;
    uint64_t msg;        // the message's id (kx_msg.h), 0 for a wakeup
};

// What a tool gives to get the rows; any member may be NULL.
struct kx_msg;
struct kw_wait;
struct kx_inst;
struct kx_chain_row;
struct kx_sink {
    void *user;
    void (*state)(void *user, const struct kx_state_row *r);
    void (*kcall)(void *user, const struct kx_kcall_row *r);
    void (*irq)(void *user, const struct kx_irq_row *r);
    // a message replied to, or a pulse received (still valid during the call)
    void (*msg)(void *user, const struct kx_msg *g);
    // a wait that ended, or one still open at the end (w->t1 0), with its record
    void (*wait)(void *user, const struct kw_wait *w);
    // CPU cpu ran a thread other than idle (what 1), its idle thread (2) or no thread known
    // (0) from t0 to t1: the periods busy_t, idle_t and none_t add up
    void (*cpu)(void *user, unsigned cpu, uint64_t t0, uint64_t t1, int th, unsigned what);
    // a function call timed entry to return
    void (*func)(void *user, const struct kx_func_row *r);
    // a flow between two slices (messages: unless KX_SKIP_MSG)
    void (*flow)(void *user, const struct kx_flow_row *r);
    // a task instance, judged (kx_task.h): every one at the end of the trace, in release order
    void (*inst)(void *user, const struct kx_inst *i);
    // a stretch of a wait with one chain (kx_chain.h), when it ends; those of the waits still
    // open at the end of the trace, there
    void (*chain)(void *user, const struct kx_chain_row *r);
};

#endif
