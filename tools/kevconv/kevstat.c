// SPDX-License-Identifier: MIT
// kevstat: analyses of a .kev trace (kx_stats.c) printed as text tables and power-of-two
// histograms, or with --json as one JSON object for scripts. Sections: cpu (time per
// process, thread, priority), states (time in each thread state), kcalls (counts, errors,
// latency), irq (rate, handler time, interrupt-to-thread latency), msg (per channel traffic,
// send-to-reply latency, critical path), lost (lost-event windows), user (user events per
// id and process), waits, faults, funcs, tasks (task instances, periods, deadline misses),
// chains (every wait on another thread followed to its root).
// Exit status: 0 ok, 1 damaged or unreadable input (the results up to the problem are still
// printed, under a line saying the file is damaged and where), 2 bad usage.
#include <stdlib.h>
#include <string.h>

#include <trace/kev_panic.h>
#include <kevhost/kx_stacks.h>
#include <kevhost/kx_stats.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_pass.h>
#include <kevhost/tool_syms.h>
#include <kevhost/kx_wait_text.h>
#include <kevhost/kx_chain_text.h>
#include <kevhost/kx_faults.h>
#include <kevhost/kx_emul.h>
#include <kevhost/kx_usdt.h>

static const char *const sections[] = { "cpu", "states", "kcalls", "irq", "msg", "lost",
                                        "user", "waits", "faults", "funcs", "tasks",
                                        "chains", "usdt", "d" };
#define NSECT 14u

// A name column: s padded with spaces to `width` characters, not bytes (names from a capture
// keep their UTF-8, trace/kev_text.c, and printf's %-32s would count each byte of a
// multi-byte character as a column). Longer names are kept whole, as %-32s keeps them.
struct col {
    char s[200];
};

static struct col col(const char *s, unsigned width)
{
    struct col c;
    size_t n = 0;
    unsigned chars = 0;
    for (; s[n] && n < sizeof(c.s) - 1; n++) {
        c.s[n] = s[n];
        chars += ((unsigned char)s[n] & 0xc0u) != 0x80u;    // not a continuation byte
    }
    for (; chars < width && n < sizeof(c.s) - 1; chars++)
        c.s[n++] = ' ';
    c.s[n] = 0;
    return c;
}

