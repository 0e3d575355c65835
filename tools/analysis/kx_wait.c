// SPDX-License-Identifier: MIT
// Who blocked whom (kx_wait.h): thread state intervals with the cause of
// each wait, owners of mutexes and semaphores, priority inversions.
// Invariant: every open wait's owner has been accounted up to its seg_t; flush() brings all
// of them to the time of the event about to change a thread's state, CPU or priority, so a
// segment always has one owner state, one thread on the owner's CPU and fixed priorities.
#include <kevhost/kx_wait.h>
#include <kevhost/kx_fields.h>
#include <kevhost/tool_grow.h>

#include <stdlib.h>
#include <string.h>

#include <trace/kev.h>

enum { CALL_MUTEX_LOCK = 80, CALL_MUTEX_UNLOCK = 81, CALL_COND_WAIT = 82, CALL_COND_SIGNAL = 83,
       CALL_SEM_POST = 84, CALL_SEM_WAIT = 85 };
#define NO_STATE 255u

static int blocked_on_sync(unsigned st)
{
    return st == KEV_TH_MUTEX || st == KEV_TH_SEM || st == KEV_TH_CONDVAR;
}

static int blocked(unsigned st)
{
    return st >= KEV_TH_STOPPED && st < KEV_TH_NSTATES;
}

static enum kw_kind kind_of_state(unsigned st)
{
    return st == KEV_TH_MUTEX ? KW_MUTEX : st == KEV_TH_SEM ? KW_SEM
           : st == KEV_TH_CONDVAR ? KW_COND : KW_NONE;
}

static enum kw_kind kind_of_call(unsigned call)
{
    switch (call) {
    case CALL_MUTEX_LOCK: case CALL_MUTEX_UNLOCK: return KW_MUTEX;
    case CALL_SEM_WAIT: case CALL_SEM_POST: return KW_SEM;
    case CALL_COND_WAIT: case CALL_COND_SIGNAL: return KW_COND;
    default: return KW_NONE;
    }
}

const char *kw_kind_name(enum kw_kind kind)
{
    static const char *const n[] = { "object", "mutex", "semaphore", "condvar" };
    return kind <= KW_COND ? n[kind] : "object";
}

const char *kw_cause_name(unsigned cause)
{
    const char *n = kev_prio_cause_name(cause);
    return n ? n : "unknown";
}

void kw_init(struct kw *k, kw_thread_fn thread_of, void *user)
{
    memset(k, 0, sizeof(*k));
    kw_setup(k, thread_of, user);
}

void kw_setup(struct kw *k, kw_thread_fn thread_of, void *user)
{
    k->thread_of = thread_of;
    k->user = user;
    for (unsigned i = 0; i < KW_MAX_THREADS; i++) {
        struct kw_thread *t = &k->th[i];
        t->state = NO_STATE;
        t->cpu = t->prio = t->by = t->wait = t->base_prio = t->own_prio = -1;
    }
    for (unsigned c = 0; c < KW_MAX_CPUS; c++)
        k->cur[c] = k->sync_for[c] = -1;
}

void kw_free(struct kw *k)
{
    free(k->done), k->done = NULL;
    k->ndone = k->done_cap = 0;
    for (unsigned i = 0; i < KW_MAX_THREADS; i++)
        free(k->th[i].hist), k->th[i].hist = NULL;
}

static int valid(int th) { return th >= 0 && th < (int)KW_MAX_THREADS; }

static int who_thread(struct kw *k, uint32_t who)
{
    if (!who)
        return -1;
    int th = k->thread_of(k->user, kev_who_pid(who), kev_who_tid(who));
    return valid(th) ? th : -1;
}

static int find_obj(struct kw *k, enum kw_kind kind, uint32_t id)
{
    for (unsigned i = 0; i < k->nobj; i++)
        if (k->obj[i].id == id && k->obj[i].kind == kind)
            return (int)i;
    if (k->nobj >= KW_MAX_OBJ) {
        k->obj_overflow++;
        return -1;
    }
    k->obj[k->nobj] = (struct kw_obj){ id, kind, -1, 0 };
    return (int)k->nobj++;
}

static void set_owner(struct kw *k, int obj, int owner)
{
    if (obj < 0)
        return;
    k->obj[obj].owner = owner;
    k->obj[obj].owner_known = 1;
}

// ---- the owners' accounting --------------------------------------------------------------------

