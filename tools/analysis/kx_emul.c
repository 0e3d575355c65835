// SPDX-License-Identifier: MIT
// How the capture's time was kept and what the emulator did to it (kx_emul.h): the header's
// QEMU_CLOCK item, the tick periods no tick came for, and on several CPUs under -icount the
// runs stretched by the other CPUs' turns. One pass, fed by kx_stats; the sentences are made
// here so that kevstat and the report say the same. The gaps and stalls are kept whole for
// kx_emul_inside, which the task instances ask after the pass.
#include <kevhost/kx_emul.h>
#include <kevhost/tool_grow.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_ids.h>

#include <stdlib.h>
#include <string.h>
#include <kevhost/json_out.h>

#define KX_TICK_IRQ 0x100u          // the kernel's tick (trace/kev.h, kev_int_pseudo_name)
#define KX_TICK_SHARE_IRQ 0x101u    // a CPU's tick share

static enum kx_clock clock_of(const char *v)
{
    if (!strcmp(v, "host"))
        return KX_CLOCK_HOST;
    if (strncmp(v, "icount", 6) || (v[6] && v[6] != ','))
        return KX_CLOCK_OTHER;
    return strstr(v, "sleep=off") ? KX_CLOCK_EXACT : KX_CLOCK_ICOUNT;
}

void kx_emul_init(struct kx_emul *x, const struct kev_reader *r, const struct kx_model *m)
{
    memset(x, 0, sizeof(*x));
    x->r = r;
    x->m = m;
    unsigned len;
    const char *v = kev_attr(r, "QEMU_CLOCK", &len);
    if (v) {
        snprintf(x->item, sizeof(x->item), "%.*s", (int)len, v);
        x->clock = clock_of(x->item);
    }
    const char *n = kev_attr(r, "CPU_NUM", &len);
    x->ncpu = r->kr_trl_ncpu ? r->kr_trl_ncpu : n ? (unsigned)strtoul(n, NULL, 10) : 1;
    if (x->ncpu > KEV_MAX_CPUS || !x->ncpu)
        x->ncpu = x->ncpu ? KEV_MAX_CPUS : 1;
    // QEMU takes the CPUs in turn only under -icount
    x->turns_on = x->ncpu > 1 && (x->clock == KX_CLOCK_ICOUNT || x->clock == KX_CLOCK_EXACT);
    x->turn_cpu = -1;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        x->open[c].th = -1;
    x->worst.th = -1;
}

void kx_emul_free(struct kx_emul *x)
{
    free(x->tick), x->tick = NULL;
    free(x->gap), x->gap = NULL;
    free(x->stall), x->stall = NULL;
    free(x->lost), x->lost = NULL;
}

// Room for element n of the list *p (*cap elements of `size`); 0, or -1 (and x->oom) when none.
static int grow(struct kx_emul *x, void **p, size_t *cap, size_t n, size_t size)
{
    if (tool_grow(p, cap, n + 1, size, 256)) {
        x->oom = 1;
        return -1;
    }
    return 0;
}

void kx_emul_lost(struct kx_emul *x, uint64_t t0, uint64_t t1)
{
    if (!grow(x, (void **)&x->lost, &x->lost_cap, x->nlost, sizeof(*x->lost)))
        x->lost[x->nlost].t0 = t0, x->lost[x->nlost++].t1 = t1 > t0 ? t1 : t0;
}

int kx_emul_in_lost(const struct kx_emul *x, uint64_t t0, uint64_t t1)
{
    for (size_t i = 0; x && i < x->nlost; i++)
        if (x->lost[i].t0 <= t1 && x->lost[i].t1 >= t0)
            return 1;
    return 0;
}

static void add_tick(struct kx_emul *x, uint64_t t)
{
    if (!grow(x, (void **)&x->tick, &x->cap, x->ntick, sizeof(*x->tick)))
        x->tick[x->ntick++] = t;
}

static void add_stall(struct kx_emul *x, int th, uint64_t t0, uint64_t t1)
{
    if (!grow(x, (void **)&x->stall, &x->stall_cap, x->nstall, sizeof(*x->stall)))
        x->stall[x->nstall++] = (struct kx_emul_stall){ th, t0, t1 };
}

// ---- turns and runs ------------------------------------------------------------------------

// The turn of CPU turn_cpu (turn_t0 .. turn_t1) is over: it is time every other CPU's open
// run did not run.
static void end_turn(struct kx_emul *x)
{
    for (unsigned c = 0; c < x->ncpu; c++) {
        struct kx_emul_run *o = &x->open[c];
        uint64_t from = o->t0 > x->turn_t0 ? o->t0 : x->turn_t0;
        if ((int)c != x->turn_cpu && o->th >= 0 && x->turn_t1 > from)
            o->turns += x->turn_t1 - from;
    }
}