enum { OPT_JSON = TOOL_OPT_LONG, OPT_FOLDED, OPT_WAIT_MIN };
static const struct tool_opt opts[] = {
    { 's', 's', NULL, "SECTION[,SECTION...]", "the sections to print (default: all)", NULL },
    { OPT_JSON, 0, "json", NULL, "one JSON object with every result (times in cycles)", NULL },
    { OPT_WAIT_MIN, 0, "wait-min", "TIME",
      "group the waits of TIME or longer (250us, 1.5ms; 0: all);\n"
      "default: those over 1% of the waiter's period, or 100 us", NULL },
    { OPT_FOLDED, 0, "folded", NULL,
      "the capture's stack samples (tracelogger -p HZ) as folded stacks,\n"
      "one line a stack, root first, the process first: \"stackchain;main;\n"
      "chain_a;chain_spin 12\" (flamegraph.pl, inferno, speedscope)", NULL },
    { .also = kx_timing_opts },
    { .also = syms_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevstat", "[--json] [-s SECTION[,SECTION...]] [--wait-min TIME]\n"
    "               [--deadline TASK=TIME]... [--period TASK=TIME]...\n"
    "               [--symbols DIR]... FILE.kev\n"
    "       kevstat --folded [--symbols DIR]... FILE.kev",
    "Analyses a .kev trace. Sections (default: all):\n"
    "  cpu     CPU time per process, thread and priority\n"
    "  states  time each thread spent in each state\n"
    "  kcalls  kernel calls: count, errors by errno, latency histogram\n"
    "  irq     interrupts: rate, handler time, interrupt-to-thread latency\n"
    "  msg     messages per channel: count, send-to-reply latency, critical path\n"
    "  lost    lost-event windows and the classes around them\n"
    "  user    user events: count per event id and process\n"
    "  waits   who blocked whom: every wait on a mutex, semaphore or condition\n"
    "          variable (who, on what, held by whom, how long, what the owner did\n"
    "          meanwhile), priority inversions, deadlock cycles, threads still\n"
    "          blocked at the end; the waits that cost something grouped by\n"
    "          waiter, object and holder (count, total, worst), and each thread's\n"
    "          boosts by mutex priority inheritance (message inheritance apart)\n"
    "  faults  processes killed by a fault: signal, kind, pc, address, the function\n"
    "          and line holding the pc, the stack (SYSTEM FAULT / STACK)\n"
    "  funcs   function calls the capture recorded from fbt and pid probes (FUNC_*):\n"
    "          entries, returns, calls timed entry to return on their thread, total\n"
    "          and longest time (shown with every section only when recorded)\n"
    "  tasks   task instances: each thread's jobs from their release at its activation\n"
    "          point (a receive, an interrupt wait, a sleep) to the next wait there;\n"
    "          per task its kind (periodic: a timer's pulses release it, its period\n"
    "          the timer's interval; or event-driven: interrupts, messages, sleeps,\n"
    "          no deadline unless given), period, jitter, deadline, response and\n"
    "          execution times, preemptions, misses and each missed instance (\"at\n"
    "          least\" where the capture lost events), missed periods (its pulses\n"
    "          the kernel dropped), exit paths (not jobs)\n"
    "  chains  wait chains: each wait on another thread (a send, a mutex, a\n"
    "          semaphore, a condition variable) followed to its root, the time\n"
    "          attributed to each root, each waiter's worst wait link by link\n"
    "  usdt    USDT probes the capture recorded, named provider:probe from their\n"
    "          programs' notes: firings, each argument's least and greatest value\n"
    "          (shown with every section only when recorded)\n"
    "  d       D programs: each one's span, what its probes cost the board as the\n"
    "          kernel counted it (firings, time in their sites: dtrace's closing\n"
    "          line), its consumer's CPU time from the threads' states (shown only\n"
    "          when the capture holds one)\n"
    "Code addresses are named from the ELF files the capture ran, found by build id.\n",
    opts,
    "A damaged or truncated file: the results before the damage, the byte offset\n"
    "where decoding stopped, exit status 1.\n"
    "Exit status: 0 ok, 1 damaged or unreadable input, 2 bad usage.\n",
};

static double us(const struct kx_stats *s, uint64_t cycles)
{
    return kx_seconds(s->r, cycles) * 1e6;
}

static void quantize(const struct kx_stats *s, const struct kx_dist *d, const char *what)
{
    if (!d->n)
        return;
    printf("    %s: n %llu  min %.3f us  mean %.3f us  max %.3f us\n", what,
           (unsigned long long)d->n, us(s, d->min), us(s, d->sum) / (double)d->n,
           us(s, d->max));
    unsigned lo = KX_HIST, hi = 0;
    for (unsigned b = 0; b < KX_HIST; b++)
        if (d->hist[b])
            lo = b < lo ? b : lo, hi = b;
    printf("    %14s  ---------------- Distribution ---------------- count\n", "cycles");
    for (unsigned b = lo; b <= hi + 1 && b < KX_HIST; b++) {
        unsigned bar = (unsigned)((d->hist[b] * 40 + d->n - 1) / d->n);
        char at[41];
        memset(at, '@', bar);
        at[bar] = 0;
        printf("    %14llu |%-40s %llu\n", b ? 1ull << (b - 1) : 0ull, at,
               (unsigned long long)d->hist[b]);
    }
}

static void print_cpu(const struct kx_stats *s)
{
    char lb[80];
    uint64_t span = s->t_last - s->t_first;
    printf("== CPU time (trace span %.3f ms) ==\n", us(s, span) / 1000);
    unsigned ncpu = s->r->kr_ncpu_seen ? s->r->kr_ncpu_seen : 1;
    // (RUNNING time alone: no estimate of other CPUs' turns out of it, kx_stats.h)
    printf("  %-32s %12s %7s %8s%s\n", "thread", "us", "%", "runs",
           ncpu > 1 ? "  migrations" : "");
    for (unsigned i = 0; i < s->m.nth; i++) {
        uint64_t t = s->th[i].state_t[KEV_TH_RUNNING];
        if (!t && !s->th[i].runs)
            continue;
        printf("  %s %12.3f %6.2f%% %8llu", col(kx_label(&s->m, (int)i, lb, sizeof(lb)), 32).s,
               us(s, t), span ? 100.0 * (double)t / (double)span : 0.0,
               (unsigned long long)s->th[i].runs);
        if (ncpu > 1)       // switched in on another CPU than the time before
            printf(" %11llu", (unsigned long long)s->th[i].migrations);
        printf("\n");
    }
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        if (s->none_t[c]) {
            snprintf(lb, sizeof(lb), "(CPU %u: no thread running)", c);
            printf("  %-32s %12.3f\n", lb, us(s, s->none_t[c]));
        }
    if (ncpu > 1) {     // each line adds up to the trace's span
        printf("  %-32s %12s %12s %12s\n", "CPU", "running us", "idle us", "none us");
        for (unsigned c = 0; c < ncpu; c++) {
            snprintf(lb, sizeof(lb), "CPU %u", c);
            printf("  %-32s %12.3f %12.3f %12.3f\n", lb, us(s, s->busy_t[c]), us(s, s->idle_t[c]),
                   us(s, s->none_t[c]));
        }
        printf("  %-32s %12llu\n", "migrations (all threads)", (unsigned long long)s->migrations);
    }
    printf("  %-32s %12s\n", "process", "us");
    for (unsigned i = 0; i < s->m.nth; i++) {
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = s->m.th[j].pid == s->m.th[i].pid;
        if (seen)
            continue;
        uint64_t t = 0;
        for (unsigned j = i; j < s->m.nth; j++)
            if (s->m.th[j].pid == s->m.th[i].pid)
                t += s->th[j].state_t[KEV_TH_RUNNING];
        snprintf(lb, sizeof(lb), "%u %s", s->m.th[i].pid, s->m.th[i].comm);
        printf("  %s %12.3f\n", col(lb, 32).s, us(s, t));
    }
    printf("  %-32s %12s\n", "priority", "us");
    int any = 0;
    for (unsigned p = 0; p < KX_NPRIO; p++)
        any |= s->prio_t[p] != 0;
    if (!any)
        printf("  (no priorities: they come with PRIO_CHANGE and wide-mode thread events)\n");
    for (unsigned p = 0; p < KX_NPRIO; p++)
        if (s->prio_t[p])
            printf("  %-32u %12.3f\n", p, us(s, s->prio_t[p]));
}

static void print_states(const struct kx_stats *s)
{
    char lb[80];
    printf("== Time in each thread state (us) ==\n");
    for (unsigned i = 0; i < s->m.nth; i++) {
        printf("  %s", col(kx_label(&s->m, (int)i, lb, sizeof(lb)), 32).s);
        for (unsigned st = 0; st < KEV_TH_NSTATES; st++)
            if (s->th[i].state_t[st])
                printf(" %s %.3f", kev_thread_state_name(st), us(s, s->th[i].state_t[st]));
        printf("\n");
    }
}

static void print_kcalls(const struct kx_stats *s)
{
    char nb[48];
    printf("== Kernel calls ==\n");
    printf("  %-22s %10s %10s %8s %12s %12s\n", "call", "entries", "completed", "errors",
           "mean us", "max us");
    for (unsigned c = 0; c < KX_KC_SLOTS; c++) {
        const struct kx_kc_stats *k = &s->kc[c];
        if (!k->entries && !k->lat.n)
            continue;
        printf("  %-22s %10llu %10llu %8llu %12.3f %12.3f\n", kx_kc_slot_name(c, nb, sizeof(nb)),
               (unsigned long long)k->entries, (unsigned long long)k->lat.n,
               (unsigned long long)k->errors,
               k->lat.n ? us(s, k->lat.sum) / (double)k->lat.n : 0.0, us(s, k->lat.max));
        for (unsigned e = 0; e < KX_MAX_ERRNO; e++)
            if (k->err[e])
                printf("      errno %u (%s): %llu\n", e, kev_errno_name(e) ? kev_errno_name(e) : "?",
                       (unsigned long long)k->err[e]);
    }
    for (unsigned c = 0; c < KX_KC_SLOTS; c++)
        if (s->kc[c].lat.n) {
            printf("  %s latency\n", kx_kc_slot_name(c, nb, sizeof(nb)));
            quantize(s, &s->kc[c].lat, "entry -> exit");
        }
}

static void print_irq(const struct kx_stats *s)
{
    printf("== Interrupts ==\n");
    printf("  (rate: over the time a source was active, from its first interrupt to its last;\n"
           "  latency: every interrupt that had a thread, to the moment the thread had it:\n"
           "  received its pulse while running, or ran after being made ready, so one that\n"
           "  came while its thread was busy or blocked elsewhere counts that wait too)\n");
    for (unsigned i = 0; i < KX_MAX_IRQ; i++) {
        const struct kx_irq_stats *q = &s->irq[i];
        if (!q->count)
            continue;
        const char *name = kev_int_pseudo_name(i);
        printf("  irq %u%s%s%s: %llu interrupts, %.1f per second over %.3f ms\n", i,
               name ? " (" : "", name ? name : "", name ? ")" : "", (unsigned long long)q->count,
               kx_irq_rate(s, q), us(s, q->last - q->first) / 1000);
        quantize(s, &q->total, "entry -> exit");
        quantize(s, &q->handler, "handler");
        quantize(s, &q->latency, "interrupt -> its thread");
        if (q->no_thread || q->unhandled)
            printf("    %llu woke no thread, %llu not handled by the end of the trace\n",
                   (unsigned long long)q->no_thread, (unsigned long long)q->unhandled);
    }
}

static void print_msg(const struct kx_stats *s)
{
    char lb[80];
    printf("== Messages per channel (client thread -> server process) ==\n");
    for (unsigned i = 0; i < s->nchan; i++) {
        const struct kx_chan *c = &s->chan[i];
        const char *srv = "";
        for (unsigned k = 0; k < s->m.nth; k++)
            if (s->m.th[k].pid == c->srv_pid && s->m.th[k].comm[0])
                srv = s->m.th[k].comm;
        printf("  %s -> %s (pid %u)%s: %llu, %llu errors\n",
               kx_chan_client(s, c, lb, sizeof(lb)), srv, c->srv_pid,
               c->pulse ? " pulses" : "", (unsigned long long)c->count,
               (unsigned long long)c->errors);
        quantize(s, &c->lat, "send -> reply");
        quantize(s, &c->queue, "send -> receive");
        if (c->roots) {
            printf("    critical path, mean per request:\n");
            for (unsigned k = 0; k < s->npsum; k++)
                if (s->psum[k].chan == (int)i)
                    printf("      %s %-20s %10.3f us\n",
                           col(kx_label(&s->m, s->psum[k].th, lb, sizeof(lb)), 32).s,
                           s->psum[k].waiting ? "waits to be received" : "holds the request",
                           us(s, s->psum[k].t) / (double)c->roots);
        }
    }
    if (s->worst_chan >= 0) {
        printf("  slowest request: %.3f us across %u threads\n", us(s, s->worst_total),
               s->worst_depth);
        for (unsigned k = 0; k < s->nworst; k++) {
            printf("    %12.3f %12.3f us  %s %s\n", us(s, s->worst[k].t0),
                   us(s, s->worst[k].t1), col(kx_label(&s->m, s->worst[k].th, lb, sizeof(lb)), 32).s,
                   s->worst[k].waiting ? "waits to be received" : "holds the request");
            struct kw_part part[KW_MAX_PARTS];
            unsigned np = s->worst[k].waiting || !s->kw ? 0
                          : kw_split(s->kw, s->worst[k].th, s->worst[k].t0, s->worst[k].t1,
                                     part, KW_MAX_PARTS);
            for (unsigned j = 0; j < np; j++)
                kx_wait_print_part(s, &part[j], "      ");
        }
    }
}

static void print_lost(const struct kx_stats *s)
{
    if (kx_stats_damaged(s))
        printf("== Lost events: %llu before byte offset %llu; after it unknown (file damaged) ==\n",
               (unsigned long long)kev_lost_total(s->r), (unsigned long long)s->r->kr_err_off);
    else
        printf("== Lost events: %llu ==\n", (unsigned long long)kev_lost_total(s->r));
    for (unsigned i = 0; i < s->ngaps; i++) {
        const struct kx_gap *g = &s->gap[i];
        printf("  CPU %u: %llu lost between %.3f and %.3f us%s; around the gap:", g->cpu,
               (unsigned long long)g->lost, us(s, g->t0), us(s, g->t1),
               g->after_end ? " (after the last buffer)" : "");
        for (unsigned c = 0; c < KEV_NCLASS; c++)
            if (g->classes[c])
                printf(" %s %u", kev_class_name(c), g->classes[c]);
        printf("\n");
    }
    if (s->gaps_dropped)
        printf("  (%llu more windows not listed)\n", (unsigned long long)s->gaps_dropped);
    if (s->ngaps)
        printf("  Results that span a window (state times, latencies, message matching) may\n"
               "  be wrong there: the events of the classes above were not recorded.\n");
}

static void print_user(const struct kx_stats *s)
{
    char lb[80], name[80];
    printf("== User events ==\n");
    printf("  %-8s %-32s %10s %14s %14s  %s\n", "id", "process", "count", "first us", "last us",
           "name: last value");
    for (unsigned i = 0; i < s->nuser; i++) {
        const struct kx_user *u = &s->user[i];
        if (u->th >= 0)
            snprintf(lb, sizeof(lb), "%u %s", u->pid, s->m.th[u->th].comm[0] ? s->m.th[u->th].comm
                                                       : kx_label(&s->m, u->th, name, sizeof(name)));
        else
            snprintf(lb, sizeof(lb), "(no thread known)");
        const char *un = kx_user_name(s, u->pid, u->id);
        char value[KX_USER_VALUE];
        kx_user_last(s, u, value, sizeof(value));
        printf("  %-8u %s %10llu %14.3f %14.3f  %s%s%s\n", u->id, col(lb, 32).s, (unsigned long long)u->count,
               us(s, u->first), us(s, u->last), un ? un : "",
               un ? ": " : "", value);
    }
    if (s->user_other)
        printf("  (%llu more in pairs not listed)\n", (unsigned long long)s->user_other);
    // per id, all processes
    for (unsigned i = 0; i < s->nuser; i++) {
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = s->user[j].id == s->user[i].id;
        if (seen)
            continue;
        uint64_t n = 0;
        unsigned procs = 0;
        for (unsigned j = i; j < s->nuser; j++)
            if (s->user[j].id == s->user[i].id)
                n += s->user[j].count, procs++;
        printf("  id %u: %llu in %u process%s\n", s->user[i].id, (unsigned long long)n, procs,
               procs == 1 ? "" : "es");
    }
}

// A task's deadline as the tasks section says it: "2000.000 (period)", "500.000 (given)", "-".
static const char *deadline_text(const struct kx_stats *s, const struct kx_task *t, char *b,
                                 size_t n)
{
    if (!t->deadline)
        snprintf(b, n, "-");
    else
        snprintf(b, n, "%.3f (%s)", us(s, t->deadline), t->deadline_given ? "given" : "period");
    return b;
}

static void print_miss(const struct kx_stats *s, const struct kx_inst *i)
{
    printf("    missed: released %.3f us, ", us(s, i->release));
    if (i->end)
        printf("ended %.3f us: response %.3f us, late %.3f us", us(s, i->end),
               us(s, i->end - i->release), us(s, (uint64_t)i->lateness));
    else
        printf("still open at the end of the trace, late %.3f us or more",
               us(s, (uint64_t)i->lateness));
    printf(" (running %.3f us, runnable %.3f us, blocked %.3f us, %u preemptions%s)",
           us(s, i->exec), us(s, i->ready), us(s, i->blocked), i->preempt,
           i->queued ? "; released while its previous instance ran" : "");
    if (i->emul_miss)
        printf("; the EMULATOR's miss: it took %.3f us of the instance, the lateness or more",
               us(s, i->emul));
    else if (i->emul)
        printf("; the emulator took %.3f us of it, less than the lateness: the program's miss",
               us(s, i->emul));
    putchar('\n');
}

// The task table's row of task t.
static void print_task_row(const struct kx_stats *s, const struct kx_task *t)
{
    char lb[80], db[48];
    printf("  %s %9llu", col(kx_label(&s->m, t->th, lb, sizeof(lb)), 32).s,
           (unsigned long long)t->n);
    if (t->period)
        printf(" %12.3f", us(s, t->period));
    else
        printf(" %12s", "-");
    printf(" %12.3f %20s %7llu %10llu", us(s, t->gap_max - t->gap_min),
           deadline_text(s, t, db, sizeof(db)), (unsigned long long)t->misses,
           (unsigned long long)t->emul_misses);
    if (t->late_max == INT64_MIN)
        printf(" %14s", "-");
    else
        printf(" %14.3f", t->late_max < 0 ? -us(s, (uint64_t)-t->late_max)
                                          : us(s, (uint64_t)t->late_max));
    printf("  %-12s %14llu\n", kx_task_kind(t), (unsigned long long)t->missed_periods);
}

// Task n's summary lines: its instances' ends, its period and how it is released, its missed
// periods and exits, the events its time lost and the emulator's share; its distributions and
// each missed instance.
static void print_task_detail(const struct kx_stats *s, unsigned n)
{
    const struct kx_tasks *k = s->tasks;
    const struct kx_task *t = &k->task[n];
    char lb[80];
    printf("  %s: %llu ended, %llu open at the end, %llu preemptions; period %s, releases "
           "%.3f .. %.3f us apart\n", kx_label(&s->m, t->th, lb, sizeof(lb)),
           (unsigned long long)t->ended, (unsigned long long)t->unfinished,
           (unsigned long long)t->preempt,
           t->period_given ? "given" : !t->period ? (t->periodic ? "unknown (its timer's interval is not in the capture)" : "none (event-driven)")
           : t->relayed ? "its timer's interval, relayed" : "its timer's interval",
           us(s, t->gap_min), us(s, t->gap_max));
    printf("    %s: released by %s%s", kx_task_kind(t),
           kx_rel_how_name(kx_task_released_by(t)),
           !t->deadline ? " (no deadline given: nothing judged)" : "");
    if (t->periodic && t->interval)
        printf("; its timer's interval %.3f us", us(s, t->interval));
    if (t->missed_periods)
        printf("; %llu missed periods (pulses sent for it the kernel dropped: no job)",
               (unsigned long long)t->missed_periods);
    if (t->exits)
        printf("; %llu instance%s ended in the thread's exit (its exit path: no job, not "
               "judged)", (unsigned long long)t->exits, t->exits == 1 ? "" : "s");
    putchar('\n');
    uint64_t t0 = UINT64_MAX, t1 = 0;
    for (size_t j = 0; j < k->ninst; j++)
        if (k->inst[j].task == n) {
            uint64_t e = k->inst[j].end ? k->inst[j].end : s->t_last;
            t0 = k->inst[j].release < t0 ? k->inst[j].release : t0;
            t1 = e > t1 ? e : t1;
        }
    uint64_t lost = kx_stats_lost_in(s, t0, t1);
    if (lost)
        printf("    LOST EVENTS: the capture lost %llu events in its time; %llu of its jobs "
               "not judged (a window of lost events touches them): at least %llu misses, "
               "at least %llu missed periods\n", (unsigned long long)lost,
               (unsigned long long)t->spoiled, (unsigned long long)t->misses,
               (unsigned long long)t->missed_periods);
    if (t->stretched)
        printf("    EMULATOR: %llu instances hold %.3f us the emulator took (tick gaps, stalls "
               "of their CPU); of the misses %llu are the emulator's, %llu the program's\n",
               (unsigned long long)t->stretched, us(s, t->emul),
               (unsigned long long)t->emul_misses, (unsigned long long)t->misses);
    quantize(s, &t->resp, "response (release -> end)");
    quantize(s, &t->exec, "execution (running)");
    for (size_t j = 0; j < k->ninst; j++)
        if (k->inst[j].task == n && k->inst[j].missed)
            print_miss(s, &k->inst[j]);
}

// Task instances (kx_task.h): a line per task, then each task's response times and misses.
static void print_tasks(const struct kx_stats *s)
{
    const struct kx_tasks *k = s->tasks;
    printf("== Task instances: %u tasks (an instance: from its release at the thread's activation "
           "point, a receive, an interrupt wait or a sleep, to its next wait there) ==\n",
           k ? k->ntask : 0);
    if (!k || !k->ntask)
        return;
    char head[2048];
    kx_tasks_headline(s, head, sizeof(head));
    printf("  %s\n", head);
    printf("  %-32s %9s %12s %12s %20s %7s %10s %14s  %-12s %14s\n", "task", "instances",
           "period us", "jitter us", "deadline us", "misses", "emulator's", "late max us", "kind",
           "missed periods");
    for (unsigned n = 0; n < k->ntask; n++)
        print_task_row(s, &k->task[n]);
    for (unsigned n = 0; n < k->ntask; n++)
        print_task_detail(s, n);
    for (unsigned r = 0; r < k->nrule; r++)
        if (!k->rule[r].matched)
            printf("  --%s %s: no task of that name\n", k->rule[r].deadline ? "deadline" : "period",
                   k->rule[r].name);
    if (k->lost)
        printf("  %llu instances not kept: out of memory\n", (unsigned long long)k->lost);
}

// The waits section, with every wait kept in `waits` during the pass.
static FILE *waits;
static void print_waits(const struct kx_stats *s)
{
    kx_wait_print(s, waits);
}

// The kernel's panic, when the capture ends with one (a post-mortem dump: docs/tracelogger.md).
static struct kev_panic panic_seen;
static int panic_cpu = -1;
static uint64_t panic_t;

// An event once the statistics took it (kx_pass.h; kevstat reads the model only at the end):
// the panic, fault or USDT probe it may be.
static void after(void *user, const struct kev_reader *r, const struct kev_event *e,
                  struct kx_model *m)
{
    (void)user, (void)m;
    struct kev_panic p;
    if (e->cls == KEV_C_SYSTEM && kev_panic_decode(r, e, &p)) {
        panic_seen = p;
        panic_cpu = (int)e->cpu;
        panic_t = e->t64;
    }
    kx_faults_event(e);
    kx_usdt_event(r, e);
}

// folded: kevstat --folded: the stack samples as folded stacks (kx_stacks.h).
struct folded {
    struct kx_model m;
    struct kx_stacks k;
    int oom;
};

static int folded_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                        struct kx_model *m)
{
    (void)r;
    struct folded *x = user;
    if (kx_stacks_event(&x->k, m, e) < 0) {
        x->oom = 1;
        return 1;
    }
    return 0;
}

