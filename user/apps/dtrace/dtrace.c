// SPDX-License-Identifier: MIT
// dtrace on the target: compiles a D program on the board (-s, -n) or takes one compiled on
// the host (tools/dcompile; `make dtrace S=script.d`), loads it into the kernel, starts it,
// runs a workload, and prints what the program records as dtrace(1M) does, with the consumer
// of trace/d (dcons). The kernel keeps the engine; its state is mapped read-only here, records
// come through KDT_READ, and the two consumer actions that change aggregations (clear, trunc)
// go through the kernel. The command line is its part of the boot command line (kargs); quote a program's text
// ('...' or "...") to keep its spaces.
// Exit status: the program's exit(n), 0 when it ends without one, 1 when it cannot run,
// 2 for bad usage, as dtrace(1M)'s; a -c workload that fails (exits non-zero or is killed) is
// said on stderr, "dtrace: pid N (name) exited with status S" or "... killed by signal S", so
// that a caller can tell (scripts/run-dtrace.sh: make dtrace then fails as make run does).
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <d/dcons.h>
#include <d/dcc.h>
#include <d/dcpp.h>
#include <d/dobj_opts.h>
#include <d/dtarget.h>
#include <d/dfbt.h>
#include <d/dprobes.h>
#include <uapi/kdtrace.h>
#include <kdt_dobj.h>
#include <logger_prio.h>
#include <utc_date.h>

static uint8_t records[8 * 1024] __attribute__((aligned(8)));
#ifndef DTRACE_CC_ARENA
static uint8_t scratch[4 * 1024] __attribute__((aligned(8))); // merging aggregations
#endif

// errtext: the few errors this program reports, in the C library's words (its strerror( )
// table costs this 128 KB image 2.7 KB of flash for the hundred it never meets).
static const char *errtext(int e)
{
    switch (e) {
    case ENOMEM: return "Not enough space";
    case EEXIST: return "File exists";
    case EINVAL: return "Invalid argument";
    case EPERM: return "Operation not permitted";
    case EFAULT: return "Bad address";
    case ENOSPC: return "No space left on device";
    case ENOENT: return "No such file or directory";
    case EIO: return "I/O error";
    case ECANCELED: return "Operation canceled";
    case EBUSY: return "Device or resource busy";
    default: {
        static char buf[24];
        snprintf(buf, sizeof(buf), "error %d", e);
        return buf;
    }
    }
}

static int dt(uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    return kresult(KCALL4(KC_DTrace, cmd, a, b, c));
}

// The consumer's clear() and trunc() act on the kernel's aggregations (see the Makefile's
// -D renames for consume.c: the engine's state is read-only here).
void kdt_user_agg_clear(struct dvm_state *st, unsigned agg);
void kdt_user_agg_clear(struct dvm_state *st, unsigned agg)
{
    (void)st;
    dt(KDT_AGGCLEAR, agg, 0, 0);
}

void kdt_user_agg_remove(struct dvm_state *st, unsigned agg, const uint8_t *keys);
void kdt_user_agg_remove(struct dvm_state *st, unsigned agg, const uint8_t *keys)
{
    (void)st;
    dt(KDT_AGGREMOVE, agg, (uint32_t)(uintptr_t)keys, 0);
}

// An atomic round's output (read_until_end) is held here while the round runs at dtrace's own
// priority and written once the reader is below the programs again: the round's formatting is
// the read's, the console's kernel calls are not (a printa( ) each second wrote its lines in
// 6.3 ms of Semihost calls above a 500 Hz loop, which lost three periods). Output for another
// file, or more than the buffer holds, goes out at once, in order.
static struct {
    char buf[4096];
    size_t n;
    FILE *f;                // whose bytes buf holds
    int on;
} held;

static void held_write(void)
{
    if (held.n)
        fwrite(held.buf, 1, held.n, held.f);
    held.n = 0;
}

static void write_out(void *arg, const char *s, size_t n)
{
    if (held.on && (arg != held.f || held.n + n > sizeof(held.buf)))
        held_write();
    if (held.on && n <= sizeof(held.buf)) {
        held.f = arg;
        memcpy(held.buf + held.n, s, n);
        held.n += n;
        return;
    }
    fwrite(s, 1, n, arg);
}

// Each CPU's principal buffer in turn (the kernel's D buffers are per CPU).
// read_records: every CPU's principal buffer read and consumed; the most bytes one of them held.
static uint32_t read_records(struct dcons *c, unsigned ncpu)
{
    uint32_t most = 0;
    for (unsigned cpu = 0; cpu < ncpu; cpu++) {
        int n = dt(KDT_READ, cpu, (uint32_t)(uintptr_t)records, sizeof(records));
        if (n < 0)
            fprintf(stderr, "dtrace: cannot read CPU %u's principal buffer: %s\n", cpu,
                    errtext(errno));
        if (n > 0 && (uint32_t)n > most)
            most = (uint32_t)n;
        for (int off = 0; n > 0 && off < n;) {
            const struct dvm_rechdr *r = (const struct dvm_rechdr *)(records + off);
            if (r->rh_size < sizeof(*r) || (int)r->rh_size > n - off)
                break;
            dcons_record(c, r);
            off += (int)r->rh_size;
        }
    }
    dcons_drops(c);
    return most;
}

// What the clauses that fire before END do, for the reading rounds' pace and kind: MIDRUN_AGGS
// when one reads the aggregations (printa( ), clear( ), trunc( )): the rounds are atomic
// (read_round); MIDRUN_RECORDS when one records in the principal buffers (a program of
// aggregations alone has only its errors there: it is read at switchrate, as DTrace reads it).
#define MIDRUN_AGGS 1u
#define MIDRUN_RECORDS 2u
static unsigned midrun_use(const struct dobj_file_hdr *h)
{
    static struct dif_obj o;
    char why[128];
    if (dif_verify(h + 1, h->objlen, &o, why, sizeof(why)) != 0)
        return MIDRUN_RECORDS;
    unsigned use = 0;
    for (uint32_t e = 0; e < o.hdr->dh_necbs; e++) {
        if (o.probes[o.ecbs[e].de_probe].dp_id == DPROBE_END)
            continue;
        const struct dif_clause *cl = &o.clauses[o.ecbs[e].de_clause];
        if (!(cl->dc_flags & DIF_CLF_NOREC))
            use |= MIDRUN_RECORDS;
        for (uint32_t k = cl->dc_act; k < cl->dc_act + cl->dc_nacts; k++)
            if (o.acts[k].da_kind == DIF_ACT_PRINTA || o.acts[k].da_kind == DIF_ACT_CLEAR ||
                o.acts[k].da_kind == DIF_ACT_TRUNC)
                use |= MIDRUN_AGGS;
    }
    return use;
}

