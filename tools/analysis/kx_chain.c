// SPDX-License-Identifier: MIT
// Wait chains and deadlocks (kx_chain.h). Invariant: between steps, every thread's link is the
// one its state, message and object give (link_of); every open wait's `cur` is the chain that
// held since its seg_t0. A step ends the stretches whose chain changed, at the step's time.
#include <kevhost/kx_chain.h>
#include <kevhost/tool_grow.h>
#include <kevhost/kx_rows.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <trace/kev.h>

#define NO_GIVEN (-2)

static const struct kx_link no_link = { KX_LINK_NONE, 0, -1, -1, 0 };

static int valid(int th) { return th >= 0 && th < (int)KX_MAX_THREADS; }

void kx_chains_setup(struct kx_chains *c, const struct kx_model *m, const struct kx_sink *sink)
{
    c->m = m;
    c->sink = sink;
    for (unsigned i = 0; i < KX_MAX_THREADS; i++) {
        c->state[i] = KX_STATE_UNKNOWN;
        c->msg_to[i] = -1;
        c->sync[i] = c->link[i] = no_link;
        c->given[i] = NO_GIVEN;
    }
}

void kx_chains_free(struct kx_chains *c)
{
    for (unsigned i = 0; i < KX_MAX_THREADS; i++) {
        free(c->slot[i]), c->slot[i] = c->open[i] = NULL;
        free(c->waiter[i]), c->waiter[i] = NULL;
    }
    free(c->pair), c->pair = NULL;
    c->npair = c->pair_cap = 0;
    c->nopen = 0;
}

const char *kx_link_name(unsigned kind)
{
    static const char *const n[KX_LINK_NKINDS] = { "none", "send", "reply", "mutex", "semaphore",
                                                    "condvar" };
    return kind < KX_LINK_NKINDS ? n[kind] : "none";
}

static int is_msg(unsigned kind) { return kind == KX_LINK_SEND || kind == KX_LINK_REPLY; }

// ---- each thread's link ----------------------------------------------------------------------

// What thread th waits on, from its state and what it waits in.
static struct kx_link link_of(const struct kx_chains *c, int th)
{
    struct kx_link l = no_link;
    switch (c->state[th]) {
    case KEV_TH_SEND: case KEV_TH_REPLY:
        l.kind = c->state[th] == KEV_TH_SEND ? KX_LINK_SEND : KX_LINK_REPLY;
        l.to = c->msg_open[th] ? c->msg_to[th] : -1;
        l.pid = c->msg_open[th] ? c->msg_pid[th] : 0;
        break;
    case KEV_TH_MUTEX: case KEV_TH_SEM: case KEV_TH_CONDVAR:
        l.kind = c->state[th] == KEV_TH_MUTEX ? KX_LINK_MUTEX
                 : c->state[th] == KEV_TH_SEM ? KX_LINK_SEM : KX_LINK_COND;
        if (c->sync[th].kind == l.kind)
            l = c->sync[th];
        break;
    default:
        break;
    }
    if (l.to == th)
        l.to = -1;
    return l;
}

static int same_link(const struct kx_link *a, const struct kx_link *b)
{
    return a->kind == b->kind && a->to == b->to && a->obj == b->obj;
}

// Thread th's link may have changed; `by` ends a link whose thread was unknown (`named`: the
// thread is only known by that end; else the same wait now names it, as SYNC_WAIT does its
// holder just after the blocking state).
static void update(struct kx_chains *c, int th, int by, int named)
{
    struct kx_link l = link_of(c, th);
    struct kx_link *old = &c->link[th];
    if (same_link(&l, old))
        return;
    if (old->kind != KX_LINK_NONE && old->to < 0)
        c->given[th] = by, c->given_named[th] = (uint8_t)named;
    *old = l;
    if (!c->is_changed[th]) {
        c->is_changed[th] = 1;
        c->changed[c->nchanged++] = th;
    }
}

// Where a thread waits for input (from a device, a peer through one, a timer).
static int input_wait(unsigned st)
{
    return st == KEV_TH_RECEIVE || st == KEV_TH_INTR || st == KEV_TH_NANOSLEEP;
}

void kx_chains_state(struct kx_chains *c, int th, unsigned st, int by, unsigned irq)
{
    if (!valid(th))
        return;
    if (input_wait(c->state[th]) != input_wait(st)) // a root's input may have come (or not)
        c->restep |= c->nopen != 0;
    if (input_wait(c->state[th]) && !input_wait(st))
        c->woke_irq[th] = (uint16_t)(irq < KX_INPUT_OPEN ? irq : 0);
    c->state[th] = (uint8_t)(st < KEV_TH_NSTATES ? st : KX_STATE_UNKNOWN);
    if (st != KEV_TH_MUTEX && st != KEV_TH_SEM && st != KEV_TH_CONDVAR)
        c->sync[th] = no_link;
    update(c, th, valid(by) && by != th ? by : -1, 1);
    c->restep |= c->root_waking && c->nopen; // (no link changed, but a root may wake or run)
}

