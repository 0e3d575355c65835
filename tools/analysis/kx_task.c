// SPDX-License-Identifier: MIT
// Task instances (kx_task.h): the activation point, each instance from its release to its end,
// and the judgement of every instance against its task's deadline at the end of the trace.
// Invariant: a thread's open instance (th.open) has been accounted (exec, ready, blocked) up
// to th.since, in the state th.state.
#include <kevhost/kx_task.h>
#include <kevhost/kx_ids.h>
#include <kevhost/tool_grow.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Where a thread waits between jobs: a receive, an interrupt wait, a sleep.
static int activation(unsigned st)
{
    return st == KEV_TH_RECEIVE || st == KEV_TH_INTR || st == KEV_TH_NANOSLEEP;
}

static int blocked(unsigned st)
{
    return st >= KEV_TH_STOPPED && st < KEV_TH_NSTATES;
}

void kx_tasks_setup(struct kx_tasks *k)
{
    for (unsigned i = 0; i < KX_MAX_THREADS; i++)
        k->th[i].state = KX_STATE_UNKNOWN, k->th[i].rel_src = -1;
}

void kx_tasks_free(struct kx_tasks *k)
{
    kx_timers_free(&k->timers);
    free(k->task), k->task = NULL;
    free(k->inst), k->inst = NULL;
    k->ntask = k->task_cap = 0;
    k->ninst = k->inst_cap = 0;
}

const char *kx_rel_how_name(unsigned how)
{
    static const char *const n[KX_REL_NHOW] = { "wake", "message", "pulse", "timer", "interrupt" };
    return how < KX_REL_NHOW ? n[how] : "?";
}

const char *kx_task_kind(const struct kx_task *t)
{
    return t->periodic ? "periodic" : "event-driven";
}

const char *kx_task_period_from(const struct kx_task *t)
{
    if (t->period_given)
        return "given";
    if (!t->period)
        return NULL;
    return t->relayed ? "relayed timer" : "timer";
}

unsigned kx_task_released_by(const struct kx_task *t)
{
    unsigned how = KX_REL_WAKE;
    for (unsigned h = KX_REL_MSG; h < KX_REL_NHOW; h++)
        if (t->by[h] > t->by[how])
            how = h;
    return how;
}

static int valid(int th)
{
    return th >= 0 && th < (int)KX_MAX_THREADS;
}

// Thread th's task (made when it first waits at its activation point), -1 out of memory.
static int task_of(struct kx_tasks *k, int th)
{
    struct kx_task_th *x = &k->th[th];
    if (x->task)
        return x->task - 1;
    if (tool_grow(&k->task, &k->task_cap, k->ntask + 1, sizeof(*k->task), 16))
        return -1;
    struct kx_task *t = &k->task[k->ntask];
    memset(t, 0, sizeof(*t));
    t->th = th;
    x->task = (int)++k->ntask;
    return x->task - 1;
}

// The open instance's time up to t goes to the state the thread was in.
static void account(struct kx_tasks *k, struct kx_task_th *x, uint64_t t)
{
    if (!x->open || t <= x->since || x->state == KX_STATE_UNKNOWN)
        return;
    struct kx_inst *i = &k->inst[x->open - 1];
    uint64_t d = t - x->since;
    if (x->state == KEV_TH_RUNNING)
        i->exec += d;
    else if (x->state == KEV_TH_READY)
        i->ready += d;
    else if (blocked(x->state))
        i->blocked += d;
}

// The open instance ends at t, at the thread's activation point: a job, whose kernel calls its
// task's later jobs are held to (kx_tasks_kcall).
static void end_open(struct kx_tasks *k, struct kx_task_th *x, uint64_t t)
{
    if (!x->open)
        return;
    struct kx_inst *i = &k->inst[x->open - 1];
    i->end = t;
    struct kx_task *tk = &k->task[i->task];
    for (unsigned w = 0; w < 4; w++)
        tk->calls[w] |= x->icalls[w];
    tk->jobs++;
    memset(x->icalls, 0, sizeof(x->icalls));
    memset(&x->cut, 0, sizeof(x->cut));
    x->open = 0;
}