// next_wait: the time to the next read, in ns. DTrace reads every switchrate (1hz by default)
// into buffers of 4m; this dtrace's are 8k at most (fit_bufsize), which a stream of a few
// thousand records a second (the Toolkit's dapptrace, the Guide's sched/pritime.d at their
// default sizes) fills in a fraction of that. So the reads begin READ_WAIT_MIN apart; while
// they bring records the wait stays under a ceiling (READ_WAIT_MAX, or switchrate's period
// when that is shorter: 8k every 20 ms is 400 KB of records a second) and halves while they
// come back half full or more; a drop since the last read (a buffer that filled) sets it back
// to READ_WAIT_MIN and the ceiling to half the wait that let the buffer fill: a stream is read
// before it fills whenever the board can keep up, and bursts lower the ceiling until they fit.
// Reads that come back empty double the wait up to switchrate's period: a program of
// aggregations only, or a quiet probe, is read as DTrace reads it (a consumer waking every
// 20 ms to find nothing was a runnable thread at many load samples: `avenrun read 3.45
// threads for loadgen's 3). With fbt sites placed the reads come at switchrate only: each
// read's kernel path fires the probes, and printing what it read every few ms fed itself
// (x86-pc's heavy program did not end in 400 s).
// What still overflows is counted as drops, as ever, and said with the buffer's advice at the
// end (drop_advice). The records are consumed in the same order whenever they are read;
// dtrace -i consumes where these reads were (docs/d-consumer.md), so both ways print the same.
#define READ_WAIT_MIN 1000000u          // 1 ms: the kernel's timers' grain
#define READ_WAIT_MAX 20000000u         // 20 ms
#define STARVED_WAIT_MAX 1000000000u    // 1 s: the pacer's look at the end while rounds starve
struct read_pace {
    uint64_t wait, ceiling;             // ns
    uint64_t period;                    // switchrate's
};

static void next_wait(struct read_pace *r, uint32_t most, uint32_t bufsize, int dropped)
{
    if (dropped) {
        r->ceiling = r->wait / 2u;
        r->wait = READ_WAIT_MIN;
    } else if (most >= bufsize / 2u) {
        r->wait /= 2u;
    } else if (most == 0) {
        r->wait *= 2u;
    }
    if (r->ceiling < READ_WAIT_MIN)
        r->ceiling = READ_WAIT_MIN;
    uint64_t most_wait = most == 0 && !dropped ? r->period : r->ceiling;
    r->wait = r->wait < READ_WAIT_MIN ? READ_WAIT_MIN : r->wait > most_wait ? most_wait : r->wait;
}

// drop_advice: after drops, what the user can change, once (DTrace's own advice is a larger
// -b, which this dtrace cannot take past the 8k it reads at once)
static void drop_advice(const struct dvm_state *st)
{
    fprintf(stderr, "dtrace: the principal buffers (%luk a CPU, the most this dtrace reads at "
                    "once) filled between reads, which come as often as they fill, 1 ms apart "
                    "at the most\n", (unsigned long)(st->buf[0].size / 1024u));
    fprintf(stderr, "dtrace: each string in a record takes strsize (%u) bytes: a smaller -x "
                    "strsize, or fewer or shorter records, drop less\n", (unsigned)st->strsize);
}

// The board's time this consumer's reading rounds took, from each wake to its next wait: its
// CPU time, or more when something preempted it in a round (it reads below the programs).
static uint64_t busy_cycles;

// A share of `of` in hundredths of a percent, and a cycle count in microseconds.
static unsigned long share_bp(uint64_t part, uint64_t of)
{
    return of ? (unsigned long)(part * 10000u / of) : 0;
}

static unsigned long cycles_us(uint64_t c)
{
    return (unsigned long)(c * 1000000u / ClockCyclesPerSec());
}

// cost_report: what watching cost the board, from the kernel's count (KDT_COST: the firings,
// the time in the probes' sites, the CPUs' time since the probes went on) and this consumer's
// rounds, each as a share of that time (docs/dtrace-target.md, "What watching costs").
static void cost_report(void)
{
    struct kdt_cost k;
    if (dt(KDT_COST, (uint32_t)(uintptr_t)&k, 0, 0) < 0)
        return;
    unsigned long site = share_bp(k.site_cycles, k.run_cycles);
    unsigned long busy = share_bp(busy_cycles, k.run_cycles);
    fprintf(stderr, "dtrace: what the probes cost the board: %s firings, %lu us in their sites "
                    "(%lu.%02lu %% of its CPU time since they went on); this consumer's reads "
                    "%lu us (%lu.%02lu %%, at most: preemptions included)\n",
            u64txt(k.firings).s, cycles_us(k.site_cycles), site / 100u, site % 100u,
            cycles_us(busy_cycles), busy / 100u, busy % 100u);
}

// The compiler's working memory: boards with room set DTRACE_CC_ARENA (boards/<b>/user.mk);
// without it, programs come compiled from the host. DTRACE_CC_STACK: the bytes of stack the
// compiler may take below its call (a deeper script is refused with a D_SYNTAX error): the
// board reserves it and what main's frames above take (dtrace_STACK, boards/<b>/user.mk; the
// link checks the room).
#ifdef DTRACE_CC_ARENA
#ifndef DTRACE_CC_STACK
#error "a board that compiles D on the target gives its compiler stack, DTRACE_CC_STACK"
#endif
static uint8_t cc_arena[DTRACE_CC_ARENA] __attribute__((aligned(8)));
static char script_text[16 * 1024];
static char cpp_text[16 * 1024];
static struct dcpp cpp; // -C: the board's own preprocessor (trace/d/dcpp.c)
#endif
// The compiled program (a header and its object, as dcompile writes it) until KDT_LOAD copies
// it into the kernel: at the start of the compiler's arena on a board with one (read there from
// a .dobj, or moved there from where the compiler left it), so that the arena's room, not a
// second buffer in the RAM slot, bounds a program; the arena is the consumer's merge memory
// once the kernel holds the copy. A board without an arena reads into a 48 KB buffer.
#ifdef DTRACE_CC_ARENA
#define PROG_MEM cc_arena
#define PROG_ROOM cc_arena_len
#else
static uint8_t prog_mem[48 * 1024] __attribute__((aligned(8)));
#define PROG_MEM prog_mem
#define PROG_ROOM sizeof(prog_mem)
#endif
static int use_cpp;
static unsigned matched; // probes the program compiled here matched
#ifdef DTRACE_CC_ARENA
static size_t cc_arena_len = DTRACE_CC_ARENA; // the compiler's part (the fbt table's after)
#endif

