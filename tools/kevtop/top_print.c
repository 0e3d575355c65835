// SPDX-License-Identifier: MIT
// kevtop's frames as text (the terminal's screen and -b's frames) and as JSON lines (--json).
// A frame is rendered whole at the moment it closes, while the model it was read from is still
// the one that named its threads and objects (top_print.h).
#include "top_print.h"

#include <stdlib.h>
#include <string.h>
#include <kevhost/json_out.h>

static double secs(const struct top_frame *f, uint64_t t)
{
    return (double)t / (double)(f->cps ? f->cps : 1u);
}

static double per_s(const struct top_frame *f, uint64_t n)
{
    double d = secs(f, f->t1 - f->t0);
    return d > 0 ? (double)n / d : 0.0;
}

static double ms(const struct top_frame *f, uint64_t t)
{
    return secs(f, t) * 1e3;
}

void top_wait_text(const struct top_frame *f, char *buf, size_t n)
{
    if (f->wait_th < 0) {
        snprintf(buf, n, "none ended in this interval");
        return;
    }
    char who[64], owner[64] = "an unknown thread", obj[64];
    kx_label(&f->s->m, f->wait_th, who, sizeof(who));
    if (f->wait_owner >= 0)
        kx_label(&f->s->m, f->wait_owner, owner, sizeof(owner));
    kx_wait_obj(f->s, f->wait_obj, obj, sizeof(obj));
    snprintf(buf, n, "%.3fms by %s on %s, held by %s", ms(f, f->wait_t), who, obj, owner);
}

// ---- sorting ------------------------------------------------------------------------------------

static enum top_sort sort_key;

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? 1 : a > b ? -1 : 0; // largest first
}

static int cmp_rows(const void *pa, const void *pb)
{
    const struct top_row *a = pa, *b = pb;
    int c = 0;
    switch (sort_key) {
    case TOP_SORT_CPU: c = cmp_u64(a->cpu, b->cpu); break;
    case TOP_SORT_KCALLS: c = cmp_u64(a->kcalls, b->kcalls); break;
    case TOP_SORT_MSGS: c = cmp_u64(a->msgs, b->msgs); break;
    case TOP_SORT_INTS: c = cmp_u64(a->ints, b->ints); break;
    case TOP_SORT_WAIT: c = cmp_u64(a->wait, b->wait); break;
    case TOP_SORT_PRIO: c = b->prio - a->prio; break;
    case TOP_SORT_NAME: c = strcmp(a->label, b->label); break;
    }
    if (!c)
        c = a->pid != b->pid ? (a->pid < b->pid ? -1 : 1) : (a->tid < b->tid ? -1 : a->tid > b->tid);
    return c;
}

void top_sort_rows(struct top_row *rows, unsigned n, enum top_sort key)
{
    sort_key = key;
    qsort(rows, n, sizeof(*rows), cmp_rows);
}

// ---- text -----------------------------------------------------------------------------------------

void top_print_head(FILE *o, const struct top_frame *f, const char *wait, const char *board)
{
    fprintf(o, "kevtop: %.6f-%.6f s of trace time (%.3f s), %llu events, %u CPU%s%s%s\n",
            secs(f, f->t0), secs(f, f->t1), secs(f, f->t1 - f->t0),
            (unsigned long long)f->events, f->ncpu, f->ncpu == 1 ? "" : "s",
            board && board[0] ? ", " : "", board ? board : "");
    if (f->seg > 1)
        fprintf(o, "segment: %u (the board restarted %u time%s)\n", f->seg, f->seg - 1,
                f->seg == 2 ? "" : "s");
    fprintf(o, "loss: %llu events in this interval%s%s%s, %llu in all", (unsigned long long)f->lost,
            f->loss_text[0] ? " (" : "", f->loss_text, f->loss_text[0] ? ")" : "",
            (unsigned long long)f->lost_total);
    if (f->buffers_lost)
        fprintf(o, "; %llu buffer%s lost in transit (events unknown until the trailer)",
                (unsigned long long)f->buffers_lost, f->buffers_lost == 1 ? "" : "s");
    fprintf(o, "\n");
    if (f->reader_said && (f->reader_behind >= 2 || f->reader_dropped))
        fprintf(o, "reader: %lu buffers behind the board, which has dropped %llu events so far "
                "(counted in the trace as its next buffers come)\n",
                (unsigned long)f->reader_behind, (unsigned long long)f->reader_dropped);
    fprintf(o, "interrupts: %.0f/s; worst wait: %s\n", per_s(f, f->ints), wait);
    if (f->turns)
        fprintf(o, "(the CPUs ran in turn: EXEC is what a thread's CPU executed of its CPU time)\n");
    fprintf(o, "%6s %6s %-24s %-8s %4s %7s %11s%s %8s %7s %7s %10s\n", "PID", "TID", "NAME", "STATE",
            "PRI", "CPU%", "CPU", f->turns ? "        EXEC" : "", "KCALL/s", "MSG/s", "INT/s", "WAIT");
}

