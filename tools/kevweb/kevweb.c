// SPDX-License-Identifier: MIT
// kevweb: a running target's trace in a browser, live. It reads the trace as it arrives through
// the live reader (kev_live.h: a growing .kev file, the tracelogger's framed stream from a file,
// pipe, serial device or HOST:PORT), feeds it to the analysis model (web_feed.c) and serves a
// page in the HTML report's look (its stylesheet, live.js) that server-sent events keep up to
// date (web_server.c): the timeline of thread states and messages, CPU per thread and per CPU,
// task instances and late ones, the worst wait with its chain, the loss line. When the trace
// has ended the page keeps the finished run, and kevreport's page of the finished file is
// served beside it (/report), until kevweb is stopped (SIGINT, SIGTERM).
// One thread: a loop polls the server's sockets, reads what input has come (a bounded amount a
// turn, so that pages are served while a long file is read) and sends an update every
// --interval of wall time.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <kevhost/kev_input.h>
#include <kevhost/kev_live.h>
#include <kevhost/kx_task.h>
#include <kevhost/tool_opts.h>

#include "web_feed.h"
#include "web_server.h"

extern const char kevweb_html[], kevweb_js[], kevweb_css[], kevweb_report_css[]; // web_assets.c
extern const char kevweb_kv_dom_js[], kevweb_kv_states_js[], kevweb_kv_timeline_js[];

enum { OPT_QUEUE = TOOL_OPT_LONG, OPT_INTERVAL, OPT_KEVREPORT };
static const struct tool_opt opts[] = {
    { 'p', 'p', "port", "PORT", "the port to serve on (default 8344; taken: a free one)", NULL },
    { 'l', 'l', "listen", "ADDRESS", "the IPv4 address to listen on (default 127.0.0.1)", NULL },
    { 'o', 'o', "output", "FILE", "also write the trace to FILE as it arrives", NULL },
    { OPT_INTERVAL, 0, "interval", "MS", "the pages' updates, every MS ms of wall time\n"
      "(default 200; 20 to 10000)", NULL },
    { OPT_QUEUE, 0, "queue", "KB", "each page's queue (default 4096): a page that\n"
      "falls further behind loses updates, is told so and\n"
      "gets a fresh snapshot", NULL },
    { OPT_KEVREPORT, 0, "kevreport", "PATH", "the report tool for the finished trace\n"
      "(default: kevreport beside kevweb)", NULL },
    { .also = kx_timing_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevweb", "[-p PORT] [-l ADDRESS] [-o FILE] [--interval MS] [--queue KB]\n"
    "              [--deadline TASK=TIME]... [--period TASK=TIME]... [INPUT]",
    "Serves a running target's trace as a web page, updated as it arrives: the\n"
    "timeline of thread states and messages, CPU per thread and per CPU, task\n"
    "instances and late ones, the worst wait with its chain, the losses. When the\n"
    "trace has ended the page keeps the finished run and links kevreport's report of\n"
    "it, until kevweb is stopped (Ctrl-C). Every asset comes from kevweb itself.\n"
    "  INPUT  a .kev file, read as it grows until its trailer; the tracelogger's stream\n"
    "         (tracelogger -u, -x rtt) from a file (read as it grows), a pipe or a serial\n"
    "         device; HOST:PORT (a probe's RTT server, QEMU's socket); default: standard\n"
    "         input\n",
    opts,
    "It says \"kevweb: the live view is at http://localhost:PORT/\" on standard error\n"
    "once it listens. SIGUSR1: the input's writer has ended; what is left is read and\n"
    "the trace taken as ended there (a file that will not get its trailer).\n"
    "Exit status: 0 stopped, 1 the input or the port could not be opened, 2 bad usage.\n",
};

static volatile sig_atomic_t stop, input_over;

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

// SIGUSR1: the input's writer has ended (make live's kevtop quit before the trace's end): what
// is left of it is read, then the trace is taken as ended there.
static void on_usr1(int sig)
{
    (void)sig;
    input_over = 1;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

struct args {
    unsigned port;
    const char *addr, *in, *out, *kevreport;
    unsigned interval_ms;
    size_t queue;
    struct kx_timing_set timing;
};

static int parse_args(int argc, char **argv, struct args *g)
{
    struct tool_args a = { argc, argv, 0, NULL };
    int opt;
    char *end;
    unsigned long v;
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'p':
            v = strtoul(a.val, &end, 10);
            if (end == a.val || *end || v > 65535)
                return tool_usage_error(&cmd, "-p %s: a port, 0 to 65535", a.val);
            g->port = (unsigned)v;
            break;
        case 'l': g->addr = a.val; break;
        case 'o': g->out = a.val; break;
        case OPT_KEVREPORT: g->kevreport = a.val; break;
        case OPT_INTERVAL:
            v = strtoul(a.val, &end, 10);
            if (end == a.val || *end || v < 20 || v > 10000)
                return tool_usage_error(&cmd, "--interval %s: 20 to 10000 ms", a.val);
            g->interval_ms = (unsigned)v;
            break;
        case OPT_QUEUE:
            v = strtoul(a.val, &end, 10);
            if (end == a.val || *end || v < 64 || v > 1048576)
                return tool_usage_error(&cmd, "--queue %s: 64 to 1048576 KB", a.val);
            g->queue = (size_t)v * 1024u;
            break;
        default: {
            int t = opt > 0 ? kx_timing_take(&g->timing, "kevweb", opt, a.val) : 0;
            if (t < 0)
                return 2;
            if (t == 0)
                return tool_opts_exit(opt);
        }
        }
    }
    if (a.ind < argc - 1)
        return tool_usage_error(&cmd, "only one INPUT, got %s and %s", argv[a.ind],
                                argv[a.ind + 1]);
    g->in = a.ind < argc ? argv[a.ind] : NULL;
    return -1;
}