// The kernel's fbt probes (docs/fbt.md): their names and argument types come from the
// kernel's own table, copied into the end of the compiler's arena; without a table (a kernel
// built without one, or too large a copy) there are no fbt probes to name.
static void fbt_table_load(void)
{
#ifdef DTRACE_CC_ARENA
    static struct dfbt t;
    cc_arena_len = sizeof(cc_arena);
    int need = dt(KDT_FBT_TABLE, 0, 0, 0);
    if (need <= 0 || (size_t)need > sizeof(cc_arena) / 4)
        return;
    size_t at = (sizeof(cc_arena) - (size_t)need) & ~(size_t)7;
    char err[64];
    if (dt(KDT_FBT_TABLE, (uint32_t)(uintptr_t)(cc_arena + at), (uint32_t)need, 0) != need ||
        dfbt_open_desc(&t, cc_arena + at, (size_t)need, err, sizeof(err)) != 0)
        return;
    cc_arena_len = at;
    dprobe_fbt_use(&t);
#endif
}

// -K: the kernel trace around the run. The tracelogger (its own part of the boot command line)
// is started and tracing with it before the program goes, and stopped once it has stopped, so
// that the capture holds the program's whole span (its KEV_SYS_DPROG events at go and stop)
// and dtrace -i over it replays what the board's probes saw (docs/d-consumer.md). 0, or the
// reason it could not, said.
static int capture_start(int *logger)
{
    *logger = ProcSpawn("tracelogger", BOARD_LOGGER_SPAWN_PRIO, 0);
    if (*logger < 0) {
        fprintf(stderr, "dtrace: -K: cannot start the tracelogger: errno %d%s\n", errno,
                errno == ENOENT ? " (it is not in this image)" : "");
        return -1;
    }
    if (TraceStartWithLogger() < 0) {
        fprintf(stderr, "dtrace: -K: cannot start tracing: errno %d\n", errno);
        return -1;
    }
    return 0;
}

// The end of -K's capture: tracing stops and the logger saves what it holds; 0, or -1 when the
// logger failed (said).
static int capture_stop(int logger)
{
    int st = 0;
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    if (ProcWait(logger, &st) != logger || !KW_EXITED(st) || KW_EXITSTATUS(st) != 0) {
        fprintf(stderr, "dtrace: -K: the tracelogger failed, wait status %#x\n", st);
        return -1;
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: dtrace [-qlwZK] [-b size] [-x opt=value]... [-o file] [-c program] "
               "[-T program]\n"
               "              (-s script.d | -n 'program' | FILE.dobj) [arg ...]\n"
               "  -s FILE   compile and run a D script (a host file, through semihosting)\n"
               "  -n TEXT   compile and run a program given inline (quote it)\n"
               "  FILE.dobj run a program compiled on the host (tools/dcompile)\n"
               "  -l        list the probes the program matches (all probes without one)\n"
               "  -q        quiet: only what the program prints\n"
               "  -b SIZE   principal buffer size (like -x bufsize=SIZE)\n"
               "  -x O=V    bufsize, aggsize, dynvarsize, specsize, nspec, bufpolicy, bufresize,\n"
               "            switchrate, quiet, strsize\n"
               "  -o FILE   write the output to a host file instead of the console\n"
               "  -c PROG   start PROG as the workload; tracing stops when it ends (without\n"
               "            -c, when the program calls exit()); $target is its pid\n"
               "  -T PROG   $target is the first process named PROG instead (a program the\n"
               "            workload starts); bound at its first kernel call (d/dtarget.h)\n"
               "  -C        run the script file through the preprocessor (#define, #if...;\n"
               "            no #include on a board)\n"
               "  -Z        permit probe descriptions that match no probe\n"
               "  -K        capture the kernel trace around the run: start the tracelogger\n"
               "            (its part of the boot command line) and tracing before the program\n"
               "            goes, stop them after it stops (dtrace -i replays that span)\n"
               "  -w        permit destructive actions (raise(SIGKILL), a ProcKill of the\n"
               "            firing process; system(\"clear\"); no other command, no freopen( );\n"
               "            panic( ) and breakpoint( ), docs/incidents.md)\n"
               "  arg ...   with -s or -n: the script's arguments, $1 $2 ... ($$1 a string)\n");
}

// system( ) and freopen( ) are the consumer's: dtrace(1M) runs a shell command or reopens its
// output file. This dtrace has neither a shell nor files of its own (-o names a host file
// before tracing starts): each such action is reported against its probe, and tracing goes on,
// but for the one command scripts run to redraw a screen, `clear`, which it does itself.
static int board_freopen(struct dcons *c, const char *path, const char **why)
{
    (void)c, (void)path;
    *why = "the board's dtrace cannot reopen its output (run the script over a capture, "
           "dtrace -i, for that)";
    return -1;
}

// board_system: the commands the board's dtrace runs itself, having no shell: `clear` (the
// DTraceToolkit's top-like scripts) writes clear(1)'s ANSI sequence (cursor home, erase the
// screen) among the output; `date` (the Guide's act/time.d) writes the host's date now, as
// date(1) prints it in UTC ("Thu Nov  7 22:55:37 UTC 2026"), where the board reads one
// (semihosting). Any other command is refused, said.
static int board_system(struct dcons *c, const char *cmd, const char **why)
{
    size_t n = strlen(cmd);
    while (n && (cmd[n - 1] == ' ' || cmd[n - 1] == '\n'))
        n--;
    if (n == 5 && !strncmp(cmd, "clear", 5)) {
        dfmt_puts(&c->out, "\033[H\033[2J");
        return 0;
    }
    uint32_t now = n == 4 && !strncmp(cmd, "date", 4) ? utc_host_seconds() : 0;
    if (now) {
        char text[30];
        utc_date_text(text, now);
        if (text[8] == '0')     // date(1)'s day of the month is %e: space-padded
            text[8] = ' ';
        text[28] = '\n';
        text[29] = 0;
        dfmt_puts(&c->out, text);
        return 0;
    }
    *why = n == 4 && !strncmp(cmd, "date", 4)
               ? "the board has no date to give (no host clock: semihosting)"
               : "the board has no shell to run a command but clear and date (run the script "
                 "over a capture, dtrace -i, for that)";
    return -1;
}

