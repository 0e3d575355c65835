// SPDX-License-Identifier: MIT
// The text form of the wait analysis (tools/analysis/kx_wait.c) for kevstat: where the trace's owner
// and priority facts came from, priority inversions, deadlock cycles, threads still blocked
// at the end, and a critical-path step split into running / preempted / blocked-on-X-held-by-Y.
// Times are microseconds since boot, like every other tool's.
#include <kevhost/kx_wait_text.h>
#include <kevhost/kx_chain_text.h>

#include <stdlib.h>

static double us(const struct kx_stats *s, uint64_t cycles)
{
    return kx_seconds(s->r, cycles) * 1e6;
}

static const char *who_prio(const struct kx_stats *s, int th, int p, char *buf, size_t n)
{
    char lb[80];
    if (th < 0) {
        snprintf(buf, n, "(nobody known)");
        return buf;
    }
    if (p >= 0)
        snprintf(buf, n, "%s (prio %d)", kx_label(&s->m, th, lb, sizeof(lb)), p);
    else
        snprintf(buf, n, "%s", kx_label(&s->m, th, lb, sizeof(lb)));
    return buf;
}

// A condvar has no holder: its wait ends when another thread signals it (kx_wait.h).
static const char *held_by(unsigned state)
{
    return state == KEV_TH_CONDVAR ? "signalled by" : "held by";
}

// The thread with its priority at the end of the trace.
static const char *who(const struct kx_stats *s, int th, char *buf, size_t n)
{
    return who_prio(s, th, th >= 0 ? s->kw->th[th].prio : -1, buf, n);
}

// The thread with its own priority (the one it started with or set itself), not one it
// inherited; its priority at the end of the trace when the trace never gave its own.
static const char *who_own(const struct kx_stats *s, int th, char *buf, size_t n)
{
    char lb[80];
    const struct kw_thread *t = &s->kw->th[th];
    if (t->own_prio < 0)
        return who(s, th, buf, n);
    snprintf(buf, n, "%s (own prio %d)", kx_label(&s->m, th, lb, sizeof(lb)), t->own_prio);
    return buf;
}

void kx_wait_print_part(const struct kx_stats *s, const struct kw_part *p, const char *indent)
{
    char a[120], b[120], o[80];
    switch (p->state) {
    case KEV_TH_RUNNING:
        printf("%s%12.3f us running\n", indent, us(s, p->t));
        break;
    case KEV_TH_READY:
        if (p->by >= 0)
            printf("%s%12.3f us ready, preempted by %s\n", indent, us(s, p->t),
                   who(s, p->by, a, sizeof(a)));
        else
            printf("%s%12.3f us ready, waiting for its CPU\n", indent, us(s, p->t));
        break;
    case 255:
        printf("%s%12.3f us unknown (before the thread's kept history)\n", indent, us(s, p->t));
        break;
    default:
        if (p->obj >= 0 || p->owner >= 0) {
            printf("%s%12.3f us blocked (%s) on %s %s %s", indent, us(s, p->t),
                   kev_thread_state_name(p->state), kx_wait_obj(s, p->obj, o, sizeof(o)),
                   held_by(p->state), who_prio(s, p->owner, p->owner_prio, a, sizeof(a)));
            if (p->owner >= 0) {
                printf(": %s running %.3f us, ", p->state == KEV_TH_CONDVAR ? "signaller" : "owner",
                       us(s, p->own_run));
                if (p->own_wake) // (as print_wait's)
                    printf("waking %.3f us (its wake-up's latency), ", us(s, p->own_wake));
                printf("preempted %.3f us%s%s, blocked %.3f us", us(s, p->own_ready),
                       p->own_by >= 0 ? " by " : "",
                       p->own_by >= 0 ? who(s, p->own_by, b, sizeof(b)) : "",
                       us(s, p->own_blocked));
            }
            printf("\n");
        } else {
            printf("%s%12.3f us blocked (%s)\n", indent, us(s, p->t), kev_thread_state_name(p->state));
        }
    }
}

