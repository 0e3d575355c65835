// SPDX-License-Identifier: MIT
// kevlive: a running target's trace served live to LTTng's viewers (babeltrace2, lttngtop...)
// as an LTTng relay daemon serves a live session. It reads the trace as it arrives through the
// live reader (kev_live.h: a growing .kev file, the tracelogger's framed stream from a file,
// pipe, serial device or HOST:PORT), turns each buffer into a CTF packet with kev2ctf's encoder
// (kev2ctf.h: the events a converted file holds), keeps the packets in a bounded store
// (live_store.h) and serves them over LTTng's live viewer protocol (live_viewer.h):
//   babeltrace2 net://localhost:PORT/host/BOARD/SESSION
// prints the events while the system runs. Losses become the packets' events_discarded (the
// kernel's, the stream's LOSS frames, the trailer's), so babeltrace2 says "discarded N events"
// where they happened. Idle CPUs keep the viewer's merge moving: each stream's inactivity
// (LTTng's beacons) is the live reader's progress (the board's heartbeats, the other CPUs'
// buffers). One loop: poll on the input, the listening socket and the viewers; the input is
// read a bounded amount a turn, and nothing waits on a viewer.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <kevhost/kev_input.h>
#include <kevhost/kev_live.h>
#include <kevhost/tool_opts.h>

#include "kev2ctf.h"
#include "ctf_exec.h"
#include "live_store.h"
#include "live_viewer.h"

#define TOOL "kevlive"
#define READS_A_TURN 4u            // 64 KiB reads of the input between the viewers' turns