// board_raise: raise( ) as this kernel can: its one signal is the kill (KSIG_KILL, 9), which
// ProcKill sends; another signal is refused, said against the clause's probe.
static int board_raise(struct dcons *c, int64_t pid, int64_t sig, const char **why)
{
    (void)c;
    if (sig != KSIG_KILL) {
        *why = "this kernel's only signal is SIGKILL (9), which ProcKill sends";
        return -1;
    }
    if (ProcKill((int)pid) != 0) {
        *why = errno == ESRCH ? "no such process (it has exited)" : errtext(errno);
        return -1;
    }
    return 0;
}

// The probes' cost, measured before the workload starts: a loop of pure computation timed
// before the probes go on (spin_for: about 10 ms of iterations) and again after. What the
// loop lost is what the probes took of this CPU (interrupts' and ticks' firings); the
// firings the engine counted meanwhile give the cost of one. A lower bound: a workload that
// switches threads or calls the kernel fires more probes per tick than this loop. A program whose probes take
// most of the CPU (fbt on every function, under a slow clock) then says so before it runs.
static volatile uint32_t spin_sink;

static void spin(uint32_t n)
{
    uint32_t x = 1;
    for (uint32_t i = 0; i < n; i++)
        x = x * 1664525u + 1013904223u;
    spin_sink = x;
}

// spin_for: the iterations of about 10 ms of spin( ) (at most 2^26); *cycles their time.
static uint32_t spin_for(uint64_t *cycles)
{
    uint64_t want = ClockCyclesPerSec() / 100u;
    for (uint32_t n = 1u << 12;; n <<= 1) {
        uint64_t t0 = ClockCycles();
        spin(n);
        *cycles = ClockCycles() - t0;
        if (*cycles >= want || n >= 1u << 26)
            return n;
    }
}

// dt_has_fbt: the program enables fbt probes (whose cost probe_cost measures).
static int dt_has_fbt(const struct dobj_file_hdr *h)
{
    static struct dif_obj o;
    char why[128];
    if (dif_verify(h + 1, h->objlen, &o, why, sizeof(why)) != 0)
        return 0;
    return dif_enables_range(&o, DPROBE_FBT_BASE, DPROBE_FBT_END);
}

// probe_cost: times n iterations (in 16 parts, stopping at 50 times the unprobed time,
// before) now that the probes are on, and says what they cost when they took at least half.
static void probe_cost(const struct dvm_state *st, int sites, uint32_t n, uint64_t before)
{
    uint64_t f0 = dvm_stats_total(st).fired, t0 = ClockCycles(), t = 0;
    unsigned parts = 0;
    while (parts < 16 && (t = ClockCycles() - t0) < 50u * before) {
        spin(n / 16u);
        parts++;
    }
    t = (ClockCycles() - t0) * 16u / parts;   // the whole loop's time, had it run
    uint64_t firings = dvm_stats_total(st).fired - f0;
    if (t < 2u * before || !firings)
        return;
    uint64_t per_cpu = firings / st->opts.ncpu ? firings / st->opts.ncpu : 1;
    unsigned long cost_us = (unsigned long)((t - before) * 1000000u / per_cpu /
                                            ClockCyclesPerSec());
    fprintf(stderr, "dtrace: %d fbt probe sites placed: a firing costs about %lu us and the "
                    "probes take %lu%% of a busy CPU: the run will be at least %lu times "
                    "slower (fewer probes, or a faster clock, to go faster)\n", sites, cost_us,
            (unsigned long)((t - before) * 100u / t), (unsigned long)(t / before));
}

// destructive_actions: the program has system( ), freopen( ), raise( ), panic( ) or
// breakpoint( ) (DTrace's destructive actions that this engine has), which need -w or
// -x destructive.
static int destructive_actions(const struct dobj_file_hdr *h)
{
    static struct dif_obj o;
    char why[128];
    if (dif_verify(h + 1, h->objlen, &o, why, sizeof(why)) != 0)
        return 0;   // the kernel refuses it, with the verifier's reason
    return dif_destructive(&o) != 0;
}

static int load_file(const char *path, struct dobj_file_hdr **h)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "dtrace: cannot open %s\n", path);
        return -1;
    }
    size_t n = fread(PROG_MEM, 1, PROG_ROOM, f);
    char c;
    int more = n == PROG_ROOM && fread(&c, 1, 1, f) == 1;
    fclose(f);
    *h = (struct dobj_file_hdr *)PROG_MEM;
    if (more) {     // a limit of this program's memory (its RAM slot), not of the kernel's
        fprintf(stderr, "dtrace: %s is larger than the %u bytes this dtrace reads (%s): "
                "enable fewer probes (each clause on each probe it matches is 8 bytes, each "
                "probe 32)\n", path, (unsigned)PROG_ROOM,
#ifdef DTRACE_CC_ARENA
                "its compiler arena, DTRACE_CC_ARENA in boards/<board>/user.mk"
#else
                "its file buffer"
#endif
                );
        return -1;
    }
    if (!dobj_file_ok(*h, n)) {
        fprintf(stderr, "dtrace: %s is not a compiled D program (tools/dcompile)\n", path);
        return -1;
    }
    return 0;
}

#ifdef DTRACE_CC_ARENA
// script_read: the script file read into script_text and, under -C, preprocessed into
// cpp_text; its text and *len, or NULL after saying why.
static char *script_read(const char *script, size_t *len)
{
    FILE *f = fopen(script, "rb");
    if (!f) {
        fprintf(stderr, "dtrace: failed to open script %s\n", script);
        return NULL;
    }
    *len = fread(script_text, 1, sizeof(script_text), f);
    char c;
    int more = fread(&c, 1, 1, f) == 1;
    fclose(f);
    if (more) {
        fprintf(stderr, "dtrace: script %s is larger than %u bytes\n", script,
                (unsigned)sizeof(script_text));
        return NULL;
    }
    if (!use_cpp)
        return script_text;
    if (dcpp_run(&cpp, script_text, *len, cpp_text, sizeof(cpp_text)) != 0) {
        fprintf(stderr, "dtrace: failed to preprocess script %s: %s\n", script, cpp.err);
        return NULL;
    }
    *len = cpp.outlen;
    return cpp_text;
}

