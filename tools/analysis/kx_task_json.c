// SPDX-License-Identifier: MIT
// Task instances (kx_task.h) as the "tasks" member of kevstat --json's object, which kevreport
// embeds for its Tasks section. Times in cycles since boot. Per task: its thread, period and
// deadline (and whether given), the intervals between its releases, its instances (released,
// ended, still open at the end), misses and the largest lateness (null when nothing was
// judged), preemptions, the response and execution times as distributions, the longest
// response's instance, and its missed instances (the first KX_TASK_JSON_MISSES; the count of
// the rest in "missed_more"): [id, release, start, end, lateness, exec, preemptions, the
// emulator's time in it, 1 when the miss is the emulator's]. "misses" are the program's,
// "emulator_misses" the emulator's; "stretched" instances hold "emulator" cycles it took.
// "kind" periodic (a timer's pulses release it) or event-driven, "period_from" where its
// period comes from ("timer", "relayed timer", "given", null), "timer_interval" its timer's
// interval, "released_by" what released most instances, "missed_periods" its pulses the kernel
// dropped, "exits" instances its death ended (not jobs), "lost_events" the events the capture
// lost in its time, "spoiled" its jobs not judged for them (its misses are then "at least");
// the trace's "lost_pulses" (every dropped
// pulse, whoever's) and the "headline" every reader says (kx_tasks_headline).
#include <kevhost/kx_stats.h>
#include <kevhost/kx_ids.h>
#include <kevhost/json_out.h>
#include <kevhost/tool_append.h>

#include <stdio.h>
#include <string.h>

#define KX_TASK_JSON_MISSES 512u

uint64_t kx_stats_lost_in(const struct kx_stats *s, uint64_t t0, uint64_t t1)
{
    uint64_t n = 0;
    for (unsigned g = 0; g < s->ngaps; g++)
        if (s->gap[g].t0 <= t1 && s->gap[g].t1 >= t0)
            n += s->gap[g].lost ? s->gap[g].lost : 1u;
    return n + (s->gaps_dropped && t1 >= t0 ? s->gaps_dropped : 0);
}

// The time task n's instances span: its first release to its last end (the trace's end while
// one is open).
static void task_span(const struct kx_stats *s, unsigned n, uint64_t *t0, uint64_t *t1)
{
    const struct kx_tasks *k = s->tasks;
    *t0 = UINT64_MAX, *t1 = 0;
    for (size_t j = 0; j < k->ninst; j++) {
        const struct kx_inst *i = &k->inst[j];
        if (i->task != n)
            continue;
        uint64_t e = i->end ? i->end : s->t_last;
        if (i->release < *t0)
            *t0 = i->release;
        if (e > *t1)
            *t1 = e;
    }
}

static void inst_json(FILE *f, const struct kx_inst *i)
{
    fprintf(f, "[%llu,%llu,%llu,%llu,%lld,%llu,%u,%llu,%u]", (unsigned long long)i->id,
            (unsigned long long)i->release, (unsigned long long)i->start,
            (unsigned long long)i->end, (long long)i->lateness, (unsigned long long)i->exec,
            i->preempt, (unsigned long long)i->emul, i->emul_miss);
}

static void task_json(const struct kx_stats *s, FILE *f, const struct kx_tasks *k, unsigned n)
{
    const struct kx_task *t = &k->task[n];
    char lb[80];
    fprintf(f, "%s\n{\"thread\":", n ? "," : "");
    json_str(f, kx_label(&s->m, t->th, lb, sizeof(lb)), 0);
    fprintf(f, ",\"th\":%d,\"pid\":%u,\"tid\":%u,\"instances\":%llu,\"ended\":%llu,"
               "\"unfinished\":%llu,\"period\":%llu,\"period_given\":%d,\"deadline\":%llu,"
               "\"deadline_given\":%d,\"gaps\":%llu,\"gap_min\":%llu,\"gap_max\":%llu,"
               "\"gap_mean\":%.3f,\"jitter\":%llu,\"misses\":%llu,\"late_max\":",
            t->th, s->m.th[t->th].pid, s->m.th[t->th].tid, (unsigned long long)t->n,
            (unsigned long long)t->ended, (unsigned long long)t->unfinished,
            (unsigned long long)t->period, t->period_given, (unsigned long long)t->deadline,
            t->deadline_given, (unsigned long long)t->gaps, (unsigned long long)t->gap_min,
            (unsigned long long)t->gap_max,
            t->gaps ? (double)t->gap_sum / (double)t->gaps : 0.0,
            (unsigned long long)(t->gap_max - t->gap_min), (unsigned long long)t->misses);
    if (t->late_max == INT64_MIN)
        fputs("null", f);
    else
        fprintf(f, "%lld", (long long)t->late_max);
    fprintf(f, ",\"preempt\":%llu,\"emulator_misses\":%llu,\"stretched\":%llu,\"emulator\":%llu,"
               "\"kind\":\"%s\",\"released_by\":\"%s\",\"missed_periods\":%llu,\"exits\":%llu,"
               "\"timer_interval\":%llu,\"period_from\":",
            (unsigned long long)t->preempt, (unsigned long long)t->emul_misses,
            (unsigned long long)t->stretched, (unsigned long long)t->emul, kx_task_kind(t),
            kx_rel_how_name(kx_task_released_by(t)), (unsigned long long)t->missed_periods,
            (unsigned long long)t->exits, (unsigned long long)t->interval);
    if (kx_task_period_from(t))
        json_str(f, kx_task_period_from(t), 0);
    else
        fputs("null", f);
    uint64_t t0, t1;
    task_span(s, n, &t0, &t1);
    fprintf(f, ",\"lost_events\":%llu,\"spoiled\":%llu,",
            (unsigned long long)kx_stats_lost_in(s, t0, t1), (unsigned long long)t->spoiled);
    kx_dist_json(f, "response", &t->resp);
    fputc(',', f);
    kx_dist_json(f, "exec", &t->exec);
    fputs(",\"worst\":", f);
    const struct kx_inst *w = kx_tasks_inst(k, t->worst);
    if (w)
        inst_json(f, w);
    else
        fputs("null", f);
    fputs(",\"missed\":[", f);
    uint64_t listed = 0, more = 0;
    for (size_t j = 0; j < k->ninst; j++) {
        const struct kx_inst *i = &k->inst[j];
        if (i->task != n || !i->missed)
            continue;
        if (listed == KX_TASK_JSON_MISSES) {
            more++;
            continue;
        }
        fputs(listed++ ? "," : "", f);
        inst_json(f, i);
    }
    fprintf(f, "],\"missed_more\":%llu}", (unsigned long long)more);
}

