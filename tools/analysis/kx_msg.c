// SPDX-License-Identifier: MIT
// Message matching (see kx_msg.h).
#include <kevhost/kx_msg.h>
#include <kevhost/kx_fields.h>

#include <string.h>

static void reset_pool(struct kx_msgs *q)
{
    for (unsigned i = 0; i < KX_MSG_MAX; i++) {
        q->m[i].used = 0;
        q->freel[i] = (int)(KX_MSG_MAX - 1 - i);
    }
    q->nfree = KX_MSG_MAX;
    q->nlive = 0;
    for (unsigned i = 0; i < KX_MAX_THREADS; i++)
        q->serving[i] = -1;
}

void kx_msgs_init(struct kx_msgs *q)
{
    memset(q, 0, sizeof(*q));
    reset_pool(q);
}

void kx_msgs_setup(struct kx_msgs *q)
{
    reset_pool(q);
}

// Records in use are listed in q->live so that lookups only scan messages in flight.
// Refresh the scan keys of record i (after it was sent, received or replied to).
static void sync_keys(struct kx_msgs *q, int i)
{
    const struct kx_msg *g = &q->m[i];
    int k = q->pos[i];
    q->lst[k] = (uint8_t)(g->pulse | (g->server != KX_NO_THREAD) << 1 | g->done << 2);
    q->lkey[k] = g->srv_pid;
    q->lsrv[k] = g->server;
    q->lcli[k] = g->client;
}

static void free_msg(struct kx_msgs *q, int i)
{
    if (!q->m[i].used)
        return;
    q->m[i].used = 0;
    int k = q->pos[i], last = q->live[--q->nlive];
    q->live[k] = last;
    q->pos[last] = k;
    q->lst[k] = q->lst[q->nlive], q->lkey[k] = q->lkey[q->nlive], q->lsrv[k] = q->lsrv[q->nlive];
    q->lcli[k] = q->lcli[q->nlive];
    q->freel[q->nfree++] = i;
}

static int alloc_msg(struct kx_msgs *q)
{
    if (!q->nfree) { // full: a lossy trace left sends that never completed; start over
        q->overflow++;
        reset_pool(q);
    }
    int i = q->freel[--q->nfree];
    q->pos[i] = (int)q->nlive;
    q->live[q->nlive++] = i;
    return i;
}

static void release(struct kx_msgs *q, int i)
{
    for (int c = q->m[i].first_child; c >= 0; c = q->m[c].next_sibling)
        if (q->m[c].used)
            release(q, c);
    free_msg(q, i);
}

// No thread serves message i or what it nests any more.
static void unserve(struct kx_msgs *q, int i)
{
    const struct kx_msg *g = &q->m[i];
    if (g->server >= 0 && q->serving[g->server] == i)
        q->serving[g->server] = -1;
    for (int c = g->first_child; c >= 0; c = q->m[c].next_sibling)
        if (q->m[c].used)
            unserve(q, c);
}

// Free an open message and what it nests, unlinked from its parent, with no thread left
// serving it.
static void drop(struct kx_msgs *q, int i)
{
    struct kx_msg *g = &q->m[i];
    if (g->parent >= 0) {
        int *link = &q->m[g->parent].first_child;
        while (*link >= 0 && *link != i)
            link = &q->m[*link].next_sibling;
        if (*link == i)
            *link = g->next_sibling;
    }
    unserve(q, i);
    release(q, i);
    q->stale++;
}

// Pulse i's charged process, and whether the kernel dropped it (kx_msg.h): its process holds
// KX_PULSES_PER_PROC queued, one at least on this channel (no receiver can be waiting there).
static void pulse_charge(struct kx_msgs *q, const struct kev_event *e, int i)
{
    struct kx_msg *g = &q->m[i];
    if (g->irq) {
        g->charge = q->timer_pid[e->cpu];   // a timer's, else an interrupt's own: nobody's
        g->timer = g->charge ? q->timer_id[e->cpu] : kx_msg_tick_irq(g->irq) ? KX_TIMER_UNNAMED : 0;
        q->timer_pid[e->cpu] = q->timer_id[e->cpu] = 0;
    } else {
        g->charge = g->client_pid;          // the sending thread's process (0: unknown)
    }
    if (!g->charge || (g->irq && q->told_lost)) // a timer's: the kernel says each loss
        return;
    unsigned held = 0, here = 0;
    for (unsigned k = 0; k < q->nlive; k++) {
        const struct kx_msg *o = &q->m[q->live[k]];
        if (q->lst[k] != 1 || o == g || o->charge != g->charge)
            continue;
        held++;
        here += o->chid == g->chid;
    }
    if (held >= KX_PULSES_PER_PROC && here) {
        g->lost = g->done = 1;
        q->lost_pulses++;
    }
}