// zdefs_append: under -Z or -x zdefs the text followed by the pragma, which the compiler reads
// after the text, in the buffer not holding it; the text as it was without them; NULL when too
// long, after saying so.
static const char *zdefs_append(const char *text, size_t *len, char **xs, int nx)
{
    static const char zpragma[] = "\n#pragma D option zdefs\n";
    int zdefs = 0;
    for (int i = 0; i < nx; i++)
        zdefs |= !strcmp(xs[i], "zdefs");
    if (!zdefs)
        return text;
    char *into = text == script_text ? cpp_text : script_text;
    if (*len + sizeof(zpragma) > sizeof(cpp_text)) {
        fprintf(stderr, "dtrace: the program is too long\n");
        return NULL;
    }
    memmove(into, text, *len);
    memcpy(into + *len, zpragma, sizeof(zpragma));
    *len += sizeof(zpragma) - 1;
    return into;
}

// target_bind: the text with $target bound to the program named by -T, when the program
// starts (d/dtarget.h), in the buffer not holding it; NULL after saying why it cannot be.
static const char *target_bind(const char *text, size_t *len, const char *target,
                               const char *script)
{
    char *bound = text == cpp_text ? script_text : cpp_text;
    *len = d_target_text(text, *len, target, bound, sizeof(cpp_text));
    if (!*len) {
        fprintf(stderr, "dtrace: $target of %s: the program is too long or %s is no "
                "program name\n", script ? script : "-n", target);
        return NULL;
    }
    return bound;
}

// object_place: the compiled object co in PROG_MEM after its header, with the program's
// pragmas and then the command line's options applied. The header is made apart (the options
// it reads are in the arena), then the object moves down to follow it at the arena's start
// (memmove: the two may overlap). 0, or -1 after saying why.
static int object_place(const struct dcc_out *co, char **xs, int nx, int quiet,
                        struct dobj_file_hdr **hp)
{
    static struct dobj_file_hdr hdr;
    dobj_defaults(&hdr);
    char why[128];
    if (dobj_apply_options(&hdr, co, xs, nx, why, sizeof(why)) != 0) {
        fprintf(stderr, "dtrace: %s\n", why);
        return -1;
    }
    if (quiet)
        hdr.quiet = 1;
    hdr.objlen = (uint32_t)co->objlen;
    struct dobj_file_hdr *h = (struct dobj_file_hdr *)PROG_MEM;
    memmove(h + 1, co->obj, co->objlen);  // within the compiler's part: it produced it there
    *h = hdr;
    matched = co->nprobes;
    *hp = h;
    return 0;
}
#endif

// compile: the D source from -s or -n, compiled here into PROG_MEM as a header and object like
// dcompile's, with the program's pragmas and then the command line's options applied.
static int compile(const char *script, const char *text, char **xs, int nx, int quiet,
                   const char *target, const struct dcc_macros *args, struct dobj_file_hdr **hp)
{
#ifdef DTRACE_CC_ARENA
    size_t len;
    if (!script)
        len = strlen(text);
    else if (!(text = script_read(script, &len)))
        return -1;
    if (!(text = zdefs_append(text, &len, xs, nx)))
        return -1;
    if (target && strstr(text, "$target") && !(text = target_bind(text, &len, target, script)))
        return -1;
    static struct dcc_out co;
    struct dcc_in in = { text, len, 0, 0, args, DTRACE_CC_STACK };
    if (dcc_compile(&in, cc_arena, cc_arena_len, &co) != 0) {
        if (script)
            fprintf(stderr, "dtrace: failed to compile script %s: %s\n", script, co.err);
        else
            fprintf(stderr, "dtrace: invalid probe specifier %s: %s\n", text, co.err);
        return -1;
    }
    return object_place(&co, xs, nx, quiet, hp);
#else
    (void)script; (void)text; (void)xs; (void)nx; (void)quiet; (void)target; (void)args;
    (void)hp;
    fprintf(stderr, "dtrace: this board has no room for the D compiler: compile on the host "
                    "(make dtrace S=script.d, or tools/dcompile) and pass the .dobj file\n");
    return -1;
#endif
}

// fit_bufsize: the kernel hands over a whole principal buffer per read, and this program reads
// sizeof(records) at once: a larger bufsize (a script's #pragma D option bufsize=16k) is
// lowered to it before loading, as DTrace lowers a buffer it cannot have, and said; under
// bufresize=manual it is refused instead, as DTrace refuses what it cannot have then. 0, or
// 1 after saying why.
static int fit_bufsize(struct dobj_file_hdr *h)
{
    if (h->bufsize <= sizeof(records))
        return 0;
    if (h->bufresize_manual) {
        fprintf(stderr, "dtrace: bufsize %luk is larger than the %uk this dtrace reads at "
                        "once (bufresize=manual): use -b %uk or less\n",
                (unsigned long)(h->bufsize / 1024), (unsigned)(sizeof(records) / 1024),
                (unsigned)(sizeof(records) / 1024));
        return 1;
    }
    fprintf(stderr, "dtrace: buffer size lowered to %uk: this dtrace reads %uk at once, as "
                    "often as it fills (asked %luk)\n",
            (unsigned)(sizeof(records) / 1024), (unsigned)(sizeof(records) / 1024),
            (unsigned long)(h->bufsize / 1024));
    h->bufsize = sizeof(records);
    return 0;
}