// The index of th in w->pre, which holds it (w->by is always there).
static unsigned pre_index(const struct kw_wait *w, int th)
{
    unsigned i = 0;
    while (i + 1 < w->npre && w->pre[i].th != th)
        i++;
    return i;
}

// Thread m ran d cycles on the owner's CPU in its place (as a middle thread of an inversion
// when `middle`): its own share in w->pre, or past KW_MAX_PRE threads in the *_other sums.
// w->by follows the largest share.
static void add_preemptor(struct kw_wait *w, int m, uint64_t d, int middle)
{
    unsigned i = 0;
    while (i < w->npre && w->pre[i].th != m)
        i++;
    if (i == w->npre) {
        if (w->npre == KW_MAX_PRE) {
            w->pre_other += d;
            w->inv_other += middle ? d : 0;
            return;
        }
        w->pre[w->npre++] = (struct kw_pre){ m, 0, 0 };
    }
    struct kw_pre *p = &w->pre[i];
    p->t += d;
    p->inv_t += middle ? d : 0;
    if (w->by < 0 || (w->by != m && p->t > w->pre[pre_index(w, w->by)].t))
        w->by = m;
}

// Thread th, READY, is waking: woken from a wait, and on the CPU it last ran on only idle or
// a lower priority runs, which cannot keep it off (the scheduler's real-time rule): the time
// is its wake-up's (another CPU's IPI and that CPU's answer), nobody's preemption.
static int waking(const struct kw *k, int th)
{
    const struct kw_thread *o = &k->th[th];
    int m = o->cpu >= 0 ? k->cur[o->cpu] : -1;
    if (!o->woken || m == th)
        return 0;
    if (m < 0 || (k->is_idle && k->is_idle(k->user, m)))
        return 1;
    return k->th[m].prio >= 0 && o->prio >= 0 && k->th[m].prio < o->prio;
}

int kw_waking(const struct kw *k, int th)
{
    return valid(th) && k->th[th].state == KEV_TH_READY && waking(k, th);
}

static void flush(struct kw *k, uint64_t t)
{
    for (unsigned i = 0; i < k->nopen; i++) {
        struct kw_wait *w = &k->wait[k->open[i]];
        if (t <= w->seg_t)
            continue;
        uint64_t d = t - w->seg_t;
        w->seg_t = t;
        if (w->owner < 0) {
            w->own_other += d;
            continue;
        }
        const struct kw_thread *o = &k->th[w->owner];
        if (o->state == KEV_TH_RUNNING) {
            w->own_run += d;
        } else if (o->state == KEV_TH_READY && waking(k, w->owner)) {
            w->own_wake += d;
        } else if (o->state == KEV_TH_READY) {
            w->own_ready += d;
            int m = o->cpu >= 0 ? k->cur[o->cpu] : -1;
            if (m >= 0 && m != w->owner) {
                int pw = k->th[w->th].prio, po = o->prio, pm = k->th[m].prio;
                int middle = m != w->th && pw >= 0 && po >= 0 && pm > po && pm < pw;
                add_preemptor(w, m, d, middle);
                if (middle)
                    w->inv_t += d;
            }
        } else if (blocked(o->state)) {
            w->own_blocked += d;
            if (o->wait >= 0)
                w->owner_obj = k->wait[o->wait].obj;
        } else {
            w->own_other += d;
        }
    }
}

// ---- threads ------------------------------------------------------------------------------------

static void push_iv(struct kw *k, int x, uint64_t t)
{
    struct kw_thread *s = &k->th[x];
    if (s->state == NO_STATE || t < s->since)
        return;
    if (!s->hist && !(s->hist = calloc(KW_HIST, sizeof(*s->hist))))
        return;
    struct kw_iv *iv = &s->hist[s->nhist++ % KW_HIST];
    iv->t0 = s->since;
    iv->t1 = t;
    iv->state = (uint8_t)s->state;
    iv->by = s->state == KEV_TH_READY ? s->by : -1;
    iv->wait = s->wait >= 0 ? k->wait[s->wait].serial : 0;
}

static void set_state(struct kw *k, int x, unsigned st, uint64_t t)
{
    struct kw_thread *s = &k->th[x];
    s->woken = st == KEV_TH_READY && (s->woken || (blocked(s->state) && s->state != NO_STATE));
    push_iv(k, x, t);
    s->state = st;
    s->since = t;
    if (st != KEV_TH_READY)
        s->by = -1;
}