static void close_run(struct kx_emul *x, unsigned c, uint64_t t)
{
    struct kx_emul_run *o = &x->open[c];
    if (o->th < 0)
        return;
    o->t1 = t;
    uint64_t len = t - o->t0;
    x->runs++;
    x->run_t += len;
    x->turn_t += o->turns;
    x->stall_t += o->stalled;
    if (o->stalled) {
        x->stretched++;
        if (x->worst.th < 0 || o->stalled > x->worst.stalled)
            x->worst = *o;
    }
    o->th = -1;
}

// CPU c wrote nothing since its last event up to t: a stall, in its open run, when another
// CPU took two of its own timer interrupts meanwhile (c would have taken one).
static void silence(struct kx_emul *x, unsigned c, uint64_t t)
{
    struct kx_emul_run *o = &x->open[c];
    uint64_t from = o->t0 > x->last[c] ? o->t0 : x->last[c];
    if (o->th < 0 || t <= from)
        return;
    for (unsigned d = 0; d < x->ncpu; d++)
        if (d != c && x->ticks[d] >= x->seen[c][d] + 2) {
            o->stalled += t - from;
            add_stall(x, o->th, from, t);
            return;
        }
}

static void spoke(struct kx_emul *x, unsigned c, uint64_t t)
{
    x->last[c] = t;
    memcpy(x->seen[c], x->ticks, x->ncpu * sizeof(x->ticks[0]));
}

// Each CPU's run: the model's thread there (not idle), from when it became so.
static void follow_runs(struct kx_emul *x, unsigned cpu, uint64_t t)
{
    for (unsigned c = 0; c < x->ncpu && c < KEV_MAX_CPUS; c++) {
        int th = x->m->cur[c];
        if (th >= 0 && kx_is_idle(x->m, th))
            th = -1;
        if (th == x->open[c].th)
            continue;
        silence(x, c, t);   // (0 on the event's own CPU: its last event is this one)
        close_run(x, c, t);
        if (th >= 0)
            x->open[c] = (struct kx_emul_run){ th, c, t, 0, 0, 0 };
        if (th >= 0 && c != cpu)
            spoke(x, c, t); // (a run begun by another CPU's event: its silence from here)
    }
}

static void follow_turns(struct kx_emul *x, const struct kev_event *e)
{
    if (x->turn_cpu == (int)e->cpu) {
        x->turn_t1 = e->t64;
        return;
    }
    if (x->turn_cpu >= 0)
        end_turn(x);
    x->turn_cpu = (int)e->cpu;
    x->turn_t0 = x->turn_t1 = e->t64;
}

void kx_emul_event(struct kx_emul *x, const struct kev_event *e)
{
    x->t_last = e->t64;
    if (e->cpu >= x->cpus_seen)
        x->cpus_seen = e->cpu + 1u;
    uint32_t irq = e->cls == KEV_C_INT && e->ev == KEV_INT_ENTER && e->nw >= 1 ? kx_int_irq(e)
                                                                               : UINT32_MAX;
    if (irq == KX_TICK_IRQ)
        add_tick(x, e->t64);
    if (!x->turns_on || e->cpu >= KEV_MAX_CPUS)
        return;
    if (e->cpu >= x->ncpu)
        x->ncpu = e->cpu + 1u;  // (the loops below run over the capture's CPUs only)
    follow_turns(x, e);
    silence(x, e->cpu, e->t64);
    spoke(x, e->cpu, e->t64);
    if (irq == KX_TICK_IRQ || irq == KX_TICK_SHARE_IRQ)
        x->ticks[e->cpu]++;
    if (e->cls == KEV_C_PR_TH || (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_SNAPSHOT))
        follow_runs(x, e->cpu, e->t64);
}

// ---- the tick's periods --------------------------------------------------------------------

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// The tick's period: the median interval between ticks (exact on QEMU, whose intervals are
// whole cycles; a hardware tick a fraction of a cycle off is followed below). 0: unknown.
static double tick_period(const struct kx_emul *x)
{
    size_t n = x->ntick - 1;
    uint64_t *iv = malloc(n * sizeof(*iv));
    if (!iv)
        return 0;
    for (size_t i = 0; i < n; i++)
        iv[i] = x->tick[i + 1] - x->tick[i];
    qsort(iv, n, sizeof(*iv), cmp_u64);
    double med = (double)iv[n / 2];
    free(iv);
    return med;
}

