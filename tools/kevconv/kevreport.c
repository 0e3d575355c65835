// SPDX-License-Identifier: MIT
// kevreport: writes one self-contained HTML report of a .kev trace (no network, no external
// script): a zoomable timeline (CPUs, threads coloured by state, interrupts, message flows,
// lost-event windows) and the analyses of kx_stats as tables and histograms. The page is the
// template report.css + report.js (embedded in the binary by report_assets.c) plus the data
// as JSON: kx_stats_json's object and a "timeline" object built here.
// Timeline records (times in cycles from the first event):
//   threads [{name,pid,tid}], seg [[thread, t0, t1, state, cpu]], irq [[irq, t0, t1, h0, h1]],
//   flow [[client, t_send, server, t_recv, t_reply]], loss [[cpu, t0, t1, lost]],
//   user [[thread, t, id, "value"]] (user events: a marker on the thread's row, the value -
//   its text, or its words in hex - shown on click), events [[t, cpu, thread, "CLASS",
//   "what"]] (the searchable event list, the first --max-events), waits [[waiter, t0, t1,
//   owner, "object"]] (blocked-by arrows; a wait still open at the end lasts to the end),
//   seg's sixth member the thread's priority (the priority lane; -1 unknown); faults
//   (kx_faults_json: each with its thread, time, fields, function and named frames: a finding
//   and a marker on the thread's row, report_analysis.js)
// A damaged or truncated file: the page says so at the top (stats.trace.damaged: the
// decoder's message and byte offset) and the tool exits 1.
// At most --max-segments state segments are kept (the earliest); the page says when it cut.
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <kevhost/json_out.h>
#include <kevhost/kx_stacks.h>
#include <kevhost/kx_stats.h>
#include <kevhost/kx_faults.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_pass.h>
#include <kevhost/kx_usdt.h>
#include <kevhost/tool_syms.h>
#include "report_rows.h"

extern const char kevreport_css[], kevreport_js[], kevreport_analysis_js[],
    kevreport_tasks_js[], kevreport_flame_js[], kevreport_contents_js[]; // report_assets.c
extern const char kevreport_kv_dom_js[], kevreport_kv_states_js[], kevreport_kv_timeline_js[];

enum { OPT_MAX_SEGMENTS = TOOL_OPT_LONG, OPT_MAX_EVENTS, OPT_WAIT_MIN };
static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "FILE", "output (default: FILE.kev with .html instead of .kev)", NULL },
    { OPT_MAX_SEGMENTS, 0, "max-segments", "N", "timeline records kept (default 200000)", NULL },
    { OPT_MAX_EVENTS, 0, "max-events", "N", "rows of the event list kept (default 50000)", NULL },
    { OPT_WAIT_MIN, 0, "wait-min", "TIME",
      "findings list the waits of TIME or longer (250us, 1.5ms;\n"
      "0: every wait); default: those over 1% of the waiter's\n"
      "period, or 100 us", NULL },
    { .also = kx_timing_opts },
    { .also = syms_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevreport", "[-o FILE.html] [--max-segments N] [--wait-min TIME]\n"
    "                 [--deadline TASK=TIME]... [--period TASK=TIME]...\n"
    "                 [--symbols DIR]... FILE.kev",
    "Writes a self-contained HTML report: timeline with zoom and pan, task\n"
    "instances and deadline misses, CPU time,\n"
    "thread states, kernel calls, interrupts, messages, lost-event windows, user\n"
    "events, findings (faults among them, with their function and stack; wait\n"
    "chains followed to their roots; deadlocks), a flame\n"
    "graph of the stack samples. A damaged or truncated file: the page says so (and\n"
    "where), exit 1. Code addresses are named from the ELF files the capture ran,\n"
    "found by build id.\n",
    opts, "Exit status: 0 ok, 1 damaged or unreadable input or write error, 2 bad usage.\n",
};

struct buf {
    char *p;
    size_t len;
    FILE *f;
};