void top_print_row(FILE *o, const struct top_frame *f, const struct top_row *r)
{
    char prio[12] = "-", wait[24] = "-", exec[24] = "";
    if (r->prio >= 0)
        snprintf(prio, sizeof(prio), "%d", r->prio);
    if (r->wait)
        snprintf(wait, sizeof(wait), "%.3fms", ms(f, r->wait));
    if (f->turns)
        snprintf(exec, sizeof(exec), " %9.3fms", ms(f, r->exec));
    double span = (double)(f->t1 - f->t0);
    fprintf(o, "%6lu %6lu %-24.24s %-8.8s %4s %6.2f%% %9.3fms%s %8.0f %7.0f %7.0f %10s\n",
            (unsigned long)r->pid, (unsigned long)r->tid, r->label,
            r->state < KEV_TH_NSTATES ? kev_thread_state_name(r->state) : "-", prio,
            span > 0 ? 100.0 * (double)r->cpu / span : 0.0, ms(f, r->cpu), exec,
            per_s(f, r->kcalls), per_s(f, r->msgs), per_s(f, r->ints), wait);
}

// ---- JSON -------------------------------------------------------------------------------------------

void top_print_json(FILE *o, const struct top_frame *f, const struct top_row *rows, unsigned n,
                    const char *wait)
{
    fprintf(o, "{\"t0\":%.9f,\"t1\":%.9f,\"t0_cycles\":%llu,\"t1_cycles\":%llu,\"segment\":%u,"
            "\"events\":%llu,\"cpus\":%u,\"interrupts\":%llu,\"lost\":%llu,\"lost_total\":%llu,"
            "\"buffers_lost\":%llu,\"loss\":", secs(f, f->t0), secs(f, f->t1),
            (unsigned long long)f->t0, (unsigned long long)f->t1, f->seg,
            (unsigned long long)f->events, f->ncpu, (unsigned long long)f->ints,
            (unsigned long long)f->lost, (unsigned long long)f->lost_total,
            (unsigned long long)f->buffers_lost);
    json_str(o, f->loss_text, 0);
    if (f->reader_said)
        fprintf(o, ",\"reader\":{\"behind\":%lu,\"dropped\":%llu}",
                (unsigned long)f->reader_behind, (unsigned long long)f->reader_dropped);
    else
        fprintf(o, ",\"reader\":null");
    fprintf(o, ",\"worst_wait\":");
    if (f->wait_th >= 0) {
        fprintf(o, "{\"ms\":%.6f,\"text\":", ms(f, f->wait_t));
        json_str(o, wait, 0);
        fprintf(o, "}");
    } else {
        fprintf(o, "null");
    }
    fprintf(o, ",\"last\":%s,\"threads\":[", f->last ? "true" : "false");
    for (unsigned i = 0; i < n; i++) {
        const struct top_row *r = &rows[i];
        fprintf(o, "%s{\"pid\":%lu,\"tid\":%lu,\"name\":", i ? "," : "", (unsigned long)r->pid,
                (unsigned long)r->tid);
        json_str(o, r->label, 0);
        fprintf(o, ",\"state\":");
        json_str(o, r->state < KEV_TH_NSTATES ? kev_thread_state_name(r->state) : "", 0);
        fprintf(o, ",\"prio\":%d,\"cpu_cycles\":%llu,\"cpu_ms\":%.6f,\"kcalls\":%llu,"
                "\"msgs\":%llu,\"ints\":%llu,\"wait_ms\":%.6f", r->prio,
                (unsigned long long)r->cpu, ms(f, r->cpu), (unsigned long long)r->kcalls,
                (unsigned long long)r->msgs, (unsigned long long)r->ints, ms(f, r->wait));
        if (f->turns) // (the CPUs in turn: what its CPU executed)
            fprintf(o, ",\"exec_cycles\":%llu", (unsigned long long)r->exec);
        fprintf(o, "}");
    }
    fprintf(o, "]}\n");
}