// Every thread that ran in the owner's place, largest share first: "m (prio 20)" alone, else
// "m (prio 20) for 1200.000 us, n (prio 25) for 800.000 us[, N other threads for T us]".
static void print_middles(const struct kx_stats *s, const struct kw_inv *v)
{
    char c[120];
    if (v->nmid == 1 && !v->others) {
        printf("%s", who_prio(s, v->mid[0].th, v->mid[0].prio, c, sizeof(c)));
        return;
    }
    for (unsigned j = 0; j < v->nmid; j++)
        printf("%s%s for %.3f us", j ? ", " : "",
               who_prio(s, v->mid[j].th, v->mid[j].prio, c, sizeof(c)), us(s, v->mid[j].lost));
    if (v->others)
        printf("%sother threads for %.3f us", v->nmid ? ", " : "", us(s, v->others));
}

void kx_wait_save(void *user, const struct kw_wait *w)
{
    fwrite(w, sizeof(*w), 1, user);
}

// One wait: when, who, how long, on what, held by whom, and what the owner did meanwhile.
static void print_wait(const struct kx_stats *s, const struct kw_wait *w)
{
    char a[120], b[120], o[80], lb[80];
    uint64_t end = w->t1 ? w->t1 : s->kw->t_last;
    printf("  %12.3f us %s waited %.3f us%s (%s) on %s %s %s", us(s, w->t0),
           kx_label(&s->m, w->th, a, sizeof(a)), us(s, end - w->t0),
           w->t1 ? "" : " (still at the end)", kev_thread_state_name(w->state),
           kx_wait_obj(s, w->obj, o, sizeof(o)), held_by(w->state),
           w->owner >= 0 ? kx_label(&s->m, w->owner, b, sizeof(b)) : "(nobody known)");
    if (w->owner >= 0 && w->state != KEV_TH_CONDVAR) { // (a signaller was no holder meanwhile)
        printf(": owner running %.3f us, ", us(s, w->own_run));
        if (w->own_wake) // (woken, its CPU idle or running less urgent work)
            printf("waking %.3f us (its wake-up's latency: the IPI and its CPU's answer), ",
                   us(s, w->own_wake));
        printf("preempted %.3f us", us(s, w->own_ready));
        for (unsigned i = 0; i < w->npre; i++)
            printf("%s%s %.3f us", i ? ", " : " (by ", kx_label(&s->m, w->pre[i].th, lb, sizeof(lb)),
                   us(s, w->pre[i].t));
        if (w->pre_other)
            printf("%sothers %.3f us", w->npre ? ", " : " (by ", us(s, w->pre_other));
        printf("%s, blocked %.3f us", w->npre || w->pre_other ? ")" : "", us(s, w->own_blocked));
        if (w->owner_obj >= 0 && w->own_blocked)
            printf(" on %s", kx_wait_obj(s, w->owner_obj, o, sizeof(o)));
        if (w->inv_t)
            printf("; inversion: %.3f us lost", us(s, w->inv_t));
    }
    printf("\n");
}

// Who blocked whom, how long: the waits at or over their threshold, by waiter, object and holder.
static void print_groups(const struct kx_stats *s)
{
    struct kw_group *g;
    uint64_t under;
    char a[120], b[120], o[80];
    size_t n = kx_wait_groups(s, &g, &under);
    if (s->wait_min_set)
        printf("== Waits of %.3f us or more, by waiter and object: %zu ==\n",
               (double)s->wait_min_ns / 1e3, n);
    else
        printf("== Waits of 1%% of the waiter's period or %u us or more, by waiter and object: "
               "%zu ==\n", KX_WAIT_MIN_NS / 1000u, n);
    for (size_t i = 0; i < n; i++)
        printf("  %s on %s %s %s: %llu wait(s), %.3f us in all, worst %.3f us at %.3f us\n",
               who_prio(s, g[i].waiter, g[i].waiter_prio, a, sizeof(a)),
               kx_wait_obj(s, g[i].obj, o, sizeof(o)), held_by(g[i].state),
               who_prio(s, g[i].owner, g[i].owner_prio, b, sizeof(b)), (unsigned long long)g[i].count,
               us(s, g[i].total), us(s, g[i].worst), us(s, g[i].worst_t0));
    if (under)
        printf("  (%llu shorter waits not listed)\n", (unsigned long long)under);
    free(g);
}

