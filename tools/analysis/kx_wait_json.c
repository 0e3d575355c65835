// SPDX-License-Identifier: MIT
// The wait analysis (kx_wait.c) as the "waits" member of kevstat --json's object, which
// kevreport embeds for its findings panel and blocked-by arrows. Times in cycles since boot.
// An inversion's "middle" is its largest middle thread; "middles" names every one of them.
#include "kx_stats.h"

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
    kx_json_str(f, th >= 0 ? kx_label(&s->m, th, buf, sizeof(buf)) : "");
    fprintf(f, ",\"%s_prio\":%d", key, prio);
}

static void object(FILE *f, const struct kx_stats *s, int obj)
{
    char buf[80];
    fputs("\"object\":", f);
    kx_json_str(f, kx_wait_obj(s, obj, buf, sizeof(buf)));
}

void kx_wait_json(const struct kx_stats *s, FILE *f)
{
    const struct kw *k = s->kw;
    if (!k) {
        fputs(",\n\"waits\":null", f);
        return;
    }
    fprintf(f, ",\n\"waits\":{\"sync_events\":%s,\"prio_events\":%s,\"inversions\":[",
            kw_has_sync_events(k) ? "true" : "false", kw_has_prio_events(k) ? "true" : "false");
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
        fprintf(f, "],\"others_lost\":%llu}", (unsigned long long)v->others);
    }
    fputs("],\"deadlocks\":[", f);
    for (unsigned i = 0; i < k->ndl; i++) {
        const struct kw_deadlock *d = &k->dl[i];
        fprintf(f, "%s{\"t\":%llu,\"broken\":%llu,\"cycle\":[", i ? ",\n" : "\n",
                (unsigned long long)d->t, (unsigned long long)d->broken_t);
        for (unsigned j = 0; j < d->n; j++) {
            fputs(j ? ",{" : "{", f);
            thread(f, s, "thread", d->th[j], k->th[d->th[j]].prio);
            fputc(',', f), object(f, s, d->obj[j]);
            fputc(',', f), thread(f, s, "owner", d->th[(j + 1) % d->n], -1);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("],\"boosts\":[", f);
    int first = 1;
    for (unsigned i = 0; i < s->m.nth && i < KW_MAX_THREADS; i++)
        if (k->th[i].boosts) {
            fputs(first ? "{" : ",{", f);
            thread(f, s, "thread", (int)i, k->th[i].prio);
            fprintf(f, ",\"count\":%llu}", (unsigned long long)k->th[i].boosts);
            first = 0;
        }
    // Waits still open at the end: a truncated trace's blocked threads, drawn to its end.
    fprintf(f, "],\"end\":%llu,\"blocked_at_end\":[", (unsigned long long)k->t_last);
    for (unsigned i = 0; i < k->nopen; i++) {
        const struct kw_wait *w = &k->wait[k->open[i]];
        fputs(i ? ",{" : "{", f);
        thread(f, s, "thread", w->th, k->th[w->th].prio);
        fputc(',', f), object(f, s, w->obj);
        fputc(',', f), thread(f, s, "owner", w->owner, w->owner >= 0 ? k->th[w->owner].prio : -1);
        fprintf(f, ",\"since\":%llu}", (unsigned long long)w->t0);
    }
    fputs("]}", f);
}
