// SPDX-License-Identifier: MIT
// The D programs of a capture: spans, consumers, the kernel's cost counts and the consumer's
// CPU time in each span (kx_dprog.h).
#include <kevhost/kx_dprog.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_stats.h>
#include <trace/kev.h>

// The RUNNING cycles of process pid's threads up to t, an open run counted to t.
static uint64_t process_running(const struct kx_stats *s, uint32_t pid, uint64_t t)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < s->m.nth; i++) {
        if (s->m.th[i].pid != pid)
            continue;
        const struct kx_th_stats *ts = &s->th[i];
        n += ts->state_t[KEV_TH_RUNNING];
        if (ts->state == KEV_TH_RUNNING && t > ts->since)
            n += t - ts->since;
    }
    return n;
}

// The program whose span is open: the last one, when its stop has not come.
static struct kx_dprog *open_span(struct kx_dprogs *d)
{
    return d->n && !d->p[d->n - 1].stop ? &d->p[d->n - 1] : NULL;
}

static void span_close(struct kx_stats *s, struct kx_dprog *p, uint64_t t)
{
    p->consumer = process_running(s, kev_who_pid(p->who), t) - p->consumer_at_go;
}

void kx_dprog_event(struct kx_stats *s, const struct kev_event *e)
{
    struct kx_dprogs *d = &s->dprogs;
    const struct kx_fields *f = kx_fields();
    if (e->cls != KEV_C_SYSTEM)
        return;
    if (e->ev == KEV_SYS_DPROG) {
        uint32_t what = kev_field(e, f->dprog_what), who = kev_field(e, f->dprog_who);
        struct kx_dprog *p = open_span(d);
        if (what == KEV_DPROG_GO) {
            if (p) {                    // a go with no stop before it: that span ends here
                p->stop = e->t64;
                span_close(s, p, e->t64);
            }
            if (d->n == KX_DPROG_MAX) {
                d->more++;
                return;
            }
            p = &d->p[d->n++];
            *p = (struct kx_dprog){ .go = e->t64, .who = who };
            p->consumer_at_go = process_running(s, kev_who_pid(who), e->t64);
        } else if (what == KEV_DPROG_STOP && p) {
            p->stop = e->t64;
            span_close(s, p, e->t64);
        }
    } else if (e->ev == KEV_SYS_DCOST && d->n) {   // right after its program's stop
        struct kx_dprog *p = &d->p[d->n - 1];
        uint64_t v = 0;
        kev_field_read(e, f->dcost_firings, &v);
        p->firings = v;
        kev_field_read(e, f->dcost_site, &v);
        p->site = v;
        kev_field_read(e, f->dcost_run, &v);
        p->run = v;
        p->costed = 1;
    }
}

void kx_dprog_finish(struct kx_stats *s, uint64_t t)
{
    struct kx_dprog *p = open_span(&s->dprogs);
    if (p)
        span_close(s, p, t);
}

// (a count, or null when the program has none)
static void count_or_null(FILE *f, const char *key, int present, uint64_t v)
{
    if (present)
        fprintf(f, ",\"%s\":%llu", key, (unsigned long long)v);
    else
        fprintf(f, ",\"%s\":null", key);
}

void kx_dprog_json(const struct kx_stats *s, FILE *f)
{
    const struct kx_dprogs *d = &s->dprogs;
    fputs(",\n\"d_programs\":[", f);
    for (unsigned i = 0; i < d->n; i++) {
        const struct kx_dprog *p = &d->p[i];
        fprintf(f, "%s\n{\"pid\":%u,\"tid\":%u,\"go\":%llu", i ? "," : "",
                kev_who_pid(p->who), kev_who_tid(p->who), (unsigned long long)p->go);
        count_or_null(f, "stop", p->stop != 0, p->stop);
        count_or_null(f, "firings", p->costed, p->firings);
        count_or_null(f, "site_cycles", p->costed, p->site);
        count_or_null(f, "run_cycles", p->costed, p->run);
        fprintf(f, ",\"consumer_cycles\":%llu}", (unsigned long long)p->consumer);
    }
    fprintf(f, "],\n\"d_programs_not_listed\":%u", d->more);
}
