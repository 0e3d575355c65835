// SPDX-License-Identifier: MIT
// The wait analysis (kx_wait.c) as the "waits" member of kevstat --json's object, which
// kevreport embeds for its findings panel and blocked-by arrows. Times in cycles since boot.
// An inversion's "middle" is its largest middle thread; "middles" names every one of them.
// "groups" are the waits that cost something (kw_wait_groups), "boosts" each thread's boosts by
// the one rule (kx_prio.h) with its other priority changes by kind.
#include <kevhost/kx_stats.h>
#include <kevhost/kx_chain_text.h>

#include <stdlib.h>
#include <string.h>
#include <kevhost/json_out.h>

int kx_wait_min_arg(const char *tool, const char *arg, uint64_t *ns)
{
    if (!kx_time_arg(arg, ns))
        return 0;
    fprintf(stderr, "%s: --wait-min %s: not a time; give a length such as 250us, 1.5ms or 0 "
            "(0: every wait)\n", tool, arg);
    return -1;
}

static uint64_t ns_to_cycles(const struct kx_stats *s, uint64_t ns)
{
    return (uint64_t)((double)ns * (double)s->r->kr_cycles_per_sec / 1e9 + 0.5);
}

uint64_t kx_wait_threshold(const struct kx_stats *s, int th)
{
    return kw_threshold(s->kw, th, ns_to_cycles(s, s->wait_min_ns),
                        s->wait_min_set ? 0 : ns_to_cycles(s, KX_WAIT_MIN_NS));
}

size_t kx_wait_groups(const struct kx_stats *s, struct kw_group **out, uint64_t *under)
{
    *out = NULL;
    *under = 0;
    if (!s->kw)
        return 0;
    return kw_wait_groups(s->kw, ns_to_cycles(s, s->wait_min_ns),
                          s->wait_min_set ? 0 : ns_to_cycles(s, KX_WAIT_MIN_NS), out, under);
}

const char *kx_wait_obj(const struct kx_stats *s, int obj, char *buf, size_t n)
{
    if (obj < 0 || !s->kw)
        snprintf(buf, n, "an unknown object");
    else
        snprintf(buf, n, "%s %u", kw_kind_name(s->kw->obj[obj].kind), s->kw->obj[obj].id);
    return buf;
}

static void thread(FILE *f, const struct kx_stats *s, const char *key, int th, int prio)
{
    char buf[80];
    fprintf(f, "\"%s\":", key);
    json_str(f, th >= 0 ? kx_label(&s->m, th, buf, sizeof(buf)) : "", 0);
    fprintf(f, ",\"%s_prio\":%d", key, prio);
}

static void object(FILE *f, const struct kx_stats *s, int obj)
{
    char buf[80];
    fputs("\"object\":", f);
    json_str(f, kx_wait_obj(s, obj, buf, sizeof(buf)), 0);
}