// console_init: the consumer over the kernel's state st, writing to outf, with the program's
// output options; says when bufresize=auto gave the principal buffers less than asked.
static void console_init(struct dcons *cons, struct dvm_state *st, const struct dobj_file_hdr *h,
                         FILE *outf)
{
    static struct dcons_out out, err;
    out = (struct dcons_out){ write_out, outf };
    err = (struct dcons_out){ write_out, stderr };
    // The consumer's merge memory bounds the rows a printa( ) can show (one entry per key
    // and aggregation); the compiler's arena is free once the program is compiled (or was
    // never used: a .dobj), so a board with one merges in it.
#ifdef DTRACE_CC_ARENA
    dprobe_fbt_use(NULL);   // the table's copy is the merge memory's now
    dcons_init(cons, st, &out, &err, cc_arena, sizeof(cc_arena));
#else
    dcons_init(cons, st, &out, &err, scratch, sizeof(scratch));
#endif
    static const struct dcons_host board_host = { NULL, board_freopen, board_system, NULL,
                                                  board_raise };
    cons->host = &board_host;
    cons->quiet = (int)h->quiet;
    cons->encoding = (int)h->encoding;
    cons->aggpack = (int)h->aggpack; /* no TERM here: an unset encoding packs in utf8 */
    // bufresize=auto gave the principal buffers less than asked (the engine halves them only
    // when they alone do not fit the kernel's block for D): say why and what to do.
    if (st->bufsize_lowered)
        fprintf(stderr, "dtrace: buffer size lowered to %luk: the kernel's memory for D holds "
                        "no larger principal buffers on %u CPU(s) beside aggsize %luk; ask for "
                        "less (-b %luk, or a smaller -x aggsize), or -x bufresize=manual to stop "
                        "instead\n",
                (unsigned long)(st->bufsize_lowered / 1024), (unsigned)st->opts.ncpu,
                (unsigned long)(st->agg[0].size / 1024),
                (unsigned long)(st->bufsize_lowered / 1024));
}

// The command line as main reads it.
struct cli {
    const char *workload, *script, *text, *outpath, *target;
    char *xs[16];                   // -x options, and -Z, -w and -b as theirs
    const char *ops[DCC_MAXARGS];   // operands: a .dobj, or the script's arguments $1...
    int nx, quiet, list, nops, kcapture;
};

// parse_args: the options and operands into *c. -1 to go on, or the exit status (0 after
// --help).
static int parse_args(int argc, char **argv, struct cli *c)
{
    static char bufopt[40], zopt[] = "zdefs", wopt[] = "destructive";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-q")) {
            c->quiet = 1;
        } else if (!strcmp(a, "-l")) {
            c->list = 1;
        } else if (!strcmp(a, "-C")) {
            use_cpp = 1;
        } else if (!strcmp(a, "-K")) {
            c->kcapture = 1;
        } else if ((!strcmp(a, "-Z") || !strcmp(a, "-w")) && c->nx < 16) {
            c->xs[c->nx++] = a[1] == 'Z' ? zopt : wopt;
        } else if (a[0] == '-' && strchr("scnoxbT", a[1]) && a[1] && !a[2]) {
            if (!has) {
                fprintf(stderr, "dtrace: option %s needs an argument\n", a);
                usage(stderr);
                return 2;
            }
            const char *v = argv[++i];
            switch (a[1]) {
            case 's': c->script = v; break;
            case 'n': c->text = v; break;
            case 'c': c->workload = v; break;
            case 'T': c->target = v; break;
            case 'o': c->outpath = v; break;
            case 'b':
                snprintf(bufopt, sizeof(bufopt), "bufsize=%s", v);
                if (c->nx < 16)
                    c->xs[c->nx++] = bufopt;
                break;
            default:
                if (c->nx == 16) {
                    fprintf(stderr, "dtrace: too many -x options\n");
                    return 2;
                }
                c->xs[c->nx++] = argv[i];
                break;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "dtrace: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (c->nops < DCC_MAXARGS - 1) {
            c->ops[c->nops++] = a;
        } else {
            fprintf(stderr, "dtrace: more than %d arguments\n", DCC_MAXARGS - 2);
            return 2;
        }
    }
    return -1;
}

// program_load: the program h checked (destructive actions need -w, as libdtrace refuses
// them), its bufsize fitted and loaded into the kernel, which says in why (n bytes) what it
// refused; the kernel's state for it, or NULL after saying why.
static struct dvm_state *program_load(struct dobj_file_hdr *h, char *why, size_t n)
{
    if (!h->destructive && destructive_actions(h)) {
        fprintf(stderr, "dtrace: could not enable tracing: Destructive actions not allowed\n");
        return NULL;
    }
    if (fit_bufsize(h) != 0)
        return NULL;
    struct kdt_load l = kdt_load_of(h, why, n);
    if (dt(KDT_LOAD, (uint32_t)(uintptr_t)&l, 0, 0) < 0) {   // the kernel's reason
        fprintf(stderr, "dtrace: could not enable tracing: %s\n", why[0] ? why : errtext(errno));
        return NULL;
    }
    return (struct dvm_state *)(uintptr_t)dt(KDT_STATE, 0, 0, 0);
}

// probes_go: the loaded program's probes on (KDT_GO, the kernel's reason in why when it
// cannot), with the time the fbt provider took to place its sites and, when they are costly,
// what they cost (probe_cost). The fbt sites placed, or -1 after saying why.
static int probes_go(const struct dobj_file_hdr *h, const struct dvm_state *st, char *why,
                     size_t n)
{
    why[0] = 0;
    uint64_t unprobed = 0;   // the cost loop's time before the probes go on
    uint32_t spins = dt_has_fbt(h) ? spin_for(&unprobed) : 0;
    uint64_t go_at = ClockCycles();
    int placed = dt(KDT_GO, (uint32_t)(uintptr_t)why, n, 0);
    if (placed < 0) {
        fprintf(stderr, "dtrace: could not enable tracing: %s\n", why[0] ? why : errtext(errno));
        return -1;
    }
    if (placed > 0 && !h->quiet)   // the fbt provider's sites (docs/fbt.md)
        fprintf(stderr, "dtrace: %d fbt probe sites placed in %lu us\n", placed,
                (unsigned long)((ClockCycles() - go_at) * 1000000u / ClockCyclesPerSec()));
    if (placed > 0 && spins)
        probe_cost(st, placed, spins, unprobed);
    return placed;
}

// read_until_end: the records read as they come until the program calls exit(), the workload
// (child, when there is one) ends or a buffer fills; dtrace(1M) would also stop on ^C, which a
// board has none to send. The workload's pid while it runs (-1 once it ended, its status in
// *status).
//
// Two threads share it. The pacer, at dtrace's own priority, keeps the time: it waits for the
// next read (next_wait) or the workload's end, sees at once that the program called exit( ),
// the workload ended or a buffer filled, and asks for each reading round. The reader (this
// thread) reads below the programs (DOBJ_CONSUMER_PRIO, or -x prio), so a round's copying and
// printing waits until they leave a CPU; when the end comes in a round that a CPU-bound
// program starves, the pacer raises the reader to its own priority to finish it (a reader alone
// at the low priority never saw exit( ) under four busy CPUs). A program that shows its
// aggregations while it runs (printa( ), clear( ), trunc( )) has its rounds read atomically,
// at dtrace's own priority from the read to its records' end, so that no firing comes between:
// what printa( ) shows and trunc( ) removes is the aggregation at the read, as dtrace -i,
// consuming where the reads were, shows it.
struct reading {
    const struct dvm_state *st;
    const struct cli *c;
    struct read_pace pace;
    int child, status;                  // the workload's pid (-1 once ended) and status
    int reader, go;                     // the reader's tid; the semaphore that starts a round
    unsigned own;                       // dtrace's own priority
    uint32_t most, rounds_done;         // the last round's largest read; rounds finished
    int in_round, ending;               // (shared: __atomic)
};

