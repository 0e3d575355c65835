// SPDX-License-Identifier: MIT
// kevtop: a live view of a running target in the style of top, lttngtop and perf top. It reads
// the trace as it arrives through the live reader (kev_live.h: a growing .kev file, the
// tracelogger's framed stream from a file, pipe, serial device or HOST:PORT), feeds it to the
// analysis model (kx_stats.h) and shows, every -d seconds of trace time, each thread's CPU %,
// state, priority, kernel calls, messages and interrupts a second, the interval's worst wait
// with its holder, and a loss line (top.c computes a frame, top_print.c shows it). On a
// terminal it redraws the screen and takes keys; -b prints plain frames, --json JSON lines.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <kevhost/kev_input.h>
#include <kevhost/kev_live.h>
#include <kevhost/tool_opts.h>

#include "top.h"
#include "top_print.h"

enum { OPT_JSON = TOOL_OPT_LONG };
static const struct tool_opt opts[] = {
    { 'b', 'b', "batch", NULL, "batch mode: plain text frames on standard output, as top -b", NULL },
    { 'f', 'f', "follow", NULL, "a regular file: read it as it grows, until its trailer or END\n"
      "frame (without -f a file is read to its end: one that ends\n"
      "without them is said cut, exit 1)", NULL },
    { 'd', 'd', "delay", "SECONDS", "each frame's span of trace time (default 0.5; 0.01 to\n"
      "3600): an event is on the screen at most that after it happened, plus the\n"
      "stream's own delay",
      NULL },
    { 'n', 'n', "frames", "N", "stop after N frames", NULL },
    { 'o', 'o', "output", "FILE", "also write the trace to FILE as it arrives, byte for byte the\n"
      "board's file (after a board reset, FILE-2.kev, ...)", NULL },
    { OPT_JSON, 0, "json", NULL, "one JSON object a frame, a line each", NULL },
    { 's', 's', "sort", "KEY", "sort by cpu (default), kcalls, msgs, ints, wait, prio, name",
      NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevtop", "[-b | --json] [-f] [-d SECONDS] [-n N] [-s KEY] [-o FILE] [INPUT]",
    "Shows a running target's threads live from its trace: CPU %, state, priority, kernel\n"
    "calls, messages and interrupts a second, the worst wait of each interval with its\n"
    "holder, and every loss (events lost in the interval and in all, on which CPU, why).\n"
    "  INPUT  a .kev file (-f: read as it grows until its trailer); the tracelogger's\n"
    "         stream (tracelogger -u, -x rtt) from a file (-f: read as it grows), a pipe\n"
    "         or a serial device; HOST:PORT (a probe's RTT server, QEMU's socket);\n"
    "         default: standard input\n"
    "Keys: P or c sort by CPU, k kernel calls, m messages, i interrupts, w waits,\n"
    "r priority, n name; space pauses the screen (the trace is still read); q quits.\n",
    opts,
    "Each frame starts with \"kevtop: T0-T1 s of trace time\"; a thread's CPU time in the\n"
    "interval is given in ms beside its %. The frames of a whole trace add up to kevstat's\n"
    "CPU time per thread. Exit status: 0, 1 the input could not be read or the trace it\n"
    "brought to its end was not whole (lost, damaged or cut: said), 2 bad usage.\n",
};

static const char *const sort_names[] = { "cpu", "kcalls", "msgs", "ints", "wait", "prio", "name" };

struct view {
    int batch, json, follow;
    unsigned long frames_max, frames;
    enum top_sort sort;
    char board[64];
    // the terminal
    int tty;                    // the terminal's fd (keys), -1 in batch mode
    struct termios saved;
    int paused, quit;
    char status[300];           // the last fault, on the screen's last line
    // the frame on the screen
    struct top_frame shown;
    struct top_row *rows;
    char wait[300];
    int have;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

// ---- the screen ---------------------------------------------------------------------------------

static void term_restore(struct view *v)
{
    if (v->tty >= 0) {
        tcsetattr(v->tty, TCSANOW, &v->saved);
        fputs("\033[?25h\n", stdout);   // the cursor back
        fflush(stdout);
    }
}

// Keys one at a time, no echo; the screen cleared for the first frame.
static int term_open(struct view *v)
{
    v->tty = open("/dev/tty", O_RDONLY | O_NONBLOCK);
    if (v->tty < 0 || tcgetattr(v->tty, &v->saved) < 0) {
        if (v->tty >= 0)
            close(v->tty);
        v->tty = -1;
        return -1;
    }
    struct termios t = v->saved;
    t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    tcsetattr(v->tty, TCSANOW, &t);
    fputs("\033[?25l\033[H\033[2J", stdout);
    return 0;
}

// The terminal's rows (LINES overrides them), at least 8.
static unsigned term_rows(void)
{
    struct winsize w;
    const char *l = getenv("LINES");
    unsigned n = l ? (unsigned)atoi(l) : 0;
    if (!n && ioctl(1, TIOCGWINSZ, &w) == 0)
        n = w.ws_row;
    return n >= 8 ? n : 24;
}

static void draw(struct view *v)
{
    if (!v->have)
        return;
    const struct top_frame *f = &v->shown;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return;
    top_sort_rows(v->rows, f->nrows, v->sort);
    top_print_head(m, f, v->wait, v->board);
    unsigned room = term_rows() - 7;
    for (unsigned i = 0; i < f->nrows && i < room; i++)
        top_print_row(m, f, &v->rows[i]);
    fprintf(m, "\n%s sort %s%s%s%s", v->paused ? "PAUSED (space to go on);" : "",
            sort_names[v->sort], f->last ? "; the trace ended: q to quit" : "",
            v->status[0] ? "; " : "", v->status);
    fclose(m);
    // every line cleared to its end as it is written (a shorter line leaves nothing of the
    // last frame's), then the rest of the screen
    fputs("\033[H", stdout);
    for (char *l = text, *nl; l < text + len; l = nl + 1) {
        nl = memchr(l, '\n', (size_t)(text + len - l));
        fwrite(l, 1, (size_t)((nl ? nl : text + len) - l), stdout);
        fputs(nl ? "\033[K\n" : "\033[K", stdout);
        if (!nl)
            break;
    }
    fputs("\033[J", stdout);
    free(text);
    fflush(stdout);
}

static void keys(struct view *v)
{
    char c;
    while (v->tty >= 0 && read(v->tty, &c, 1) == 1) {
        switch (c) {
        case 'q': v->quit = 1; break;
        case ' ': v->paused = !v->paused; break;
        case 'P': case 'c': v->sort = TOP_SORT_CPU; break;
        case 'k': v->sort = TOP_SORT_KCALLS; break;
        case 'm': v->sort = TOP_SORT_MSGS; break;
        case 'i': v->sort = TOP_SORT_INTS; break;
        case 'w': v->sort = TOP_SORT_WAIT; break;
        case 'r': v->sort = TOP_SORT_PRIO; break;
        case 'n': v->sort = TOP_SORT_NAME; break;
        default: continue;
        }
        draw(v);
    }
}

// ---- frames ---------------------------------------------------------------------------------------

static void on_frame(void *user, const struct top_frame *f)
{
    struct view *v = user;
    if (v->frames_max && v->frames >= v->frames_max)
        return;
    v->frames++;
    char wait[300];
    top_wait_text(f, wait, sizeof(wait));
    if (v->tty >= 0) { // the screen keeps the last frame (unless paused)
        if (v->paused)
            return;
        v->shown = *f;
        memcpy(v->rows, f->rows, f->nrows * sizeof(*f->rows));
        v->shown.rows = v->rows;
        v->shown.s = NULL;
        snprintf(v->wait, sizeof(v->wait), "%s", wait);
        v->have = 1;
        draw(v);
        return;
    }
    memcpy(v->rows, f->rows, f->nrows * sizeof(*f->rows));
    top_sort_rows(v->rows, f->nrows, v->sort);
    if (v->json) {
        top_print_json(stdout, f, v->rows, f->nrows, wait);
    } else {
        top_print_head(stdout, f, wait, v->board);
        for (unsigned i = 0; i < f->nrows; i++)
            top_print_row(stdout, f, &v->rows[i]);
        printf("\n");
    }
    fflush(stdout);
}

static int halted(void *user)
{
    struct view *v = user;
    return stop || v->quit || (v->frames_max && v->frames >= v->frames_max);
}

static void on_fault(void *user, enum kev_live_fault what, const char *text)
{
    struct view *v = user;
    (void)what;
    if (v->tty >= 0)
        snprintf(v->status, sizeof(v->status), "%s", text);
    else
        fprintf(stderr, "kevtop: %s\n", text);
}

static void on_begin(void *user, struct kev_reader *r, unsigned seg)
{
    struct view *v = user;
    (void)seg;
    snprintf(v->board, sizeof(v->board), "%s", r->kr_board);
}

// ---- the loop -------------------------------------------------------------------------------------

static int parse_args(int argc, char **argv, struct view *v, double *span, const char **in,
                      const char **out)
{
    struct tool_args a = { argc, argv, 0, NULL };
    int opt;
    char *end;
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'b': v->batch = 1; break;
        case 'f': v->follow = 1; break;
        case 'o': *out = a.val; break;
        case OPT_JSON: v->json = 1; break;
        case 'd':
            *span = strtod(a.val, &end);
            if (end == a.val || *end || !(*span >= 0.01 && *span <= 3600))
                return tool_usage_error(&cmd, "-d %s: a span of 0.01 to 3600 seconds", a.val);
            break;
        case 'n':
            v->frames_max = strtoul(a.val, &end, 10);
            if (end == a.val || *end || !v->frames_max)
                return tool_usage_error(&cmd, "-n %s: a number of frames, 1 or more", a.val);
            break;
        case 's': {
            unsigned k = 0;
            while (k < sizeof(sort_names) / sizeof(sort_names[0]) && strcmp(a.val, sort_names[k]))
                k++;
            if (k == sizeof(sort_names) / sizeof(sort_names[0]))
                return tool_usage_error(&cmd, "-s %s: sort by cpu, kcalls, msgs, ints, wait, "
                                        "prio or name", a.val);
            v->sort = (enum top_sort)k;
            break;
        }
        default: return tool_opts_exit(opt);
        }
    }
    if (a.ind < argc - 1)
        return tool_usage_error(&cmd, "only one INPUT, got %s and %s", argv[a.ind],
                                argv[a.ind + 1]);
    *in = a.ind < argc ? argv[a.ind] : NULL;
    return -1;
}