// The thread dies in its open instance at t: the job in it ends where the thread first made a
// call its task's jobs never made (x->cut), the rest is its exit path, an instance of its own;
// with no such call, the whole instance is its exit path.
static void end_by_death(struct kx_tasks *k, struct kx_task_th *x, uint64_t t)
{
    if (!x->open)
        return;
    size_t j = x->open - 1;
    struct kx_inst *i = &k->inst[j];
    x->open = 0;
    if (!x->cut.t || x->cut.t <= i->release ||
        tool_grow(&k->inst, &k->inst_cap, k->ninst + 1, sizeof(*k->inst), 256)) {
        i->end = t;
        i->exit = 1;
        return;
    }
    i = &k->inst[j];        // (moved by the growth)
    struct kx_inst *e = &k->inst[k->ninst++];
    *e = *i;
    e->id = ++k->next_id;
    e->release = e->start = x->cut.t;
    e->end = t;
    e->exec = i->exec - x->cut.exec;
    e->ready = i->ready - x->cut.ready;
    e->blocked = i->blocked - x->cut.blocked;
    e->preempt = i->preempt - x->cut.preempt;
    e->queued = 0;
    e->exit = 1;
    i->end = x->cut.t;
    i->exec = x->cut.exec, i->ready = x->cut.ready, i->blocked = x->cut.blocked;
    i->preempt = x->cut.preempt;
    memset(x->icalls, 0, sizeof(x->icalls));
    memset(&x->cut, 0, sizeof(x->cut));
}

// A new instance of thread th, released at `rel`; running: it runs from t on. A pulse is a
// timer's (timer: its entry), an interrupt's (irq), or a thread's: one a timer released relays
// that timer.
static void release(struct kx_tasks *k, int th, uint64_t rel, enum kx_rel_how how, int src,
                    unsigned irq, unsigned timer, int queued, int running, uint64_t t)
{
    int relayed = 0;
    if (how == KX_REL_PULSE) {
        if (timer)
            how = KX_REL_TIMER;
        else if (irq)
            how = KX_REL_IRQ;
        else if (valid(src) && src != th && k->th[src].last_timer)
            timer = k->th[src].last_timer, relayed = 1;
    } else {
        timer = 0;
    }
    struct kx_task_th *x = &k->th[th];
    int task = task_of(k, th);
    if (task < 0) {
        k->lost++;
        return;
    }
    if (tool_grow(&k->inst, &k->inst_cap, k->ninst + 1, sizeof(*k->inst), 256)) {
        k->lost++;
        return;
    }
    struct kx_inst *i = &k->inst[k->ninst++];
    memset(i, 0, sizeof(*i));
    i->id = ++k->next_id;
    i->th = th;
    i->task = (unsigned)task;
    i->release = rel <= t ? rel : t;
    i->start = running ? t : 0;
    i->how = (uint8_t)how;
    i->queued = (uint8_t)queued;
    i->src = src;
    i->irq = irq;
    i->timer = timer;
    i->relayed = (uint8_t)relayed;
    x->open = k->ninst;
    x->last_timer = timer;
    memset(x->icalls, 0, sizeof(x->icalls));
    memset(&x->cut, 0, sizeof(x->cut));
    struct kx_task *tk = &k->task[task];
    tk->n++;
    tk->by[how < KX_REL_NHOW ? how : KX_REL_WAKE]++;
    if (timer)
        tk->by_timer++, tk->by_relay += (uint64_t)relayed, tk->timer = timer;
    if (tk->last_rel && i->release >= tk->last_rel)
        tk->recent[tk->nrecent++ % KX_RECENT_GAPS] = i->release - tk->last_rel;
    tk->last_rel = i->release;
}

void kx_tasks_state(struct kx_tasks *k, int th, unsigned st, uint64_t t)
{
    if (!valid(th) || k->judged)
        return;
    struct kx_task_th *x = &k->th[th];
    account(k, x, t);
    unsigned was = x->state;
    x->state = st;
    x->since = t;
    if (x->open) {
        struct kx_inst *i = &k->inst[x->open - 1];
        if (st == KEV_TH_RUNNING && !i->start)
            i->start = t;
        if (was == KEV_TH_RUNNING && st == KEV_TH_READY)
            i->preempt++;
    }
    if (activation(st)) {           // waits between jobs: the instance (if any) ends
        end_open(k, x, t);
        if (task_of(k, th) < 0)
            k->lost++;
        x->at = 1;
        x->rel = 0;
    } else if (st == KEV_TH_DEAD) {
        end_by_death(k, x, t);      // its last job, and the code after it: its exit path
        x->at = 0;
        x->last_timer = 0;
    } else if (x->at && (st == KEV_TH_READY || st == KEV_TH_RUNNING)) {
        x->at = 0;                  // woken at its activation point: released
        if (x->rel)
            release(k, th, x->rel, x->rel_how, x->rel_src, x->rel_irq, x->rel_timer, 0,
                    st == KEV_TH_RUNNING, t);
        else
            release(k, th, t, KX_REL_WAKE, -1, 0, 0, 0, st == KEV_TH_RUNNING, t);
        x->rel = 0;
    }
}