void kx_msgs_timer(struct kx_msgs *q, unsigned cpu, uint32_t id, uint32_t pid)
{
    if (cpu < KEV_MAX_CPUS)
        q->timer_pid[cpu] = pid, q->timer_id[cpu] = id ? id : KX_TIMER_UNNAMED;
}

void kx_msgs_pulse_lost(struct kx_msgs *q, unsigned cpu)
{
    int best = -1;
    for (unsigned k = 0; k < q->nlive; k++) {
        const struct kx_msg *g = &q->m[q->live[k]];
        if (g->pulse && g->irq && g->send_cpu == cpu && !g->t_recv &&
            (best < 0 || g->id > q->m[best].id))
            best = q->live[k];
    }
    q->told_lost = 1;
    if (best < 0 || q->m[best].lost)
        return;
    q->m[best].lost = q->m[best].done = 1;
    q->lost_pulses++;
    sync_keys(q, best);
}

unsigned kx_msgs_purge(struct kx_msgs *q, int th, uint64_t t, int marked)
{
    if (th < 0 || th >= (int)KX_MAX_THREADS || !q->rchid[th])
        return 0;
    uint32_t chid = q->rchid[th] - 1;
    unsigned n = 0;
    for (unsigned k = 0; k < q->nlive;) {
        int i = q->live[k];
        struct kx_msg *g = &q->m[i];
        int pending = q->lst[k] == 1 || g->lost;
        if (g->pulse && pending && g->chid == chid && g->t_send < t &&
            (g->lost || !marked) && g->parent < 0 && g->first_child < 0) {
            q->lost_pulses += !g->lost;
            n++;
            free_msg(q, i);         // live[k] now holds another record
            continue;
        }
        k++;
    }
    return n;
}

static enum kx_msg_step on_send(struct kx_msgs *q, struct kx_model *m, const struct kev_event *e,
                                int client, const struct kx_msg **out)
{
    // An open message of the same thread lost its events. Messages from no known thread (the
    // CPU's thread is unknown: the trace began, or events were lost) count as one thread.
    if (e->ev == KEV_COMM_SND_MESSAGE && !m->irq[e->cpu])
        for (unsigned k = 0; k < q->nlive; k++)
            if (q->lcli[k] == client && !(q->lst[k] & 5)) {
                drop(q, q->live[k]);
                break;
            }
    int i = alloc_msg(q);
    struct kx_msg *g = &q->m[i];
    memset(g, 0, sizeof(*g));
    g->used = 1;
    g->pulse = e->ev != KEV_COMM_SND_MESSAGE;
    g->irq = m->irq[e->cpu];
    g->send_cpu = e->cpu;
    g->client = g->irq ? KX_NO_THREAD : client; // a pulse from an interrupt handler
    g->server = KX_NO_THREAD;
    g->client_pid = g->client >= 0 ? m->th[g->client].pid : 0;
    const struct kx_fields *f = kx_fields();
    if (g->pulse) { // its connection; its channel and code, kept as the word that holds them
        g->coid = kev_field(e, f->spulse_coid);
        g->srv_pid = kev_field_word(e, f->spulse_chid);
        g->chid = kev_field(e, f->spulse_chid);
    } else {        // the message's id; the channel's owner
        g->coid = kx_comm_rcvid(e);
        g->srv_pid = kx_comm_pid(e);
    }
    g->t_send = e->t64;
    g->id = ++q->next_id;
    if (g->pulse)
        pulse_charge(q, e, i);
    g->parent = g->first_child = g->next_sibling = -1;
    if (!g->pulse && g->client >= 0 && q->serving[g->client] >= 0) {
        struct kx_msg *p = &q->m[q->serving[g->client]];
        g->parent = q->serving[g->client];
        g->next_sibling = p->first_child;
        p->first_child = i;
    }
    sync_keys(q, i);
    *out = g;
    return KX_MSG_SEND;
}