int main(int argc, char **argv)
{
    static struct view v = { .tty = -1 };
    double span = 0.5;      // (event to screen under 1 s: docs/probe-path.md)
    const char *in_name = NULL, *out_name = NULL;
    int rc = parse_args(argc, argv, &v, &span, &in_name, &out_name);
    if (rc >= 0)
        return rc;
    v.rows = calloc(KX_MAX_THREADS, sizeof(*v.rows));
    struct kev_input in;
    if (!v.rows || kev_input_open("kevtop", in_name, v.follow, &in) < 0)
        return 1;
    struct kev_live *l = kev_live_new(in.name);
    struct top *t = top_new(span, on_frame, &v);
    if (!l || !t) {
        fprintf(stderr, "kevtop: out of memory\n");
        return 1;
    }
    uint32_t cpus;
    if (!v.follow && kev_input_finished(&in, &cpus)) // (read whole, as kevstat reads it)
        kev_live_whole(l, cpus);
    top_counts(t, kev_live_counts(l));
    top_halt(t, halted);
    const struct kev_live_consumer me = { .user = &v, .begin = on_begin, .fault = on_fault };
    const struct kev_live_consumer tc = top_consumer(t);
    struct kev_live_consumer file;
    struct kev_live_file *w = out_name ? kev_live_file_open("kevtop", out_name, &file) : NULL;
    if (out_name && !w)
        return 1;
    if (w)
        kev_live_attach(l, &file);
    kev_live_attach(l, &me);
    kev_live_attach(l, &tc);
    if (!v.batch && !v.json && isatty(1) && term_open(&v) < 0)
        v.batch = 1;
    if (v.batch || v.json)
        v.tty = -1;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);

    static uint8_t buf[1u << 16];
    int ended = 0, input_end = 0;
    while (!stop && !v.quit && !(v.frames_max && v.frames >= v.frames_max)) {
        if (!ended) {
            long n = kev_input_read(&in, buf, sizeof(buf), v.tty >= 0 ? 50 : -1);
            if (n > 0)
                kev_live_feed(l, buf, (size_t)n);
            if (n < 0)
                kev_live_finish(l);
            ended = n < 0 || kev_live_done(l);
            input_end = ended;
        } else if (v.tty < 0) {
            break;
        } else {
            usleep(50000);      // the last frame stays on the screen until q
        }
        keys(&v);
    }
    term_restore(&v);
    kev_input_close(&in);
    if (kev_live_file_close(w) < 0)
        return 1;
    // the input's end (not q, -n or a signal) with the trace not whole: said, exit 1
    int whole = !input_end || kev_live_sound(l);
    if (!whole)
        fprintf(stderr, "kevtop: %s: the trace did not arrive whole (said above)\n", in.name);
    top_free(t);
    kev_live_free(l);
    free(v.rows);
    return whole ? 0 : 1;
}