struct rep {
    struct kx_stats *s;
    struct kx_msgs *q;
    struct buf seg, irq, flow, user, ev, wt;
    uint64_t nseg, max_seg, cut;
    uint64_t nev, max_ev, ev_cut;
    uint64_t irq_t0[KEV_MAX_CPUS], hnd_t0[KEV_MAX_CPUS], hnd_t1[KEV_MAX_CPUS];
    unsigned irq_open[KEV_MAX_CPUS];
    struct kx_stacks stacks; // the stack samples: the flame graph (report_flame.js)
    int oom;
};

static uint64_t rel(const struct rep *p, uint64_t t)
{
    return t >= p->s->t_first ? t - p->s->t_first : 0;
}

// A thread's state interval, as the model made it (kx_rows.h), is a timeline segment.
static void seg_out(void *user, const struct kx_state_row *r)
{
    struct rep *p = user;
    if (r->state >= KEV_TH_NSTATES || r->t1 < r->t0)
        return;
    if (p->nseg >= p->max_seg) {
        p->cut++;
        return;
    }
    fprintf(p->seg.f, "%s[%d,%llu,%llu,%u,%d,%d]", ftell(p->seg.f) ? "," : "", r->th,
            (unsigned long long)rel(p, r->t0), (unsigned long long)rel(p, r->t1), r->state,
            r->cpu, r->prio);
    p->nseg++;
}

// A wait with an owner, ended or still open at the end (to the end): a blocked-by arrow.
static void wait_out(void *user, const struct kw_wait *w)
{
    struct rep *p = user;
    report_wait_row(p->wt.f, p->s, w, rel(p, w->t0), rel(p, w->t1 ? w->t1 : p->s->t_last));
}

static void int_event(struct rep *p, const struct kev_event *e)
{
    unsigned cpu = e->cpu;
    switch (e->ev) {
    case KEV_INT_ENTER:
        p->irq_open[cpu] = kx_int_irq(e) + 1;
        p->irq_t0[cpu] = e->t64;
        p->hnd_t0[cpu] = p->hnd_t1[cpu] = 0;
        break;
    case KEV_INT_HANDLER_ENTER: p->hnd_t0[cpu] = e->t64; break;
    case KEV_INT_HANDLER_EXIT: p->hnd_t1[cpu] = e->t64; break;
    case KEV_INT_EXIT:
        if (p->irq_open[cpu] == kx_int_irq(e) + 1 && p->nseg < p->max_seg) {
            fprintf(p->irq.f, "%s[%u,%llu,%llu,%llu,%llu]", ftell(p->irq.f) ? "," : "",
                    kx_int_irq(e), (unsigned long long)rel(p, p->irq_t0[cpu]),
                    (unsigned long long)rel(p, e->t64),
                    (unsigned long long)rel(p, p->hnd_t0[cpu] ? p->hnd_t0[cpu] : p->irq_t0[cpu]),
                    (unsigned long long)rel(p, p->hnd_t1[cpu] ? p->hnd_t1[cpu] : e->t64));
            p->nseg++;
        }
        p->irq_open[cpu] = 0;
        break;
    default:
        break;
    }
}

// A user event as a marker on the row of the thread that wrote it (none when not known).
static void user_event(struct rep *p, const struct kev_reader *r, const struct kev_event *e)
{
    int th = p->s->m.cur[e->cpu];
    if (th < 0 || p->nseg >= p->max_seg)
        return;
    char text[256], value[224];
    const char *name = kx_user_name(p->s, p->s->m.th[th].pid, e->ev);
    (void)r;
    kx_user_value(p->s, e, p->s->m.th[th].pid, value, sizeof(value)); // registered format
    snprintf(text, sizeof(text), "%s%s%s", name ? name : "", name ? ": " : "", value);
    fprintf(p->user.f, "%s[%d,%llu,%u,", ftell(p->user.f) ? "," : "", th,
            (unsigned long long)rel(p, e->t64), e->ev);
    json_str(p->user.f, text, 0);
    fputs("]", p->user.f);
    p->nseg++;
}

