// SPDX-License-Identifier: MIT
// Channels, connections, send/receive/reply and pulses.
// States: a client is SEND-blocked on chan->send_q until a server receives it, then
// REPLY-blocked (on no queue; t->server and t->chan say where) until MsgReply/MsgError.
// A server with nothing to do is RECEIVE-blocked on chan->recv_q.
// Priority inheritance on receive: a server thread runs at the priority of the message (or
// pulse) it received until it replies; a higher-priority client that finds every server busy
// does not boost them (see docs/ARCHITECTURE.md).
// rcvid = (client gen << 8) | (client pool index + 1): stale rcvids are caught by the gen.
// Locking (kernel/klock.h): everything here runs under the big lock's exclusive side, except
// the _shared copies of send, receive, reply, error and MsgSendPulse (the fast path,
// kentry_shared.h), which take the channel's lock, then the pulse pool's (to queue or free a
// pulse), then the run-queue lock (a timeout armed or cancelled takes the timer list's last,
// inside ktimer.c), and return KSHARED_RETRY, having changed nothing, when they find something
// only the exclusive path handles (a client gone, a failure to return). The run-queue lock is
// sched.c's to take, where a thread is made ready (kept until the entry's choice); a thread
// that blocks here needs none: it stays this CPU's until that choice (sched.c, R3), so a
// receive that blocks takes it only for the choice (docs/smp.md, "Run queues").
#include <kernel/ipc.h>
#include <kernel/kview.h>
#include <kernel/smp.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/ktrace_kcall.h>

struct channel k_channels[KMAX_CHANNELS];
static struct connection connections[KMAX_CONNECTIONS];
static struct pulse pulses[KMAX_PULSES];
// The pool's slots (in_use, sender, charged) and every process's npulses in shared mode (rank
// PULSE, under the channel's lock; klock.h). A slot's link and payload are its channel's.
static struct kspin pulse_pool_lock;

#define CHID_BASE 1
#define COID_BASE 1

void ipc_init(void)
{
    kmemset(k_channels, 0, sizeof(k_channels));
    kmemset(connections, 0, sizeof(connections));
    kmemset(pulses, 0, sizeof(pulses));
}

// Frees a queued pulse (already off its channel's list) and uncharges its sender and channel.
static void pulse_free(struct pulse *pl)
{
    if (pl->sender)
        pl->sender->npulses--;
    if (pl->charged)
        pl->chan->npulses--;
    pl->sender = NULL;
    pl->charged = false;
    pl->in_use = false;
}

static struct channel *chan_lookup(int chid)
{
    int i = chid - CHID_BASE;
    if (i < 0 || i >= KMAX_CHANNELS || !k_channels[i].in_use)
        return NULL;
    return &k_channels[i];
}

static struct connection *conn_lookup(const struct proc *p, int coid)
{
    return proc_pool_owned(connections, KMAX_CONNECTIONS, coid, COID_BASE, owner, p);
}

int ipc_channel_create(struct proc *p, uint32_t flags)
{
    if (flags != 0)
        return -EINVAL;
    struct channel *ch = proc_pool_take(p, k_channels, KMAX_CHANNELS, owner, KLIM_CHANNELS);
    if (!ch)
        return -EAGAIN;
    ch->chid = (int)(ch - k_channels) + CHID_BASE;
    list_init(&ch->send_q);
    list_init(&ch->recv_q);
    list_init(&ch->pulses);
    return ch->chid;
}

// Fails every thread waiting on the channel, drops its pulses and cuts its connections.
static void channel_teardown(struct channel *ch)
{
    struct list *n;

    while ((n = ch->send_q.next) != &ch->send_q)
        thread_unblock(list_entry(n, struct thread, qlink), -ESRCH);
    while ((n = ch->recv_q.next) != &ch->recv_q)
        thread_unblock(list_entry(n, struct thread, qlink), -ESRCH);
    for (int i = 0; i < KMAX_THREADS; i++) {
        struct thread *t = &k_threads[i];
        if (t->in_use && t->state == THS_REPLY && t->chan == ch)
            thread_unblock(t, -ESRCH);
    }
    while ((n = list_pop_front(&ch->pulses)) != NULL)
        pulse_free(list_entry(n, struct pulse, link));
    for (int i = 0; i < KMAX_CONNECTIONS; i++)
        if (connections[i].in_use && connections[i].chan == ch)
            connections[i].chan = NULL;
    kname_channel_gone(ch); // its name goes with it: name_open now fails with ENOENT
    ch->in_use = false;
}