static void open_wait(struct kw *k, int x, unsigned st, uint64_t t)
{
    struct kw_thread *s = &k->th[x];
    if (k->nopen >= sizeof(k->open) / sizeof(k->open[0]))
        return;
    unsigned wi = (unsigned)(k->nwait++ % KW_MAX_WAITS);
    struct kw_wait *w = &k->wait[wi];
    memset(w, 0, sizeof(*w));
    w->serial = k->nwait;
    w->th = x;
    w->state = st;
    w->t0 = w->seg_t = t;
    w->by = w->owner_obj = -1;
    w->obj = -1;
    if (s->kc_call && kind_of_call(s->kc_call - 1) == kind_of_state(st))
        w->obj = find_obj(k, kind_of_state(st), s->kc_obj);
    w->owner = w->obj >= 0 ? k->obj[w->obj].owner : -1;
    if (w->owner == x)
        w->owner = -1;
    w->prio = s->prio;
    w->owner_prio = w->owner >= 0 ? k->th[w->owner].prio : -1;
    s->wait = (int)wi;
    k->open[k->nopen++] = (int)wi;
}

// The finding's middle thread th gets `lost` more cycles; mid[] stays largest first (ties: the
// one seen first), past KW_MAX_PRE threads the time goes to `others`.
static void add_middle(struct kw *k, struct kw_inv *v, int th, uint64_t lost)
{
    unsigned i = 0;
    while (i < v->nmid && v->mid[i].th != th)
        i++;
    if (i == v->nmid) {
        if (v->nmid == KW_MAX_PRE) {
            v->others += lost;
            return;
        }
        v->mid[v->nmid++] = (struct kw_mid){ th, k->th[th].prio, 0 };
    }
    v->mid[i].lost += lost;
    for (; i > 0 && v->mid[i].lost > v->mid[i - 1].lost; i--) {
        struct kw_mid x = v->mid[i];
        v->mid[i] = v->mid[i - 1];
        v->mid[i - 1] = x;
    }
}

// One finding per waiter, owner and object: the wait's middle threads add their shares to it.
static void add_inversion(struct kw *k, const struct kw_wait *w)
{
    unsigned i = 0;
    while (i < k->ninv && (k->inv[i].waiter != w->th || k->inv[i].owner != w->owner ||
                           k->inv[i].obj != w->obj))
        i++;
    if (i == k->ninv) {
        if (k->ninv >= KW_MAX_INV)
            return;
        k->inv[k->ninv++] = (struct kw_inv){ .waiter = w->th, .owner = w->owner, .middle = -1,
                                             .obj = w->obj, .pw = k->th[w->th].prio,
                                             .po = k->th[w->owner].prio, .pm = -1,
                                             .first_t = w->t0 };
    }
    struct kw_inv *v = &k->inv[i];
    v->count++;
    v->lost += w->inv_t;
    if (w->inv_t > v->max)
        v->max = w->inv_t;
    for (unsigned j = 0; j < w->npre; j++)
        if (w->pre[j].inv_t)
            add_middle(k, v, w->pre[j].th, w->pre[j].inv_t);
    v->others += w->inv_other;
    if (v->nmid) {
        v->middle = v->mid[0].th;
        v->pm = v->mid[0].prio;
    }
}

// Keeps the ended wait w for the grouping (kx_wait_groups.c).
static void keep_done(struct kw *k, const struct kw_wait *w, uint64_t t1)
{
    if (tool_grow(&k->done, &k->done_cap, k->ndone + 1, sizeof(*k->done), 256)) {
        k->done_lost++;
        return;
    }
    k->done[k->ndone++] = (struct kw_done){ w->th, w->obj, w->owner, w->prio, w->owner_prio,
                                            w->state, w->t0, t1 };
}

void kw_forget_done(struct kw *k)
{
    k->done_forgotten += k->ndone;
    k->ndone = 0;
}

static void close_wait(struct kw *k, int x, uint64_t t)
{
    struct kw_thread *s = &k->th[x];
    struct kw_wait *w = &k->wait[s->wait];
    w->t1 = t;
    for (unsigned i = 0; i < k->nopen; i++)
        if (k->open[i] == s->wait) {
            k->open[i] = k->open[--k->nopen];
            break;
        }
    if (w->inv_t && w->owner >= 0)
        add_inversion(k, w);
    keep_done(k, w, t);
    if (w->owner < 0)
        k->waits_no_owner++;
    if (k->on_wait)
        k->on_wait(k->on_wait_user, w);
    s->wait = -1;
}