void kx_chains_send(struct kx_chains *c, int th, uint32_t pid)
{
    if (!valid(th))
        return;
    c->msg_open[th] = 1;
    c->msg_pid[th] = pid;
    c->msg_to[th] = -1;
    update(c, th, -1, 1);
}

void kx_chains_recv(struct kx_chains *c, int th, int srv)
{
    if (!valid(th) || !c->msg_open[th])
        return;
    c->msg_to[th] = valid(srv) ? srv : -1;
    update(c, th, c->msg_to[th], 1);
}

// The reply ends the message; the client's link ends with its next state (it is made ready).
void kx_chains_reply(struct kx_chains *c, int th)
{
    if (valid(th))
        c->msg_open[th] = 0, c->msg_pid[th] = 0, c->msg_to[th] = -1;
}

void kx_chains_sync(struct kx_chains *c, int th, unsigned kind, int obj, int holder)
{
    if (!valid(th))
        return;
    const struct kx_link *was = &c->sync[th];
    if (!valid(holder) && was->kind == kind && was->obj == obj && obj >= 0)
        holder = was->to; // let go, being handed on: the holder until the next one has it
    c->sync[th] = (struct kx_link){ (uint8_t)kind, 0, valid(holder) ? holder : -1, obj, 0 };
    update(c, th, c->sync[th].to, 0);
}

// ---- chains ------------------------------------------------------------------------------------

static void follow(const struct kx_chains *c, int th, struct kx_chain *ch)
{
    ch->n = 0;
    ch->end = KX_END_ROOT;
    ch->waking = 0;
    ch->input = 0;
    ch->th[0] = th;
    int cur = th;
    while (c->link[cur].kind != KX_LINK_NONE) {
        if (ch->n == KX_CHAIN_MAX) {
            ch->end = KX_END_CUT;
            return;
        }
        int to = c->link[cur].to;
        ch->link[ch->n] = c->link[cur];
        ch->th[++ch->n] = to;
        if (to < 0) {
            ch->end = KX_END_UNKNOWN;
            return;
        }
        for (unsigned i = 0; i < ch->n; i++)
            if (ch->th[i] == to) {
                ch->end = KX_END_CYCLE;
                return;
            }
        cur = to;
    }
    if (ch->n && c->state[cur] < KEV_TH_NSTATES && input_wait(c->state[cur])) {
        ch->end = KX_END_INPUT;     // what it waits for says whose time this is, once it comes
        return;
    }
    ch->waking = c->root_waking && c->root_waking(c->root_waking_user, cur);
}

int kx_chain_root(const struct kx_chain *ch)
{
    if (ch->end == KX_END_INPUT && ch->input)
        return KX_ROOT_INPUT(ch->input - 1u);
    return ch->end == KX_END_ROOT || ch->end == KX_END_INPUT ? ch->th[ch->n] : -1;
}

// A chain ending in a thread waiting for input that has come: an interrupt's (its input's root),
// else the thread that woke it woke it, and the waiting thread is the root as before.
static void input_came(const struct kx_chains *c, struct kx_chain *ch)
{
    int r = ch->th[ch->n];
    if (ch->end != KX_END_INPUT || ch->input || !valid(r) || input_wait(c->state[r]))
        return;
    ch->input = c->woke_irq[r];
    if (!ch->input)
        ch->end = KX_END_ROOT;
}

// A chain ending in a link of unknown end that ended now: the thread that ended it ends it.
static void resolve(const struct kx_chains *c, struct kx_chain *ch)
{
    if (ch->end != KX_END_UNKNOWN || !ch->n)
        return;
    int w = ch->th[ch->n - 1], by = c->given[w];
    if (by < 0)
        return;
    ch->link[ch->n - 1].to = by;
    ch->link[ch->n - 1].given = c->given_named[w];
    ch->th[ch->n] = by;
    ch->end = KX_END_ROOT;
}

static int same_chain(const struct kx_chain *a, const struct kx_chain *b)
{
    if (a->n != b->n || a->end != b->end || a->waking != b->waking)
        return 0;
    for (unsigned i = 0; i < a->n; i++)
        if (a->th[i + 1] != b->th[i + 1] || !same_link(&a->link[i], &b->link[i]))
            return 0;
    return 1;
}

// ---- a wait's time -------------------------------------------------------------------------------

static int same_wlink(const struct kx_wlink *x, unsigned pos, int from, const struct kx_link *l)
{
    return x->pos == pos && x->from == from && x->l.to == l->to && x->l.obj == l->obj &&
           (x->l.kind == l->kind || (is_msg(x->l.kind) && is_msg(l->kind)));
}