// An event's rows, with the statistics' state before it (kx_pass.h: they take it after).
static int on_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                    struct kx_model *m)
{
    struct rep *p = user;
    (void)m; // (p->s->m)
    struct kx_stats *s = p->s;
    if (!s->events && e->cls != KEV_C_CONTROL)
        s->t_first = e->t64; // rel() needs it before kx_stats_event sets it
    if (kx_stacks_event(&p->stacks, &s->m, e) < 0)
        p->oom = 1;
    kx_faults_event(e);
    kx_usdt_event(r, e);
    if (e->cls == KEV_C_INT) {
        int_event(p, e);
    } else if (e->cls == KEV_C_USER) {
        user_event(p, r, e);
    } else if (e->cls == KEV_C_COMM) {
        const struct kx_msg *g;
        if (kx_msgs_event(p->q, &s->m, e, &g) == KX_MSG_REPLY) {
            if (p->nseg < p->max_seg && g->client >= 0 && g->server >= 0) {
                fprintf(p->flow.f, "%s[%d,%llu,%d,%llu,%llu]", ftell(p->flow.f) ? "," : "",
                        g->client, (unsigned long long)rel(p, g->t_send), g->server,
                        (unsigned long long)rel(p, g->t_recv),
                        (unsigned long long)rel(p, g->t_reply));
                p->nseg++;
            }
            kx_msgs_release(p->q, g);
        }
    }
    if (e->cls != KEV_C_CONTROL) {
        int th = kx_event_thread(&s->m, e);
        if (p->nev < p->max_ev)
            report_event_row(p->ev.f, s, e, rel(p, e->t64), th, !p->nev), p->nev++;
        else
            p->ev_cut++;
    }
    return 0; // the statistics take e next: their records come to seg_out and wait_out
}

// Copy JSON into the page's <script> element with the page's escapes (json_out.h): no "<",
// ">", "&" or line separator of a name reaches the HTML parser or the script as itself.
static void put_json(FILE *out, const char *j, size_t n)
{
    json_page_copy(out, j, n);
}

// s as a JSON string for the page.
static void put_json_str(FILE *out, const char *s)
{
    json_str(out, s, JSON_PAGE);
}

// The page's "stacks": the folded stacks (kevstat --folded's lines) as JSON strings.
static void put_stacks(FILE *out, struct rep *p)
{
    char *sj = NULL;
    size_t sn = 0;
    FILE *m = open_memstream(&sj, &sn);
    if (!m)
        return;
    if (kx_stacks_folded(&p->stacks, m) != 0)
        fprintf(stderr, "kevreport: out of memory: no flame graph\n");
    fclose(m);
    size_t k = 0;
    for (char *l = sj, *nl; l && l < sj + sn; l = nl + 1, k++) {
        nl = memchr(l, '\n', (size_t)(sj + sn - l));
        if (!nl)
            break;
        *nl = '\0';
        fputs(k ? "," : "", out);
        put_json_str(out, l);
    }
    free(sj);
}

// The page's "fn_names": each function fbt's calls name, "ADDR": "name".
static void put_fn_names(FILE *out, struct kx_stats *s)
{
    unsigned nfn;
    const struct kx_func_stats *fs = kx_funcs_table(s->funcs, &nfn);
    for (unsigned i = 0; i < nfn; i++) {
        char fn[128];
        syms_function(fs[i].fn, fn, sizeof(fn));
        fprintf(out, "%s\"%llu\":", i ? "," : "", (unsigned long long)fs[i].fn);
        put_json_str(out, fn);
    }
}