void kx_tasks_recv(struct kx_tasks *k, int th, int running, uint64_t t, uint64_t t_send,
                   enum kx_rel_how how, int src, unsigned irq, unsigned timer)
{
    if (!valid(th) || k->judged)
        return;
    struct kx_task_th *x = &k->th[th];
    if (!running) {                 // handed over while it waited: released at its wake-up
        if (x->at) {
            x->rel = t_send ? t_send : t;
            x->rel_how = (uint8_t)how, x->rel_src = src, x->rel_irq = irq;
            x->rel_timer = timer;
        }
        return;
    }
    // a receive that found it queued: the instance before ends here, the new one was released
    // when it was sent
    account(k, x, t);
    x->since = t;
    int queued = x->open != 0;
    end_open(k, x, t);
    x->at = 0;
    release(k, th, t_send ? t_send : t, how, src, irq, timer, queued, 1, t);
}

unsigned kx_tasks_timer(struct kx_tasks *k, uint32_t pid, uint32_t id, uint32_t chan, uint64_t t)
{
    return k->judged ? 0 : kx_timers_expiry(&k->timers, pid, id, chan, t);
}

void kx_tasks_armed(struct kx_tasks *k, uint32_t pid, uint32_t id, uint32_t interval_us)
{
    if (!k->judged)
        kx_timers_armed(&k->timers, pid, id, interval_us);
}

void kx_tasks_kcall(struct kx_tasks *k, int th, unsigned call, uint64_t t)
{
    if (!valid(th) || k->judged || call >= 256u)
        return;
    struct kx_task_th *x = &k->th[th];
    if (!x->open)
        return;
    uint64_t bit = 1ull << (call % 64u);
    x->icalls[call / 64u] |= bit;
    const struct kx_task *tk = &k->task[k->inst[x->open - 1].task];
    if (x->cut.t || !tk->jobs || (tk->calls[call / 64u] & bit))
        return;
    account(k, x, t);               // a call no job made: where this one's work ended
    x->since = t;
    const struct kx_inst *i = &k->inst[x->open - 1];
    x->cut.t = t;
    x->cut.exec = i->exec, x->cut.ready = i->ready, x->cut.blocked = i->blocked;
    x->cut.preempt = i->preempt;
}

void kx_tasks_lost(struct kx_tasks *k, int th, unsigned n)
{
    if (!valid(th) || k->judged)
        return;
    int task = task_of(k, th);
    if (task < 0)
        k->lost++;
    else
        k->task[task].missed_periods += n;
}

// ---- given periods and deadlines -----------------------------------------------------------------

int kx_tasks_rule(struct kx_tasks *k, const char *tool, const char *opt, const char *arg)
{
    struct kx_timing r;
    if (kx_timing_parse(tool, opt, arg, &r))
        return -1;
    if (k->nrule >= KX_MAX_TIMING) {
        fprintf(stderr, "%s: --%s %s: at most %u periods and deadlines\n", tool, opt, arg,
                KX_MAX_TIMING);
        return -1;
    }
    k->rule[k->nrule++] = r;
    return 0;
}

void kx_tasks_rules(struct kx_tasks *k, const struct kx_timing_set *set)
{
    for (unsigned i = 0; i < set->n && k->nrule < KX_MAX_TIMING; i++)
        k->rule[k->nrule++] = set->rule[i];
}

// A rule names thread th: its label ("process/thread") or its Linux name (a main thread's is
// its program's).
static int names(const struct kx_model *m, int th, const char *name)
{
    char lb[80];
    return !strcmp(kx_label(m, th, lb, sizeof(lb)), name) || !strcmp(kx_lcomm(m, th), name);
}

static uint64_t cycles(uint64_t ns, uint64_t cps)
{
    return (uint64_t)((double)ns * (double)cps / 1e9 + 0.5);
}

