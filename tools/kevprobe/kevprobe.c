// SPDX-License-Identifier: MIT
// kevprobe: the probe path's reader as a tool (docs/probe-path.md). It reaches the target's
// memory while it runs, finds the kernel's probe block (by the image's symbol, or by scanning
// memory for its magic), and every poll interval takes the buffers (kevhost/kev_probe.h),
// never halting the target: through a file QEMU shares the guest's RAM with (file:PATH@BASE),
// or a GDB server's `m` and `M` packets alone (a probe's background memory access). The old
// reader that halts the target for each round stays, opt-in (--halt), and always lets the
// target run on when it ends, SIGINT and SIGTERM mid-round included. The .kev file it writes
// grows unit by unit: any live tool follows it (kevtop, kevlive, dtrace -i, kevcapture read a
// pipe or the file as it grows).
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <kevhost/gdb_remote.h>
#include <kevhost/kev_mem_file.h>
#include <kevhost/kev_probe.h>
#include <kevhost/tool_elfsym.h>
#include <kevhost/tool_opts.h>

static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "FILE", "where to write the trace (default: standard output)", NULL },
    { 'e', 'e', "elf", "IMAGE", "the image running: the block is at its symbol\n"
      "kev_probe_block", NULL },
    { 'a', 'a', "address", "ADDR", "the block is at ADDR", NULL },
    { 's', 's', "scan", "ADDR:LEN", "scan LEN bytes from ADDR for the block's magic, inside\n"
      "the kernel's RAM alone (-k, or the image's with -e)", NULL },
    { 'k', 'k', "kernel-ram", "ADDR:LEN", "the kernel's RAM, which no program can write (the\n"
      "board's map): the block and the words kevprobe writes must lie in it\n"
      "(default with -e: the image's probe area, else its .data to its stack's top)", NULL },
    { 'F', 'F', "flush", "MS", "ask the kernel for its partial buffers every MS of the host's\n"
      "time (default 100; 0: full buffers only)", NULL },
    { 'i', 'i', "interval", "MS", "read every MS (default 20)", NULL },
    { 'H', 'H', "halt", NULL, "through a GDB server, halt the target for each round\n"
      "(^C, the reads, c): the core stops for every round's reads, its\n"
      "peripheral timers, DMA and devices do not (docs/probe-path.md); without\n"
      "it only m and M are sent, which a server must serve to a running target", NULL },
    { 'w', 'w', "wait", "SEC", "wait SEC for the GDB server or the RAM file to answer, and\n"
      "for the kernel to publish a capture and begin it (default 10)", NULL },
    { 'd', 'd', "deadline", "MS", "give up a GDB server that has not finished a round's\n"
      "packets within MS (default 10000)", NULL },
    { 't', 't', "stream", NULL, "write the tracelogger's framed stream (the file's bytes in\n"
      "DATA frames, a HEARTBEAT at each flush the kernel served, END): what a live\n"
      "reader of several CPUs needs to know they all moved on (kevtop -o writes the\n"
      "same .kev from it)", NULL },
    { 'p', 'p', "pid", "PID", "the target is gone when process PID is (QEMU, or the script\n"
      "that runs it): a shared file cannot say so itself", NULL },
    { 'q', 'q', NULL, NULL, "no summary at the end", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevprobe", "[-o OUT] [-t] (-e IMAGE.elf | -a ADDR | -s ADDR:LEN) [-k ADDR:LEN] [-F MS]\n"
    "       [-i MS] [-d MS] [-w SEC] [-H] TARGET",
    "Takes the kernel's trace buffers from the running target's memory and writes the .kev\n"
    "file as it grows (the board runs tracelogger -x probe); the target is never halted.\n"
    "  TARGET  file:PATH@BASE  the guest RAM QEMU shares with the host (-object\n"
    "                          memory-backend-file,mem-path=PATH,share=on); BASE is the\n"
    "                          guest address of its first byte\n"
    "          HOST:PORT       a GDB server that serves m and M while the target runs:\n"
    "                          OpenOCD (3333, its gdb-attach event emptied), pyOCD\n"
    "                          (3333, -M attach), J-Link's JLinkGDBServer (2331,\n"
    "                          -nohalt); unix:PATH for a UNIX socket. QEMU's gdbstub\n"
    "                          stops the VM for any packet, probe-rs's halts the target\n"
    "                          as kevprobe connects: give them -H (docs/probe-path.md)\n",
    opts, "Exit status: 0 the capture was written whole (losses counted, said), 1 it was not\n"
    "(said), 2 bad usage.\n",
};