// An unlock handed mutex obj to x: the waits still on it wait on x from now (accounted up to
// now: flush), whose wake-up is then theirs to wait for (waking).
static void hand_over(struct kw *k, int obj, int x)
{
    set_owner(k, obj, x);
    for (unsigned i = 0; i < k->nopen && obj >= 0; i++) {
        struct kw_wait *w = &k->wait[k->open[i]];
        if (w->obj == obj && w->th != x && w->owner != x)
            w->owner = x;
    }
}

// The thread whose CondSignal or CondBroadcast (QNX's one call) ends waiter x's condvar wait
// with the state event e: the one in that call on e's CPU (the waker records the waiter's
// state), -1 none (a timeout, a kill).
static int signaller(const struct kw *k, const struct kev_event *e, int x)
{
    const struct kw_thread *s = &k->th[x];
    int cur = k->cur[e->cpu < KW_MAX_CPUS ? e->cpu : 0];
    if (s->wait < 0 || k->wait[s->wait].state != KEV_TH_CONDVAR || e->ev == KEV_TH_CONDVAR ||
        !valid(cur) || cur == x || k->th[cur].kc_call != CALL_COND_SIGNAL + 1u)
        return -1;
    return cur;
}

static void thread_event(struct kw *k, const struct kev_event *e, int x)
{
    uint64_t t = e->t64;
    unsigned cpu = e->cpu < KW_MAX_CPUS ? e->cpu : 0;
    struct kw_thread *s = &k->th[x];
    int by = signaller(k, e, x);
    unsigned st = e->ev == KEV_TH_DESTROY ? KEV_TH_DEAD
                  : e->ev == KEV_TH_CREATE ? NO_STATE : e->ev;
    flush(k, t);
    if (e->nw >= 4 && e->ev < KEV_TH_NSTATES && !k->prio_events) {
        // No PRIO_CHANGE events: a rise of an owner's priority while a thread waits on what
        // it holds is taken as an inheritance boost (wide-mode state events carry priorities).
        int p = (int)kev_field(e, kx_fields()->th_prio);
        for (unsigned i = 0; i < k->nopen && s->prio >= 0 && p > s->prio; i++)
            if (k->wait[k->open[i]].owner == x) {
                s->boosts++;
                break;
            }
        s->prio = p;
    }
    if (st == KEV_TH_RUNNING) {
        int prev = k->cur[cpu];
        if (valid(prev) && prev != x && k->th[prev].state == KEV_TH_RUNNING) {
            set_state(k, prev, KEV_TH_READY, t); // switched out without its own event
            k->th[prev].by = x;
        }
        else if (valid(prev) && prev != x && k->th[prev].state == KEV_TH_READY &&
                 k->th[prev].by < 0)
            k->th[prev].by = x; // it left with its own READY event
        k->cur[cpu] = x;
        s->cpu = (int)cpu;
    } else if (k->cur[cpu] == x && st != NO_STATE) {
        // it leaves this CPU: keep cur (READY: the next RUNNING names the preemptor)
        if (st != KEV_TH_READY)
            k->cur[cpu] = -1;
    }
    if ((st == KEV_TH_READY || st == KEV_TH_RUNNING) && blocked(s->state) &&
        s->state != KEV_TH_MUTEX && s->state != NO_STATE) {
        if (!s->wakes++)
            s->wake_first = t;
        s->wake_last = t;
    }
    if (s->wait >= 0 && st != s->state && st != NO_STATE) {
        unsigned was = k->wait[s->wait].state;
        int obj = k->wait[s->wait].obj;
        if (by >= 0) { // a condvar has no holder: its wait's "owner" is who signalled it
            k->wait[s->wait].owner = by;
            k->wait[s->wait].owner_prio = k->th[by].prio;
        }
        set_state(k, x, st, t);
        close_wait(k, x, t);
        if (was == KEV_TH_MUTEX && (st == KEV_TH_READY || st == KEV_TH_RUNNING))
            hand_over(k, obj, x); // the unlock handed it the mutex
    } else {
        set_state(k, x, st, t);
    }
    if (blocked_on_sync(st) && s->wait < 0)
        open_wait(k, x, st, t);
}