// The period and deadline the rules give the task of thread th (a later rule of a kind over an
// earlier); each rule that names it counted in count[] when count is not NULL.
struct given {
    uint64_t deadline, period;
    int deadline_given, period_given;
};

static struct given given(const struct kx_tasks *k, const struct kx_model *m, int th,
                          uint64_t cps, struct kx_timing *count)
{
    struct given g = { 0 };
    for (unsigned r = 0; r < k->nrule; r++) {
        const struct kx_timing *x = &k->rule[r];
        if (!names(m, th, x->name))
            continue;
        if (count)
            count[r].matched++;
        if (x->deadline)
            g.deadline = cycles(x->ns, cps), g.deadline_given = 1;
        else
            g.period = cycles(x->ns, cps), g.period_given = 1;
    }
    return g;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// The whole number of intervals `iv` nearest `gap` (at least one) times iv: a relayed timer's
// period, its releases' median interval on the timer's grid.
static uint64_t on_grid(uint64_t gap, uint64_t iv)
{
    uint64_t n = iv ? (gap + iv / 2) / iv : 0;
    return (n ? n : 1) * iv;
}

// Every task's intervals between releases, and its period unless a rule gives it: a periodic
// task's timer's interval (relayed: on_grid of the median interval, the lower one of an even
// count).
static void periods(struct kx_tasks *k, uint64_t cps)
{
    uint64_t *gap = malloc((k->ninst + 1) * sizeof(*gap));
    size_t *at = calloc(k->ntask + 1, sizeof(*at));
    uint64_t *last = calloc(k->ntask + 1, sizeof(*last));
    if (!gap || !at || !last) {
        free(gap), free(at), free(last);
        return;
    }
    for (size_t j = 0; j < k->ninst; j++) // each task's instances kept (all, unless forgotten)
        at[k->inst[j].task + 1]++;
    for (size_t n = 0, t = 0; t < k->ntask; t++) { // each task's slice of gap[], in task order
        size_t kept = at[t + 1];
        at[t] = n, n += kept ? kept - 1 : 0;
    }
    for (size_t j = 0; j < k->ninst; j++) {
        const struct kx_inst *i = &k->inst[j];
        struct kx_task *t = &k->task[i->task];
        if (i->exit)            // (its exit path: no release)
            continue;
        if (last[i->task] && i->release >= last[i->task]) {
            uint64_t d = i->release - last[i->task];
            gap[at[i->task] + t->gaps++] = d;
            t->gap_sum += d;
            if (t->gaps == 1 || d < t->gap_min)
                t->gap_min = d;
            if (d > t->gap_max)
                t->gap_max = d;
        }
        last[i->task] = i->release;
    }
    for (unsigned t = 0; t < k->ntask; t++) {
        struct kx_task *x = &k->task[t];
        x->interval = kx_timers_interval(&k->timers, x->timer, cps, 0);
        if (x->period_given || !x->periodic)
            continue;
        x->period = x->interval;
        if (x->relayed && x->gaps) {
            qsort(gap + at[t], x->gaps, sizeof(*gap), cmp_u64);
            x->period = on_grid(gap[at[t] + (x->gaps - 1) / 2], x->interval);
        }
    }
    free(gap), free(at), free(last);
}

static void judge(struct kx_tasks *k, struct kx_inst *i, uint64_t t_last,
                  const struct kx_emul *x)
{
    struct kx_task *t = &k->task[i->task];
    i->emul = kx_emul_inside(x, i->th, i->release, i->end ? i->end : t_last);
    t->stretched += i->emul != 0;
    t->emul += i->emul;
    i->period = t->period;
    i->deadline = t->deadline_given ? t->deadline : t->period;
    t->preempt += i->preempt;
    if (i->exit) {                  // its exit path: no job, not judged
        t->exits++;
        i->deadline = 0;
        return;
    }
    if (kx_emul_in_lost(x, i->release, i->end ? i->end : t_last)) {
        i->lost = 1;                // not recorded whole: in no time and not judged
        t->spoiled++;
        t->ended += i->end != 0;
        t->unfinished += i->end == 0;
        return;
    }
    if (i->end) {
        t->ended++;
        kx_dist_add(&t->resp, i->end - i->release);
        kx_dist_add(&t->exec, i->exec);
        const struct kx_inst *w = kx_tasks_inst(k, t->worst);
        if (!w || i->end - i->release > w->end - w->release)
            t->worst = i->id;
    } else {
        t->unfinished++;
    }
    if (!i->deadline)
        return;
    uint64_t due = i->release + i->deadline, end = i->end ? i->end : t_last;
    i->lateness = (int64_t)(end - due);
    i->missed = end > due;
    if (!i->end && !i->missed)
        return;                     // open, its deadline still ahead: not judged
    i->emul_miss = (uint8_t)(i->missed && i->emul >= (uint64_t)i->lateness);
    if (i->emul_miss) {
        t->emul_misses++;
        return;
    }
    t->misses += (uint64_t)i->missed;
    if (i->lateness > t->late_max)
        t->late_max = i->lateness;
}

void kx_tasks_finish(struct kx_tasks *k, const struct kx_model *m, uint64_t t_last, uint64_t cps,
                     const struct kx_emul *x)
{
    for (unsigned i = 0; i < KX_MAX_THREADS; i++)  // the open instances' time up to the end
        if (k->th[i].open) {
            account(k, &k->th[i], t_last);
            k->th[i].since = t_last;
        }
    for (unsigned r = 0; r < k->nrule; r++)
        k->rule[r].matched = 0;
    for (unsigned t = 0; t < k->ntask; t++) {
        struct kx_task *x = &k->task[t];
        x->late_max = INT64_MIN;
        x->periodic = x->by_timer * 2u > x->n;
        x->relayed = x->periodic && x->by_relay * 2u > x->by_timer;
        struct given g = given(k, m, x->th, cps, k->rule);
        if (g.deadline_given)
            x->deadline = g.deadline, x->deadline_given = 1;
        if (g.period_given)
            x->period = g.period, x->period_given = 1;
    }
    periods(k, cps);
    for (unsigned t = 0; t < k->ntask; t++)
        if (!k->task[t].deadline_given)
            k->task[t].deadline = k->task[t].period;
    for (size_t j = 0; j < k->ninst; j++)
        judge(k, &k->inst[j], t_last, x);
    k->judged = 1;
}

int kx_tasks_judge_now(const struct kx_tasks *k, const struct kx_model *m,
                       const struct kx_inst *i, uint64_t cps, uint64_t *deadline)
{
    const struct kx_task *t = &k->task[i->task];
    *deadline = 0;
    if (i->exit)        // an instance that ended with its thread is judged by no deadline
        return 0;
    struct given g = given(k, m, t->th, cps, NULL);
    uint64_t per = g.period;
    if (!g.deadline_given && !g.period_given && t->by_timer * 2u > t->n) {
        per = kx_timers_interval(&k->timers, t->timer, cps, 1);
        if (t->by_relay * 2u > t->by_timer && t->nrecent) {
            unsigned n = t->nrecent < KX_RECENT_GAPS ? t->nrecent : KX_RECENT_GAPS;
            uint64_t gap[KX_RECENT_GAPS];
            memcpy(gap, t->recent, n * sizeof(*gap));
            qsort(gap, n, sizeof(*gap), cmp_u64);
            per = on_grid(gap[(n - 1) / 2], per);
        }
    }
    *deadline = g.deadline_given ? g.deadline : per;
    return *deadline && i->end && i->end - i->release > *deadline;
}

const struct kx_task *kx_tasks_of(const struct kx_tasks *k, int th)
{
    return k && valid(th) && k->th[th].task ? &k->task[k->th[th].task - 1] : NULL;
}

static int by_id(const void *key, const void *elt)
{
    uint64_t id = *(const uint64_t *)key, at = ((const struct kx_inst *)elt)->id;
    return id < at ? -1 : id > at;
}

// The instances are in id order, each id once (released in order; forgetting keeps the order).
const struct kx_inst *kx_tasks_inst(const struct kx_tasks *k, uint64_t id)
{
    if (!k || !id || !k->ninst)
        return NULL;
    return bsearch(&id, k->inst, k->ninst, sizeof(*k->inst), by_id);
}

void kx_tasks_forget(struct kx_tasks *k)
{
    size_t n = 0;
    for (size_t j = 0; j < k->ninst; j++) {
        struct kx_inst *i = &k->inst[j];
        if (i->end) {
            k->forgotten++;
            continue;
        }
        if (valid(i->th) && k->th[i->th].open == j + 1) // its thread's open one: moved
            k->th[i->th].open = n + 1;
        k->inst[n++] = *i;
    }
    k->ninst = n;
}