// SIGINT, SIGTERM: the signal's number. The wait in progress ends (a GDB server's through
// gdbr's cancel flag, a sleep by the signal itself), the target is let run (-H: `c`) and
// kevprobe ends, saying so: a halting reader never leaves the target halted behind it.
static volatile int stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

// The handlers, without SA_RESTART: a blocked poll, send or sleep returns at the signal.
static void catch_stop_signals(void)
{
    struct sigaction sa = { .sa_handler = on_stop_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int number(const char *s, uint64_t *v)
{
    char *end;
    *v = strtoull(s, &end, 0);
    return *s && !*end ? 0 : -1;
}

// ADDR:LEN, LEN not 0 and the range not past 2^64.
static int range(const char *s, uint64_t *at, uint64_t *len)
{
    char *end;
    *at = strtoull(s, &end, 0);
    if (end == s || *end != ':')
        return -1;
    return number(end + 1, len) || !*len || *at + *len < *at ? -1 : 0;
}

// What the image says: the block's address (its symbol kev_probe_block), unless a scan or -a
// says where; the kernel's RAM, unless -k gave the board's map: its probe area
// ([__probe_start, __probe_end): the block, the ring's table, the host's words), or in an image
// without one [__data_start, __stack_top) (its data, bss and boot stack). 0, or -1 said.
static int image(const char *elf, struct kev_probe_where *w)
{
    uint64_t size, lo, hi;
    if (elfsym_add("kevprobe", elf, 1) < 0)
        return -1;
    int r = 0;
    if (!w->at && !w->scan_len && elfsym_object(NULL, "kev_probe_block", &w->at, &size) < 0) {
        fprintf(stderr, "kevprobe: %s has no kev_probe_block: not an image of this kernel "
                "(or one built before the probe path)\n", elf);
        r = -1;
    } else if (!w->kram_len) {
        if (elfsym_address(NULL, "__probe_start", &lo) == 0 &&
            elfsym_address(NULL, "__probe_end", &hi) == 0 && hi > lo) {
            w->kram = lo;
            w->kram_len = hi - lo;
        } else if (elfsym_address(NULL, "__data_start", &lo) < 0 ||
            elfsym_address(NULL, "__stack_top", &hi) < 0 || hi <= lo) {
            fprintf(stderr, "kevprobe: %s does not say where the kernel's RAM is (no "
                    "__data_start, __stack_top): give the board's map, -k ADDR:LEN\n", elf);
            r = -1;
        } else {
            w->kram = lo;
            w->kram_len = hi - lo;
        }
    }
    elfsym_end();
    return r;
}

// How kevprobe reaches the target: the shared RAM file, or a GDB server (halting or not).
struct target {
    struct kev_mem_file file;
    struct gdbr gdb;
    int is_gdb, halt, ended;
    long pid;           // -p: the process whose end is the target's (0: none)
    unsigned round_ms;  // a GDB server's round (its packets) within this (gdbr_deadline)
    // A GDB server's reads: their bytes and host time, and the capture's time, so that the end
    // says whether the probe reads the buffers as fast as the board writes them
    uint64_t read_bytes, read_ns, t0_ns;
};

// A GDB server that talks without answering is given up: each round's packets within round_ms.
static void round_begins(struct target *t)
{
    if (t->is_gdb)
        gdbr_deadline(&t->gdb, t->round_ms);
}

// Whether process pid still runs (a zombie, ended but not waited for, does not).
static int running(long pid)
{
    char path[64], st[512];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(st, 1, sizeof(st) - 1, f);
    fclose(f);
    st[n] = 0;
    const char *paren = strrchr(st, ')');
    return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

static int gdb_read(void *ctx, uint64_t a, void *b, size_t n)
{
    struct target *t = ctx;
    uint64_t t0 = now_ns();
    int r = gdbr_read(&t->gdb, a, b, n);
    t->read_ns += now_ns() - t0;
    t->read_bytes += n;
    return r;
}

// A GDB server's probe: its read rate against the rate the board wrote buffers at, and which
// of the two ways it needs (docs/wire.md): the buffers where they lie (16 bytes an event, no
// board instruction), or the compact channel (tracelogger -x rtt: a third of the bytes).
static void say_read_rate(const struct kev_probe *p, const struct target *t)
{
    uint64_t span = now_ns() - t->t0_ns, bytes = p->p_counts.events * KEV_SLOT_BYTES;
    if (!t->is_gdb || t->read_ns < 1000000u || !span || bytes < 65536u)
        return;
    double rd = (double)t->read_bytes / ((double)t->read_ns / 1e9) / 1024.0;
    double wr = (double)bytes / ((double)span / 1e9) / 1024.0;
    fprintf(stderr, "kevprobe: the probe read %.0f KB/s, the board wrote %.0f KB/s of buffers: "
            "%s\n", rd, wr, wr <= rd * 0.8 ? "its buffers read where they lie keep up" :
            "past 80% of its rate: the compact channel (tracelogger -x rtt, a third of the "
            "bytes) keeps up where the buffers do not (docs/wire.md)");
}

static int gdb_write(void *ctx, uint64_t a, const void *b, size_t n)
{
    return gdbr_write(&((struct target *)ctx)->gdb, a, b, n);
}

static const char *gdb_error(void *ctx)
{
    return ((struct target *)ctx)->gdb.err;
}

// Halting reader only: the target stopped for a round, or let run after it. 0, or -1 said.
static int halt(struct target *t)
{
    if (!t->halt)
        return 0;
    if (gdbr_halt(&t->gdb) != 0) {
        t->ended = t->gdb.exited;
        fprintf(stderr, "kevprobe: %s\n", t->gdb.err);
        return -1;
    }
    return 0;
}

static int resume(struct target *t)
{
    return t->halt && gdbr_cont(&t->gdb) < 0 ? -1 : 0;
}

// Opens TARGET (file:PATH@BASE, or a GDB server waited for up to wait_s): the memory's ops.
static int open_target(struct target *t, const char *where, uint64_t wait_s, struct kev_mem *m)
{
    if (strncmp(where, "file:", 5) == 0) {
        char path[4096];
        const char *atsign = strrchr(where, '@');
        uint64_t base;
        if (!atsign || (size_t)(atsign - where - 5) >= sizeof(path) || number(atsign + 1, &base)) {
            fprintf(stderr, "kevprobe: file:PATH@BASE, not '%s'\n", where);
            return -1;
        }
        memcpy(path, where + 5, (size_t)(atsign - where - 5));
        path[atsign - where - 5] = 0;
        // QEMU makes the file as it starts: waited for as a GDB server is
        uint64_t t0 = now_ns();
        while (kev_mem_file_open(&t->file, path, base) < 0) {
            if (stop_signal) {
                fprintf(stderr, "kevprobe: %s before %s could be opened\n",
                        strsignal(stop_signal), path);
                return -1;
            }
            if (now_ns() - t0 > wait_s * 1000000000u) {
                fprintf(stderr, "kevprobe: %s\n", t->file.mf_err);
                return -1;
            }
            usleep(100000);
        }
        *m = kev_mem_file_ops(&t->file);
        return 0;
    }
    t->is_gdb = 1;
    if (gdbr_connect(&t->gdb, where, wait_s < UINT_MAX / 1000u ? (unsigned)wait_s * 1000u : UINT_MAX) < 0) {
        fprintf(stderr, "kevprobe: %s\n", t->gdb.err);
        gdbr_close(&t->gdb);
        return -1;
    }
    // (-H: the server halts the target as a client connects, QEMU's does; without it kevprobe
    // sends no c: a server that halts on connection is set not to, docs/probe-path.md)
    if (t->halt && resume(t) < 0) {
        fprintf(stderr, "kevprobe: %s\n", t->gdb.err);
        return -1;
    }
    struct kev_mem g = { gdb_read, gdb_write, gdb_error, t };
    *m = g;
    return 0;
}

static void close_target(struct target *t)
{
    if (t->is_gdb && t->halt && !t->ended && resume(t) == 0) {
        // -H: the target let run, and the connection closed with no D, which some servers
        // (OpenOCD) take for "stay halted" (and no ^C first, which gdbr_close would send)
        close(t->gdb.fd);
        t->gdb.fd = -1;
    }
    if (t->is_gdb)
        gdbr_close(&t->gdb);    // detaches: the target runs on, unless it ended
    else
        kev_mem_file_close(&t->file);
}

// The probe block found (w: at ADDR, by a scan inside the kernel's RAM, or as -e's symbol
// gave it); it is published when the logger starts (the kernel's is all zero until then): it
// is waited for up to wait_s. *t0: when that wait began. 0, or 1 after saying why (p freed).
static int attach(struct target *t, const struct kev_mem *m, struct kev_probe *p,
                  const struct kev_probe_where *w, uint64_t wait_s, uint64_t *t0)
{
    *t0 = now_ns();
    round_begins(t);
    if (halt(t) < 0)
        return 1;
    while (kev_probe_find(p, m, w) < 0) {
        if (!p->p_unpublished || now_ns() - *t0 > wait_s * 1000000000u || resume(t) < 0) {
            fprintf(stderr, "kevprobe: %s\n", p->p_err);
            kev_probe_free(p);
            return 1;
        }
        kev_probe_free(p);
        usleep(100000);
        if (stop_signal)
            return 1;       // (said by the caller)
        round_begins(t);
        if (halt(t) < 0)
            return 1;
    }
    return 0;
}

// The capture followed: its new buffers read (kev_probe_poll) every poll_ms, until the capture
// ends (1), a block never published within wait_s of t0 (-2, said), a stop signal (-3: the
// target let run, said by the caller) or an error (-1).
static int follow(struct target *t, struct kev_probe *p, uint64_t poll_ms, uint64_t wait_s,
                  uint64_t t0)
{
    for (;;) {
        uint64_t h0 = now_ns();
        round_begins(t);
        int r = kev_probe_poll(p, h0);
        if (p->p_note[0]) {     // the board outruns the reader: said while it runs
            fprintf(stderr, "%s\n", p->p_note);
            p->p_note[0] = 0;
        }
        if (r != 0) {
            resume(t);      // (-H: the target never stays halted behind the reader)
            return stop_signal ? -3 : r;
        }
        if (!p->p_gen && now_ns() - t0 > wait_s * 1000000000u) {
            if (p->p_unpublished)
                fprintf(stderr, "kevprobe: no probe block was published at 0x%llx within %llu "
                        "s: the board's tracelogger runs without -x probe, or the address is "
                        "not the running image's\n", (unsigned long long)p->p_at,
                        (unsigned long long)wait_s);
            else
                fprintf(stderr, "kevprobe: the probe block at 0x%llx stayed idle for %llu s: "
                        "no capture began (-w)\n", (unsigned long long)p->p_at,
                        (unsigned long long)wait_s);
            resume(t);
            return -2;
        }
        if (t->pid && !running(t->pid)) {   // (one more round above saw what it left)
            if (p->p_done || kev_probe_poll(p, now_ns()) == 1)
                return 1;
            t->ended = 1;
            return -1;
        }
        if (resume(t) < 0)
            return -1;
        if (t->halt)
            p->p_counts.halted_ns += now_ns() - h0;
        usleep((useconds_t)(poll_ms * 1000u));
        if (stop_signal)
            return -3;
        if (halt(t) < 0) {
            resume(t);      // (a ^C cut short by a signal: its halt is let go)
            return stop_signal ? -3 : -1;
        }
    }
}

// What was read and what was lost, said (the last line make live shows).
static void summary(const struct kev_probe *p, const struct target *t, int quiet)
{
    const struct kev_probe_counts *c = &p->p_counts;
    if (c->damaged)
        fprintf(stderr, "kevprobe: %llu buffers were not what the table said, skipped and "
                "their slots counted lost in the trailer (the last: %s)\n",
                (unsigned long long)c->damaged, p->p_damage);
    if (c->seq_lies)
        fprintf(stderr, "kevprobe: the kernel's next sequence number was behind its own table "
                "%llu times (the table's buffers were read all the same)\n",
                (unsigned long long)c->seq_lies);
    if (quiet)
        return;
    say_read_rate(p, t);
    char hb[160] = "";
    if (p->p_stream)    // (a stale one is no lie: the board's time when the flush was served)
        snprintf(hb, sizeof(hb), "; %llu heartbeats sent, %llu stale (the flush served behind an "
                 "event already written) held back", (unsigned long long)c->heartbeats,
                 (unsigned long long)c->stale_heartbeats);
    if (t->halt)
        fprintf(stderr, "kevprobe: %llu buffers, %llu events; %llu buffers overwritten before "
                "they were read; %llu halts (%.1f ms halted), %llu flushes%s\n",
                (unsigned long long)c->buffers, (unsigned long long)c->events,
                (unsigned long long)c->overwritten, (unsigned long long)c->polls,
                (double)c->halted_ns / 1e6, (unsigned long long)c->flushes, hb);
    else
        fprintf(stderr, "kevprobe: %llu buffers, %llu events; %llu buffers overwritten before "
                "they were read; %llu rounds, 0 halts, %llu torn reads retried, %llu "
                "flushes%s\n", (unsigned long long)c->buffers, (unsigned long long)c->events,
                (unsigned long long)c->overwritten, (unsigned long long)c->polls,
                (unsigned long long)c->torn, (unsigned long long)c->flushes, hb);
}

// What the command line asks for.
struct probe_args {
    const char *out_name, *elf, *target;
    uint64_t pid, flush_ms, poll_ms, wait_s, round_ms;
    struct kev_probe_where w;
    int quiet, stream, halting;
};

// One option o with its value v into a (or one of tool_opts_next's exits): -1 to go on, else
// the exit status.
static int take_opt(struct probe_args *a, int o, const char *v)
{
    switch (o) {
    case 'o': a->out_name = v; break;
    case 'e': a->elf = v; break;
    case 'a':
        if (number(v, &a->w.at) || !a->w.at)
            return tool_usage_error(&cmd, "-a wants an address, not '%s'", v);
        break;
    case 's':
    case 'k':
        if (range(v, o == 's' ? &a->w.scan : &a->w.kram,
                  o == 's' ? &a->w.scan_len : &a->w.kram_len) < 0)
            return tool_usage_error(&cmd, "-%c wants ADDR:LEN, not '%s'", o, v);
        break;
    case 'd':
        if (number(v, &a->round_ms) || !a->round_ms || a->round_ms > UINT_MAX)
            return tool_usage_error(&cmd, "-d wants MS (at least 1)");
        break;
    case 'F': if (number(v, &a->flush_ms)) return tool_usage_error(&cmd, "-F wants MS"); break;
    case 'i':
        if (number(v, &a->poll_ms) || !a->poll_ms)
            return tool_usage_error(&cmd, "-i wants MS (at least 1)");
        break;
    case 'w': if (number(v, &a->wait_s)) return tool_usage_error(&cmd, "-w wants SEC"); break;
    case 't': a->stream = 1; break;
    case 'H': a->halting = 1; break;
    case 'p':
        if (number(v, &a->pid) || !a->pid)
            return tool_usage_error(&cmd, "-p wants a process id");
        break;
    case 'q': a->quiet = 1; break;
    default: return tool_opts_exit(o);
    }
    return -1;
}

// The options and the one TARGET into a, checked together: -1 to go on, else the exit status.
static int parse_args(int argc, char **argv, struct probe_args *a)
{
    struct tool_args ta = { argc, argv, 0, NULL };
    int opt, bad;
    while ((opt = tool_opts_next(&cmd, &ta)) != TOOL_OPTS_END)
        if ((bad = take_opt(a, opt, ta.val)) >= 0)
            return bad;
    if (ta.ind != argc - 1)
        return tool_usage_error(&cmd, "one TARGET: file:PATH@BASE or a GDB server's HOST:PORT");
    if (!!a->w.at + !!a->w.scan_len > 1 || (!a->elf && !a->w.at && !a->w.scan_len))
        return tool_usage_error(&cmd, "say where the block is: -e, -a or -s");
    if (a->w.scan_len && !a->elf && !a->w.kram_len)
        return tool_usage_error(&cmd, "-s scans the kernel's RAM alone: say where it is (-k "
                                "ADDR:LEN, the board's map, or -e IMAGE)");
    if (a->elf && image(a->elf, &a->w) < 0)
        return 1;
    char *hp = argv[ta.ind], *colon = strrchr(hp, ':');
    if (!colon || colon == hp || !colon[1])
        return tool_usage_error(&cmd, "file:PATH@BASE or HOST:PORT, not '%s'", hp);
    if (a->halting && strncmp(hp, "file:", 5) == 0)
        return tool_usage_error(&cmd, "-H is for a GDB server (a shared file never halts)");
    a->target = hp;
    return -1;
}

// Why the capture r (follow's) ended short, said.
static void say_end(int r, const struct target *t, const struct kev_probe *p)
{
    if (r == -3)
        fprintf(stderr, "kevprobe: %s: the capture not read to its end (%llu buffers read), "
                "the target let run%s\n", strsignal(stop_signal),
                (unsigned long long)p->p_counts.buffers,
                t->halt ? " (c sent, no halt after it)" : "");
    if (r == -1 && (!t->ended || p->p_err[0]))
        fprintf(stderr, "kevprobe: %s\n", t->ended && t->is_gdb ? t->gdb.err : p->p_err);
    if (t->ended && r < 0)
        fprintf(stderr, "kevprobe: the target ended before the capture did (%llu buffers "
                "read)\n", (unsigned long long)p->p_counts.buffers);
}

int main(int argc, char **argv)
{
    struct probe_args a = { .flush_ms = 100, .poll_ms = 20, .wait_s = 10, .round_ms = 10000 };
    int bad = parse_args(argc, argv, &a);
    if (bad >= 0)
        return bad;
    FILE *out = stdout;
    if (a.out_name && strcmp(a.out_name, "-") != 0 && !(out = fopen(a.out_name, "wb"))) {
        perror(a.out_name);
        return 1;
    }

    static struct target t;
    struct kev_mem m;
    struct kev_probe p;
    uint64_t t0;
    catch_stop_signals();
    gdbr_cancel_on(&stop_signal);
    t.halt = a.halting;
    t.pid = (long)a.pid;
    t.round_ms = (unsigned)a.round_ms;
    if (open_target(&t, a.target, a.wait_s, &m) < 0)
        return 1;
    if (attach(&t, &m, &p, &a.w, a.wait_s, &t0) != 0) {
        close_target(&t);
        if (stop_signal)
            fprintf(stderr, "kevprobe: %s before the capture was found: the target let run%s\n",
                    strsignal(stop_signal), t.halt ? " (c sent)" : "");
        return 1;
    }
    p.p_out = out;
    p.p_stream = a.stream;
    p.p_flush_ms = (uint32_t)a.flush_ms;
    p.p_last_flush_ns = now_ns();
    t.t0_ns = now_ns();
    int r = follow(&t, &p, a.poll_ms, a.wait_s, t0);
    say_end(r, &t, &p);
    close_target(&t);
    if (out != stdout && fclose(out) != 0) {
        perror(a.out_name);
        r = -1;
    }
    summary(&p, &t, a.quiet);
    kev_probe_free(&p);
    return r == 1 ? 0 : 1;
}