static void write_page(FILE *out, struct rep *p, const char *title)
{
    struct kx_stats *s = p->s;
    fflush(p->seg.f), fflush(p->irq.f), fflush(p->flow.f), fflush(p->user.f);
    fflush(p->ev.f), fflush(p->wt.f);

    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
    for (const char *c = title; *c; c++)
        if (*c == '<' || *c == '>' || *c == '&')
            fprintf(out, "&#%d;", *c);
        else
            putc(*c, out);
    fputs(" - kevreport</title>\n<style>\n", out);
    fputs(kevreport_css, out);
    fputs("</style></head>\n<body>\n<script id=\"kev-data\" type=\"application/json\">\n"
          "{\"stats\":", out);
    char *sj = NULL;
    size_t sn = 0;
    FILE *m = open_memstream(&sj, &sn);
    if (m) {
        kx_stats_json(s, m);
        fclose(m);
        put_json(out, sj, sn);
        free(sj);
    }
    fputs(",\n\"timeline\":{\"threads\":[", out);
    char lb[80];
    for (unsigned i = 0; i < s->m.nth; i++) {
        fprintf(out, "%s{\"pid\":%u,\"tid\":%u,\"name\":", i ? "," : "", s->m.th[i].pid,
                s->m.th[i].tid);
        put_json_str(out, kx_label(&s->m, (int)i, lb, sizeof(lb)));
        fputs("}", out);
    }
    fprintf(out, "],\n\"span\":%llu,\"cut\":%llu,\n\"seg\":[", (unsigned long long)rel(p, s->t_last),
            (unsigned long long)p->cut);
    fwrite(p->seg.p, 1, p->seg.len, out);
    fputs("],\n\"irq\":[", out);
    fwrite(p->irq.p, 1, p->irq.len, out);
    fputs("],\n\"flow\":[", out);
    fwrite(p->flow.p, 1, p->flow.len, out);
    fputs("],\n\"user\":[", out);
    put_json(out, p->user.p, p->user.len);
    fputs("],\n\"events\":[", out);
    put_json(out, p->ev.p, p->ev.len);
    fprintf(out, "],\n\"events_cut\":%llu,\n\"waits\":[", (unsigned long long)p->ev_cut);
    put_json(out, p->wt.p, p->wt.len);
    fputs("],\n\"loss\":[", out);
    for (unsigned i = 0; i < s->ngaps; i++)
        fprintf(out, "%s[%u,%llu,%llu,%llu]", i ? "," : "", s->gap[i].cpu,
                (unsigned long long)rel(p, s->gap[i].t0), (unsigned long long)rel(p, s->gap[i].t1),
                (unsigned long long)s->gap[i].lost);
    fputs("],\n\"states\":[", out);
    for (unsigned st = 0; st < KEV_TH_NSTATES; st++)
        fprintf(out, "%s\"%s\"", st ? "," : "", kev_thread_state_name(st));
    fputs("],\n\"faults\":", out);
    m = open_memstream(&sj, &sn);
    if (m) {
        kx_faults_json(s, m);
        fclose(m);
        put_json(out, sj, sn);
        free(sj);
    } else {
        fputs("{\"list\":[],\"more\":0}", out);
    }
    fputs(",\n\"stacks\":[", out); // kevstat --folded's lines (report_flame.js)
    put_stacks(out, p);
    // the functions fbt's calls name (stats.funcs), by address: "fn_names" {"ADDR": "name"}
    fputs("],\n\"fn_names\":{", out);
    put_fn_names(out, s);
    fputs("}}}\n</script>\n", out);
    // the viewer's modules kevweb's live page shares (tools/viewer), then the report's own
    const char *const scripts[] = { kevreport_kv_dom_js, kevreport_kv_states_js,
                                    kevreport_kv_timeline_js, kevreport_js, kevreport_analysis_js,
                                    kevreport_tasks_js, kevreport_flame_js, kevreport_contents_js };
    for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++)
        fprintf(out, "<script>\n%s</script>\n", scripts[i]);
    fputs("</body></html>\n", out);
}

static int open_buf(struct buf *b)
{
    b->f = open_memstream(&b->p, &b->len);
    return b->f ? 0 : -1;
}

static void close_buf(struct buf *b)
{
    if (b->f)
        fclose(b->f);
    free(b->p);
}

// What the command line asks for.
struct args {
    const char *in, *out;
    unsigned long long max_seg, max_ev;
    uint64_t wait_min;
    int wait_min_set;
    struct kx_timing_set timing;
};

