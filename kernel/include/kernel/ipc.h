// SPDX-License-Identifier: MIT
// QNX-style message passing: channels (owned by a process), connections (a process's handle
// on a channel), synchronous send/receive/reply with the server inheriting the client's
// priority on receive, MsgError, and asynchronous pulses queued by priority.
#ifndef KERNEL_IPC_H
#define KERNEL_IPC_H

#include <kernel/thread.h>
#include <kernel/klock.h>
#include <uapi/kapi.h>

struct channel {
    bool in_use;
    int32_t chid;
    struct proc *owner;
    struct list send_q;     // SEND-blocked clients, by priority
    struct list recv_q;     // RECEIVE-blocked server threads, by priority
    struct list pulses;     // queued pulses, by priority
    int32_t npulses;        // of them, those charged to a process (KMAX_PULSES_PER_CHAN)
    struct kspin lock;      // the queues in shared mode (kernel/klock.h, rank CHAN)
} KCPU_LINE_ALIGNED;    // (its lock and queues: two CPUs' channels share no line)

struct connection {
    bool in_use;
    int32_t coid;
    struct proc *owner;
    struct channel *chan;
};

// A queued pulse: from the pool, charged to the process that sent it (or owns the timer), or
// an interrupt line's own (irq.c), charged to nobody.
struct pulse {
    struct list link;
    bool in_use;
    struct kpulse p;
    struct channel *chan;
    struct proc *sender;    // charged process (its npulses), or NULL
    bool charged;           // counted in chan->npulses (sent by a process, or its timer)
};

extern struct channel k_channels[KMAX_CHANNELS];

void ipc_init(void);
int ipc_channel_create(struct proc *p, uint32_t flags);
int ipc_channel_destroy(struct proc *p, int chid);
// The channel chid if p owns it, else NULL.
struct channel *ipc_channel_of(const struct proc *p, int chid);
int ipc_connect_attach(struct proc *p, int pid, int chid);
int ipc_connect_detach(struct proc *p, int coid);
bool ipc_conn_ok(const struct proc *p, int coid);
int ipc_send(struct thread *t, int coid, uint32_t smsg, uint32_t sbytes, uint32_t rmsg,
             uint32_t rbytes);
int ipc_receive(struct thread *t, int chid, uint32_t msg, uint32_t bytes, uint32_t info);
int ipc_reply(struct thread *t, int rcvid, int32_t status, uint32_t msg, uint32_t bytes);
int ipc_error(struct thread *t, int rcvid, int32_t err);
// The same calls for a traced kernel entry (kcall_dispatch_traced): they also record the
// message and state events; the calls above have no trace code (ipc.c).
int ipc_send_traced(struct thread *t, int coid, uint32_t smsg, uint32_t sbytes, uint32_t rmsg,
                    uint32_t rbytes);
int ipc_receive_traced(struct thread *t, int chid, uint32_t msg, uint32_t bytes, uint32_t info);
int ipc_reply_traced(struct thread *t, int rcvid, int32_t status, uint32_t msg, uint32_t bytes);
int ipc_error_traced(struct thread *t, int rcvid, int32_t err);
// Several CPUs, shared mode (kernel/klock.h): the same calls under the channel's lock, returning
// KSHARED_RETRY, having changed nothing, when only the exclusive side can do it; they return
// holding the run-queue lock when they made a thread ready or blocked the caller.
int ipc_send_shared(struct thread *t, int coid, uint32_t smsg, uint32_t sbytes, uint32_t rmsg,
                    uint32_t rbytes, bool traced);
int ipc_receive_shared(struct thread *t, int chid, uint32_t msg, uint32_t bytes, uint32_t info,
                       bool traced);
int ipc_reply_shared(struct thread *t, int rcvid, int32_t status, uint32_t msg, uint32_t bytes,
                     bool traced);
int ipc_error_shared(struct thread *t, int rcvid, int32_t err, bool traced);
int ipc_send_pulse_shared(struct proc *from, int coid, int prio, int32_t code, int32_t value);
// MsgSendPulse (its priority capped at the sender's ceiling).
int ipc_send_pulse(struct proc *from, int coid, int prio, int32_t code, int32_t value);
// Pulse from the kernel itself (interrupts, timers): to a connection owned by `p`.
int ipc_kernel_pulse(struct proc *p, int coid, int prio, int32_t code, int32_t value);
// An interrupt's pulse, in the line's own storage `res` so that it cannot be lost to a pool
// others have filled. While `res` is still queued a second one comes from the pool (charged to
// nobody) or, with none free, fails with -EAGAIN.
int ipc_irq_pulse(struct proc *p, int coid, int prio, int32_t code, int32_t value,
                  struct pulse *res);
// Several CPUs: the same on the shared side (kernel/klock.h; irq.c irq_dispatch_shared): whether it may go
// there (the connection and its channel there, `res` free: then it cannot fail), asked before
// the interrupt is acknowledged; then the pulse, under the channel's lock, its receiver made
// ready under the run-queue lock, which stays held until the entry's choice.
bool ipc_irq_pulse_shared_ok(const struct proc *p, int coid, const struct pulse *res);
int ipc_irq_pulse_shared(struct proc *p, int coid, int prio, int32_t code, int32_t value,
                         struct pulse *res);
// Takes an interrupt line's pulse off its channel (the line is detached).
void ipc_pulse_cancel(struct pulse *res);
// Cleanup when a thread dies in an IPC state, and when its process goes away.
void ipc_thread_gone(struct thread *t);
void ipc_proc_gone(struct proc *p);
// NameCtl (uapi/kapi.h, KNAMECTL_*): the channels' names (kname.c); a channel's name goes
// with it (channel_teardown calls kname_channel_gone).
int kname_ctl(struct thread *t, uint32_t cmd, uint32_t arg, uint32_t uname);
void kname_channel_gone(const struct channel *ch);

#endif
