// SPDX-License-Identifier: MIT
// kevprobe: the probe path's reader as a tool (docs/probe-path.md). It attaches to
// a GDB server (QEMU's -gdb, or a debug probe's), finds the kernel's probe block (by the
// image's symbol, or by scanning memory for its magic), and every poll interval halts the
// target, takes the buffers (kevhost/kev_probe.h) and lets it run on. The .kev file it writes
// grows unit by unit: any live tool follows it (kevtop, kevlive, dtrace -i, kevcapture read a
// pipe or the file as it grows).
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
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
      "(default with -e: the image's .data to its stack's top)", NULL },
    { 'F', 'F', "flush", "MS", "ask the kernel for its partial buffers every MS of the host's\n"
      "time (default 100; 0: full buffers only)", NULL },
    { 'i', 'i', "interval", "MS", "halt and read every MS (default 20)", NULL },
    { 'w', 'w', "wait", "SEC", "wait SEC for the GDB server to listen and answer, and for\n"
      "the kernel to publish a capture and begin it (default 10)", NULL },
    { 'd', 'd', "deadline", "MS", "give up a GDB server that has not finished a round (halt,\n"
      "reads, resume) within MS (default 10000)", NULL },
    { 't', 't', "stream", NULL, "write the tracelogger's framed stream (the file's bytes in\n"
      "DATA frames, a HEARTBEAT at each flush the kernel served, END): what a live\n"
      "reader of several CPUs needs to know they all moved on (kevtop -o writes the\n"
      "same .kev from it)", NULL },
    { 'q', 'q', NULL, NULL, "no summary at the end", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevprobe", "[-o OUT] [-t] (-e IMAGE.elf | -a ADDR | -s ADDR:LEN) [-k ADDR:LEN] [-F MS] [-i MS]\n"
    "       [-d MS] [-w SEC] HOST:PORT",
    "Takes the kernel's trace buffers from the target's memory through a GDB server and\n"
    "writes the .kev file as it grows (the board runs tracelogger -x probe).\n"
    "  HOST:PORT  the GDB server: QEMU's -gdb tcp::PORT, OpenOCD (3333), pyOCD (3333),\n"
    "             probe-rs (1337), J-Link's JLinkGDBServer (2331); or unix:PATH, QEMU's\n"
    "             -gdb unix:PATH,server=on,wait=off\n",
    opts, "Exit status: 0 the capture was written whole, 1 it was not (said), 2 bad usage.\n",
};

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
// says where; the kernel's RAM ([__data_start, __stack_top): its data, bss and boot stack,
// where the ring's table lies), unless -k gave the board's map. 0, or -1 after saying why.
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
        if (elfsym_address(NULL, "__data_start", &lo) < 0 ||
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

// The GDB server at hp (HOST:PORT), waited for up to wait_s, and the probe block found through
// it (w: at ADDR, by a scan inside the kernel's RAM, or as -e's symbol gave it); the block is
// published when the logger starts (the kernel's is all zero until then): it is waited for
// as long, the target running between looks. *t0: when that wait began. 0, or 1 after saying
// why. The connection and handshake are bounded by wait_s, each look for the block by a
// round's deadline (round_ms).
static int attach(struct gdbr *g, struct kev_probe *p, const char *hp,
                  const struct kev_probe_where *w, uint64_t wait_s, unsigned round_ms,
                  uint64_t *t0)
{
    if (gdbr_connect(g, hp, wait_s < UINT_MAX / 1000u ? (unsigned)wait_s * 1000u : UINT_MAX) < 0) {
        fprintf(stderr, "kevprobe: %s\n", g->err);
        gdbr_close(g);
        return 1;
    }
    *t0 = now_ns();
    gdbr_deadline(g, round_ms);
    for (;;) {
        if (kev_probe_find(p, g, w) == 0)
            break;
        if (!p->p_unpublished || now_ns() - *t0 > wait_s * 1000000000u || gdbr_cont(g) < 0) {
            fprintf(stderr, "kevprobe: %s\n", p->p_err);
            gdbr_close(g);
            return 1;
        }
        kev_probe_free(p);
        usleep(100000);
        gdbr_deadline(g, round_ms);
        if (gdbr_halt(g) != 0) {
            fprintf(stderr, "kevprobe: %s\n", g->err);
            return 1;
        }
    }
    return 0;
}

// The capture followed: the target halted, its new buffers read (kev_probe_poll), let run
// for poll_ms, until the capture ends (1), a block never published within wait_s of t0 (-2,
// said) or an error (-1; *ended when the target itself ended).
// Each round (the halt, the reads, the resume) within round_ms: a server that talks without
// answering is given up (gdbr_deadline).
static int follow(struct gdbr *g, struct kev_probe *p, uint64_t poll_ms, uint64_t wait_s,
                  unsigned round_ms, uint64_t t0, int *ended)
{
    gdbr_deadline(g, round_ms);
    for (;;) {
        uint64_t h0 = now_ns();
        int r = kev_probe_poll(p, h0);
        if (r != 0)
            return r;
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
            return -2;
        }
        if (gdbr_cont(g) < 0)
            return -1;
        p->p_counts.halted_ns += now_ns() - h0;
        usleep((useconds_t)(poll_ms * 1000u));
        gdbr_deadline(g, round_ms);
        if (gdbr_halt(g) != 0) {
            *ended = 1;
            return -1;
        }
    }
}

