// SPDX-License-Identifier: MIT
// The wait chains (kx_chain.h) as the "chains" member of kevstat --json's object, which
// kevreport embeds for its findings. Times in cycles since boot. Per waiter: its waits, their
// total, its threshold and whether it is listed (its worst wait reached it: kx_cwaiter_listed),
// the time attributed to each root (a thread, or an input, "input": true: what a thread that
// waited for input got, kx_chain_root_name; "" : no thread known, a cycle or a cut chain; "waking":
// of it, the root woken and not yet running, its wake-up's latency, when any), and its
// worst wait: when, its priority then, its path (the links it spent the most time on, from the
// waiter: how, on what, to whom, their time, given: known only when the link ended), its roots
// and the sentence kevstat prints.
#include <kevhost/kx_chain_text.h>
#include <kevhost/json_out.h>

// A root: its name, and "input": true for an input's (kx_chain_root_name).
static void root(FILE *f, const struct kx_stats *s, int r)
{
    char lb[80];
    fputs("\"thread\":", f);
    json_str(f, r == -1 ? "" : kx_chain_root_name(s, r, lb, sizeof(lb)), 0);
    if (KX_ROOT_IS_INPUT(r))
        fputs(",\"input\":true", f);
}

static void thread(FILE *f, const struct kx_stats *s, const char *key, int th)
{
    char lb[80];
    fprintf(f, "\"%s\":", key);
    json_str(f, th >= 0 ? kx_label(&s->m, th, lb, sizeof(lb)) : "", 0);
}

static void worst_json(FILE *f, const struct kx_stats *s, const struct kx_cwaiter *x)
{
    const struct kx_cwait *w = &x->worst;
    const struct kx_wlink *p[KX_CHAIN_MAX];
    unsigned np = kx_cwait_path(w, p, KX_CHAIN_MAX);
    char o[80], text[1024];
    fprintf(f, "{\"t0\":%llu,\"t1\":%llu,\"len\":%llu,\"open\":%s,\"prio\":%d,\"depth\":%u,"
               "\"cycle\":%s,\"path\":[", (unsigned long long)w->t0, (unsigned long long)w->t1,
            (unsigned long long)x->worst_len, w->t1 ? "false" : "true", w->prio, w->depth,
            w->cycle ? "true" : "false");
    for (unsigned i = 0; i < np; i++) {
        fprintf(f, "%s{\"pos\":%u,", i ? "," : "", p[i]->pos);
        thread(f, s, "from", p[i]->from);
        fprintf(f, ",\"how\":\"%s\",\"object\":", kx_link_name(p[i]->l.kind));
        json_str(f, kx_link_obj(s, &p[i]->l, o, sizeof(o)), 0);
        fputc(',', f), thread(f, s, "to", p[i]->l.to);
        fprintf(f, ",\"t\":%llu,\"given\":%s}", (unsigned long long)p[i]->t,
                p[i]->l.given ? "true" : "false");
    }
    fputs("],\"roots\":[", f);
    for (unsigned i = 0; i < w->nroot; i++) {
        fputs(i ? ",{" : "{", f);
        root(f, s, w->root[i].th);
        fprintf(f, ",\"t\":%llu", (unsigned long long)w->root[i].t);
        if (w->root[i].wake) // (of t, the root waking: its wake-up's latency)
            fprintf(f, ",\"waking\":%llu", (unsigned long long)w->root[i].wake);
        fputc('}', f);
    }
    fprintf(f, "],\"roots_other\":%llu,\"text\":", (unsigned long long)w->root_other);
    json_str(f, kx_cwait_text(s, w, x->worst_len, text, sizeof(text)), 0);
    fputc('}', f);
}

void kx_chain_json(const struct kx_stats *s, FILE *f)
{
    const struct kx_chains *c = s->chains;
    if (!kx_json_member(f, "chains", c != NULL))
        return;
    fputs("{\"waiters\":[", f);
    int first = 1;
    for (unsigned i = 0; i < s->m.nth; i++) {
        const struct kx_cwaiter *x = c->waiter[i];
        if (!x)
            continue;
        fputs(first ? "\n{" : ",\n{", f);
        first = 0;
        thread(f, s, "waiter", (int)i);
        fprintf(f, ",\"th\":%u,\"count\":%llu,\"total\":%llu,\"threshold\":%llu,\"listed\":%s,"
                   "\"roots\":[", i, (unsigned long long)x->count,
                (unsigned long long)x->total, (unsigned long long)kx_wait_threshold(s, (int)i),
                kx_cwaiter_listed(s, (int)i) ? "true" : "false");
        int k = 0;
        for (size_t j = 0; j < c->npair; j++)
            if (c->pair[j].waiter == (int)i && c->pair[j].t) {
                fputs(k++ ? ",{" : "{", f);
                root(f, s, c->pair[j].root);
                fprintf(f, ",\"t\":%llu,\"waits\":%llu", (unsigned long long)c->pair[j].t,
                        (unsigned long long)c->pair[j].waits);
                if (c->pair[j].wake)
                    fprintf(f, ",\"waking\":%llu", (unsigned long long)c->pair[j].wake);
                fputc('}', f);
            }
        fputs("],\"worst\":", f);
        worst_json(f, s, x);
        fputc('}', f);
    }
    fprintf(f, "],\"not_attributed\":%llu,\"not_followed\":%llu,\"deadlocks_not_kept\":%llu}",
            (unsigned long long)c->pair_lost, (unsigned long long)c->oom,
            (unsigned long long)c->dl_dropped);
}