// The function calls fbt's firings recorded (kx_funcs.h), the most time first. Explicitly
// asked for (-s funcs) with none recorded, it says how a capture gets them; so does -s usdt.
static int funcs_asked, usdt_asked;
static int by_total(const void *a, const void *b)
{
    const struct kx_func_stats *x = a, *y = b;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    if (x->entries + x->returns != y->entries + y->returns)
        return x->entries + x->returns < y->entries + y->returns ? 1 : -1;
    return x->fn < y->fn ? -1 : x->fn > y->fn;
}

static void print_funcs(const struct kx_stats *s)
{
    unsigned n;
    const struct kx_func_stats *t = kx_funcs_table(s->funcs, &n);
    if (!n) {
        if (funcs_asked)
            printf("== Function calls ==\n  none recorded: a capture records fbt's and pid's "
                   "entry and return firings while a D program enables them (docs/fbt.md)\n");
        return;
    }
    struct kx_func_stats *v = malloc(n * sizeof(*v));
    if (!v)
        return;
    memcpy(v, t, n * sizeof(*v));
    qsort(v, n, sizeof(*v), by_total);
    printf("== Function calls (fbt and pid firings) ==\n  %-32s %9s %9s %9s %12s %10s %10s\n", "function",
           "entries", "returns", "timed", "total us", "mean us", "max us");
    for (unsigned i = 0; i < n; i++) {
        char fn[128];
        syms_function(v[i].fn, fn, sizeof(fn));
        printf("  %s %9llu %9llu %9llu", col(fn, 32).s, (unsigned long long)v[i].entries,
               (unsigned long long)v[i].returns, (unsigned long long)v[i].timed);
        if (v[i].timed)
            printf(" %12.3f %10.3f %10.3f\n", us(s, v[i].total),
                   us(s, v[i].total) / (double)v[i].timed, us(s, v[i].max));
        else
            printf(" %12s %10s %10s\n", "-", "-", "-");
    }
    if (kx_funcs_unpaired(s->funcs))
        printf("  %llu entries with no return recorded (their :return not enabled, or past "
               "%u open calls on a CPU)\n", (unsigned long long)kx_funcs_unpaired(s->funcs),
               KX_FUNC_DEPTH);
    if (kx_funcs_dropped(s->funcs))
        printf("  %llu function events not counted: out of memory\n",
               (unsigned long long)kx_funcs_dropped(s->funcs));
    free(v);
}