static void sync_wait(struct kw *k, const struct kev_event *e, int x)
{
    k->sync_events++;
    if (!valid(x) || k->th[x].wait < 0)
        return;
    struct kw_wait *w = &k->wait[k->th[x].wait];
    enum kw_kind kind = kind_of_state(w->state);
    const struct kx_fields *f = kx_fields();
    int obj = find_obj(k, kind, kev_field(e, f->sync_object));
    int owner = who_thread(k, kev_field(e, f->sync_owner));
    w->obj = obj;
    w->owner = owner == x ? -1 : owner;
    w->owner_prio = w->owner >= 0 ? k->th[w->owner].prio : -1;
    if (kind != KW_COND)
        set_owner(k, obj, owner);
}

static void prio_change(struct kw *k, const struct kev_event *e)
{
    k->prio_events++;
    const struct kx_fields *f = kx_fields();
    int x = who_thread(k, kev_field(e, f->prio_who));
    if (x < 0)
        return;
    flush(k, e->t64);
    unsigned now = kev_field(e, f->prio_new), was = kev_field(e, f->prio_old);
    enum kx_prio_kind kind = kx_prio_kind(now, was, kev_field(e, f->prio_cause));
    struct kw_thread *s = &k->th[x];
    if ((kind == KX_PRIO_BOOST || kind == KX_PRIO_MSG_UP) && s->base_prio < 0)
        s->base_prio = (int)was;
    if (kx_prio_is_boost(kind))
        s->boosts++;
    s->prio_n[kind]++;
    if (kind == KX_PRIO_INH_END)
        s->base_prio = -1;
    // its own: what it starts with, sets itself or returns to; before that is seen, what
    // the first inheritance found
    if (kind == KX_PRIO_START || kind == KX_PRIO_OWN || kind == KX_PRIO_INH_END)
        s->own_prio = (int)now;
    else if (s->own_prio < 0 && (kind == KX_PRIO_BOOST || kind == KX_PRIO_MSG_UP ||
                                 kind == KX_PRIO_MSG_DOWN))
        s->own_prio = (int)was;
    s->prio = (int)now;
}

static void kcall(struct kw *k, const struct kev_event *e, int x)
{
    if (!valid(x))
        return;
    struct kw_thread *s = &k->th[x];
    enum kev_kcall_part part = kev_kcall_part(e);
    unsigned call = kev_kcall_no(e);
    if (part == KEV_KCALL_ENTRY) {
        enum kw_kind kind = kind_of_call(call);
        if (kind == KW_NONE)
            return;
        s->kc_call = call + 1;
        s->kc_obj = kev_kcall_arg(e, 0);    // the object: every SYNC_* call's first argument
        if (call == CALL_MUTEX_UNLOCK) {
            set_owner(k, find_obj(k, KW_MUTEX, s->kc_obj), -1);
        } else if (call == CALL_SEM_POST) {
            int o = find_obj(k, KW_SEM, s->kc_obj);
            if (o >= 0 && k->obj[o].owner == x)
                set_owner(k, o, -1);
        }
        return;
    }
    if (s->kc_call != call + 1)
        return;
    s->kc_call = 0;
    int32_t ret;
    uint32_t err;
    // Only a successful exit takes the object: a failed call, or QNX's interrupted one, does not.
    if (part != KEV_KCALL_EXIT || (kev_kcall_exit(e, &ret, &err) && err))
        return;
    if (call == CALL_MUTEX_LOCK)
        set_owner(k, find_obj(k, KW_MUTEX, s->kc_obj), x);
    else if (call == CALL_SEM_WAIT)
        set_owner(k, find_obj(k, KW_SEM, s->kc_obj), x);
}

void kw_event_slow(struct kw *k, const struct kev_event *e, int th)
{
    switch (e->cls) {
    case KEV_C_PR_TH:
        if (e->ev <= KEV_TH_DESTROY && e->nw >= 2 && valid(th)) {
            thread_event(k, e, th);
            // SYNC_WAIT follows on the same CPU (for a condvar waiter re-blocking on its
            // mutex, on the signaller's CPU, where another thread runs)
            k->sync_for[e->cpu < KW_MAX_CPUS ? e->cpu : 0] = blocked_on_sync(e->ev) ? th : -1;
        }
        break;
    case KEV_C_SYSTEM:
        if (e->ev == KEV_SYS_SYNC_WAIT && e->nw >= 2) {
            int *f = &k->sync_for[e->cpu < KW_MAX_CPUS ? e->cpu : 0];
            sync_wait(k, e, *f >= 0 ? *f : th);
            *f = -1;
        } else if (e->ev == KEV_SYS_PRIO_CHANGE && e->nw >= 2) {
            prio_change(k, e);
        }
        break;
    case KEV_C_KER_CALL:
        kcall(k, e, th);
        break;
    default:
        break;
    }
}

