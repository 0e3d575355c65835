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
    { 's', 's', "scan", "ADDR:LEN", "scan LEN bytes from ADDR for the block's magic", NULL },
    { 'F', 'F', "flush", "MS", "ask the kernel for its partial buffers every MS of the host's\n"
      "time (default 100; 0: full buffers only)", NULL },
    { 'i', 'i', "interval", "MS", "halt and read every MS (default 20)", NULL },
    { 'w', 'w', "wait", "SEC", "wait SEC for the GDB server to listen (default 10)", NULL },
    { 't', 't', "stream", NULL, "write the tracelogger's framed stream (the file's bytes in\n"
      "DATA frames, a HEARTBEAT at each flush the kernel served, END): what a live\n"
      "reader of several CPUs needs to know they all moved on (kevtop -o writes the\n"
      "same .kev from it)", NULL },
    { 'q', 'q', NULL, NULL, "no summary at the end", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevprobe", "[-o OUT] [-t] (-e IMAGE.elf | -a ADDR | -s ADDR:LEN) [-F MS] [-i MS] HOST:PORT",
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

// The GDB server at hp (HOST:PORT), waited for up to wait_s, and the probe block found through
// it (at ADDR, by a scan of scan_len bytes from scan, or as -e's symbol gave it); the block is
// published when the logger starts (the kernel's is all zero until then): it is waited for
// as long, the target running between looks. *t0: when that wait began. 0, or 1 after saying
// why.
static int attach(struct gdbr *g, struct kev_probe *p, const char *hp, uint64_t at,
                  uint64_t scan, uint64_t scan_len, uint64_t wait_s, uint64_t *t0)
{
    if (gdbr_connect(g, hp, wait_s < UINT_MAX / 1000u ? (unsigned)wait_s * 1000u : UINT_MAX) < 0) {
        fprintf(stderr, "kevprobe: %s\n", g->err);
        gdbr_close(g);
        return 1;
    }
    *t0 = now_ns();
    while (kev_probe_find(p, g, at, scan, scan_len) < 0) {
        if (!p->p_unpublished || now_ns() - *t0 > wait_s * 1000000000u || gdbr_cont(g) < 0) {
            fprintf(stderr, "kevprobe: %s\n", p->p_err);
            gdbr_close(g);
            return 1;
        }
        kev_probe_free(p);
        usleep(100000);
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
static int follow(struct gdbr *g, struct kev_probe *p, uint64_t poll_ms, uint64_t wait_s,
                  uint64_t t0, int *ended)
{
    for (;;) {
        uint64_t h0 = now_ns();
        int r = kev_probe_poll(p, h0);
        if (r != 0)
            return r;
        if (p->p_unpublished && !p->p_gen && now_ns() - t0 > wait_s * 1000000000u) {
            fprintf(stderr, "kevprobe: no probe block was published at 0x%llx within %llu s: "
                    "the board's tracelogger runs without -x probe, or the address is not the "
                    "running image's\n", (unsigned long long)p->p_at, (unsigned long long)wait_s);
            return -2;
        }
        if (gdbr_cont(g) < 0)
            return -1;
        p->p_counts.halted_ns += now_ns() - h0;
        usleep((useconds_t)(poll_ms * 1000u));
        if (gdbr_halt(g) != 0) {
            *ended = 1;
            return -1;
        }
    }
}

int main(int argc, char **argv)
{
    const char *out_name = NULL, *elf = NULL;
    uint64_t at = 0, scan = 0, scan_len = 0, flush_ms = 100, poll_ms = 20, wait_s = 10;
    int quiet = 0, stream = 0, opt;
    struct tool_args a = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'o': out_name = a.val; break;
        case 'e': elf = a.val; break;
        case 'a':
            if (number(a.val, &at) || !at)
                return tool_usage_error(&cmd, "-a wants an address, not '%s'", a.val);
            break;
        case 's': {
            char *colon = strchr(a.val, ':');
            if (!colon)
                return tool_usage_error(&cmd, "-s wants ADDR:LEN, not '%s'", a.val);
            *colon = 0;
            if (number(a.val, &scan) || number(colon + 1, &scan_len) || !scan_len)
                return tool_usage_error(&cmd, "-s wants ADDR:LEN");
            break;
        }
        case 'F': if (number(a.val, &flush_ms)) return tool_usage_error(&cmd, "-F wants MS"); break;
        case 'i':
            if (number(a.val, &poll_ms) || !poll_ms)
                return tool_usage_error(&cmd, "-i wants MS (at least 1)");
            break;
        case 'w': if (number(a.val, &wait_s)) return tool_usage_error(&cmd, "-w wants SEC"); break;
        case 't': stream = 1; break;
        case 'q': quiet = 1; break;
        default: return tool_opts_exit(opt);
        }
    }
    if (a.ind != argc - 1)
        return tool_usage_error(&cmd, "one HOST:PORT, the GDB server");
    if (!!elf + !!at + !!scan_len != 1)
        return tool_usage_error(&cmd, "say where the block is: one of -e, -a and -s");
    if (elf) {
        uint64_t size;
        if (elfsym_add("kevprobe", elf, 1) < 0)
            return 1;
        if (elfsym_object(NULL, "kev_probe_block", &at, &size) < 0) {
            fprintf(stderr, "kevprobe: %s has no kev_probe_block: not an image of this kernel "
                    "(or one built before the probe path)\n", elf);
            return 1;
        }
        elfsym_end();
    }
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
    if (attach(&g, &p, hp, at, scan, scan_len, wait_s, &t0) != 0)
        return 1;
    p.p_out = out;
    p.p_stream = stream;
    p.p_flush_ms = (uint32_t)flush_ms;
    p.p_last_flush_ns = now_ns();
    int ended = 0, r = follow(&g, &p, poll_ms, wait_s, t0, &ended);
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