static void note_gap(struct kx_emul *x, uint64_t t0, uint64_t t1, uint64_t missed)
{
    struct kx_emul_gap g = { t0, t1, missed };
    x->skipped += missed;
    x->gaps++;
    if (!grow(x, (void **)&x->gap, &x->gap_cap, x->ngaps, sizeof(*x->gap)))
        x->gap[x->ngaps++] = g;
    if (t1 - t0 > x->longest.t1 - x->longest.t0)
        x->longest = g;
}

// Where the tick's periods end, as an offset from the first tick in [0, P): the most common
// offset of the ticks (in 32 bins, its bin's mean), as most ticks come on time. On several
// CPUs the tick is taken by whichever CPU sees the end first, so the first tick may be late.
static double tick_phase(const struct kx_emul *x, double p)
{
    uint32_t n[32] = { 0 };
    double sum[32] = { 0 };
    for (size_t i = 0; i < x->ntick; i++) {
        double a = (double)(x->tick[i] - x->tick[0]);
        double off = a - p * (double)(uint64_t)(a / p);   // a mod p
        unsigned b = (unsigned)(off * 32 / p) & 31u;
        n[b]++, sum[b] += off;
    }
    unsigned best = 0;
    for (unsigned b = 1; b < 32; b++)
        if (n[b] > n[best])
            best = b;
    return sum[best] / n[best];
}

// The kernel's rule over the ticks: each counts the periods ended by its time + P/8; more
// than one is a gap of that many less one. The period ends keep the phase of the last tick
// that came on time (within P/8 of its end), so that a tick whose period is a fraction of a
// cycle off the median drifts nowhere, while a late tick leaves the phase where it was.
static void tick_gaps(struct kx_emul *x)
{
    if (x->ntick < 3 || x->oom)
        return;
    double p = tick_period(x);
    if (p <= 0)
        return;
    x->period = p;
    double end = (double)x->tick[0] + tick_phase(x, p);
    if (end - p + p / 8 >= (double)x->tick[0])
        end -= p;               // the first tick counts the first end, its own period's
    for (size_t i = 0; i < x->ntick; i++) {
        double now = (double)x->tick[i];
        if (now + p / 8 < end)
            continue;
        uint64_t k = (uint64_t)((now + p / 8 - end) / p) + 1;
        double late = now - (end + (double)(k - 1) * p);   // after the last end it counts
        end += (double)k * p;
        if (late < p / 8)
            end = now + p;
        if (k > 1 && kx_emul_in_lost(x, x->tick[i - 1], x->tick[i]))
            x->lost_gaps++, x->lost_skipped += k - 1;   // not recorded, not late
        else if (k > 1)
            note_gap(x, x->tick[i - 1], x->tick[i], k - 1);
    }
    x->periods = (uint64_t)((double)(x->tick[x->ntick - 1] - x->tick[0]) / p + 0.5);
}

// ---- what to say ---------------------------------------------------------------------------

static double ms(const struct kx_emul *x, uint64_t cycles)
{
    return x->r->kr_cycles_per_sec ? (double)cycles * 1e3 / (double)x->r->kr_cycles_per_sec : 0;
}

static void say_clock(struct kx_emul *x)
{
    const char *opt = strchr(x->item, ',') ? strchr(x->item, ',') + 1 : "";
    char cpus[48] = "";
    if (x->turns_on)
        snprintf(cpus, sizeof(cpus), "; its %u CPUs run one at a time", x->cpus_seen);
    switch (x->clock) {
    case KX_CLOCK_NONE:
        snprintf(x->says, sizeof(x->says), "not recorded (no QEMU_CLOCK item: real hardware, "
                 "or a boot not made by scripts/qemu-run.sh)");
        break;
    case KX_CLOCK_HOST:
        snprintf(x->says, sizeof(x->says), "QEMU on the host's clock (QEMU_CLOCK host): the "
                 "host's load moves it");
        break;
    case KX_CLOCK_ICOUNT:
        snprintf(x->says, sizeof(x->says), "QEMU -icount %s: %s%s", opt,
                 strstr(opt, "auto") ? "instructions counted at a rate kept near the host's clock"
                                     : "instructions counted, idle time on the host's clock", cpus);
        break;
    case KX_CLOCK_EXACT:
        snprintf(x->says, sizeof(x->says), "QEMU exact mode, -icount %s: the instruction count "
                 "alone, the same every run%s", opt, cpus);
        break;
    default:
        snprintf(x->says, sizeof(x->says), "QEMU_CLOCK %s (not a mode this reader knows)",
                 x->item);
    }
}