// The receive as docs/kev-format.md describes it: in the server's context, naming the sender
// pid (QNX's receive has it where ours has the receiver's who: `sender`). The oldest pending
// send from that pid to the server's process.
static int match_by_pid(struct kx_msgs *q, struct kx_model *m, uint32_t sender, int server,
                        int pulse)
{
    uint32_t pid = server >= 0 ? m->th[server].pid : 0;
    int best = -1;
    for (unsigned k = 0; k < q->nlive; k++) {
        if (q->lst[k] != pulse || q->lkey[k] != pid)
            continue;
        int i = q->live[k];
        struct kx_msg *g = &q->m[i];
        if ((sender && g->client_pid != sender) || (best >= 0 && g->id > q->m[best].id))
            continue;
        best = i;
    }
    return best;
}

// A receive's key: a message's rcvid; a pulse's channel and code, as the word that holds them
// (the send's srv_pid).
static uint32_t recv_key(const struct kev_event *e, int pulse)
{
    return pulse ? kev_field_word(e, kx_fields()->rpulse_chid) : kx_comm_rcvid(e);
}

// The receive as the kernel also writes it: in the sender's context, when it hands the
// message to a receiver already waiting, with the receiving thread as pid << 16 | tid and
// the same id as the send (a message) or any id (a pulse). The newest pending send of the
// current thread.
static int match_in_sender(struct kx_msgs *q, struct kx_model *m, const struct kev_event *e,
                           int cur, int pulse)
{
    int best = -1;
    unsigned irq = m->irq[e->cpu];
    uint32_t rcvid = kx_comm_rcvid(e);
    for (unsigned k = 0; k < q->nlive; k++) {
        int i = q->live[k];
        struct kx_msg *g = &q->m[i];
        if (q->lst[k] != pulse && !(pulse && g->lost))
            continue;
        if (irq ? g->irq != irq : g->client != cur)
            continue;
        if ((!pulse && g->coid != rcvid) || (best >= 0 && g->id < q->m[best].id))
            continue;
        best = i;
    }
    if (best >= 0 && q->m[best].lost) { // handed to a waiting receiver after all: not lost
        q->m[best].lost = q->m[best].done = 0;
        q->lost_pulses--;
    }
    return best;
}

// The kernel's receive written in the receiver's own context (the message or pulse was
// queued): the receiver names itself. The oldest pending send with the same id: a message's
// rcvid, a pulse's channel and code (recv_key).
static int match_queued(struct kx_msgs *q, const struct kev_event *e, int pulse)
{
    int best = -1;
    uint32_t key = recv_key(e, pulse);
    for (unsigned k = 0; k < q->nlive; k++) {
        if (q->lst[k] != pulse)
            continue;
        int i = q->live[k];
        struct kx_msg *g = &q->m[i];
        if ((pulse ? g->srv_pid : g->coid) != key || (best >= 0 && g->id > q->m[best].id))
            continue;
        best = i;
    }
    return best;
}

static enum kx_msg_step on_recv(struct kx_msgs *q, struct kx_model *m, const struct kev_event *e,
                                int cur, const struct kx_msg **out)
{
    int pulse = e->ev == KEV_COMM_REC_PULSE;
    int server = cur;
    int best = -1;
    const struct kx_fields *f = kx_fields();
    uint32_t who = kev_field(e, pulse ? f->rpulse_who : f->rmsg_who); // the receiver
    if (who > 0xffffu) {
        int named = kx_thread(m, kev_who_pid(who), kev_who_tid(who));
        if (named == cur && !m->irq[e->cpu])
            best = match_queued(q, e, pulse);
        else if (cur >= 0 || m->irq[e->cpu])
            best = match_in_sender(q, m, e, cur, pulse);
        if (best >= 0)
            server = named;
    }
    if (best < 0)
        best = match_by_pid(q, m, who, cur, pulse);
    if (best < 0) {
        q->unmatched_recv++;
        return KX_MSG_NONE;
    }
    struct kx_msg *g = &q->m[best];
    g->server = server;
    g->rcvid = recv_key(e, pulse);
    if (pulse && server >= 0 && server < (int)KX_MAX_THREADS)
        q->rchid[server] = kev_field(e, kx_fields()->rpulse_chid) + 1;
    g->t_recv = e->t64;
    if (pulse) { // a pulse is done once received
        g->done = 1;
        *out = g;
        if (g->parent < 0) // keep it only while its parent needs the nesting
            free_msg(q, best);
        else
            sync_keys(q, best);
        return KX_MSG_RECV;
    }
    if (server >= 0)
        q->serving[server] = best;
    sync_keys(q, best);
    *out = g;
    return KX_MSG_RECV;
}