static void print_usdt(const struct kx_stats *s)
{
    kx_usdt_print(s, usdt_asked);
}

// The D programs the capture holds (kx_dprog.h): what dtrace's closing line said on the board,
// from the kernel's counts at the stop, and the consumer's CPU time in the span, from the
// capture's thread states (dtrace's own figure is its reads' wall time: preemptions in it).
static void print_dprog(const struct kx_stats *s)
{
    const struct kx_dprogs *d = &s->dprogs;
    if (!d->n)
        return;
    unsigned ncpu = s->r->kr_ncpu_seen ? s->r->kr_ncpu_seen : 1;
    printf("== D programs: what their probes cost the board ==\n");
    for (unsigned i = 0; i < d->n; i++) {
        const struct kx_dprog *p = &d->p[i];
        uint64_t span = (p->stop ? p->stop : s->t_last) - p->go;
        uint64_t all = p->costed && p->run ? p->run : span * ncpu;
        printf("  dtrace (pid %u): probes on for %.3f ms%s\n", kev_who_pid(p->who),
               us(s, span) / 1000, p->stop ? "" : " (the capture ended before its stop)");
        // (whole us and hundredths of a percent, cut as dtrace's line cuts them)
        uint64_t hz = s->r->kr_cycles_per_sec ? s->r->kr_cycles_per_sec : 1;
        uint64_t site_bp = all ? p->site * 10000u / all : 0, con_bp = all ? p->consumer * 10000u / all : 0;
        if (p->costed)
            printf("    %llu firings, %llu us in their sites (%llu.%02llu %% of the CPUs' time)\n",
                   (unsigned long long)p->firings, (unsigned long long)(p->site * 1000000u / hz),
                   (unsigned long long)(site_bp / 100u), (unsigned long long)(site_bp % 100u));
        else
            printf("    its cost unknown: no DCOST event at its stop\n");
        printf("    its consumer ran %llu us (%llu.%02llu %%)\n",
               (unsigned long long)(p->consumer * 1000000u / hz),
               (unsigned long long)(con_bp / 100u), (unsigned long long)(con_bp % 100u));
    }
    if (d->more)
        printf("  %u more programs not listed\n", d->more);
}