// Fill policy: as dtrace(1M) does, the session ends once any CPU's buffer is full (END then
// fires into the room each buffer keeps for it).
static int pacer_ended(struct reading *r)
{
    return r->st->exiting || (r->c->workload && r->child < 0) || dvm_stats_total(r->st).filled;
}

static int pacer(void *arg)
{
    struct reading *r = arg;
    uint64_t dropped = dvm_stats_total(r->st).drops;  // the principal buffers'
    uint32_t seen = 0;
    uint64_t sleep = r->pace.wait;
    for (;;) {
        if (r->child > 0) {
            TimerTimeout(sleep);
            if (ProcWait(r->child, &r->status) == r->child)
                r->child = -1;
        } else {
            ThreadSleep(sleep);
        }
        if (pacer_ended(r))
            break;
        if (__atomic_load_n(&r->in_round, __ATOMIC_ACQUIRE)) {
            // Starved: no round asked twice, and the end looked for less often, up to
            // STARVED_WAIT_MAX apart (a pacer still waking every 20 ms beside a busy program
            // cost each of kbench's ticks 340 instructions: scripts/bench-watch.sh).
            sleep = sleep >= STARVED_WAIT_MAX / 2u ? STARVED_WAIT_MAX : sleep * 2u;
            continue;
        }
        uint32_t done = __atomic_load_n(&r->rounds_done, __ATOMIC_ACQUIRE);
        if (done != seen) {             // the wait follows what the last round read
            uint64_t d = dvm_stats_total(r->st).drops;
            next_wait(&r->pace, r->most, (uint32_t)r->st->buf[0].size, d != dropped);
            dropped = d;
            seen = done;
        }
        sleep = r->pace.wait;
        __atomic_store_n(&r->in_round, 1, __ATOMIC_RELEASE);
        SemPost(r->go);
    }
    __atomic_store_n(&r->ending, 1, __ATOMIC_RELEASE);
    ThreadSetPrio(r->reader, (int)r->own, SCHED_POLICY_RR);
    SemPost(r->go);
    return 0;
}

static uint8_t pacer_stack[1024] __attribute__((aligned(16)));

static int read_until_end(struct dcons *cons, const struct dvm_state *st,
                          const struct dobj_file_hdr *h, const struct cli *c, int placed,
                          int child, int *status)
{
    const unsigned use = midrun_use(h);
    const int atomic = (use & MIDRUN_AGGS) != 0;
    const unsigned low = h->prio ? h->prio : DOBJ_CONSUMER_PRIO;
    const uint64_t period = (uint64_t)h->switchrate_ms * 1000000u;
    static struct reading r;
    r = (struct reading){ .st = st, .c = c, .child = child, .status = *status,
                          .reader = ThreadSelf(), .own = DTRACE_OWN_PRIO,
                          .pace = { READ_WAIT_MIN,
                                    period < READ_WAIT_MAX ? period : READ_WAIT_MAX, period } };
    // Under fbt each read's own kernel path fires probes; a program of aggregations alone
    // brings nothing to read but errors: both are read at switchrate (errors that fill a
    // buffer set the wait back to READ_WAIT_MIN, as any drop).
    if (placed > 0 || !(use & MIDRUN_RECORDS))
        r.pace.wait = period;
    if (placed > 0)
        r.pace.ceiling = period;
    r.go = SemCreate(0);
    int tid = r.go < 0 ? -1 : ThreadCreate(pacer, &r, pacer_stack, sizeof(pacer_stack),
                                           (int)r.own, SCHED_POLICY_RR);
    if (tid < 0) {
        fprintf(stderr, "dtrace: cannot start the reading rounds' pacer: errno %d\n", errno);
        if (r.go >= 0)
            SemDestroy(r.go);
        *status = r.status;
        return r.child;
    }
    ThreadName(tid, "dtrace pacer");
    if (!atomic)
        ThreadSetPrio(0, (int)low, SCHED_POLICY_RR);
    for (;;) {
        SemWait(r.go);
        if (__atomic_load_n(&r.ending, __ATOMIC_ACQUIRE))
            break;
        uint64_t woke = ClockCycles();
        held.on = atomic;
        r.most = read_records(cons, st->opts.ncpu);
        held.on = 0;
        if (held.n) {           // an atomic round's output, written below the programs
            ThreadSetPrio(0, (int)low, SCHED_POLICY_RR);
            if (__atomic_load_n(&r.ending, __ATOMIC_ACQUIRE))   // the pacer's raise came first
                ThreadSetPrio(0, (int)r.own, SCHED_POLICY_RR);
            held_write();
            fflush(held.f);
            ThreadSetPrio(0, (int)r.own, SCHED_POLICY_RR);
        }
        busy_cycles += ClockCycles() - woke;
        __atomic_add_fetch(&r.rounds_done, 1, __ATOMIC_RELEASE);
        __atomic_store_n(&r.in_round, 0, __ATOMIC_RELEASE);
        if (__atomic_load_n(&r.ending, __ATOMIC_ACQUIRE))
            break;
    }
    ThreadJoin(tid, NULL);
    ThreadSetPrio(0, (int)r.own, SCHED_POLICY_RR);
    SemDestroy(r.go);
    *status = r.status;
    return r.child;
}

// workload_end: the workload (-c) waited for when it still runs (child), and said how it ended
// when a signal killed it or its status was not 0.
static void workload_end(const struct cli *c, int child, int workload_pid, int status)
{
    if (child > 0)
        ProcWait(child, &status);
    if (workload_pid > 0 && KW_SIGNALED(status))
        fprintf(stderr, "dtrace: pid %d (%s) killed by signal %d\n", workload_pid, c->workload,
                KW_TERMSIG(status));
    else if (workload_pid > 0 && KW_EXITSTATUS(status))
        fprintf(stderr, "dtrace: pid %d (%s) exited with status %d\n", workload_pid, c->workload,
                KW_EXITSTATUS(status));
}