// Each fault of the input, said once on standard error too (the page's loss line has the last).
static void on_fault(void *user, enum kev_live_fault what, const char *text)
{
    (void)user, (void)what;
    fprintf(stderr, "kevweb: %s\n", text);
}

// ---- the finished trace's report ------------------------------------------------------------------

struct report {
    pid_t pid;                  // kevreport running, 0 none
    char out[PATH_MAX];         // its page
    char *page;
    size_t len;
};

// path is a .kev file (the stream's frames start otherwise: kev_live.h).
static int kev_file(const char *path)
{
    char c = 0;
    FILE *p = fopen(path, "rb");
    if (p) {
        if (fread(&c, 1, 1, p) != 1)
            c = 0;
        fclose(p);
    }
    return c == 'T';
}

// kevreport over the finished file, in the background; the page told why not when it cannot.
static void report_start(struct report *r, const struct args *g, const char *file,
                         struct web_feed *f, const char *self)
{
    char tool[PATH_MAX];
    if (!file) {
        web_feed_report(f, NULL, "the input was not a .kev file: kevweb -o FILE keeps one for the report");
        return;
    }
    const char *slash = strrchr(self, '/');
    if (g->kevreport)
        snprintf(tool, sizeof(tool), "%s", g->kevreport);
    else if (slash) // beside kevweb; else kevweb came from PATH: kevreport too
        snprintf(tool, sizeof(tool), "%.*skevreport", (int)(slash - self + 1), self);
    else
        snprintf(tool, sizeof(tool), "kevreport");
    snprintf(r->out, sizeof(r->out), "/tmp/kevweb-report.XXXXXX");
    int fd = mkstemp(r->out);
    if (fd < 0) {
        web_feed_report(f, NULL, "no temporary file for the report");
        return;
    }
    close(fd);
    r->pid = fork();
    if (r->pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1);
        execlp(tool, "kevreport", "-o", r->out, file, (char *)NULL); // (a path: not searched)
        fprintf(stderr, "kevweb: cannot run %s: %s\n", tool, strerror(errno));
        _exit(127);
    }
    if (r->pid < 0) {
        r->pid = 0;
        web_feed_report(f, NULL, "cannot start kevreport");
    }
}

// kevreport has ended: its page served at /report, or the page told why not.
static void report_poll(struct report *r, struct web_server *w, struct web_feed *f)
{
    int st;
    if (!r->pid || waitpid(r->pid, &st, WNOHANG) != r->pid)
        return;
    r->pid = 0;
    FILE *p = fopen(r->out, "rb");
    struct stat sb;
    if (p && fstat(fileno(p), &sb) == 0 && sb.st_size > 0 && (r->page = malloc((size_t)sb.st_size))) {
        r->len = fread(r->page, 1, (size_t)sb.st_size, p);
        web_server_route(w, "/report", "text/html; charset=utf-8", r->page, r->len);
        // exit 1: a damaged file, which the report says at its top
        web_feed_report(f, "/report", WIFEXITED(st) && WEXITSTATUS(st) == 1
                                          ? "kevreport found the file damaged: the report says where" : "");
    } else {
        web_feed_report(f, NULL, "kevreport wrote no report (see kevweb's standard error)");
    }
    if (p)
        fclose(p);
    unlink(r->out);
}

// ---- the loop -------------------------------------------------------------------------------------

// kevweb's last line: what the server did for its pages and against its flood.
static void say_counts(const struct web_server *w)
{
    struct web_stats st;
    web_server_stats(w, &st);
    fprintf(stderr, "kevweb: %llu requests served, %llu refused; %llu updates dropped for slow "
            "pages, %llu snapshots resent; %llu connections closed to make room for others, "
            "%llu past their deadline\n", (unsigned long long)st.served,
            (unsigned long long)st.refused, (unsigned long long)st.dropped,
            (unsigned long long)st.resyncs, (unsigned long long)st.evicted,
            (unsigned long long)st.timed_out);
}