static const struct tool_opt opts[] = {
    { 'l', 'l', "listen", "ADDRESS", "the address to listen on (default 127.0.0.1: this\n"
      "machine only; 0.0.0.0 or :: for every interface)", NULL },
    { 'p', 'p', "port", "PORT", "the port (default 5344, LTTng's live port; 0: a free one,\n"
      "said on stderr)", NULL },
    { 's', 's', "session", "NAME", "the session's name (default kev)", NULL },
    { 'o', 'o', NULL, "FILE", "also write the trace to FILE as it arrives (a board reset:\n"
      "FILE-2.kev, ...)", NULL },
    { 'n', 'n', "from-now", NULL, "start a viewer at the next packet, as LTTng's relay does\n"
      "(default: at the oldest packet held, the trace's start while -m\n"
      "holds it)", NULL },
    { 'm', 'm', "memory", "MIB", "packets held for the viewers, at most (default 64)", NULL },
    { 'w', 'w', "wait", "SECONDS", "after the trace ends, end when the viewers have read\n"
      "it all, or none has asked for anything for SECONDS\n(default 10)", NULL },
    { 'q', 'q', NULL, NULL, "only report problems", NULL },
    { 'f', 'f', "follow", NULL, "a regular file: read it as it grows, until its trailer or END\n"
      "frame (without -f a file is read to its end: one that ends\n"
      "without them is said cut, exit 1)", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    TOOL, "[-l ADDRESS] [-p PORT] [-s NAME] [-o FILE] [-n] [-m MIB] [-w SECONDS] [-q] [-f] [INPUT]",
    "Serves a running target's trace to LTTng live viewers while it arrives, e.g.\n"
    "  babeltrace2 net://localhost:5344/host/BOARD/NAME\n"
    "BOARD is the board's name in the trace's header, said on stderr with the command\n"
    "line once the header has arrived. The events are kev2ctf's; losses are the\n"
    "packets' discarded events.\n"
    "  INPUT  a .kev file (-f: read as it grows until its trailer); the tracelogger's\n"
    "         stream (tracelogger -u, -x rtt) from a file (-f: read as it grows), a pipe\n"
    "         or a serial device; HOST:PORT (a probe's RTT server, QEMU's socket);\n"
    "         default: standard input\n",
    opts, "Exit status: 0 the trace arrived whole, 1 damaged or incomplete (or the input could\n"
          "not be read, or the port not opened), 2 bad usage.\n",
};

// The live consumer: a segment's encoder and trace.
struct live {
    struct ls_session *s;
    struct ls_trace *tr;
    struct ctf_enc *enc;
    struct ctf_exec *exec;    // each run's executed share, fed before the encoder (ctf_exec.h)
    struct kx_model *m;
    const char *url_host;
    unsigned port;
    int quiet, said_url, werr;
    uint64_t loss_total[KEV_MAX_CPUS][3]; // the LOSS frames' running totals, per CPU and reason
    struct ctf_clock prev;                // the last segment's clock, and its span in seconds
    int64_t prev_span_s;
    struct ctf_enc_counts n;              // every segment's, summed
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static int on_packet(void *user, const struct ctf_packet *pk)
{
    struct live *L = user;
    if (ls_add_packet(L->s, L->tr, pk) < 0) {
        fprintf(stderr, TOOL ": out of memory: a packet of CPU %u dropped\n", pk->cpu);
        return -1;
    }
    return 0;
}

static void make_uuid(uint8_t uuid[16])
{
    if (getrandom(uuid, 16, GRND_NONBLOCK) != 16) {
        uint64_t h = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
        for (unsigned i = 0; i < 16; i++, h = h * 0x100000001b3ull + i)
            uuid[i] = (uint8_t)(h >> 56);
    }
    uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);
    uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

// The metadata of a segment, on a clock that starts after the segment before ended: a board
// that restarted counts its cycles from 0 again, and a viewer's time must not go back.
static char *segment_metadata(struct live *L, const struct kev_reader *r, unsigned seg,
                              const uint8_t uuid[16], size_t *len)
{
    struct ctf_clock clk;
    ctf_enc_clock(r, &clk);
    if (seg > 1 && clk.offset_s <= L->prev.offset_s + L->prev_span_s)
        clk.offset_s = L->prev.offset_s + L->prev_span_s + 1;
    L->prev = clk;
    char *meta = NULL;
    FILE *f = open_memstream(&meta, len);
    if (!f)
        return NULL;
    ctf_enc_metadata(f, r, uuid, &clk);
    if (fclose(f)) {
        free(meta);
        return NULL;
    }
    return meta;
}

static unsigned header_cpus(const struct kev_reader *r)
{
    unsigned len;
    const char *cpus = kev_attr(r, "CPU_NUM", &len);
    unsigned n = cpus ? (unsigned)strtoul(cpus, NULL, 10) : r->kr_board_ncpu;
    return n < 1 ? 1 : n > KEV_MAX_CPUS ? KEV_MAX_CPUS : n;
}

static void on_begin(void *user, struct kev_reader *r, unsigned seg)
{
    struct live *L = user;
    uint8_t uuid[16];
    size_t len = 0;
    snprintf(L->s->host, sizeof(L->s->host), "%s", r->kr_board[0] ? r->kr_board : "board");
    kx_model_init(L->m, r);
    ctf_kcall_layouts(r);
    make_uuid(uuid);
    memset(L->loss_total, 0, sizeof(L->loss_total));
    char *meta = segment_metadata(L, r, seg, uuid, &len);
    L->tr = meta ? ls_trace_begin(L->s, seg, meta, len, header_cpus(r), L->prev.freq) : NULL;
    free(meta);
    L->enc = L->tr ? ctf_enc_new(L->m, uuid, on_packet, L) : NULL;
    ctf_exec_free(L->exec);
    L->exec = L->enc ? ctf_exec_new(r, 16) : NULL; // (a switch follows its run's end closely)
    if (L->enc)
        ctf_enc_exec(L->enc, L->exec);
    if (!L->enc || !L->exec) {
        ctf_enc_free(L->enc);
        L->enc = NULL;
        fprintf(stderr, TOOL ": out of memory: segment %u is not served\n", seg);
        L->tr = NULL;
        return;
    }
    if (!L->said_url)
        fprintf(stderr, TOOL ": babeltrace2 net://%s:%u/host/%s/%s\n", L->url_host, L->port,
                L->s->host, L->s->name);
    else if (!L->quiet)
        fprintf(stderr, TOOL ": segment %u: a new trace in the session\n", seg);
    L->said_url = 1;
}

static void on_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct live *L = user;
    if (L->exec)
        ctf_exec_event(L->exec, e);
    if (L->enc && kx_pass_step(ctf_enc_pass(L->enc), r, e))
        L->werr = 1;
}

// Every event before t has been given: each CPU's events so far go out (the packet being
// filled is closed: the rest of its buffer, held by the live reader's merge until the other
// CPUs pass it, comes in the next), and no stream has one to come before t.
static void on_time(void *user, struct kev_reader *r, uint64_t t)
{
    struct live *L = user;
    (void)r;
    if (!L->enc)
        return;
    for (unsigned cpu = 0; cpu < L->tr->nstreams; cpu++) {
        ctf_enc_flush(L->enc, cpu);
        ls_quiet(L->tr, cpu, t);
    }
}

// The board dropped buffers the host did not take: those events are discarded from the CPU's
// next packet on (each LOSS frame's running total: a frame lost on the way is made up by the
// next).
static void on_loss(void *user, struct kev_reader *r, const struct ks_loss *s)
{
    struct live *L = user;
    (void)r;
    if (!L->enc || s->cpu >= KEV_MAX_CPUS)
        return;
    uint64_t *seen = &L->loss_total[s->cpu][s->reason < 3 ? s->reason : 0];
    uint64_t n = s->total > *seen ? s->total - *seen : s->events;
    *seen = s->total > *seen ? s->total : *seen + s->events;
    ctf_enc_host_loss(L->enc, s->cpu, n);
    fprintf(stderr, TOOL ": the board lost %llu events on CPU %lu (the host %s): discarded in "
            "that CPU's next packet\n", (unsigned long long)n, (unsigned long)s->cpu,
            s->reason == KS_LOSS_HOST_STOP ? "asked it to stop sending" : "did not take them");
}

static void on_fault(void *user, enum kev_live_fault f, const char *what)
{
    (void)user, (void)f;
    fprintf(stderr, TOOL ": %s\n", what);
}

// Buffers lost on the way (the live reader said so when it happened): the trailer counts the
// events each CPU recorded, so those that did not arrive are discarded at the end.
static void transit_losses(struct live *L, const struct kev_reader *r)
{
    for (unsigned cpu = 0; r->kr_have_trailer && cpu < r->kr_trl_ncpu && cpu < KEV_MAX_CPUS;
         cpu++) {
        uint64_t want = r->kr_trl_events[cpu], got = r->kr_cpu[cpu].cs_events;
        if (want <= got)
            continue;
        ctf_enc_host_loss(L->enc, cpu, want - got);
        fprintf(stderr, TOOL ": CPU %u recorded %llu events the stream did not bring (its "
                "trailer's count): discarded at the end\n", cpu, (unsigned long long)(want - got));
    }
}

static void on_end(void *user, struct kev_reader *r, int complete)
{
    struct live *L = user;
    (void)complete;
    if (!L->enc)
        return;
    transit_losses(L, r);
    if (ctf_enc_finish(L->enc, r, r->kr_have_trailer))
        L->werr = 1;
    struct ctf_enc_counts n;
    ctf_enc_counts(L->enc, &n);
    L->n.events += n.events, L->n.derived += n.derived, L->n.packets += n.packets;
    L->n.discarded += n.discarded;
    L->prev_span_s = L->m->have_t ? (int64_t)(L->m->last_t / L->prev.freq) + 1 : 0;
    ls_trace_end(L->tr);
    ctf_enc_free(L->enc);
    L->enc = NULL;
    ctf_exec_free(L->exec);
    L->exec = NULL;
}

// ---- the listening socket ----------------------------------------------------------------------

// A non-blocking socket listening on addr:port; its port in *bound. -1 after saying why.
static int listen_on(const char *addr, const char *port, unsigned *bound)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE }, *ai;
    int rc = getaddrinfo(addr, port, &hints, &ai);
    if (rc) {
        fprintf(stderr, TOOL ": %s port %s: %s\n", addr, port, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0, one = 1;
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(fd, a->ai_addr, a->ai_addrlen) < 0 || listen(fd, 16) < 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0) {
        fprintf(stderr, TOOL ": cannot listen on %s port %s: %s\n", addr, port, strerror(err));
        return -1;
    }
    struct sockaddr_storage sa;
    socklen_t sl = sizeof(sa);
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    *bound = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                            : ((struct sockaddr_in *)&sa)->sin_port);
    return fd;
}