void kw_finish(struct kw *k)
{
    flush(k, k->t_last);
    for (unsigned i = 0; i < k->nopen; i++) {
        keep_done(k, &k->wait[k->open[i]], k->t_last);
        if (k->on_wait)
            k->on_wait(k->on_wait_user, &k->wait[k->open[i]]);
    }
}

uint64_t kw_period(const struct kw *k, int th)
{
    if (!valid(th) || k->th[th].wakes < 3)
        return 0;
    const struct kw_thread *s = &k->th[th];
    return (s->wake_last - s->wake_first) / (s->wakes - 1);
}

const struct kw_wait *kw_wait_by_serial(const struct kw *k, uint64_t serial)
{
    if (!serial)
        return NULL;
    const struct kw_wait *w = &k->wait[(serial - 1) % KW_MAX_WAITS];
    return w->serial == serial ? w : NULL;
}

// ---- splitting a thread's time -----------------------------------------------------------------

static void add_part(struct kw_part *p, unsigned *n, unsigned max, const struct kw_part *q)
{
    for (unsigned i = 0; i < *n; i++)
        if (p[i].state == q->state && p[i].by == q->by && p[i].obj == q->obj &&
            p[i].owner == q->owner) {
            p[i].t += q->t;
            p[i].own_run += q->own_run;
            p[i].own_ready += q->own_ready;
            p[i].own_wake += q->own_wake;
            p[i].own_blocked += q->own_blocked;
            return;
        }
    if (*n < max)
        p[(*n)++] = *q;
    else if (max)
        p[max - 1].t += q->t; // past max parts: counted in the last one
}

static void split_iv(const struct kw *k, const struct kw_iv *iv, uint64_t t0, uint64_t t1,
                     struct kw_part *p, unsigned *n, unsigned max)
{
    uint64_t a = iv->t0 > t0 ? iv->t0 : t0, b = iv->t1 < t1 ? iv->t1 : t1;
    if (b <= a)
        return;
    struct kw_part q = { iv->state, iv->state == KEV_TH_READY ? iv->by : -1, -1, -1, -1, b - a,
                         0, 0, 0, -1, 0 };
    const struct kw_wait *w = kw_wait_by_serial(k, iv->wait);
    if (w) {
        uint64_t len = (w->t1 ? w->t1 : k->t_last) - w->t0;
        q.obj = w->obj;
        q.owner = w->owner;
        q.owner_prio = w->owner_prio;
        q.own_by = w->by;
        if (len) { // the owner's doings in proportion to the part of the wait inside [t0, t1)
            q.own_run = (uint64_t)((double)w->own_run * (double)q.t / (double)len);
            q.own_ready = (uint64_t)((double)w->own_ready * (double)q.t / (double)len);
            q.own_blocked = (uint64_t)((double)w->own_blocked * (double)q.t / (double)len);
            q.own_wake = (uint64_t)((double)w->own_wake * (double)q.t / (double)len);
        }
    }
    add_part(p, n, max, &q);
}

unsigned kw_split(const struct kw *k, int th, uint64_t t0, uint64_t t1, struct kw_part *p,
                  unsigned max)
{
    unsigned n = 0;
    if (!valid(th) || t1 <= t0)
        return 0;
    const struct kw_thread *s = &k->th[th];
    uint64_t covered_from = t1;
    unsigned kept = s->nhist < KW_HIST ? s->nhist : KW_HIST;
    for (unsigned i = 0; i < kept && s->hist; i++) {
        const struct kw_iv *iv = &s->hist[(s->nhist - kept + i) % KW_HIST];
        if (i == 0)
            covered_from = iv->t0;
        split_iv(k, iv, t0, t1, p, &n, max);
    }
    if (s->state != NO_STATE) { // the interval still open
        struct kw_iv cur = { s->since, k->t_last > t1 ? k->t_last : t1, (uint8_t)s->state,
                             s->by, s->wait >= 0 ? k->wait[s->wait].serial : 0 };
        if (!kept)
            covered_from = s->since;
        split_iv(k, &cur, t0, t1, p, &n, max);
    }
    if (covered_from > t0) {
        struct kw_part q = { NO_STATE, -1, -1, -1, -1, (covered_from < t1 ? covered_from : t1) - t0,
                             0, 0, 0, -1, 0 };
        add_part(p, &n, max, &q);
    }
    return n;
}