static int print_folded(const char *in)
{
    struct kx_file f;
    if (kx_open("kevstat", in, &f))
        return 1;
    struct folded *x = calloc(1, sizeof(*x));
    if (!x) {
        fprintf(stderr, "kevstat: out of memory\n");
        kx_close(&f);
        return 1;
    }
    syms_trace("kevstat", f.data, f.len);
    kx_model_init(&x->m, f.r);
    kx_stacks_init(&x->k);
    int rc = kx_pass_run("kevstat", &f, &(struct kx_pass){ .m = &x->m, .on_event = folded_event,
                                                           .user = x });
    if (kx_stacks_folded(&x->k, stdout) != 0)
        x->oom = 1;
    // said, never silent: a capture without samples, refused STACK events, losses
    if (!x->k.nsamples)
        fprintf(stderr, "kevstat: %s has no stack samples (capture with tracelogger -p HZ)\n",
                in);
    if (kev_lost_total(f.r))
        fprintf(stderr, "kevstat: %llu events lost in the capture: samples among them are "
                "missing\n", (unsigned long long)kev_lost_total(f.r));
    if (kx_stacks_said("kevstat", &x->k, x->oom) || fflush(stdout))
        rc = 1;
    kx_stacks_free(&x->k);
    free(x);
    syms_end();
    kx_close(&f);
    return rc;
}