static void add_link(struct kx_cwait *w, unsigned pos, int from, const struct kx_link *l,
                     uint64_t d)
{
    for (unsigned i = 0; i < w->nlink; i++)
        if (same_wlink(&w->link[i], pos, from, l)) {
            w->link[i].t += d;
            w->link[i].l.given &= l->given; // given: every stretch of it
            if (l->kind == KX_LINK_REPLY)   // a send then its reply: it was received
                w->link[i].l.kind = KX_LINK_REPLY;
            return;
        }
    if (w->nlink == KX_WAIT_LINKS) {
        w->link_other += d;
        return;
    }
    w->link[w->nlink++] = (struct kx_wlink){ pos, from, *l, d };
}

static struct kx_cpair *pair(struct kx_chains *c, int waiter, int root)
{
    for (size_t i = 0; i < c->npair; i++)
        if (c->pair[i].waiter == waiter && c->pair[i].root == root)
            return &c->pair[i];
    if (tool_grow(&c->pair, &c->pair_cap, c->npair + 1, sizeof(*c->pair), 64))
        return NULL;
    c->pair[c->npair] = (struct kx_cpair){ waiter, root, 0, 0, 0 };
    return &c->pair[c->npair++];
}

// Root th gets d more of the wait's time (and of its waiter's pair with it), of it wake waking.
static void add_root(struct kx_chains *c, struct kx_cwait *w, int th, uint64_t d, uint64_t wake)
{
    unsigned i = 0;
    while (i < w->nroot && w->root[i].th != th)
        i++;
    int first = i == w->nroot;
    if (first && w->nroot < KX_WAIT_ROOTS)
        w->root[w->nroot++] = (struct kx_wroot){ th, 0, 0 };
    if (i < w->nroot)
        w->root[i].t += d, w->root[i].wake += wake;
    else
        w->root_other += d;
    struct kx_cpair *p = pair(c, w->th, th);
    if (!p) {
        c->pair_lost += d;
        return;
    }
    p->t += d;
    p->wake += wake;
    p->waits += (uint64_t)first;
}

// The wait's current stretch ends at t: its chain (resolved) gets the time.
static void end_stretch(struct kx_chains *c, struct kx_cwait *w, uint64_t t)
{
    struct kx_chain *ch = &w->cur;
    resolve(c, ch);
    input_came(c, ch);
    if (t <= w->seg_t0)
        return;
    uint64_t d = t - w->seg_t0;
    if (ch->n > w->depth)
        w->depth = ch->n;
    if (ch->end == KX_END_CYCLE)
        w->cycle = 1;
    for (unsigned i = 0; i < ch->n; i++)
        add_link(w, i, ch->th[i], &ch->link[i], d);
    add_root(c, w, kx_chain_root(ch), d, ch->end == KX_END_ROOT && ch->waking ? d : 0);
    if (c->sink && c->sink->chain) {
        struct kx_chain_row r = { ++c->next_row, w->id, w->seg_t0, t, *ch };
        c->sink->chain(c->sink->user, &r);
    }
    w->seg_t0 = t;
}

// The wait's length counts for its waiter (t1 0: still open, up to t).
static void account(struct kx_chains *c, const struct kx_cwait *w, uint64_t t)
{
    struct kx_cwaiter **p = &c->waiter[w->th];
    if (!*p && !(*p = calloc(1, sizeof(**p)))) {
        c->oom++;
        return;
    }
    uint64_t len = t - w->t0;
    (*p)->count++;
    (*p)->total += len;
    if ((*p)->count == 1 || len > (*p)->worst_len)
        (*p)->worst = *w, (*p)->worst_len = len;
}

static void open_wait(struct kx_chains *c, int th, uint64_t t)
{
    struct kx_cwait *w = c->slot[th]; // the thread's record, made at its first wait
    if (!w && !(w = c->slot[th] = malloc(sizeof(*w)))) {
        c->oom++;
        return;
    }
    memset(w, 0, offsetof(struct kx_cwait, cur));
    w->id = ++c->next_wait;
    w->th = th;
    w->prio = c->m ? c->m->th[th].prio : -1;
    w->t0 = w->seg_t0 = t;
    follow(c, th, &w->cur);
    c->open[th] = w;
    c->open_th[c->nopen++] = th;
}

static void close_wait(struct kx_chains *c, int th, uint64_t t)
{
    struct kx_cwait *w = c->open[th];
    end_stretch(c, w, t);
    w->t1 = t;
    account(c, w, t);
    c->open[th] = NULL;
    for (unsigned i = 0; i < c->nopen; i++)
        if (c->open_th[i] == th) {
            c->open_th[i] = c->open_th[--c->nopen];
            break;
        }
}

