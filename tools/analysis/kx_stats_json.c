// SPDX-License-Identifier: MIT
// The analyses (kx_stats.h) as one JSON object: kevstat --json prints it, kevreport embeds it.
// Times are in cycles; "cycles_per_sec" converts them. Histograms are power-of-two buckets:
// [lower bound, count] pairs for the non-empty buckets, bucket [2^(b-1), 2^b) (0 alone).
#include <string.h>

#include <kevhost/kx_stats.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_emul.h>
#include <kevhost/json_out.h>

void kx_dist_json(FILE *f, const char *key, const struct kx_dist *d)
{
    fprintf(f, "\"%s\":{\"n\":%llu,\"sum\":%llu,\"min\":%llu,\"max\":%llu,\"mean\":%.3f,"
               "\"hist\":[", key, (unsigned long long)d->n, (unsigned long long)d->sum,
            (unsigned long long)d->min, (unsigned long long)d->max,
            d->n ? (double)d->sum / (double)d->n : 0.0);
    int first = 1;
    for (unsigned b = 0; b < KX_HIST; b++) {
        if (!d->hist[b])
            continue;
        uint64_t lo = b ? 1ull << (b - 1) : 0;
        fprintf(f, "%s[%llu,%llu]", first ? "" : ",", (unsigned long long)lo,
                (unsigned long long)d->hist[b]);
        first = 0;
    }
    fputs("]}", f);
}

static void label(FILE *f, const struct kx_stats *s, int th)
{
    char buf[80];
    json_str(f, kx_label(&s->m, th, buf, sizeof(buf)), 0);
}

static const char *proc_name(const struct kx_stats *s, uint32_t pid)
{
    for (unsigned i = 0; i < s->m.nth; i++)
        if (s->m.th[i].pid == pid && s->m.th[i].comm[0])
            return s->m.th[i].comm;
    return pid == 0 ? "kernel" : "";     // process 0 has no name event: the kernel's own
}

static void threads(const struct kx_stats *s, FILE *f)
{
    fputs(",\n\"threads\":[", f);
    for (unsigned i = 0; i < s->m.nth; i++) {
        const struct kx_th_stats *t = &s->th[i];
        fprintf(f, "%s\n{\"pid\":%u,\"tid\":%u,\"name\":", i ? "," : "", s->m.th[i].pid,
                s->m.th[i].tid);
        label(f, s, (int)i);
        fprintf(f, ",\"prio\":%d,\"cpu_cycles\":%llu,\"runs\":%llu,\"migrations\":%llu,",
                s->m.th[i].prio, (unsigned long long)t->state_t[KEV_TH_RUNNING],
                (unsigned long long)t->runs, (unsigned long long)t->migrations);
        fputs("\"states\":{", f);
        int first = 1;
        for (unsigned st = 0; st < KEV_TH_NSTATES; st++)
            if (t->state_t[st]) {
                fprintf(f, "%s\"%s\":%llu", first ? "" : ",", kev_thread_state_name(st),
                        (unsigned long long)t->state_t[st]);
                first = 0;
            }
        fputs("}}", f);
    }
    fputs("],\n\"processes\":[", f);
    int first = 1;
    for (unsigned i = 0; i < s->m.nth; i++) {
        uint32_t pid = s->m.th[i].pid;
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = s->m.th[j].pid == pid;
        if (seen)
            continue;
        uint64_t cpu = 0;
        for (unsigned j = i; j < s->m.nth; j++)
            if (s->m.th[j].pid == pid)
                cpu += s->th[j].state_t[KEV_TH_RUNNING];
        fprintf(f, "%s{\"pid\":%u,\"name\":", first ? "" : ",", pid);
        json_str(f, proc_name(s, pid), 0);
        fprintf(f, ",\"cpu_cycles\":%llu}", (unsigned long long)cpu);
        first = 0;
    }
    fputs("],\n\"priorities\":[", f);
    first = 1;
    for (unsigned p = 0; p < KX_NPRIO; p++)
        if (s->prio_t[p]) {
            fprintf(f, "%s{\"prio\":%u,\"cpu_cycles\":%llu}", first ? "" : ",", p,
                    (unsigned long long)s->prio_t[p]);
            first = 0;
        }
    // each CPU from the first event to the last: a thread other than idle running (busy),
    // its idle thread (idle), no thread known (none); the three add up to the trace's span
    unsigned ncpu = s->r->kr_ncpu_seen ? s->r->kr_ncpu_seen : 1;
    fputs("],\n\"idle_cycles\":[", f);
    for (unsigned c = 0; c < ncpu; c++)
        fprintf(f, "%s%llu", c ? "," : "", (unsigned long long)s->idle_t[c]);
    fputs("],\n\"none_cycles\":[", f);
    for (unsigned c = 0; c < ncpu; c++)
        fprintf(f, "%s%llu", c ? "," : "", (unsigned long long)s->none_t[c]);
    fputs("],\n\"busy_cycles\":[", f);
    for (unsigned c = 0; c < ncpu; c++)
        fprintf(f, "%s%llu", c ? "," : "", (unsigned long long)s->busy_t[c]);
    fprintf(f, "],\n\"migrations\":%llu", (unsigned long long)s->migrations);
    // busy_cycles over time (kx_load.h): buckets of `width` cycles from t0, per CPU
    unsigned nb = kx_load_count(&s->load, s->t_last);
    fprintf(f, ",\n\"cpu_load\":{\"t0\":%llu,\"width\":%llu,\"busy\":[",
            (unsigned long long)s->load.t0, (unsigned long long)s->load.width);
    for (unsigned c = 0; c < ncpu; c++) {
        fputs(c ? ",[" : "[", f);
        for (unsigned b = 0; b < nb; b++)
            fprintf(f, "%s%llu", b ? "," : "", (unsigned long long)s->load.busy[c][b]);
        fputc(']', f);
    }
    fputs("]}", f);
}