void kx_wait_print(const struct kx_stats *s, FILE *waits)
{
    const struct kw *k = s->kw;
    char a[120], b[120], o[80];
    printf("== Blocking: who blocked whom ==\n");
    if (!k) {
        printf("  (not computed: out of memory)\n");
        return;
    }
    printf("  owners: %s\n", kw_has_sync_events(k)
                                 ? "from SYNC_WAIT events"
                                 : "derived from MutexLock/MutexUnlock/SemWait/SemPost calls "
                                   "(no SYNC_WAIT events in this capture: locks taken before "
                                   "it started have no known owner)");
    printf("  priorities: %s\n", kw_has_prio_events(k)
                                     ? "from PRIO_CHANGE events"
                                     : "from thread state events (no PRIO_CHANGE events: "
                                       "boosts seen as an owner's priority rising in its "
                                       "state events, only in wide mode)");
    if (waits && !fflush(waits) && fseek(waits, 0, SEEK_END) == 0) {
        long n = ftell(waits) / (long)sizeof(struct kw_wait);
        rewind(waits);
        printf("== Waits on mutexes, semaphores and condition variables: %ld ==\n", n);
        struct kw_wait w;
        while (fread(&w, sizeof(w), 1, waits) == 1)
            print_wait(s, &w);
    }
    // ranked by the time they cost, the costliest first
    unsigned order[KW_MAX_INV];
    for (unsigned i = 0; i < k->ninv; i++) {
        unsigned j = i;
        for (; j > 0 && k->inv[order[j - 1]].lost < k->inv[i].lost; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    unsigned listed = 0;
    for (unsigned i = 0; i < k->ninv; i++)
        listed += k->inv[i].lost >= kx_wait_threshold(s, k->inv[i].waiter);
    printf("== Priority inversions: %u ==\n", listed);
    for (unsigned i = 0; i < k->ninv; i++) {
        const struct kw_inv *v = &k->inv[order[i]];
        // one that cost its waiter less than its threshold in all: counted, no finding
        int small = v->lost < kx_wait_threshold(s, v->waiter);
        printf("  %s %s blocked on %s held by %s, preempted by ",
               small ? "(under the threshold, not a finding) inversion" : "INVERSION",
               who_prio(s, v->waiter, v->pw, a, sizeof(a)), kx_wait_obj(s, v->obj, o, sizeof(o)),
               who_prio(s, v->owner, v->po, b, sizeof(b)));
        print_middles(s, v);
        printf(": %.3f us lost (%llu times, longest %.3f us, first at %.3f us)\n",
               us(s, v->lost), (unsigned long long)v->count, us(s, v->max), us(s, v->first_t));
    }
    // "boosted" by the one rule (kx_prio.h): mutex inheritance raising; a server taking its
    // clients' priorities is message inheritance, up and down, counted on its own line
    for (unsigned i = 0; i < s->m.nth && i < KW_MAX_THREADS; i++) {
        const uint64_t *n = k->th[i].prio_n;
        if (k->th[i].boosts)
            printf("  boosted %llu times by priority inheritance: %s\n",
                   (unsigned long long)k->th[i].boosts, who_own(s, (int)i, a, sizeof(a)));
        if (n[KX_PRIO_MSG_UP] || n[KX_PRIO_MSG_DOWN])
            printf("  message inheritance (not a boost): %s raised %llu times, lowered %llu "
                   "times to its clients' priorities\n", who_own(s, (int)i, a, sizeof(a)),
                   (unsigned long long)n[KX_PRIO_MSG_UP], (unsigned long long)n[KX_PRIO_MSG_DOWN]);
    }
    print_groups(s);
    kx_deadlock_print(s);
    if (k->nopen)
        printf("== Still blocked at the end of the trace (%.3f us) ==\n", us(s, k->t_last));
    for (unsigned i = 0; i < k->nopen; i++) {
        const struct kw_wait *w = &k->wait[k->open[i]];
        int cv = w->state == KEV_TH_CONDVAR;
        printf("  %s since %.3f us on %s %s%s\n", who_prio(s, w->th, w->prio, a, sizeof(a)),
               us(s, w->t0), kx_wait_obj(s, w->obj, o, sizeof(o)), cv ? "not signalled" : "held by ",
               cv ? "" : who_prio(s, w->owner, w->owner_prio, b, sizeof(b)));
    }
}