// The page's assets, every one from kevweb itself (web_assets.c).
static void serve_assets(struct web_server *w)
{
    web_server_route(w, "/", "text/html; charset=utf-8", kevweb_html, strlen(kevweb_html));
    web_server_route(w, "/live.js", "text/javascript; charset=utf-8", kevweb_js, strlen(kevweb_js));
    // the viewer's modules, the report's too (tools/viewer): served before live.js
    web_server_route(w, "/kv_dom.js", "text/javascript; charset=utf-8", kevweb_kv_dom_js,
                     strlen(kevweb_kv_dom_js));
    web_server_route(w, "/kv_states.js", "text/javascript; charset=utf-8", kevweb_kv_states_js,
                     strlen(kevweb_kv_states_js));
    web_server_route(w, "/kv_timeline.js", "text/javascript; charset=utf-8", kevweb_kv_timeline_js,
                     strlen(kevweb_kv_timeline_js));
    web_server_route(w, "/live.css", "text/css; charset=utf-8", kevweb_css, strlen(kevweb_css));
    web_server_route(w, "/report.css", "text/css; charset=utf-8", kevweb_report_css,
                     strlen(kevweb_report_css));
    web_server_route(w, "/favicon.ico", "image/x-icon", "", 0);
}

// The input: what has come, at most 4 MiB a turn (pages are served meanwhile); 1 when the
// trace has ended (its trailer, the input's end, or SIGUSR1 and nothing left to read).
static int read_input(struct kev_input *in, struct kev_live *l)
{
    static uint8_t buf[1u << 16];
    int ended = 0;
    for (unsigned k = 0; !ended && k < 64; k++) {
        long got = kev_input_read(in, buf, sizeof(buf), 0);
        if (got > 0)
            kev_live_feed(l, buf, (size_t)got);
        if (got < 0 || (got == 0 && input_over))
            kev_live_finish(l);
        ended = got < 0 || (got == 0 && input_over) || kev_live_done(l);
        if (got <= 0)
            break;
    }
    return ended;
}

// The trace has ended: the page told, the copy of it closed (out: NULL after), and kevreport
// started over the finished file (the copy, or the input when it is a .kev file).
static void trace_ended(struct web_feed *f, struct kev_live_file *out, struct report *rep,
                        const struct args *g, const struct kev_input *in, const char *self)
{
    web_feed_input_end(f);
    if (kev_live_file_close(out) < 0)
        fprintf(stderr, "kevweb: the copy of the trace is incomplete\n");
    report_start(rep, g, g->out ? g->out : in->regular && kev_file(in->name) ? in->name : NULL,
                 f, self);
}

// kevweb stopped: a kevreport still running is ended, its page file removed.
static void report_stop(struct report *r)
{
    if (r->pid) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
        unlink(r->out);
    }
}

int main(int argc, char **argv)
{
    struct args g = { .port = 8344, .addr = "127.0.0.1", .interval_ms = 200,
                      .queue = 4096u * 1024u };
    int rc = parse_args(argc, argv, &g);
    if (rc >= 0)
        return rc;
    struct kev_input in;
    if (kev_input_open("kevweb", g.in, 1, &in) < 0)
        return 1;
    struct kev_live *l = kev_live_new(in.name);
    struct web_feed *f = web_feed_new(&g.timing);
    if (!l || !f) {
        fprintf(stderr, "kevweb: out of memory\n");
        return 1;
    }
    uint32_t cpus;
    if (kev_input_finished(&in, &cpus)) // (read whole: every CPU's events in time order, none
        kev_live_whole(l, cpus), web_feed_whole(f); // late; the instances as kevstat judges them)
    web_feed_counts(f, kev_live_counts(l));
    struct web_server *w = web_server_new(g.addr, g.port, g.queue, "/events", web_feed_snapshot, f);
    if (!w)
        return 1;
    serve_assets(w);
    struct kev_live_consumer fc = web_feed_consumer(f), file;
    struct kev_live_file *out = g.out ? kev_live_file_open("kevweb", g.out, &file) : NULL;
    if (g.out && !out)
        return 1;
    if (out)
        kev_live_attach(l, &file);
    kev_live_attach(l, &fc);
    const struct kev_live_consumer say = { .fault = on_fault };
    kev_live_attach(l, &say);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGUSR1, on_usr1);
    fprintf(stderr, "kevweb: the live view is at http://%s:%u/\n",
            strncmp(g.addr, "127.", 4) ? g.addr : "localhost", web_server_port(w));

    static struct pollfd p[WEB_MAX_CLIENTS + 1];
    struct report rep = { 0 };
    int ended = 0, reported = 0;
    uint64_t last = 0;
    while (!stop) {
        unsigned n = web_server_pollfds(w, p);
        poll(p, n, ended ? 100 : 10);
        uint64_t now = now_ms();
        web_server_service(w, p, n, now);
        if (!ended)
            ended = read_input(&in, l);
        if (ended && !reported) {
            reported = 1;
            trace_ended(f, out, &rep, &g, &in, argv[0]);
            out = NULL;
        }
        report_poll(&rep, w, f);
        if (now - last >= g.interval_ms || (ended && web_feed_ended(f))) {
            char *msg;
            size_t len = web_feed_update(f, &msg);
            if (len)
                web_server_broadcast(w, msg, len);
            free(msg);
            last = now;
        }
    }
    say_counts(w);
    report_stop(&rep);
    kev_live_file_close(out);
    web_server_free(w);
    web_feed_free(f);
    kev_live_free(l);
    kev_input_close(&in);
    free(rep.page);
    return 0;
}