// The text report: the capture's counts and damage, then each section of `want`.
static void print_text(const struct kx_stats *s, const struct kev_reader *r, unsigned want)
{
    void (*const fn[NSECT])(const struct kx_stats *) = { print_cpu, print_states,
                                                         print_kcalls, print_irq,
                                                         print_msg, print_lost,
                                                         print_user, print_waits,
                                                         kx_faults_print, print_funcs,
                                                         print_tasks, kx_chain_print,
                                                         print_usdt, print_dprog };
    if (kx_stats_damaged(s))
        printf("DAMAGED FILE: %s. The results below cover only the events before byte "
               "offset %llu; what follows it (events and losses) is unknown.\n",
               kev_error(r), (unsigned long long)r->kr_err_off);
    printf("%llu events, %llu lost%s, %llu cycles/s\n", (unsigned long long)s->events,
           (unsigned long long)kev_lost_total(r),
           kx_stats_damaged(s) ? " before the damage" : "",
           (unsigned long long)r->kr_cycles_per_sec);
    if (kev_rejected_total(r))    // a process's bad ring records: not a loss
        printf("%llu records of processes' user-event rings rejected (URING_BAD; not "
               "events, not lost)\n", (unsigned long long)kev_rejected_total(r));
    if (kev_timer_lost_total(r))  // the program's pulses, not the trace's events
        printf("%s%llu timer pulses lost (TIMER_LOST: a user timer's pulse found no room; "
               "not trace events%s)\n", kev_lost_total(r) ? "at least " : "",
               (unsigned long long)kev_timer_lost_total(r),
               kev_lost_total(r) ? "; the events lost may hide more" : "");
    if (s->emul)
        kx_emul_print(s->emul, stdout);
    if (panic_cpu >= 0) {
        char line[320];
        kev_panic_format(&panic_seen, line, sizeof(line));
        printf("KERNEL PANIC on CPU %d at %.3f us: %s\n", panic_cpu, us(s, panic_t), line);
    }
    for (unsigned k = 0; k < NSECT; k++)
        if (want & 1u << k)
            fn[k](s);
}