static void say_ticks(struct kx_emul *x, char *w, size_t n)
{
    const char *why;
    if (x->clock == KX_CLOCK_NONE)
        why = "the capture does not say how its time was kept: on real hardware the target held"
              " its interrupts up, under QEMU the host may have held QEMU up";
    else if (!x->gaps_emulator)
        why = "under the exact mode QEMU keeps every period, so the target held its interrupts"
              " up (masked, or the kernel busy): this is the target's own lateness";
    else if (x->clock == KX_CLOCK_EXACT)
        why = "QEMU runs the CPUs one at a time, and a CPU's timer interrupt waits for its turn:"
              " lateness around these gaps is the emulator's, not the program's";
    else
        why = "QEMU fired its timer late, once for every period the host kept it from: deadline"
              " misses, overruns and late wake-ups around these gaps are the emulator's, not the"
              " program's; capture under QEMU_ICOUNT=exact to time the program"
              " (docs/applications.md)";
    snprintf(w, n, "the tick skipped %llu of %llu periods (%llu gaps, the longest %.3f ms from "
             "%.3f ms since boot): %s", (unsigned long long)x->skipped,
             (unsigned long long)x->periods, (unsigned long long)x->gaps,
             ms(x, x->longest.t1 - x->longest.t0), ms(x, x->longest.t0), why);
}

static void say_runs(struct kx_emul *x, char *w, size_t n)
{
    char who[160];
    kx_label(x->m, x->worst.th, who, sizeof(who));
    snprintf(w, n, "%llu of %llu runs on %u CPUs held a stall of their CPU: no event, not even "
             "its own timer interrupt, while another CPU took two of its own, so QEMU did not "
             "run that CPU for a tick period or more; the worst, %s on CPU %u at %.3f ms since "
             "boot: a run of %.3f ms, %.3f ms of it stalled. Under -icount QEMU runs the CPUs "
             "one at a time: a run's length, and the response times and lateness that hold it, "
             "include other CPUs' turns, time its thread did not run (docs/applications.md)",
             (unsigned long long)x->stretched, (unsigned long long)x->runs, x->cpus_seen, who,
             x->worst.cpu, ms(x, x->worst.t0), ms(x, x->worst.t1 - x->worst.t0),
             ms(x, x->worst.stalled));
}

// ---- the emulator's time inside an interval -------------------------------------------------

static int cmp_stall(const void *a, const void *b)
{
    const struct kx_emul_stall *x = a, *y = b;
    if (x->th != y->th)
        return x->th < y->th ? -1 : 1;
    return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

// The stalls by thread, then time, each thread's merged where they overlap (a thread the model
// saw on two CPUs at once), so that a thread's ends follow its starts: kx_emul_inside searches.
static void sort_stalls(struct kx_emul *x)
{
    if (!x->nstall)
        return;                 // qsort takes no NULL list
    qsort(x->stall, x->nstall, sizeof(*x->stall), cmp_stall);
    size_t n = 0;
    for (size_t i = 0; i < x->nstall; i++) {
        struct kx_emul_stall *l = n ? &x->stall[n - 1] : NULL, *s = &x->stall[i];
        if (l && l->th == s->th && s->t0 <= l->t1)
            l->t1 = s->t1 > l->t1 ? s->t1 : l->t1;
        else
            x->stall[n++] = *s;
    }
    x->nstall = n;
}

static uint64_t overlap(uint64_t a, uint64_t b, uint64_t t0, uint64_t t1)
{
    uint64_t lo = a > t0 ? a : t0, hi = b < t1 ? b : t1;
    return hi > lo ? hi - lo : 0;
}

uint64_t kx_emul_inside(const struct kx_emul *x, int th, uint64_t a, uint64_t b)
{
    if (!x || b <= a)
        return 0;
    uint64_t sum = 0;
    size_t lo = 0, hi = x->ngaps;   // the first gap that ends after a (gaps follow each other)
    while (x->gaps_emulator && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->gap[mid].t1 <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; x->gaps_emulator && i < x->ngaps && x->gap[i].t0 < b; i++) {
        const struct kx_emul_gap *g = &x->gap[i];
        uint64_t o = overlap(a, b, g->t0, g->t1);
        uint64_t most = (uint64_t)((double)g->missed * x->period + 0.5);
        sum += o < most ? o : most;
    }
    lo = 0, hi = x->nstall;         // th's first stall that ends after a
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct kx_emul_stall *s = &x->stall[mid];
        if (s->th < th || (s->th == th && s->t1 <= a))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < x->nstall && x->stall[i].th == th && x->stall[i].t0 < b; i++)
        sum += overlap(a, b, x->stall[i].t0, x->stall[i].t1);
    return sum < b - a ? sum : b - a;
}