void kx_wait_parts_json(const struct kx_stats *s, FILE *f, int th, uint64_t t0, uint64_t t1)
{
    struct kw_part p[KW_MAX_PARTS];
    unsigned n = s->kw ? kw_split(s->kw, th, t0, t1, p, KW_MAX_PARTS) : 0;
    fputs(",\"parts\":[", f);
    for (unsigned i = 0; i < n; i++) {
        fprintf(f, "%s{\"state\":\"%s\",\"t\":%llu", i ? "," : "",
                p[i].state < KEV_TH_NSTATES ? kev_thread_state_name(p[i].state) : "unknown",
                (unsigned long long)p[i].t);
        if (p[i].state == KEV_TH_READY)
            fputc(',', f), thread(f, s, "by", p[i].by, p[i].by >= 0 ? s->m.th[p[i].by].prio : -1);
        if (p[i].obj >= 0 || p[i].owner >= 0) {
            fputc(',', f), object(f, s, p[i].obj);
            fputc(',', f), thread(f, s, "owner", p[i].owner, p[i].owner_prio);
            if (p[i].own_wake) // (the owner woken and not yet running: a wake-up's latency)
                fprintf(f, ",\"owner_waking\":%llu", (unsigned long long)p[i].own_wake);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

// "inversions": each priority inversion with its waiter, owner and every middle thread.
static void inversions_json(const struct kx_stats *s, FILE *f)
{
    const struct kw *k = s->kw;
    fputs(",\"inversions\":[", f);
    for (unsigned i = 0; i < k->ninv; i++) {
        const struct kw_inv *v = &k->inv[i];
        fputs(i ? ",\n{" : "\n{", f);
        thread(f, s, "waiter", v->waiter, v->pw);
        fputc(',', f), thread(f, s, "owner", v->owner, v->po);
        fputc(',', f), thread(f, s, "middle", v->middle, v->pm);
        fputc(',', f), object(f, s, v->obj);
        fprintf(f, ",\"count\":%llu,\"lost\":%llu,\"max\":%llu,\"first\":%llu",
                (unsigned long long)v->count, (unsigned long long)v->lost,
                (unsigned long long)v->max, (unsigned long long)v->first_t);
        // every thread that ran in the owner's place, largest share first ("middle" above is
        // the first of them); the shares and others_lost add up to lost
        fputs(",\"middles\":[", f);
        for (unsigned j = 0; j < v->nmid; j++) {
            fputs(j ? ",{" : "{", f);
            thread(f, s, "thread", v->mid[j].th, v->mid[j].prio);
            fprintf(f, ",\"lost\":%llu}", (unsigned long long)v->mid[j].lost);
        }
        // a finding only when it cost at least the waiter's threshold in all (kw_threshold)
        uint64_t thr = kx_wait_threshold(s, v->waiter);
        fprintf(f, "],\"others_lost\":%llu,\"threshold\":%llu,\"listed\":%s}",
                (unsigned long long)v->others, (unsigned long long)thr,
                v->lost >= thr ? "true" : "false");
    }
    fputc(']', f);
}

// "deadlocks": the wait chains' cycles (kx_chain.h), each thread with what it waits on.
static void deadlocks_json(const struct kx_stats *s, FILE *f)
{
    fputs(",\"deadlocks\":[", f);
    const struct kx_chains *c = s->chains;
    for (unsigned i = 0; c && i < c->ndl; i++) {
        const struct kx_deadlock *d = &c->dl[i];
        char o[80];
        fprintf(f, "%s{\"t\":%llu,\"broken\":%llu,\"cycle\":[", i ? ",\n" : "\n",
                (unsigned long long)d->t, (unsigned long long)d->broken_t);
        for (unsigned j = 0; j < d->n; j++) {
            fputs(j ? ",{" : "{", f);
            thread(f, s, "thread", d->th[j], s->m.th[d->th[j]].prio);
            fputs(",\"object\":", f);
            json_str(f, kx_link_obj(s, &d->link[j], o, sizeof(o)), 0);
            fprintf(f, ",\"how\":\"%s\",", kx_link_name(d->link[j].kind));
            thread(f, s, "owner", d->th[(j + 1) % d->n], -1);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputc(']', f);
}

// The thresholds, then "groups": the waits that cost something, by waiter, object and owner.
static void groups_json(const struct kx_stats *s, FILE *f)
{
    const struct kw *k = s->kw;
    struct kw_group *g;
    uint64_t under;
    size_t ng = kx_wait_groups(s, &g, &under);
    fprintf(f, ",\"threshold_ns\":%lld,\"default_threshold_ns\":%u,\"under_threshold\":%llu,"
            "\"waits_not_kept\":%llu,\"groups\":[",
            s->wait_min_set ? (long long)s->wait_min_ns : -1LL,
            KX_WAIT_MIN_NS, (unsigned long long)under, (unsigned long long)k->done_lost);
    for (size_t i = 0; i < ng; i++) {
        const struct kw_group *x = &g[i];
        fputs(i ? ",\n{" : "\n{", f);
        thread(f, s, "waiter", x->waiter, x->waiter_prio); // priorities at its worst wait
        fputc(',', f), object(f, s, x->obj);
        fputc(',', f), thread(f, s, "owner", x->owner, x->owner_prio);
        fprintf(f, ",\"state\":\"%s\",\"count\":%llu,\"total\":%llu,\"worst\":%llu,"
                "\"worst_at\":%llu,\"first\":%llu,\"threshold\":%llu,\"under\":%llu,"
                "\"period\":%llu}", kev_thread_state_name(x->state), (unsigned long long)x->count,
                (unsigned long long)x->total, (unsigned long long)x->worst,
                (unsigned long long)x->worst_t0, (unsigned long long)x->first_t0,
                (unsigned long long)x->min, (unsigned long long)x->under,
                (unsigned long long)kw_period(k, x->waiter));
    }
    free(g);
    fputc(']', f);
}

// "boosts": every thread whose priority inheritance changed its priority: "count" its boosts
// (the one rule, kx_prio_is_boost), the rest of its PRIO_CHANGE events by kind.
static void boosts_json(const struct kx_stats *s, FILE *f)
{
    const struct kw *k = s->kw;
    fputs(",\"boosts\":[", f);
    int first = 1;
    for (unsigned i = 0; i < s->m.nth && i < KW_MAX_THREADS; i++) {
        const uint64_t *n = k->th[i].prio_n;
        if (!k->th[i].boosts && !n[KX_PRIO_MSG_UP] && !n[KX_PRIO_MSG_DOWN])
            continue;
        fputs(first ? "{" : ",{", f);
        thread(f, s, "thread", (int)i, k->th[i].prio);
        fprintf(f, ",\"count\":%llu,\"kinds\":{", (unsigned long long)k->th[i].boosts);
        for (unsigned j = 0; j < KX_PRIO_NKINDS; j++)
            fprintf(f, "%s\"%s\":%llu", j ? "," : "", kx_prio_kind_name((enum kx_prio_kind)j),
                    (unsigned long long)n[j]);
        fputs("}}", f);
        first = 0;
    }
    fputc(']', f);
}

// "end" and "blocked_at_end": the waits still open at the end, a truncated trace's blocked
// threads, drawn to its end.
static void blocked_json(const struct kx_stats *s, FILE *f)
{
    const struct kw *k = s->kw;
    fprintf(f, ",\"end\":%llu,\"blocked_at_end\":[", (unsigned long long)k->t_last);
    for (unsigned i = 0; i < k->nopen; i++) {
        const struct kw_wait *w = &k->wait[k->open[i]];
        fputs(i ? ",{" : "{", f);
        thread(f, s, "thread", w->th, w->prio);
        fputc(',', f), object(f, s, w->obj);
        fputc(',', f), thread(f, s, "owner", w->owner, w->owner_prio);
        fprintf(f, ",\"since\":%llu}", (unsigned long long)w->t0);
    }
    fputc(']', f);
}

void kx_wait_json(const struct kx_stats *s, FILE *f)
{
    const struct kw *k = s->kw;
    if (!kx_json_member(f, "waits", k != NULL))
        return;
    fprintf(f, "{\"sync_events\":%s,\"prio_events\":%s",
            kw_has_sync_events(k) ? "true" : "false", kw_has_prio_events(k) ? "true" : "false");
    inversions_json(s, f);
    deadlocks_json(s, f);
    groups_json(s, f);
    boosts_json(s, f);
    blocked_json(s, f);
    fputc('}', f);
}