// The options into g: -1 to go on, else the exit status (help, bad usage).
static int parse_args(int argc, char **argv, struct args *g)
{
    struct tool_args a = { argc, argv, 0, NULL };
    for (int id; (id = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END;) {
        char *end;
        if (id < 0)
            return tool_opts_exit(id);
        if (id == 'o') {
            g->out = a.val;
        } else if (id == OPT_MAX_SEGMENTS) {
            g->max_seg = strtoull(a.val, &end, 0);
            if (*end || !g->max_seg)
                return tool_usage_error(&cmd, "bad --max-segments %s", a.val);
        } else if (id == OPT_MAX_EVENTS) {
            g->max_ev = strtoull(a.val, &end, 0);
            if (*end)
                return tool_usage_error(&cmd, "bad --max-events %s", a.val);
        } else if (id == OPT_WAIT_MIN) {
            if (kx_wait_min_arg(cmd.name, a.val, &g->wait_min))
                return 2;
            g->wait_min_set = 1;
        } else if (kx_timing_take(&g->timing, cmd.name, id, a.val) < 0) {
            return 2;
        } else if (syms_take(cmd.name, id, a.val) < 0) {
            return 2;
        }
    }
    if (tool_one_file(&cmd, &a, &g->in))
        return 2;
    return -1;
}

// The page into the file out: 0, or 1 when it cannot be written (said on standard error).
static int write_report(const char *out, struct rep *p, const char *in)
{
    FILE *o = fopen(out, "w");
    if (!o) {
        perror(out);
        return 1;
    }
    write_page(o, p, in);
    if (ferror(o) | fclose(o)) {
        fprintf(stderr, "kevreport: %s: write error\n", out);
        return 1;
    }
    printf("kevreport: wrote %s\n", out);
    return 0;
}

int main(int argc, char **argv)
{
    struct args g = { .max_seg = 200000, .max_ev = 50000, .timing = { .n = 0 } };
    int rc = parse_args(argc, argv, &g);
    if (rc >= 0)
        return rc;
    const char *in = g.in, *out = g.out;
    char outbuf[4096];
    if (!out) {
        size_t n = strlen(in);
        int kev = n > 4 && !strcmp(in + n - 4, ".kev");
        snprintf(outbuf, sizeof(outbuf), "%.*s.html", (int)(kev ? n - 4 : n), in);
        out = outbuf;
    }
    struct kx_file f;
    if (kx_open("kevreport", in, &f))
        return 1;
    static struct rep p;
    static struct kx_msgs q;
    p.s = calloc(1, sizeof(*p.s));
    p.q = &q;
    p.max_seg = g.max_seg;
    p.max_ev = g.max_ev;
    if (!p.s || open_buf(&p.seg) || open_buf(&p.irq) || open_buf(&p.flow) || open_buf(&p.user) ||
        open_buf(&p.ev) || open_buf(&p.wt)) {
        fprintf(stderr, "kevreport: out of memory\n");
        return 1;
    }
    kx_stats_init(p.s, f.r);
    p.s->json_more = kx_usdt_json_member; // (the page's stats.usdt)
    p.s->wait_min_ns = g.wait_min;
    p.s->wait_min_set = g.wait_min_set;
    if (p.s->tasks)
        kx_tasks_rules(p.s->tasks, &g.timing);
    kx_stats_sink(p.s, &(struct kx_sink){ .user = &p, .state = seg_out, .wait = wait_out });
    kx_msgs_init(&q);
    syms_trace("kevreport", f.data, f.len);
    struct kx_pass pass = { .on_event = on_event, .user = &p };
    kx_stats_model(&pass, p.s);
    rc = kx_pass_run("kevreport", &f, &pass);
    kx_stats_finish(p.s);
    if (write_report(out, &p, in))
        rc = 1;
    close_buf(&p.seg), close_buf(&p.irq), close_buf(&p.flow), close_buf(&p.user);
    close_buf(&p.ev), close_buf(&p.wt);
    if (kx_stacks_said("kevreport", &p.stacks, p.oom))
        rc = 1;
    kx_stacks_free(&p.stacks);
    syms_end();
    if (p.s)
        kx_stats_free(p.s);
    free(p.s);
    kx_close(&f);
    return rc;
}