static void kcalls(const struct kx_stats *s, FILE *f)
{
    fputs(",\n\"kernel_calls\":[", f);
    int first = 1;
    for (unsigned c = 0; c < KX_KC_SLOTS; c++) {
        const struct kx_kc_stats *k = &s->kc[c];
        if (!k->entries && !k->lat.n && !k->errors)
            continue;
        char nb[48], ab[16];
        // (a row apart from its number's also says its API name and whether the logger's)
        if (c >= KEV_KC_MAX)
            fprintf(f, "%s\n{\"api\":\"%s\",\"logger\":%s,", first ? "" : ",",
                    c == KX_KC_BROADCAST ? "CondBroadcast" : kx_kcall_name(kx_kc_slot_call(c), ab, sizeof(ab)),
                    c >= KX_KC_LOGGER ? "true" : "false");
        fprintf(f, "%s\"call\":%u,\"name\":\"%s\",\"count\":%llu,\"entries\":%llu,"
                   "\"errors\":%llu,\"interrupted\":%llu,\"errno\":{",
                c >= KEV_KC_MAX ? "" : first ? "\n{" : ",\n{", kx_kc_slot_call(c),
                kx_kc_slot_name(c, nb, sizeof(nb)), (unsigned long long)k->lat.n,
                (unsigned long long)k->entries, (unsigned long long)k->errors,
                (unsigned long long)k->interrupted);
        int fe = 1;
        for (unsigned e = 0; e < KX_MAX_ERRNO; e++)
            if (k->err[e]) {
                fprintf(f, "%s\"%u\":%llu", fe ? "" : ",", e, (unsigned long long)k->err[e]);
                fe = 0;
            }
        fputs("},\"errno_name\":{", f);     // the same keys, the target's names
        fe = 1;
        for (unsigned e = 0; e < KX_MAX_ERRNO; e++)
            if (k->err[e]) {
                fprintf(f, "%s\"%u\":\"%s\"", fe ? "" : ",", e,
                        kev_errno_name(e) ? kev_errno_name(e) : "?");
                fe = 0;
            }
        fputs("},", f);
        kx_dist_json(f, "latency", &k->lat);
        fputs("}", f);
        first = 0;
    }
    fputs("]", f);
}