int ipc_channel_destroy(struct proc *p, int chid)
{
    struct channel *ch = chan_lookup(chid);
    if (!ch || ch->owner != p)
        return -ESRCH;
    channel_teardown(ch);
    return 0;
}

struct channel *ipc_channel_of(const struct proc *p, int chid)
{
    struct channel *ch = chan_lookup(chid);
    return ch && ch->owner == p ? ch : NULL;
}

int ipc_connect_attach(struct proc *p, int pid, int chid)
{
    struct proc *target = pid == 0 ? p : proc_by_pid(pid);
    struct channel *ch = chan_lookup(chid);

    if (!target || target->state != PROC_ALIVE)
        return -ESRCH;
    if (!ch || ch->owner != target)
        return -ESRCH;
    struct connection *c = proc_pool_take(p, connections, KMAX_CONNECTIONS, owner,
                                          KLIM_CONNECTIONS);
    if (!c)
        return -EAGAIN;
    c->coid = (int)(c - connections) + COID_BASE;
    c->chan = ch;
    return c->coid;
}

bool ipc_conn_ok(const struct proc *p, int coid)
{
    return conn_lookup(p, coid) != NULL;
}

int ipc_connect_detach(struct proc *p, int coid)
{
    struct connection *c = conn_lookup(p, coid);
    if (!c)
        return -EBADF;
    c->in_use = false;
    return 0;
}

static int rcvid_of(const struct thread *client)
{
    return ((int)client->gen << 8) | (client->index + 1);
}

// The client a receive id names, for an id rcvid_of has just made (its inverse, unchecked).
static inline struct thread *rcvid_sender(int rcvid)
{
    return &k_threads[(rcvid & 0xff) - 1];
}

// (c->chan is read once: in shared mode another CPU's reply may clear it meanwhile; the
// shared reply checks again under the channel's lock.)
static struct thread *rcvid_client(const struct proc *server_proc, int rcvid)
{
    int idx = (rcvid & 0xff) - 1;
    if (rcvid <= 0 || idx < 0 || idx >= KMAX_THREADS)
        return NULL;
    struct thread *c = &k_threads[idx];
    // (several CPUs: once, from memory, as another CPU's answer may clear it meanwhile)
    struct channel *ch = KSMP ? *(struct channel *volatile *)&c->chan : c->chan;
    if (!c->in_use || c->gen != (uint16_t)(rcvid >> 8) || c->state != THS_REPLY || !ch ||
        ch->owner != server_proc)
        return NULL;
    return c;
}

static inline void chan_lock(struct channel *ch, const bool shared)
{
    if (shared)
        kspin_lock(&ch->lock, KLOCK_RANK_CHAN);
    else    // (KLOCK_CHECK images: that this is an exclusive entry)
        klock_check_exclusive("a channel's queues touched without its lock");
}

static inline void chan_unlock(struct channel *ch, const bool shared)
{
    if (shared)
        kspin_unlock(&ch->lock, KLOCK_RANK_CHAN);
}

static inline void pool_lock(const bool shared)
{
    if (shared)
        kspin_lock(&pulse_pool_lock, KLOCK_RANK_PULSE);
}