static enum kx_msg_step on_reply(struct kx_msgs *q, const struct kev_event *e, int server,
                                 const struct kx_msg **out)
{
    int found = -1;
    uint32_t rcvid = kx_comm_rcvid(e);
    for (unsigned k = 0; k < q->nlive && found < 0; k++) {
        if (q->lst[k] != 2 || q->lsrv[k] != server) // a message received, not replied to
            continue;
        int i = q->live[k];
        struct kx_msg *g = &q->m[i];
        if (g->rcvid == rcvid)
            found = i;
    }
    if (found < 0) {
        q->unmatched_reply++;
        return KX_MSG_NONE;
    }
    struct kx_msg *g = &q->m[found];
    g->done = 1;
    g->error = e->ev == KEV_COMM_MSG_ERROR;
    g->t_reply = e->t64;
    sync_keys(q, found);
    if (server >= 0 && q->serving[server] == found) {
        // The server goes back to the message it served before, if it nested receives.
        int prev = -1;
        for (unsigned k = 0; k < q->nlive; k++) {
            if (q->lst[k] != 2 || q->lsrv[k] != server)
                continue;
            int i = q->live[k];
            if (prev < 0 || q->m[i].t_recv > q->m[prev].t_recv)
                prev = i;
        }
        q->serving[server] = prev;
    }
    *out = g;
    return KX_MSG_REPLY;
}

enum kx_msg_step kx_msgs_event(struct kx_msgs *q, struct kx_model *m, const struct kev_event *e,
                               const struct kx_msg **msg)
{
    int cur = m->cur[e->cpu];
    *msg = NULL;
    switch (e->ev) {
    case KEV_COMM_SND_MESSAGE: case KEV_COMM_SND_PULSE:
        return on_send(q, m, e, cur, msg);
    case KEV_COMM_REC_MESSAGE: case KEV_COMM_REC_PULSE:
        return on_recv(q, m, e, cur, msg);
    case KEV_COMM_REPLY_MESSAGE: case KEV_COMM_MSG_ERROR:
        return on_reply(q, e, cur, msg);
    default:
        return KX_MSG_NONE;
    }
}

// The server's work on g from t0 to t1, with its nested requests' paths in between.
static unsigned path_of(const struct kx_msgs *q, const struct kx_msg *g, struct kx_seg *seg,
                        unsigned n, unsigned max, unsigned level, unsigned *depth)
{
    if (level > *depth)
        *depth = level;
    if (n < max)
        seg[n++] = (struct kx_seg){ g->client, g->t_send, g->t_recv, 1 };
    uint64_t t = g->t_recv;
    // Children are linked newest first; walk them oldest first.
    int kids[64];
    unsigned nk = 0;
    for (int c = g->first_child; c >= 0 && nk < 64; c = q->m[c].next_sibling)
        kids[nk++] = c;
    while (nk--) {
        const struct kx_msg *c = &q->m[kids[nk]];
        if (!c->done || c->pulse || c->t_send < t)
            continue;
        if (n < max)
            seg[n++] = (struct kx_seg){ g->server, t, c->t_send, 0 };
        n = path_of(q, c, seg, n, max, level + 1, depth);
        t = c->t_reply;
    }
    if (n < max)
        seg[n++] = (struct kx_seg){ g->server, t, g->t_reply, 0 };
    return n;
}

unsigned kx_msgs_path(const struct kx_msgs *q, const struct kx_msg *root, struct kx_seg *seg,
                      unsigned max, unsigned *depth)
{
    *depth = 0;
    return path_of(q, root, seg, 0, max, 2, depth);
}


void kx_msgs_release(struct kx_msgs *q, const struct kx_msg *root)
{
    int i = (int)(root - q->m);
    if (root->parent >= 0)
        return; // freed with its root
    release(q, i);
}