void kx_tasks_headline(const struct kx_stats *s, char *b, size_t n)
{
    const struct kx_tasks *k = s->tasks;
    size_t at = 0;
    char lb[80];
    if (!n)
        return;
    b[0] = 0;
    unsigned ntask = k ? k->ntask : 0, judged = 0;
    uint64_t misses = 0, spoiled = 0;
    for (unsigned t = 0; t < ntask; t++) {
        const struct kx_task *x = &k->task[t];
        if (x->deadline)
            judged++, misses += x->misses, spoiled += x->spoiled;
    }
    tool_append(b, n, &at, "%u task(s), %s%llu deadline miss(es)", ntask,
                spoiled ? "at least " : "", (unsigned long long)misses);
    const char *sep = ": ";
    double cps = (double)(s->r->kr_cycles_per_sec ? s->r->kr_cycles_per_sec : 1u);
    for (unsigned t = 0; t < ntask; t++) {
        const struct kx_task *x = &k->task[t];
        if (!x->deadline)
            continue;
        const char *from = kx_task_period_from(x);
        tool_append(b, n, &at, "%s%s %s%llu (deadline %.3f us, %s%s", sep,
            kx_label(&s->m, x->th, lb, sizeof(lb)), x->spoiled ? "at least " : "",
            (unsigned long long)x->misses, (double)x->deadline * 1e6 / cps,
            x->deadline_given ? "given" : from && !strcmp(from, "given") ? "its given period"
            : from && x->relayed ? "the period of the timer its releases relay"
            : from ? "its timer's period" : "its period", x->spoiled ? "; " : ")");
        if (x->spoiled)
            tool_append(b, n, &at, "%llu job(s) not judged: the capture lost events in them)",
                (unsigned long long)x->spoiled);
        sep = ", ";
    }
    if (judged < ntask) {
        tool_append(b, n, &at, "; %u without a deadline, not judged (event-driven: give one with "
            "--deadline TASK=TIME)", ntask - judged);
        sep = ": ";
        for (unsigned t = 0; t < ntask; t++) {
            const struct kx_task *x = &k->task[t];
            if (x->deadline)
                continue;
            tool_append(b, n, &at, "%s%s", sep, kx_label(&s->m, x->th, lb, sizeof(lb)));
            sep = ", ";
        }
    }
}

void kx_task_json(const struct kx_stats *s, FILE *f)
{
    const struct kx_tasks *k = s->tasks;
    char head[2048];
    kx_tasks_headline(s, head, sizeof(head));
    fprintf(f, ",\n\"tasks\":{\"lost\":%llu,\"lost_pulses\":%llu,\"headline\":",
            k ? (unsigned long long)k->lost : 0ull, (unsigned long long)s->q.lost_pulses);
    json_str(f, head, 0);
    fputs(",\"rules\":[", f);
    for (unsigned r = 0; k && r < k->nrule; r++) {
        fprintf(f, "%s{\"name\":", r ? "," : "");
        json_str(f, k->rule[r].name, 0);
        fprintf(f, ",\"kind\":\"%s\",\"ns\":%llu,\"matched\":%u}",
                k->rule[r].deadline ? "deadline" : "period", (unsigned long long)k->rule[r].ns,
                k->rule[r].matched);
    }
    fputs("],\"list\":[", f);
    for (unsigned n = 0; k && n < k->ntask; n++)
        task_json(s, f, k, n);
    fputs("]}", f);
}