void kx_emul_finish(struct kx_emul *x)
{
    if (x->turns_on) {
        if (x->turn_cpu >= 0)
            end_turn(x);
        for (unsigned c = 0; c < KEV_MAX_CPUS; c++) {
            silence(x, c, x->t_last);
            close_run(x, c, x->t_last);
        }
    }
    sort_stalls(x);
    // the gaps are the emulator's but on real hardware (not known without the item) and on one
    // CPU in the exact mode, where QEMU keeps every period
    x->gaps_emulator = x->clock != KX_CLOCK_NONE && !(x->clock == KX_CLOCK_EXACT && x->ncpu <= 1);
    tick_gaps(x);
    say_clock(x);
    x->nwarn = 0;
    if (x->skipped)
        say_ticks(x, x->warn[x->nwarn++], sizeof(x->warn[0]));
    if (x->lost_gaps)
        snprintf(x->warn[x->nwarn++], sizeof(x->warn[0]), "%llu gaps between the tick's entries "
                 "(%llu periods) lie in windows where the capture lost events: those ticks were "
                 "not recorded, which says nothing of the target's or the emulator's timing",
                 (unsigned long long)x->lost_gaps, (unsigned long long)x->lost_skipped);
    if (x->stretched)
        say_runs(x, x->warn[x->nwarn++], sizeof(x->warn[0]));
    if (x->oom)
        snprintf(x->warn[x->nwarn++], sizeof(x->warn[0]), "out of memory: the tick's gaps or "
                 "the stalled CPUs not all found; the task instances may hold more of the "
                 "emulator's time than they say");
}

void kx_emul_print(const struct kx_emul *x, FILE *f)
{
    fprintf(f, "time: %s\n", x->says);
    for (unsigned i = 0; i < x->nwarn; i++)
        fprintf(f, "WARNING: %s\n", x->warn[i]);
}

void kx_emul_json(const struct kx_emul *x, FILE *f)
{
    static const char *const mode[] = { "none", "host", "icount", "exact", "other" };
    fprintf(f, "{\"item\":");
    json_str(f, x->item, 0);
    fprintf(f, ",\"mode\":\"%s\",\"says\":", mode[x->clock]);
    json_str(f, x->says, 0);
    fprintf(f, ",\"tick\":{\"period\":%.1f,\"periods\":%llu,\"skipped\":%llu,\"gaps\":%llu,"
               "\"longest\":{\"t0\":%llu,\"t1\":%llu,\"missed\":%llu},\"lost_gaps\":%llu,"
               "\"lost_skipped\":%llu}", x->period,
            (unsigned long long)x->periods, (unsigned long long)x->skipped,
            (unsigned long long)x->gaps, (unsigned long long)x->longest.t0,
            (unsigned long long)x->longest.t1, (unsigned long long)x->longest.missed,
            (unsigned long long)x->lost_gaps, (unsigned long long)x->lost_skipped);
    if (x->turns_on) {
        fprintf(f, ",\"turns\":{\"runs\":%llu,\"stretched\":%llu,\"run_cycles\":%llu,"
                   "\"turn_cycles\":%llu,\"stall_cycles\":%llu,\"worst\":",
                (unsigned long long)x->runs, (unsigned long long)x->stretched,
                (unsigned long long)x->run_t, (unsigned long long)x->turn_t,
                (unsigned long long)x->stall_t);
        if (x->worst.th >= 0) {
            char who[160];
            fputs("{\"thread\":", f);
            json_str(f, kx_label(x->m, x->worst.th, who, sizeof(who)), 0);
            fprintf(f, ",\"cpu\":%u,\"t0\":%llu,\"t1\":%llu,\"turns\":%llu,\"stalled\":%llu}",
                    x->worst.cpu, (unsigned long long)x->worst.t0,
                    (unsigned long long)x->worst.t1, (unsigned long long)x->worst.turns,
                    (unsigned long long)x->worst.stalled);
        } else {
            fputs("null", f);
        }
        fputs("}", f);
    }
    fprintf(f, ",\"warnings\":[");
    for (unsigned i = 0; i < x->nwarn; i++) {
        fputs(i ? "," : "", f);
        json_str(f, x->warn[i], 0);
    }
    fputs("]}", f);
}