static inline void pool_unlock(const bool shared)
{
    if (shared)
        kspin_unlock(&pulse_pool_lock, KLOCK_RANK_PULSE);
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

static void write_info(struct thread *srv, const struct kmsg_info *info)
{
    if (srv->info_buf)
        kmemcpy((void *)(uintptr_t)srv->info_buf, info, sizeof(*info));
}

// Trace payload word naming a thread: pid << 16 | tid (kept in the thread: one load).
static uint32_t who(const struct thread *t)
{
    return ktrace_who(t);
}

// Trace payload word that links a pulse's send and receive: its channel and code (low 16
// bits), the same in both events, so a reader can pair them even when several pulse streams
// share a code.
// A sender's queued pulses count against its quota domain (proc.h proc_may_take).
static bool pulse_may_take(const struct proc *sender)
{
    int held = 0, used = 0;
    for (int i = 0; i < KMAX_PULSES; i++) {
        used += pulses[i].in_use;
        held += pulses[i].in_use && pulses[i].charged && proc_same_quota(pulses[i].sender, sender);
    }
    return proc_may_take(sender, held, used, KMAX_PULSES, KMAX_PULSES_PER_PROC);
}

static uint32_t pulse_key(const struct channel *ch, int32_t code)
{
    return (uint32_t)ch->chid << 16 | ((uint32_t)code & 0xffffu);
}

// The message calls below come in two copies, like the kernel entry (main.c): ipc_send,
// ipc_receive, ipc_reply and ipc_error for an untraced entry, with no trace code at all
// (nothing can be recorded there: ktrace_kernel_on is clear, so every class is off), and
// their _traced twins for a traced entry, which record each event inline when its class is
// on the inline path (ktrace_kcall.h) and through the general hooks otherwise. `traced` is
// a constant in each copy.

// A send, and its receipt when a server takes it at once, each through its event's helper
// (ktrace_kcall.h), with one test of the inline path for both; the general path out of line.
static __attribute__((noinline)) void trace_send_general(const struct thread *client,
                                                         const struct thread *srv)
{
    uint32_t rcvid = (uint32_t)rcvid_of(client);
    ktrace_snd_message_ev(rcvid, (uint32_t)client->chan->owner->pid, client);
    if (srv)
        ktrace_rec_message_ev(rcvid, who(srv), client);
}

static inline __attribute__((always_inline)) void trace_send(const struct thread *client,
                                                             const struct thread *srv,
                                                             const bool traced)
{
    if (!traced)
        return;
    if (ktrace_comm_inline()) {
        uint32_t rcvid = (uint32_t)rcvid_of(client);
        kev_emit_snd_message(KEV_INLINE, rcvid, (uint32_t)client->chan->owner->pid, 0, 0);
        if (srv)
            kev_emit_rec_message(KEV_INLINE, rcvid, who(srv), 0, 0);
    } else if (KTRACE_ON(KEV_C_COMM)) {
        trace_send_general(client, srv);
    }
}

// A state change made without the hook (the _quiet calls), recorded on the traced copy.
static inline void trace_state(struct thread *t, const bool traced)
{
    if (traced)
        ktrace_state_traced(t);
}

// A thread made ready (make_ready) or unblocked (unblock) by a copy: the traced copy's READY
// event is recorded before another CPU can run the thread (sched.c, TRACE ORDER), with several
// CPUs by the scheduler's traced calls; with one, here, after (nothing else runs meanwhile).
static inline void make_ready(struct thread *t, const bool traced)
{
    if (KSMP && traced) {
        sched_make_ready_traced(t, false);
        return;
    }
    sched_make_ready_quiet(t, false);
    trace_state(t, traced);
}

static inline void unblock(struct thread *t, int32_t ret, const bool traced)
{
    if (KSMP && traced) {
        thread_unblock_traced(t, ret);
        return;
    }
    thread_unblock_quiet(t, ret);
    trace_state(t, traced);
}

// A priority change: the traced copy's records PRIO_CHANGE (thread.c), the untraced one's not
// (a kernel without hooks has only the one).
static inline void update_prio(struct thread *t, const bool traced)
{
    if (traced || !KTRACE_HOOKS)
        thread_update_prio_msg(t);
    else
        thread_update_prio_quiet(t);
}

static inline __attribute__((always_inline)) int deliver_body(struct thread *srv,
                                                              struct thread *client,
                                                              const bool traced)
{
    uint32_t n = min_u32(client->msg_len, srv->msg_len);
    struct kmsg_info info = {
        .pid = client->proc->pid, .tid = client->tid, .chid = client->chan->chid,
        .coid = client->coid, .priority = client->prio, .srcmsglen = (int32_t)client->msg_len,
        .dstmsglen = (int32_t)client->reply_len, .msglen = (int32_t)n,
    };

    kmemcpy((void *)(uintptr_t)srv->msg_buf, (const void *)(uintptr_t)client->msg_buf, n);
    write_info(srv, &info);
    client->server = srv;
    srv->ipc_prio = client->prio;
    update_prio(srv, traced);
    return rcvid_of(client);
}

static int deliver_message(struct thread *srv, struct thread *client)
{
    return deliver_body(srv, client, false);
}

static int deliver_message_traced(struct thread *srv, struct thread *client)
{
    return deliver_body(srv, client, KTRACE_HOOKS);
}

// Hands a pulse to server thread srv (RECEIVE-blocked, or running its MsgReceive now); returns
// its MsgReceive's result. A receive buffer smaller than a pulse cannot hold one: the pulse is
// taken all the same (its event says so) and the receive fails with EFAULT, as QNX's kernel
// does (a message into such a buffer is cut to it, which QNX allows).
static int deliver_pulse(struct thread *srv, const struct kpulse *kp, struct channel *ch)
{
    struct kmsg_info info = { .chid = ch->chid, .priority = kp->priority,
                              .msglen = (int32_t)sizeof(*kp) };
    bool fits = srv->msg_len >= sizeof(*kp);
    if (fits)
        kmemcpy((void *)(uintptr_t)srv->msg_buf, kp, sizeof(*kp));
    write_info(srv, &info);
    ktrace_comm(KEV_COMM_REC_PULSE, pulse_key(ch, kp->code), who(srv));
    srv->ipc_prio = (uint8_t)kp->priority;
    thread_update_prio_msg(srv);
    return fits ? 0 : -EFAULT;
}

// Takes the first RECEIVE-blocked server of a channel off its queue (it stays blocked).
static struct thread *take_receiver(struct channel *ch)
{
    if (list_empty(&ch->recv_q))
        return NULL;
    struct thread *srv = list_entry(ch->recv_q.next, struct thread, qlink);
    list_unlink(&srv->qlink);
    srv->waitq = NULL;
    ktimer_stop(&srv->timeout);
    return srv;
}

static inline __attribute__((always_inline)) int send(struct thread *t, int coid,
                                                      uint32_t smsg, uint32_t sbytes,
                                                      uint32_t rmsg, uint32_t rbytes,
                                                      const bool traced, const bool shared)
{
    struct connection *c = conn_lookup(t->proc, coid);
    if (!c)
        return -EBADF;
    if (!c->chan)
        return -ESRCH;
    if ((sbytes && !proc_can_read(t->proc, smsg, sbytes)) ||
        (rbytes && !proc_can_write(t->proc, rmsg, rbytes)))
        return -EFAULT;

    struct channel *ch = c->chan;
    chan_lock(ch, shared);
    t->chan = ch;
    t->coid = coid;
    t->msg_buf = smsg;
    t->msg_len = sbytes;
    t->reply_buf = rmsg;
    t->reply_len = rbytes;

    struct thread *srv = take_receiver(ch);
    trace_send(t, srv, traced);
    if (srv) {
        int rcvid = traced ? deliver_message_traced(srv, t) : deliver_message(srv, t);
        thread_set_result(srv, rcvid);
        make_ready(srv, traced);        // (shared: takes this CPU's run-queue lock)
        thread_block_quiet(t, THS_REPLY, NULL);
    } else {
        thread_block_quiet(t, THS_SEND, &ch->send_q);   // (still this CPU's: sched.c R3)
    }
    trace_state(t, traced);
    chan_unlock(ch, shared);
    return 0;   // the real result comes with MsgReply / MsgError
}

// A server gives back the priority it inherited with a message when it replies, or with a
// pulse when it next receives.
static inline __attribute__((always_inline)) void drop_inherited(struct thread *t,
                                                                const bool traced)
{
    if (t->ipc_prio) {
        t->ipc_prio = 0;
        update_prio(t, traced);
    }
}

static inline __attribute__((always_inline)) int receive(struct thread *t, int chid,
                                                         uint32_t msg, uint32_t bytes,
                                                         uint32_t info, const bool traced,
                                                         const bool shared)
{
    struct channel *ch = chan_lookup(chid);
    if (!ch || ch->owner != t->proc)
        return -ESRCH;
    if (!proc_can_write(t->proc, msg, bytes) ||
        (info && !proc_can_write(t->proc, info, sizeof(struct kmsg_info))))
        return -EFAULT;

    chan_lock(ch, shared);
    drop_inherited(t, traced);
    t->msg_buf = msg;
    t->msg_len = bytes;
    t->info_buf = info;
    struct list *n = list_pop_front(&ch->pulses);
    if (n) {
        struct pulse *pl = list_entry(n, struct pulse, link);
        int r = deliver_pulse(t, &pl->p, ch);
        pool_lock(shared);          // its slot and its sender's count (rank PULSE)
        pulse_free(pl);
        pool_unlock(shared);
        chan_unlock(ch, shared);
        return r;
    }
    if (!list_empty(&ch->send_q)) {
        struct thread *client = list_entry(ch->send_q.next, struct thread, qlink);
        list_unlink(&client->qlink);
        client->waitq = NULL;
        int rcvid = traced ? deliver_message_traced(t, client)
                           : deliver_message(t, client);
        client->state = THS_REPLY;
        trace_state(client, traced);
        // (the client, named through its id so that the traced copy need not keep it in a
        // register across the state event: that cost the Cortex-M3's round trip an
        // instruction)
        if (traced)
            ktrace_rec_message_traced((uint32_t)rcvid, who(t), rcvid_sender(rcvid));
        chan_unlock(ch, shared);
        return rcvid;
    }
    t->chan = ch;
    thread_block_quiet(t, THS_RECEIVE, &ch->recv_q);    // (still this CPU's: sched.c R3)
    trace_state(t, traced);
    chan_unlock(ch, shared);
    return 0;
}

// A reply to a client that is gone (killed, timed out) fails with ESRCH; the priority the
// server inherited from it goes with it, as it would with a successful reply.
// The shared side's hold on a reply's or an error's client (rcvid_client's answer): its
// channel's lock, the client checked again under it (another thread of this server may have
// answered it meanwhile).
// NULL, nothing held, when the client is no longer there: the exclusive side answers then.
static inline __attribute__((always_inline)) struct channel *
answer_chan_lock(struct thread *client)
{
    struct channel *ch = *(struct channel *volatile *)&client->chan;
    if (!ch)
        return NULL;
    chan_lock(ch, true);
    // Of what rcvid_client found, only the client's state and channel can have changed since
    // (another CPU's reply or error, under this lock); its slot's use and generation and the
    // channel's owner change on the exclusive side alone (klock.h), which cannot run now.
    if (client->state != THS_REPLY || client->chan != ch) {
        chan_unlock(ch, true);
        return NULL;
    }
    return ch;
}

static inline __attribute__((always_inline)) int reply(struct thread *t, int rcvid,
                                                       int32_t status, uint32_t msg,
                                                       uint32_t bytes, const bool traced,
                                                       const bool shared)
{
    struct thread *client = rcvid_client(t->proc, rcvid);
    struct channel *ch = NULL;
    if (KSMP && shared) {
        // Failures go to the exclusive side, which returns them.
        if (!client || status < 0 || (bytes && !proc_can_read(t->proc, msg, bytes)))
            return KSHARED_RETRY;
        ch = answer_chan_lock(client);
        if (!ch)
            return KSHARED_RETRY;
    }
    if (!client) {
        drop_inherited(t, traced);
        return -ESRCH;
    }
    if (status < 0)
        return -EINVAL;
    if (bytes && !proc_can_read(t->proc, msg, bytes))
        return -EFAULT;
    uint32_t n = min_u32(bytes, client->reply_len);
    kmemcpy((void *)(uintptr_t)client->reply_buf, (const void *)(uintptr_t)msg, n);
    // The event before the client is made ready, as QNX's MsgReply and our MsgError record
    // theirs: msg:::reply reads the client's connection, which the client, once it can run
    // again (at once on another CPU), may change with its next send.
    if (traced)
        ktrace_reply_message_traced((uint32_t)rcvid, (uint32_t)status, client);
    drop_inherited(t, traced);  // before the run queue: the priority lock ranks below it
    unblock(client, status, traced);
    if (KSMP)
        chan_unlock(ch, shared);
    return 0;
}

// MsgError: the client's MsgSend fails with err. The shared side as reply()'s.
static inline __attribute__((always_inline)) int error(struct thread *t, int rcvid,
                                                       int32_t err, const bool traced,
                                                       const bool shared)
{
    struct thread *client = rcvid_client(t->proc, rcvid);
    struct channel *ch = NULL;
    if (KSMP && shared) {
        if (!client || err <= 0 || err > 4095)
            return KSHARED_RETRY;
        ch = answer_chan_lock(client);
        if (!ch)
            return KSHARED_RETRY;
    }
    if (!client) {
        drop_inherited(t, traced);
        return -ESRCH;
    }
    if (err <= 0 || err > 4095)
        return -EINVAL;
    if (traced)
        ktrace_msg_error_traced((uint32_t)rcvid, (uint32_t)err, client);
    drop_inherited(t, traced);  // before the run queue: the priority lock ranks below it
    unblock(client, -err, traced);
    if (KSMP)
        chan_unlock(ch, shared);
    return 0;
}

int ipc_send(struct thread *t, int coid, uint32_t smsg, uint32_t sbytes, uint32_t rmsg,
             uint32_t rbytes)
{
    return send(t, coid, smsg, sbytes, rmsg, rbytes, false, false);
}

int ipc_send_traced(struct thread *t, int coid, uint32_t smsg, uint32_t sbytes, uint32_t rmsg,
                    uint32_t rbytes)
{
    return send(t, coid, smsg, sbytes, rmsg, rbytes, KTRACE_HOOKS, false);
}

int ipc_receive(struct thread *t, int chid, uint32_t msg, uint32_t bytes, uint32_t info)
{
    return receive(t, chid, msg, bytes, info, false, false);
}

int ipc_receive_traced(struct thread *t, int chid, uint32_t msg, uint32_t bytes, uint32_t info)
{
    return receive(t, chid, msg, bytes, info, KTRACE_HOOKS, false);
}

int ipc_reply(struct thread *t, int rcvid, int32_t status, uint32_t msg, uint32_t bytes)
{
    return reply(t, rcvid, status, msg, bytes, false, false);
}

int ipc_reply_traced(struct thread *t, int rcvid, int32_t status, uint32_t msg, uint32_t bytes)
{
    return reply(t, rcvid, status, msg, bytes, KTRACE_HOOKS, false);
}

// The message fast path's copies (kernel/kentry_shared.h): shared mode, untraced and traced.
int ipc_send_shared(struct thread *t, int coid, uint32_t smsg, uint32_t sbytes, uint32_t rmsg,
                    uint32_t rbytes, bool traced)
{
    return traced ? send(t, coid, smsg, sbytes, rmsg, rbytes, KTRACE_HOOKS, true)
                  : send(t, coid, smsg, sbytes, rmsg, rbytes, false, true);
}

int ipc_receive_shared(struct thread *t, int chid, uint32_t msg, uint32_t bytes, uint32_t info,
                       bool traced)
{
    return traced ? receive(t, chid, msg, bytes, info, KTRACE_HOOKS, true)
                  : receive(t, chid, msg, bytes, info, false, true);
}

int ipc_reply_shared(struct thread *t, int rcvid, int32_t status, uint32_t msg, uint32_t bytes,
                     bool traced)
{
    return traced ? reply(t, rcvid, status, msg, bytes, KTRACE_HOOKS, true)
                  : reply(t, rcvid, status, msg, bytes, false, true);
}

int ipc_error_shared(struct thread *t, int rcvid, int32_t err, bool traced)
{
    return traced ? error(t, rcvid, err, KTRACE_HOOKS, true) : error(t, rcvid, err, false, true);
}

int ipc_error(struct thread *t, int rcvid, int32_t err)
{
    return error(t, rcvid, err, false, false);
}

int ipc_error_traced(struct thread *t, int rcvid, int32_t err)
{
    return error(t, rcvid, err, KTRACE_HOOKS, false);
}

// A free slot of the pulse pool, charged to `sender` (when not NULL) within its and the
// channel's bounds, or NULL: none free, or a bound reached. Under the channel's lock; the
// pool's lock around the choice and the charges, so that two CPUs cannot both take a
// process's last slot.
static struct pulse *pool_take(struct channel *ch, struct proc *sender, const bool shared)
{
    struct pulse *pl = NULL;
    pool_lock(shared);
    // (a channel's bound is for unprivileged senders: pulses of processes gone, charged to
    // nobody, must not keep a privileged one's off its own channel: docs/hostile.md, attack 20)
    if (!sender || (sender->npulses < KMAX_PULSES_PER_PROC && pulse_may_take(sender) &&
                    (ch->npulses < KMAX_PULSES_PER_CHAN || proc_privileged(sender))))
        for (int i = 0; i < KMAX_PULSES && !pl; i++)
            if (!pulses[i].in_use)
                pl = &pulses[i];
    if (pl) {
        pl->sender = sender;
        pl->charged = sender != NULL;
        if (sender) {
            sender->npulses++;
            ch->npulses++;
        }
        pl->in_use = true;
    }
    pool_unlock(shared);
    return pl;
}

// Queues a pulse on ch, or hands it to a waiting server at once. Storage: `res` when given
// and free, else the pool, charged to `sender` (when not NULL) within its and the channel's
// bounds.
// Shared mode (MsgSendPulse on the fast path): under the channel's lock, the pool's (pool_take)
// and the run-queue lock to wake a server: it takes them itself (the caller holds none), hence
// _locking.
static int queue_pulse_locking(struct channel *ch, int prio, int32_t code, int32_t value,
                               int scoid, struct proc *sender, struct pulse *res,
                               const bool shared)
{
    struct kpulse kp = { .code = code, .value = value, .priority = prio, .scoid = scoid };
    chan_lock(ch, shared);
    ktrace_comm(KEV_COMM_SND_PULSE, (uint32_t)scoid, pulse_key(ch, code));
    struct thread *srv = take_receiver(ch);

    if (srv) {
        thread_set_result(srv, deliver_pulse(srv, &kp, ch));
        sched_make_ready(srv, false);
        chan_unlock(ch, shared);
        return 0;
    }
    struct pulse *pl = res && !res->in_use ? res : pool_take(ch, sender, shared);
    if (!pl) {
        chan_unlock(ch, shared);
        return -EAGAIN;
    }
    pl->in_use = true;      // res: an interrupt's own (exclusive side); a pool slot is already
    struct list *pos;
    pl->p = kp;
    pl->chan = ch;
    list_for_each(pos, &ch->pulses)
        if (list_entry(pos, struct pulse, link)->p.priority < prio)
            break;
    list_insert_before(pos, &pl->link);
    chan_unlock(ch, shared);
    return 0;
}

static int queue_pulse(struct channel *ch, int prio, int32_t code, int32_t value, int scoid,
                       struct proc *sender, struct pulse *res)
{
    return queue_pulse_locking(ch, prio, code, value, scoid, sender, res, false);
}

static inline __attribute__((always_inline)) int send_pulse(struct proc *from, int coid,
                                                            int prio, int32_t code,
                                                            int32_t value, const bool shared)
{
    struct connection *c = conn_lookup(from, coid);
    if (!c)
        return -EBADF;
    if (!c->chan)
        return -ESRCH;
    if (prio > proc_prio_ceiling(from))     // a pulse's priority is capped at the ceiling
        prio = proc_prio_ceiling(from);
    if (prio < KPRIO_MIN || prio > KPRIO_MAX || code < KPULSE_CODE_MIN_USER)
        return -EINVAL;
    return queue_pulse_locking(c->chan, prio, code, value, coid, from, NULL, shared);
}

int ipc_send_pulse(struct proc *from, int coid, int prio, int32_t code, int32_t value)
{
    return send_pulse(from, coid, prio, code, value, false);
}

// MsgSendPulse on the fast path (kentry_shared.h): shared mode. Its events are the general
// hooks' (the same sites as the exclusive call's), so one copy serves traced and untraced.
int ipc_send_pulse_shared(struct proc *from, int coid, int prio, int32_t code, int32_t value)
{
    return send_pulse(from, coid, prio, code, value, true);
}

int ipc_kernel_pulse(struct proc *p, int coid, int prio, int32_t code, int32_t value)
{
    struct connection *c = conn_lookup(p, coid);
    if (!c)
        return -EBADF;
    if (!c->chan)
        return -ESRCH;
    return queue_pulse(c->chan, prio, code, value, 0, p, NULL);
}

int ipc_irq_pulse(struct proc *p, int coid, int prio, int32_t code, int32_t value,
                  struct pulse *res)
{
    struct connection *c = conn_lookup(p, coid);
    if (!c)
        return -EBADF;
    if (!c->chan)
        return -ESRCH;
    return queue_pulse(c->chan, prio, code, value, 0, NULL, res);
}

// A device interrupt's pulse on the shared side (irq.c irq_dispatch_shared): whether it can go
// there, looked at before the interrupt is acknowledged, and then the pulse. The connection and
// its channel are read only in shared mode (they change on the exclusive side alone); the
// line's own pulse `res` must be free, so that the pulse needs no slot of the pool and cannot
// be lost (it is in use only when the driver unmasked before receiving the last one: rare,
// and left to the exclusive side). `res` is read without its channel's lock: only the line's
// dispatch takes it, and a receive on another CPU that frees it meanwhile only sends this one
// exclusive.
bool ipc_irq_pulse_shared_ok(const struct proc *p, int coid, const struct pulse *res)
{
    const struct connection *c = conn_lookup(p, coid);
    return c && c->chan && !*(const volatile bool *)&res->in_use;
}

int ipc_irq_pulse_shared(struct proc *p, int coid, int prio, int32_t code, int32_t value,
                         struct pulse *res)
{
    return queue_pulse_locking(conn_lookup(p, coid)->chan, prio, code, value, 0, NULL, res,
                               true);
}

void ipc_pulse_cancel(struct pulse *res)
{
    if (res->in_use) {
        list_unlink(&res->link);
        pulse_free(res);
    }
}

void ipc_thread_gone(struct thread *t)
{
    t->chan = NULL;
    t->server = NULL;
}

void ipc_proc_gone(struct proc *p)
{
    for (int i = 0; i < KMAX_CHANNELS; i++)
        if (k_channels[i].in_use && k_channels[i].owner == p)
            channel_teardown(&k_channels[i]);
    for (int i = 0; i < KMAX_CONNECTIONS; i++)
        if (connections[i].in_use && connections[i].owner == p)
            connections[i].in_use = false;
    // Its pulses still queued on others' channels stay there, charged to no process now (p's
    // slot will be reused); the channel's bound still counts them until they are received.
    for (int i = 0; i < KMAX_PULSES; i++)
        if (pulses[i].in_use && pulses[i].sender == p)
            pulses[i].sender = NULL;
}