// ---- deadlocks -----------------------------------------------------------------------------------

static int dl_has(const struct kx_deadlock *d, int th)
{
    for (unsigned i = 0; i < d->n; i++)
        if (d->th[i] == th)
            return 1;
    return 0;
}

// An open cycle ends when a link of it no longer leads to the next thread.
static void dl_break(struct kx_chains *c, uint64_t t)
{
    for (unsigned i = 0; i < c->ndl; i++) {
        struct kx_deadlock *d = &c->dl[i];
        for (unsigned j = 0; j < d->n && !d->broken_t; j++) {
            const struct kx_link *l = &c->link[d->th[j]];
            if (l->to != d->th[(j + 1) % d->n] ||
                !(l->kind == d->link[j].kind || (is_msg(l->kind) && is_msg(d->link[j].kind))))
                d->broken_t = t;
        }
    }
}

// Thread x's new link closed a cycle through x: recorded from x, once while it is open.
static void dl_check(struct kx_chains *c, int x, uint64_t t)
{
    struct kx_chain ch;
    follow(c, x, &ch);
    if (ch.end != KX_END_CYCLE || ch.th[ch.n] != x)
        return;
    for (unsigned i = 0; i < c->ndl; i++)
        if (!c->dl[i].broken_t && dl_has(&c->dl[i], x))
            return;
    if (c->ndl == KX_MAX_DEADLOCK) {
        c->dl_dropped++;
        return;
    }
    struct kx_deadlock *d = &c->dl[c->ndl++];
    memset(d, 0, sizeof(*d));
    d->n = ch.n;
    d->t = t;
    for (unsigned i = 0; i < ch.n; i++)
        d->th[i] = ch.th[i], d->link[i] = ch.link[i];
}

// ---- steps -----------------------------------------------------------------------------------------

void kx_chains_step_slow(struct kx_chains *c, uint64_t t)
{
    c->t_last = t;
    c->restep = 0;
    // the waits that end (their last stretch resolved by the thread that ended them)
    for (unsigned i = 0; i < c->nchanged; i++) {
        int th = c->changed[i];
        if (c->link[th].kind == KX_LINK_NONE && c->open[th])
            close_wait(c, th, t);
    }
    // every open wait's chain: a stretch ends where it changed
    for (unsigned i = 0; i < c->nopen; i++) {
        struct kx_cwait *w = c->open[c->open_th[i]];
        struct kx_chain now;
        follow(c, w->th, &now);
        struct kx_chain was = w->cur;
        resolve(c, &was);
        if (!same_chain(&was, &now))
            end_stretch(c, w, t), w->cur = now;
        else  // the stretch goes on, a thread now known in it (given: it was not, a while)
            w->cur = t > w->seg_t0 ? was : now;
    }
    // the waits that begin
    for (unsigned i = 0; i < c->nchanged; i++) {
        int th = c->changed[i];
        if (c->link[th].kind != KX_LINK_NONE && !c->open[th])
            open_wait(c, th, t);
    }
    dl_break(c, t);
    for (unsigned i = 0; i < c->nchanged; i++) {
        int th = c->changed[i];
        if (c->link[th].kind != KX_LINK_NONE)
            dl_check(c, th, t);
        c->is_changed[th] = 0;
        c->given[th] = NO_GIVEN;
    }
    c->nchanged = 0;
}

void kx_chains_finish(struct kx_chains *c, uint64_t t)
{
    kx_chains_step(c, t);
    for (unsigned i = 0; i < c->nopen; i++) {
        struct kx_cwait *w = c->open[c->open_th[i]];
        int r = w->cur.th[w->cur.n];
        if (w->cur.end == KX_END_INPUT && valid(r) && input_wait(c->state[r]))
            w->cur.input = KX_INPUT_OPEN;   // its input had not come by the end
        end_stretch(c, w, t);
        account(c, w, t);
    }
}

// ---- a wait's path --------------------------------------------------------------------------------

unsigned kx_cwait_path(const struct kx_cwait *w, const struct kx_wlink **out, unsigned max)
{
    unsigned n = 0;
    int from = w->th;
    for (unsigned pos = 0; n < max && from >= 0; pos++) {
        const struct kx_wlink *best = NULL;
        for (unsigned i = 0; i < w->nlink; i++)
            if (w->link[i].pos == pos && w->link[i].from == from &&
                (!best || w->link[i].t > best->t))
                best = &w->link[i];
        if (!best)
            break;
        out[n++] = best;
        from = best->l.to;
        for (unsigned j = 0; j + 1 < n && from >= 0; j++) // round a cycle once
            if (out[j]->from == from)
                from = -1;
    }
    return n;
}