static void irqs(const struct kx_stats *s, FILE *f)
{
    fputs(",\n\"interrupts\":[", f);
    int first = 1;
    for (unsigned i = 0; i < KX_MAX_IRQ; i++) {
        const struct kx_irq_stats *q = &s->irq[i];
        if (!q->count)
            continue;
        // the rate over the time the source was active (first to last interrupt); latency:
        // every interrupt with a thread, to the moment that thread handled it (kx_rows.h)
        fprintf(f, "%s\n{\"irq\":%u,\"count\":%llu,\"rate_per_s\":%.3f,\"first\":%llu,"
                   "\"last\":%llu,\"no_thread\":%llu,\"unhandled\":%llu,", first ? "" : ",", i,
                (unsigned long long)q->count, kx_irq_rate(s, q), (unsigned long long)q->first,
                (unsigned long long)q->last, (unsigned long long)q->no_thread,
                (unsigned long long)q->unhandled);
        kx_dist_json(f, "handler", &q->handler);
        fputs(",", f);
        kx_dist_json(f, "total", &q->total);
        fputs(",", f);
        kx_dist_json(f, "latency", &q->latency);
        fputs("}", f);
        first = 0;
    }
    fputs("]", f);
}

static void channels(const struct kx_stats *s, FILE *f)
{
    fputs(",\n\"channels\":[", f);
    for (unsigned i = 0; i < s->nchan; i++) {
        const struct kx_chan *c = &s->chan[i];
        char cb[80];
        fprintf(f, "%s\n{\"client\":", i ? "," : "");
        json_str(f, kx_chan_client(s, c, cb, sizeof(cb)), 0);
        fputs(",\"server\":", f);
        json_str(f, proc_name(s, c->srv_pid), 0);
        fprintf(f, ",\"server_pid\":%u,\"pulse\":%s,\"count\":%llu,\"errors\":%llu,"
                   "\"requests\":%llu,", c->srv_pid, c->pulse ? "true" : "false",
                (unsigned long long)c->count, (unsigned long long)c->errors,
                (unsigned long long)c->roots);
        kx_dist_json(f, "latency", &c->lat);
        fputs(",", f);
        kx_dist_json(f, "queue", &c->queue);
        fputs(",\"critical_path\":[", f);
        int first = 1;
        for (unsigned k = 0; k < s->npsum; k++) {
            const struct kx_pathsum *p = &s->psum[k];
            if (p->chan != (int)i)
                continue;
            fprintf(f, "%s{\"thread\":", first ? "" : ",");
            label(f, s, p->th);
            fprintf(f, ",\"waiting\":%s,\"cycles\":%llu}", p->waiting ? "true" : "false",
                    (unsigned long long)p->t);
            first = 0;
        }
        fputs("]}", f);
    }
    fputs("],\n\"worst_request\":", f);
    if (s->worst_chan < 0) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"channel\":%d,\"total_cycles\":%llu,\"depth\":%u,\"path\":[", s->worst_chan,
            (unsigned long long)s->worst_total, s->worst_depth);
    for (unsigned k = 0; k < s->nworst; k++) {
        fprintf(f, "%s{\"thread\":", k ? "," : "");
        label(f, s, s->worst[k].th);
        fprintf(f, ",\"t0\":%llu,\"t1\":%llu,\"waiting\":%s", (unsigned long long)s->worst[k].t0,
                (unsigned long long)s->worst[k].t1, s->worst[k].waiting ? "true" : "false");
        if (!s->worst[k].waiting) // the thread's states meanwhile, as kevstat splits them
            kx_wait_parts_json(s, f, s->worst[k].th, s->worst[k].t0, s->worst[k].t1);
        fputc('}', f);
    }
    fputs("]}", f);
}

static void gaps(const struct kx_stats *s, FILE *f)
{
    fputs(",\n\"lost_windows\":[", f);
    for (unsigned i = 0; i < s->ngaps; i++) {
        const struct kx_gap *g = &s->gap[i];
        fprintf(f, "%s\n{\"cpu\":%u,\"t0\":%llu,\"t1\":%llu,\"lost\":%llu,\"after_end\":%s,"
                   "\"classes\":{", i ? "," : "", g->cpu, (unsigned long long)g->t0,
                (unsigned long long)g->t1, (unsigned long long)g->lost,
                g->after_end ? "true" : "false");
        int first = 1;
        for (unsigned c = 0; c < KEV_NCLASS; c++)
            if (g->classes[c]) {
                fprintf(f, "%s\"%s\":%u", first ? "" : ",", kev_class_name(c), g->classes[c]);
                first = 0;
            }
        fputs("}}", f);
    }
    fprintf(f, "],\n\"lost_windows_not_listed\":%llu", (unsigned long long)s->gaps_dropped);
}