int main(int argc, char **argv)
{
    const char *in = NULL;
    int json = 0, folded = 0;
    uint64_t wait_min = 0;
    int wait_min_set = 0;
    unsigned want = (1u << NSECT) - 1;
    struct kx_timing_set timing = { .n = 0 };
    struct tool_args a = { argc, argv, 0, NULL };
    for (int id; (id = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END;) {
        if (id < 0)
            return tool_opts_exit(id);
        if (id == OPT_JSON) {
            json = 1;
        } else if (id == OPT_FOLDED) {
            folded = 1;
        } else if (id == OPT_WAIT_MIN) {
            if (kx_wait_min_arg(cmd.name, a.val, &wait_min))
                return 2;
            wait_min_set = 1;
        } else if (id == 's') {
            want = 0;
            char buf[256];
            snprintf(buf, sizeof(buf), "%s", a.val);
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                unsigned k = 0;
                while (k < NSECT && strcmp(tok, sections[k]))
                    k++;
                if (k == NSECT)
                    return tool_usage_error(&cmd, "unknown section %s", tok);
                want |= 1u << k;
                funcs_asked |= k == 9;
                usdt_asked |= k == 12;
            }
        } else if (kx_timing_take(&timing, cmd.name, id, a.val) < 0) {
            return 2;
        } else if (syms_take(cmd.name, id, a.val) < 0) {
            return 2;
        }
    }
    if (tool_one_file(&cmd, &a, &in))
        return 2;
    if (folded)
        return print_folded(in);
    struct kx_file f;
    if (kx_open("kevstat", in, &f))
        return 1;
    syms_trace("kevstat", f.data, f.len);
    struct kx_stats *s = calloc(1, sizeof(*s));
    if (!s) {
        fprintf(stderr, "kevstat: out of memory\n");
        return 1;
    }
    kx_stats_init(s, f.r);
    s->wait_min_ns = wait_min;
    s->wait_min_set = wait_min_set;
    s->json_more = kx_usdt_json_member;
    if (s->tasks)
        kx_tasks_rules(s->tasks, &timing);
    if (!json && (want & 1u << 7) && (waits = tmpfile()) != NULL) // every wait, for -s waits
        kx_stats_sink(s, &(struct kx_sink){ .user = waits, .wait = kx_wait_save });
    struct kx_pass pass = { .after = after };
    kx_stats_model(&pass, s);
    int rc = kx_pass_run("kevstat", &f, &pass);
    kx_stats_finish(s);
    if (json)
        kx_stats_json(s, stdout);
    else
        print_text(s, f.r, want);
    if (fflush(stdout))
        rc = 1;
    kx_stats_free(s);
    free(s);
    if (waits)
        fclose(waits);
    syms_end();
    kx_close(&f);
    return rc;
}