// trace_program: the program h loaded into the kernel and run: its probes on, the workload
// (-c) started, its records read every switchrate until it exits, the workload ends or a
// buffer fills; then the last records and the workload's end. Returns dtrace's exit status.
static int trace_program(struct dobj_file_hdr *h, const struct cli *c, FILE *outf)
{
    static char why[128];
    struct dvm_state *st = program_load(h, why, sizeof(why));
    if (!st)
        return 1;
    static struct dcons cons;
    console_init(&cons, st, h, outf);
    if (outf == stdout)
        setvbuf(stdout, NULL, _IOLBF, 0);

    int child = -1, status = 0, logger = -1;
    if (c->kcapture && capture_start(&logger) < 0) {
        if (logger > 0)
            capture_stop(logger);
        dt(KDT_UNLOAD, 0, 0, 0);
        return 1;
    }
    int placed = probes_go(h, st, why, sizeof(why));
    if (placed < 0) {
        if (logger > 0)
            capture_stop(logger);
        dt(KDT_UNLOAD, 0, 0, 0);
        return 1;
    }
    if (c->workload && (child = ProcSpawn(c->workload, 0, 0)) < 0)
        fprintf(stderr, "dtrace: cannot start %s: errno %d\n", c->workload, errno);
    const int workload_pid = child;
    child = read_until_end(&cons, st, h, c, placed, child, &status);
    dt(KDT_STOP, 0, 0, 0);
    // -K's capture is the workload's: when exit( ) or a full buffer ends the D program first,
    // the capture runs on to the workload's end (the span's stop is in it either way).
    const int capture_on = logger > 0 && child > 0;
    // Nothing fires now: the last read and END's output wait below the programs while the
    // workload runs (at dtrace's own priority they held a 500 Hz loop 1.9 ms, a period missed).
    if (child > 0)
        ThreadSetPrio(0, (int)(h->prio ? h->prio : DOBJ_CONSUMER_PRIO), SCHED_POLICY_RR);
    int logger_failed = logger > 0 && !capture_on && capture_stop(logger) < 0;
    uint64_t woke = ClockCycles();
    read_records(&cons, st->opts.ncpu);
    dcons_final(&cons);
    busy_cycles += ClockCycles() - woke;
    if (dvm_stats_total(st).drops)
        drop_advice(st);
    cost_report();      // (on stderr, as dtrace(1M)'s own lines; under -q too: it is no record)
    fflush(stdout);
    if (outf != stdout && fclose(outf) != 0)
        fprintf(stderr, "dtrace: cannot write %s: %s\n", c->outpath, errtext(errno));
    if (capture_on && !h->quiet)
        fprintf(stderr, "dtrace: -K: the capture runs on until %s (pid %d) ends\n", c->workload,
                child);
    workload_end(c, child, workload_pid, status);
    if (capture_on)
        logger_failed = capture_stop(logger) < 0;
    dt(KDT_UNLOAD, 0, 0, 0);
    if (logger_failed)
        return 1;
    return cons.exited ? cons.exit_status : 0;
}

int main(void)
{
    static char cmd[2048];     // the whole boot command line: on x86-pc it carries -n text
    char *argv[48];
    int argc = 0;
    // Its own part of the boot command line ("dtrace ..."; user/lib/kargs.c).
    argc = kargs("dtrace", cmd, sizeof(cmd), argv, 48);
    if (argc < 0) {
        printf("dtrace: the boot command line is longer than the %u bytes it reads: shorten "
               "it\n", (unsigned)sizeof(cmd) - 2);
        return 2;
    }
    struct cli c = { 0 };
    int r = parse_args(argc, argv, &c);
    if (r >= 0)
        return r;
    const char *workload = c.workload, *path = NULL, *script = c.script, *text = c.text;
    const char *outpath = c.outpath, *target = c.target;
    char **xs = c.xs;
    int nx = c.nx, quiet = c.quiet, list = c.list, nops = c.nops;
    const char **ops = c.ops;
    // With -s or -n the operands are the script's arguments (dtrace(1M)'s); else the first is
    // a compiled program, whose arguments dcompile took.
    static const char *argv_d[DCC_MAXARGS];
    struct dcc_macros args = { .noids = 1, .pid_at_run = 1, .argv = argv_d, .argc = 1 };
    argv_d[0] = script ? script : "dtrace";
    for (int i = 0; i < nx; i++) {
        args.defaultargs |= !strcmp(xs[i], "defaultargs");
        args.argref |= !strcmp(xs[i], "argref");
    }
    if (script || text) {
        for (int i = 0; i < nops; i++)
            argv_d[args.argc++] = ops[i];
    } else if (nops == 1) {
        path = ops[0];
    } else if (nops > 1) {
        fprintf(stderr, "dtrace: a compiled program takes no arguments: dcompile took them\n");
        return 2;
    }
    if (!!script + !!text + !!path > 1 || (!script && !text && !path && !list)) {
        usage(stderr);
        return 2;
    }
    struct dobj_file_hdr *h;
    if (script || text || list)
        fbt_table_load();
    if (list && !script && !text && !path) {
        struct dcons_out lo = { write_out, stdout };
        dcons_list_probes(&lo, NULL);
        return 0;
    }
    // $target: the -T program, else the -c one (as DTrace's -c); see d/dtarget.h
    if (path ? load_file(path, &h) < 0
             : compile(script, text, xs, nx, quiet, target ? target : workload, &args, &h) < 0)
        return 1;
    if (path && quiet)
        h->quiet = 1;
    if (list) {
        static struct dif_obj o;
        char why[128];
        if (dif_verify(h + 1, h->objlen, &o, why, sizeof(why)) != 0) {
            fprintf(stderr, "dtrace: invalid program: %s\n", why);
            return 1;
        }
        struct dcons_out lo = { write_out, stdout };
        dcons_list_probes(&lo, &o);
        return 0;
    }
    if ((script || text) && !h->quiet)
        fprintf(stderr, "dtrace: %s matched %u probe%s\n", script ? "script" : "description",
                matched, matched == 1 ? "" : "s");
    FILE *outf = stdout;
    if (outpath && !(outf = fopen(outpath, "w"))) {
        fprintf(stderr, "dtrace: cannot write %s: %s\n", outpath, errtext(errno));
        return 1;
    }

    return trace_program(h, &c, outf);
}