static void users(const struct kx_stats *s, FILE *f)
{
    char lb[80];
    fputs(",\n\"user_events\":[", f);
    for (unsigned i = 0; i < s->nuser; i++) {
        const struct kx_user *u = &s->user[i];
        fprintf(f, "%s\n{\"id\":%u,\"pid\":%u,\"process\":", i ? "," : "", u->id, u->pid);
        json_str(f, u->th >= 0 ? kx_label(&s->m, u->th, lb, sizeof(lb)) : "unknown", 0);
        fprintf(f, ",\"count\":%llu,\"first\":%llu,\"last\":%llu",
                (unsigned long long)u->count, (unsigned long long)u->first,
                (unsigned long long)u->last);
        const char *name = kx_user_name(s, u->pid, u->id);
        fputs(",\"name\":", f);
        json_str(f, name ? name : "", 0);
        char value[KX_USER_VALUE];
        kx_user_last(s, u, value, sizeof(value));
        fputs(",\"value\":", f);
        json_str(f, value, 0);
        fputc('}', f);
    }
    fprintf(f, "],\n\"user_events_not_listed\":%llu", (unsigned long long)s->user_other);
}

int kx_json_member(FILE *f, const char *key, int present)
{
    fprintf(f, ",\n\"%s\":", key);
    if (!present)
        fputs("null", f);
    return present;
}

void kx_stats_json(const struct kx_stats *s, FILE *f)
{
    const struct kev_reader *r = s->r;
    fprintf(f, "{\"trace\":{\"events\":%llu,\"lost\":%llu,\"rejected\":%llu,"
               "\"timer_pulses_lost\":%llu,"
               "\"cycles_per_sec\":%llu,\"first\":%llu,\"last\":%llu,\"cpus\":%u,\"board\":",
            (unsigned long long)s->events, (unsigned long long)kev_lost_total(r),
            (unsigned long long)kev_rejected_total(r), (unsigned long long)kev_timer_lost_total(r),
            (unsigned long long)r->kr_cycles_per_sec, (unsigned long long)s->t_first,
            (unsigned long long)s->t_last, r->kr_ncpu_seen);
    json_str(f, r->kr_board, 0);
    fputs(",\"damaged\":", f);
    if (kx_stats_damaged(s)) {
        fputs("{\"error\":", f);
        json_str(f, kev_error(r), 0);
        fprintf(f, ",\"offset\":%llu}", (unsigned long long)r->kr_err_off);
    } else {
        fputs("null", f);
    }
    fputs(",\"classes\":{", f);
    int first = 1;
    for (unsigned c = 0; c < KEV_NCLASS; c++)
        if (s->class_n[c]) {
            fprintf(f, "%s\"%s\":%llu", first ? "" : ",", kev_class_name(c),
                    (unsigned long long)s->class_n[c]);
            first = 0;
        }
    fprintf(f, "},\"unmatched_receives\":%llu,\"unmatched_replies\":%llu,"
               "\"stale_messages\":%llu}",
            (unsigned long long)s->q.unmatched_recv, (unsigned long long)s->q.unmatched_reply,
            (unsigned long long)s->q.stale);
    threads(s, f);
    kcalls(s, f);
    irqs(s, f);
    channels(s, f);
    gaps(s, f);
    users(s, f);
    kx_wait_json(s, f);
    kx_task_json(s, f);
    kx_chain_json(s, f);
    kx_dprog_json(s, f);
    unsigned nfn;
    const struct kx_func_stats *fs = kx_funcs_table(s->funcs, &nfn);
    fputs(",\n\"funcs\":[", f);
    for (unsigned i = 0; i < nfn; i++)
        fprintf(f, "%s\n{\"fn\":%llu,\"entries\":%llu,\"returns\":%llu,\"timed\":%llu,"
                   "\"total\":%llu,\"max\":%llu}", i ? "," : "", (unsigned long long)fs[i].fn,
                (unsigned long long)fs[i].entries, (unsigned long long)fs[i].returns,
                (unsigned long long)fs[i].timed, (unsigned long long)fs[i].total,
                (unsigned long long)fs[i].max);
    fprintf(f, "],\n\"funcs_unpaired\":%llu,\"funcs_dropped\":%llu",
            (unsigned long long)kx_funcs_unpaired(s->funcs),
            (unsigned long long)kx_funcs_dropped(s->funcs));
    if (s->emul) {
        fputs(",\n\"clock\":", f);
        kx_emul_json(s->emul, f);
    }
    if (s->json_more)
        s->json_more(s, f);
    fputs("}\n", f);
}