int main(int argc, char **argv)
{
    const char *out_name = NULL, *elf = NULL;
    uint64_t flush_ms = 100, poll_ms = 20, wait_s = 10;
    struct kev_probe_where w = { 0 };
    uint64_t round_ms = 10000;
    int quiet = 0, stream = 0, opt;
    struct tool_args a = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'o': out_name = a.val; break;
        case 'e': elf = a.val; break;
        case 'a':
            if (number(a.val, &w.at) || !w.at)
                return tool_usage_error(&cmd, "-a wants an address, not '%s'", a.val);
            break;
        case 's':
        case 'k':
            if (range(a.val, opt == 's' ? &w.scan : &w.kram, opt == 's' ? &w.scan_len :
                      &w.kram_len) < 0)
                return tool_usage_error(&cmd, "-%c wants ADDR:LEN, not '%s'", opt, a.val);
            break;
        case 'F': if (number(a.val, &flush_ms)) return tool_usage_error(&cmd, "-F wants MS"); break;
        case 'i':
            if (number(a.val, &poll_ms) || !poll_ms)
                return tool_usage_error(&cmd, "-i wants MS (at least 1)");
            break;
        case 'd':
            if (number(a.val, &round_ms) || !round_ms || round_ms > UINT_MAX)
                return tool_usage_error(&cmd, "-d wants MS (at least 1)");
            break;
        case 'w': if (number(a.val, &wait_s)) return tool_usage_error(&cmd, "-w wants SEC"); break;
        case 't': stream = 1; break;
        case 'q': quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    if (a.ind != argc - 1)
        return tool_usage_error(&cmd, "one HOST:PORT, the GDB server");
    if (!!w.at + !!w.scan_len > 1 || (!elf && !w.at && !w.scan_len))
        return tool_usage_error(&cmd, "say where the block is: -e, -a or -s");
    if (w.scan_len && !elf && !w.kram_len)
        return tool_usage_error(&cmd, "-s scans the kernel's RAM alone: say where it is (-k "
                                "ADDR:LEN, the board's map, or -e IMAGE)");
    if (elf && image(elf, &w) < 0)
        return 1;
    char *hp = argv[a.ind], *colon = strrchr(hp, ':');
    if (!colon || colon == hp || !colon[1])
        return tool_usage_error(&cmd, "HOST:PORT, not '%s'", hp);
    FILE *out = stdout;
    if (out_name && strcmp(out_name, "-") != 0 && !(out = fopen(out_name, "wb"))) {
        perror(out_name);
        return 1;
    }

    struct gdbr g;
    struct kev_probe p;
    uint64_t t0;
    if (attach(&g, &p, hp, &w, wait_s, (unsigned)round_ms, &t0) != 0)
        return 1;
    p.p_out = out;
    p.p_stream = stream;
    p.p_flush_ms = (uint32_t)flush_ms;
    p.p_last_flush_ns = now_ns();
    int ended = 0, r = follow(&g, &p, poll_ms, wait_s, (unsigned)round_ms, t0, &ended);
    if (r == -1)
        fprintf(stderr, "kevprobe: %s\n", ended ? g.err : p.p_err);
    if (ended && r < 0)
        fprintf(stderr, "kevprobe: the target ended before the capture did (%llu buffers "
                "read)\n", (unsigned long long)p.p_counts.buffers);
    gdbr_close(&g);     // detaches unless the target ended
    if (out != stdout && fclose(out) != 0) {
        perror(out_name);
        r = -1;
    }
    if (!quiet)
        fprintf(stderr, "kevprobe: %llu buffers, %llu events; %llu buffers overwritten before "
                "they were read; %llu halts (%.1f ms halted), %llu flushes\n",
                (unsigned long long)p.p_counts.buffers, (unsigned long long)p.p_counts.events,
                (unsigned long long)p.p_counts.overwritten, (unsigned long long)p.p_counts.polls,
                (double)p.p_counts.halted_ns / 1e6, (unsigned long long)p.p_counts.flushes);
    kev_probe_free(&p);
    return r == 1 ? 0 : 1;
}