// ---- main ---------------------------------------------------------------------------------------

struct args {
    const char *addr, *port, *name, *out, *in;
    int from_start, quiet;
    uint64_t cap;
    double wait_s;
    int follow;                 // -f
};

static int parse_args(int argc, char **argv, struct args *g)
{
    struct tool_args a = { argc, argv, 0, NULL };
    for (int id; (id = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END;) {
        char *end = NULL;
        switch (id) {
        case 'l': g->addr = a.val; break;
        case 'p':
            if (strtoul(a.val, &end, 10) > 65535 || *end || !*a.val)
                return tool_usage_error(&cmd, "-p wants a port number, not %s", a.val);
            g->port = a.val;
            break;
        case 's':
            if (!*a.val || strlen(a.val) > 200 || strchr(a.val, '/'))
                return tool_usage_error(&cmd, "-s wants a name without '/' (1 to 200 bytes)");
            g->name = a.val;
            break;
        case 'o': g->out = a.val; break;
        case 'n': g->from_start = 0; break;
        case 'm': {
            unsigned long mib = strtoul(a.val, &end, 10);
            if (*end || !*a.val || mib < 1 || mib > 65536)
                return tool_usage_error(&cmd, "-m wants 1 to 65536 MiB, not %s", a.val);
            g->cap = (uint64_t)mib << 20;
            break;
        }
        case 'w':
            g->wait_s = strtod(a.val, &end);
            if (*end || !*a.val || g->wait_s < 0 || g->wait_s > 86400)
                return tool_usage_error(&cmd, "-w wants 0 to 86400 seconds, not %s", a.val);
            break;
        case 'q': g->quiet = 1; break;
        case 'f': g->follow = 1; break;
        default: return tool_opts_exit(id);
        }
    }
    if (a.ind < argc - 1)
        return tool_usage_error(&cmd, "only one INPUT, got %s and %s", argv[a.ind],
                                argv[a.ind + 1]);
    g->in = a.ind < argc ? argv[a.ind] : NULL;
    return -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// Read what the input has (a bounded amount): 1 when it ended.
static int read_input(struct kev_input *in, struct kev_live *l)
{
    static uint8_t buf[1u << 16];
    for (unsigned k = 0; k < READS_A_TURN; k++) {
        long n = kev_input_read(in, buf, sizeof(buf), 0);
        if (n > 0)
            kev_live_feed(l, buf, (size_t)n);
        if (n < 0)
            kev_live_finish(l);
        if (n < 0 || kev_live_done(l))
            return 1;
        if (n == 0)
            break;
    }
    return 0;
}

// Serve until the input ends and the viewers have read it (or the wait is over). Returns 1
// when it stopped on a signal.
static int run(struct kev_input *in, struct kev_live *l, struct lv_server *v,
               struct ls_session *s, double wait_s)
{
    static struct pollfd p[LV_MAX_CLIENTS + 2];
    int ended = 0;
    double ended_at = 0;
    while (!stop) {
        unsigned n = lv_fds(v, p, LV_MAX_CLIENTS + 1);
        int input_polled = !ended && !in->follow;
        if (input_polled)
            p[n] = (struct pollfd){ in->fd, POLLIN, 0 };
        int r = poll(p, n + (unsigned)input_polled, ended || input_polled ? 100 : 20);
        if (r < 0 && errno != EINTR)
            break;
        if (!ended && (in->follow || (r > 0 && p[n].revents))) {
            ended = read_input(in, l);
            if (ended) {
                s->closed = 1;
                ended_at = now_s();
            }
        }
        if (r > 0)
            lv_handle(v, p, n);
        lv_expire(v);
        // the end: every viewer that attached has read it all, or none has asked for anything
        // for the wait (a viewer still reading keeps the server)
        double idle = now_s() - (lv_last_command(v) > ended_at ? lv_last_command(v) : ended_at);
        if (ended && ((lv_all_done(v) && lv_counts(v)->attached) || idle >= wait_s || !s->ntr))
            break;              // (no header ever came: there is nothing to serve)
    }
    return stop;
}

int main(int argc, char **argv)
{
    struct args g = { "127.0.0.1", "5344", "kev", NULL, NULL, 1, 0, 64u << 20, 10, 0 };
    int rc = parse_args(argc, argv, &g);
    if (rc >= 0)
        return rc;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    static struct ls_session s;
    static struct kx_model m;
    ls_init(&s, g.name, g.cap);
    struct live L = { .s = &s, .m = &m, .quiet = g.quiet };
    L.url_host = !strcmp(g.addr, "127.0.0.1") || !strcmp(g.addr, "::1") ? "localhost" : g.addr;
    int fd = listen_on(g.addr, g.port, &L.port);
    if (fd < 0)
        return 1;
    if (!g.quiet)
        fprintf(stderr, TOOL ": serving LTTng live viewers on %s port %u\n", g.addr, L.port);
    struct kev_input in; // (a named pipe opens when its writer does: the port is said first)
    if (kev_input_open(TOOL, g.in, g.follow, &in) < 0)
        return 1;
    struct kev_live *l = kev_live_new(in.name);
    struct lv_server *v = lv_new(TOOL, fd, &s, g.from_start, g.quiet);
    struct kev_live_consumer file;
    struct kev_live_file *w = g.out ? kev_live_file_open(TOOL, g.out, &file) : NULL;
    if (!l || !v || (g.out && !w)) {
        if (!l || !v)
            fprintf(stderr, TOOL ": out of memory\n");
        return 1;
    }
    const struct kev_live_consumer me = { .user = &L, .begin = on_begin, .event = on_event,
                                          .time = on_time, .loss = on_loss, .fault = on_fault,
                                          .end = on_end };
    kev_live_attach(l, &me);
    if (w)
        kev_live_attach(l, &file);
    int stopped = run(&in, l, v, &s, g.wait_s);
    if (stopped && !kev_live_done(l))
        kev_live_finish(l);
    int bad = !kev_live_sound(l) || L.werr;
    if (w && kev_live_file_close(w) < 0)
        bad = 1;
    const struct lv_counts *k = lv_counts(v);
    if (!g.quiet || bad)
        fprintf(stderr, TOOL ": %llu events (+%llu derived) in %llu packets, %llu discarded; "
                "viewers: %llu connected, %llu attached, %llu closed for garbage, %llu for silence; %llu packets "
                "(%llu bytes) served, %llu beacons; %llu packets dropped from the store, "
                "%llu events of them unread by a viewer%s\n",
                (unsigned long long)L.n.events, (unsigned long long)L.n.derived,
                (unsigned long long)L.n.packets, (unsigned long long)L.n.discarded,
                (unsigned long long)k->connections, (unsigned long long)k->attached,
                (unsigned long long)k->garbage, (unsigned long long)k->expired,
                (unsigned long long)k->packets,
                (unsigned long long)k->bytes, (unsigned long long)k->beacons,
                (unsigned long long)s.dropped_packets, (unsigned long long)k->skipped_events,
                bad ? " (the trace is INCOMPLETE)" : "");
    lv_free(v);
    close(fd);
    ls_free(&s);
    kev_input_close(&in);
    kev_live_free(l);
    return bad ? 1 : 0;
}
