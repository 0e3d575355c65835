// SPDX-License-Identifier: MIT
// kevscen: writes scripted .kev traces whose analysis results are known in advance, for the
// tests of kev2ctf, kev2json, kevstat and kevreport. The events go through the real producer
// (trace/trace_ring.c with the host port's fake clock, set by hand before every event) and the
// real writer (trace/kev_file.c, via tools/common/kev_capture.c), exactly like kevgen.
// Alongside the trace it prints "expect KEY VALUE" lines computed from the script's own
// parameters (never from a tool's output), and "generated N events".
//
// Scenario "basic" (1 MHz clock: one cycle is one microsecond), repeated R times, period P:
//   client (pid 2) MsgSends to server (pid 3), which MsgSends to driver (pid 4); the server
//   replies a fixed L cycles after the client's send; worker (pid 5) runs exactly N cycles;
//   irq 5 has a handler of exactly H cycles and wakes the driver D cycles after its entry;
//   the client's SemWait fails with EAGAIN each time. With -i, in one round of every four (rounds
//   1, 5, 9 ... from 0) irq 5 comes again B1 cycles after the driver ran, while it is still
//   busy: its pulse is queued and the driver takes it B2 cycles later, when it calls
//   MsgReceive again (interrupt-to-thread latency B2, where a thread made ready counts D).
// Scenario "smp" (kevscen4, built for 4 CPUs): worker runs N0 cycles a round on CPU 0,
//   client N1 on CPU 1, server 100 cycles on CPU 0 then 200 on CPU 1 (it migrates), and
//   irq 7 on CPU 1 has a handler of exactly H1 cycles. Each CPU's buffer is saved whole, one
//   after the other, so only tools that put events back in time order get the server right.
// Scenario "emul" (kevscen4): kevscen_emul.c. -c CLOCK: the header item QEMU_CLOCK, as
//   scripts/qemu-run.sh passes it to the tracelogger (any scenario).
// Scenario "loss": the basic script with a burst of kernel calls (after the client wakes up in
//   the middle round) that the logger cannot keep up
//   with (two buffers, switch policy), so a known number of events is dropped.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kevscen.h"
#include <uapi/kcall.h>

#define HZ 1000000u
#define P 2000u   // period of one round
#define L 300u    // client send -> server reply
#define N 500u    // worker run time per round
#define H 40u     // handler time
#define D 60u     // interrupt entry -> driver running
#define IRQ 5u
#define EAGAIN_ 11u
#define N0 300u   // smp: worker's run per round on CPU 0
#define N1 500u   // smp: client's run per round on CPU 1
#define H1 20u    // smp: irq 7's handler on CPU 1
#define B1 10u    // -i: the busy driver's interrupt, after it ran
#define B2 20u    // -i: ... and the driver's receive of its pulse after that

struct trace_ring ring;
static struct kcap cap;
uint64_t emitted;

enum { IDLE = 1, CLIENT = 2, SERVER = 3, DRIVER = 4, WORKER = 5 };
static const char *const basic_pname[] = { "", "procnto", "client", "server", "driver",
                                           "worker" };
static const char *const basic_tname[] = { "", "idle", "main", "main", "irq", "main" };
static const uint32_t basic_prio[] = { 0, 0, 10, 20, 30, 5 };
// -N: the same processes named as a hostile program may name itself (at most 15 bytes, the
// kernel's KNAME_MAX): an escape sequence that clears the screen, one that retitles the
// terminal, CSI as a C1 control in UTF-8 (c2 9b) and as a lone byte (9b), NEL (85), CR, BEL,
// a newline; and beside them ordinary UTF-8 names, which the tools must keep.
static const char *const hostile_pname[] = { "", "procnto", "cl\x1b[2Jnt", "sv\xc2\x9b" "31m",
                                             "dr\x9b" "5n\r", "w\xc3\xb6rker\x07" };
static const char *const hostile_tname[] = { "", "idle", "m\x1b]0;x\x07", "\x85main", "irq\n",
                                             "\xd0\xb7\xd0\xb0\xd0\xb4\xd0\xb0\xd1\x87\xd0\xb0" };
// -M: named as markup a hostile program may choose to blank or hijack a web page (HTML's
// comment and script openers, a closing script tag, entities, an attribute's quote, JavaScript's
// line separators U+2028 and U+2029).
static const char *const markup_pname[] = { "", "procnto", "</script>", "a&amp;b<i>",
                                            "x\xe2\x80\xa8y", "\"'><b>w" };
static const char *const markup_tname[] = { "", "idle", "<!--<script>", "</ScRiPt >",
                                            "\xe2\x80\xa9main", "<img src=x>" };
// The scenario's processes (one thread each), pid 1 the idle one; kevscen_sync.c has its own.
static unsigned NPROC = 5;
static const char *const *pname = basic_pname, *const *tname = basic_tname;
static const uint32_t *prio = basic_prio;

// -k: COMM events as the kernel writes them when the receiver already waits: the receive in
// the sender's context right after the send, naming the receiving thread (pid << 16 | tid),
// the send's first word the receive id, replies with pid 0; a pulse from an interrupt handler.
// Without -k: as docs/kev-format.md describes (receive in the server's context, naming the
// sender pid). The expected results are the same.
static int kstyle;
static int busy_irq; // -i
static const char *qemu_clock; // -c

void at(uint64_t t) { trace_host_port.now = t; }

void th(unsigned state, unsigned pid)
{
    uint32_t w[4] = { pid, 1, prio[pid], 2 };
    if (state == KEV_TH_RUNNING)
        trace_ring_set_current(&ring, pid, 1);
    trace_emit_words(&ring, KEV_C_PR_TH, state, w, 4);
    emitted++;
}

void ev(unsigned cls, unsigned e, uint32_t a, uint32_t b)
{
    trace_emit_simple(&ring, cls, e, a, b);
    emitted++;
}

void kc_in(unsigned call, uint32_t a) { ev(KEV_C_KER_CALL, KEV_KC_ENTRY(call), a, 0); }
void kc_out(unsigned call, int32_t ret) { ev(KEV_C_KER_CALL, KEV_KC_EXIT(call), (uint32_t)ret, 0); }

static void begin_file(void)
{
    uint8_t sp[2048];
    struct kev_out o;
    memset(&cap, 0, sizeof(cap));
    kev_out_init(&o, sp, sizeof(sp), 0);
    const struct kev_sp_machine m = { KEV_SP_QNX_ARM, TRACE_MAX_CPUS, HZ, 0, 0, "scenario",
                                      "scenario", "armle" };
    kev_sp_begin(&o, &m);
    kev_sp_board(&o, "scenario", HZ, TRACE_MAX_CPUS);
    for (unsigned p = 1; p <= NPROC; p++) {
        kev_sp_proc(&o, p, p > 1, pname[p]);
        kev_sp_thread(&o, p, 1, KEV_TH_READY, prio[p], tname[p]);
    }
    size_t splen = kev_sp_end(&o);
    cap.cap = 8192 + splen;
    cap.data = malloc(cap.cap);
    if (!cap.data || o.ko_err) {
        fprintf(stderr, "kevscen: cannot build the header\n");
        exit(1);
    }
    struct kev_out h;
    kev_out_init(&h, cap.data, cap.cap, 0);
    const struct kev_hdr_std std = {
        .hs_file_name = "scenario.kev", .hs_date = "Sat Nov 21 06:00:00 2026",
        .hs_boot_date = "Sat Nov 21 06:00:00 2026", .hs_cycles_per_sec = HZ,
        .hs_cpu_num = TRACE_MAX_CPUS, .hs_sysname = "QNX-like", .hs_nodename = "scenario",
        .hs_sys_release = "0.1", .hs_sys_version = "kevscen", .hs_machine = "armv7m",
        .hs_syspage_len = splen,
    };
    kev_hdr_standard(&h, &std);
    if (qemu_clock)
        kev_hdr_item(&h, "QEMU_CLOCK", qemu_clock);
    kev_hdr_end(&h);
    kev_out_bytes(&h, sp, splen);
    if (h.ko_err) {
        fprintf(stderr, "kevscen: cannot write the header: %s\n", h.ko_why);
        exit(1);
    }
    cap.len = h.ko_len;
}

// START's snapshot: every process, thread name and state; the idle thread runs (with
// snapshot_idles > 1, one idle thread per CPU, as the kernel makes them: wake scenario).
static unsigned snapshot_idles = 1;
static void snapshot(uint64_t t)
{
    at(t);
    ev(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 0, 0);
    for (unsigned p = 1; p <= NPROC; p++) {
        uint32_t w[2] = { p > 1, p };
        trace_emit_string(&ring, KEV_C_PR_TH, KEV_PR_CREATE_NAME, w, 2, pname[p]);
        uint32_t wt[2] = { p, 1 };
        trace_emit_string(&ring, KEV_C_PR_TH, KEV_PR_THREAD_NAME, wt, 2, tname[p]);
        emitted += 2;
        th(p == IDLE ? KEV_TH_RUNNING : p == CLIENT || NPROC != 5 ? KEV_TH_NANOSLEEP
           : p == WORKER ? KEV_TH_NANOSLEEP : KEV_TH_RECEIVE, p);
    }
    for (unsigned c = 1; c < snapshot_idles; c++) { // the other CPUs' idle threads, running
        uint32_t wt[2] = { IDLE, 1 + c }, ws[4] = { IDLE, 1 + c, 0, 2 };
        trace_emit_string(&ring, KEV_C_PR_TH, KEV_PR_THREAD_NAME, wt, 2, "idle");
        trace_emit_words(&ring, KEV_C_PR_TH, KEV_TH_RUNNING, ws, 4);
        emitted += 2;
    }
    ev(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 1, 0);
}

// A message from process `from` (in its MsgSend) to `to` (blocked receiving), now: sent on
// connection coid (the kernel's style, -k: the receiver's rcvid kid, with the receive in the
// sender's context), the sender REPLY-blocked, the receiver ready, running at t_run and back
// from its MsgReceive.
static void message(uint32_t coid, uint32_t kid, unsigned from, unsigned to, uint64_t t_run)
{
    ev(KEV_C_COMM, KEV_COMM_SND_MESSAGE, kstyle ? kid : coid, to);
    if (kstyle)
        ev(KEV_C_COMM, KEV_COMM_REC_MESSAGE, kid, to << 16 | 1);
    th(KEV_TH_REPLY, from), th(KEV_TH_READY, to);
    at(t_run), th(KEV_TH_RUNNING, to);
    if (!kstyle)
        ev(KEV_C_COMM, KEV_COMM_REC_MESSAGE, 1, from);
    kc_out(KC_MsgReceive, 1);
}

// One round starting at T (see the timeline in the file comment and docs/analysis.md).
static void round_at(uint64_t T, int first)
{
    at(T + 0), th(KEV_TH_RUNNING, CLIENT);
    if (!first)
        kc_out(KC_ThreadSleep, 0);
    kc_in(KC_SemWait, 1);
    at(T + 3), kc_out(KC_SemWait, -(int32_t)EAGAIN_);
    at(T + 5), kc_in(KC_MsgSend, 5);
    at(T + 10), message(5, 0x107, CLIENT, SERVER, T + 20);
    at(T + 70), kc_in(KC_MsgSend, 6);
    message(6, 0x108, SERVER, DRIVER, T + 80);
    at(T + 180), kc_in(KC_MsgReply, 1);
    ev(KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, kstyle ? 0x108 : 1, kstyle ? 0 : SERVER);
    th(KEV_TH_READY, SERVER), kc_out(KC_MsgReply, 0);
    at(T + 190), kc_in(KC_MsgReceive, 2), th(KEV_TH_RECEIVE, DRIVER);
    at(T + 200), th(KEV_TH_RUNNING, SERVER), kc_out(KC_MsgSend, 0);
    at(T + 10 + L), kc_in(KC_MsgReply, 1);
    ev(KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, kstyle ? 0x107 : 1, kstyle ? 0 : CLIENT);
    th(KEV_TH_READY, CLIENT), kc_out(KC_MsgReply, 0);
    at(T + 320), kc_in(KC_MsgReceive, 2), th(KEV_TH_RECEIVE, SERVER);
    at(T + 330), th(KEV_TH_RUNNING, CLIENT), kc_out(KC_MsgSend, 0);
    at(T + 400), kc_in(KC_ThreadSleep, 1600), th(KEV_TH_NANOSLEEP, CLIENT);
    at(T + 410), th(KEV_TH_READY, WORKER), th(KEV_TH_RUNNING, WORKER);
    at(T + 410 + N), th(KEV_TH_NANOSLEEP, WORKER), th(KEV_TH_RUNNING, IDLE);
    at(T + 1000), ev(KEV_C_INT, KEV_INT_ENTER, IRQ, 0);
    at(T + 1005), ev(KEV_C_INT, KEV_INT_HANDLER_ENTER, IRQ, 0);
    // -k: the handler's pulse [0, channel 2]; in even rounds the waiting driver receives it at
    // once (receive in the handler's context), in odd rounds it is queued and the driver
    // receives it when it runs (receive in its own context).
    int queued = kstyle && (T / P) % 2;
    if (kstyle) {
        at(T + 1040), ev(KEV_C_COMM, KEV_COMM_SND_PULSE, 0, 2);
        if (!queued)
            ev(KEV_C_COMM, KEV_COMM_REC_PULSE, 2, DRIVER << 16 | 1);
    }
    at(T + 1005 + H), ev(KEV_C_INT, KEV_INT_HANDLER_EXIT, IRQ, 0);
    at(T + 1046), th(KEV_TH_READY, DRIVER);
    at(T + 1050), ev(KEV_C_INT, KEV_INT_EXIT, IRQ, 0);
    at(T + 1000 + D), th(KEV_TH_RUNNING, DRIVER);
    if (!kstyle)
        ev(KEV_C_COMM, KEV_COMM_REC_PULSE, 0, 0);
    else if (queued)
        ev(KEV_C_COMM, KEV_COMM_REC_PULSE, 2, DRIVER << 16 | 1);
    kc_out(KC_MsgReceive, 0);
    if (busy_irq && (T / P) % 4 == 2) { // irq 5 again, the driver still busy: pulse queued
        at(T + 1000 + D + B1), ev(KEV_C_INT, KEV_INT_ENTER, IRQ, 0);
        at(T + 1000 + D + B1 + 2), ev(KEV_C_COMM, KEV_COMM_SND_PULSE, 0, 2);
        at(T + 1000 + D + B1 + 4), ev(KEV_C_INT, KEV_INT_EXIT, IRQ, 0);
        at(T + 1000 + D + B1 + B2), kc_in(KC_MsgReceive, 2); // takes it without blocking
        ev(KEV_C_COMM, KEV_COMM_REC_PULSE, 2, DRIVER << 16 | 1);
        kc_out(KC_MsgReceive, 0);
    }
    at(T + 1090), kc_in(KC_MsgReceive, 2), th(KEV_TH_RECEIVE, DRIVER);
    th(KEV_TH_RUNNING, IDLE);
    at(T + 1900), th(KEV_TH_READY, CLIENT);
}

// One round of the smp scenario, events in time order, each on its CPU.
static void smp_round(uint64_t T)
{
    trace_host_port.cpu = 0, at(T), th(KEV_TH_RUNNING, WORKER);
    trace_host_port.cpu = 1, at(T + 100), th(KEV_TH_RUNNING, CLIENT);
    trace_host_port.cpu = 0, at(T + N0), th(KEV_TH_NANOSLEEP, WORKER);
    th(KEV_TH_RUNNING, IDLE);
    at(T + 400), th(KEV_TH_RUNNING, SERVER); // server: 100 cycles on CPU 0 ...
    at(T + 500), th(KEV_TH_READY, SERVER), th(KEV_TH_RUNNING, IDLE);
    trace_host_port.cpu = 1, at(T + 100 + N1), kc_in(KC_ThreadSleep, 1);
    th(KEV_TH_NANOSLEEP, CLIENT);
    at(T + 700), th(KEV_TH_RUNNING, SERVER); // ... then 200 on CPU 1
    at(T + 900), th(KEV_TH_RECEIVE, SERVER);
    at(T + 1500), ev(KEV_C_INT, KEV_INT_ENTER, 7, 0);
    ev(KEV_C_INT, KEV_INT_HANDLER_ENTER, 7, 0);
    at(T + 1500 + H1), ev(KEV_C_INT, KEV_INT_HANDLER_EXIT, 7, 0);
    ev(KEV_C_INT, KEV_INT_EXIT, 7, 0);
    trace_host_port.cpu = 0;
}

// One round of the wake scenario (kevscen4): client blocks on CPU 1; server, on CPU 0, posts
// the semaphore: the client's READY is written on CPU 0 (the waker's) and it runs on CPU 1.
// In the round at RENAME_AT the client renames its main thread "waker" (ThreadName): the
// converters show the new name from then on.
#define RENAME_AT (T0_ROUNDS + 10u * P)
#define T0_ROUNDS 2000u
static void wake_round(uint64_t T)
{
    trace_host_port.cpu = 1, at(T), th(KEV_TH_READY, CLIENT), th(KEV_TH_RUNNING, CLIENT);
    if (T == RENAME_AT) {
        uint32_t w[2] = { CLIENT, 1 };
        trace_emit_string(&ring, KEV_C_PR_TH, KEV_PR_THREAD_NAME, w, 2, "waker");
        emitted++;
    }
    at(T + 100), kc_in(KC_SemWait, 4), th(KEV_TH_SEM, CLIENT);
    trace_host_port.cpu = 0, at(T + 200), th(KEV_TH_READY, SERVER), th(KEV_TH_RUNNING, SERVER);
    at(T + 300), kc_in(KC_SemPost, 4), th(KEV_TH_READY, CLIENT), kc_out(KC_SemPost, 0);
    trace_host_port.cpu = 1, at(T + 310), th(KEV_TH_RUNNING, CLIENT), kc_out(KC_SemWait, 0);
    trace_host_port.cpu = 0, at(T + 400), th(KEV_TH_NANOSLEEP, SERVER), th(KEV_TH_RUNNING, IDLE);
    trace_host_port.cpu = 1, at(T + 500), th(KEV_TH_NANOSLEEP, CLIENT);
    // irq 9 on both CPUs at once: CPU 0 from T+600 to T+620, CPU 1 from T+610 to T+630
    trace_host_port.cpu = 0, at(T + 600), ev(KEV_C_INT, KEV_INT_ENTER, 9, 0);
    trace_host_port.cpu = 1, at(T + 610), ev(KEV_C_INT, KEV_INT_ENTER, 9, 0);
    trace_host_port.cpu = 0, at(T + 620), ev(KEV_C_INT, KEV_INT_EXIT, 9, 0);
    trace_host_port.cpu = 1, at(T + 630), ev(KEV_C_INT, KEV_INT_EXIT, 9, 0);
    trace_host_port.cpu = 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: kevscen [-k] [-i] [-N|-M] [-s] [-t] [-c CLOCK] [-r ROUNDS]\n"
               "               basic|loss|smp|wake|sync|events|emul FILE.kev\n"
               "Writes a scripted trace and prints the analysis results it must give\n"
               "(\"expect KEY VALUE\" lines) and \"generated N events\".\n"
               "  -k         message events as the kernel writes them for a waiting receiver\n"
               "             (receive in the sender's context), and interrupt pulses\n"
               "  -i         basic and loss: in one round of every four an interrupt while its driver\n"
               "             is busy (its pulse taken later, without blocking)\n"
               "  -N         basic and loss: processes and threads named with terminal control\n"
               "             sequences and UTF-8, as a hostile program may name itself\n"
               "  -M         basic and loss: processes and threads named with HTML markup\n"
               "             (<!--<script>, </script>, &amp;, quotes, U+2028 and U+2029)\n"
               "  -r ROUNDS  rounds of the script (default 20)\n"
               "  -c CLOCK   the header item QEMU_CLOCK (host, icount,shift=0,sleep=off ...)\n"
               "  smp and wake (wake-ups across CPUs) need the build for several CPUs\n"
               "             (kevscen4)\n"
               "  sync       priority inversions, inheritance and an ABBA deadlock\n"
               "             (kevscen_sync.c); -s with SYNC_WAIT and PRIO_CHANGE events,\n"
               "             -t the deadlock broken by a timeout\n"
               "  events     one of every event of the event table (trace/kev_events.c) a\n"
               "             round, \"expect-*\" lines the fields each must decode to\n"
               "  emul       (kevscen4) tick periods skipped and a run stretched by another\n"
               "             CPU's turn, as QEMU makes them (kevscen_emul.c)\n"
               "  -h, --help this text\n");
}

// parse_args: the options (-k, -i, -N and -c set the generator's own; -r ROUNDS, -s and -t
// the sync scenario's) and the scenario and output file into words[]. -1 to go on, or the
// exit status (0 after --help).
static int parse_args(int argc, char **argv, unsigned *rounds, int *sync_events,
                      int *sync_timeout, const char **words)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-k")) {
            kstyle = 1;
        } else if (!strcmp(argv[i], "-i")) {
            busy_irq = 1;
        } else if (!strcmp(argv[i], "-N")) {
            pname = hostile_pname, tname = hostile_tname;
        } else if (!strcmp(argv[i], "-M")) {
            pname = markup_pname, tname = markup_tname;
        } else if (!strcmp(argv[i], "-s")) {
            *sync_events = 1;
        } else if (!strcmp(argv[i], "-t")) {
            *sync_timeout = 1;
        } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
            qemu_clock = argv[++i];
        } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            *rounds = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!words[0]) {
            words[0] = argv[i];
        } else if (!words[1]) {
            words[1] = argv[i];
        } else {
            usage(stderr);
            return 2;
        }
    }
    return -1;
}

// The loss scenario's burst: events written during the idle time that nobody drains.
struct burst {
    uint64_t t0, t1, n, lost;
};

// loss_burst: 3000 kernel-call events from t0 on, 64 to a cycle, into b (what the ring lost
// of them in b->lost).
static void loss_burst(uint64_t t0, struct burst *b)
{
    struct trace_counts before, after;
    trace_ring_counts(&ring, 0, &before);
    b->t0 = t0;
    for (unsigned k = 0; k < 3000; k++) {
        at(b->t0 + k / 64);
        ev(KEV_C_KER_CALL, KEV_KC_ENTRY(KC_ClockCycles), 0, 0);
        b->n++;
    }
    b->t1 = b->t0 + 2999 / 64;
    trace_ring_counts(&ring, 0, &after);
    b->lost = after.dropped - before.dropped;
}

// expect_smp: the smp and wake scenarios' truths over R rounds, as "expect" lines.
static void expect_smp(uint64_t R, int wake)
{
    if (wake) {
        printf("expect hz %u\nexpect rounds %llu\nexpect cpus 2\n", HZ, (unsigned long long)R);
        printf("expect rename 2001 client waker %u\n", RENAME_AT); // Linux tid of client/main
        printf("expect irq9 %llu 20\n", (unsigned long long)(2 * R)); // slices, each 20 us
        return;
    }
    printf("expect hz %u\nexpect rounds %llu\n", HZ, (unsigned long long)R);
    printf("expect cpu.worker/main %llu\n", (unsigned long long)(R * N0));
    printf("expect cpu.client/main %llu\n", (unsigned long long)(R * N1));
    printf("expect cpu.server/main %llu\n", (unsigned long long)(R * 300));
    printf("expect state.server/main.READY %llu\n", (unsigned long long)(R * 200));
    printf("expect irq.7.count %llu\nexpect irq.7.handler %u\n", (unsigned long long)R, H1);
    printf("expect cpus 2\n");
    // The server runs on CPU 0, then CPU 1, every round: a migration each time but the
    // first; the others stay. CPU 1 runs the client N1 and the server 200 a round.
    printf("expect migrations.server/main %llu\n", (unsigned long long)(2 * R - 1));
    printf("expect migrations.worker/main 0\nexpect migrations.client/main 0\n");
    printf("expect migrations %llu\n", (unsigned long long)(2 * R - 1));
    printf("expect running.1 %llu\n", (unsigned long long)(R * (N1 + 200)));
}

// expect_basic: the basic and loss scenarios' truths over R rounds (b: the loss scenario's
// burst, NULL for basic), as "expect" lines.
static void expect_basic(uint64_t R, const struct burst *b)
{
    printf("expect hz %u\n", HZ);
    printf("expect rounds %llu\n", (unsigned long long)R);
    printf("expect cpu.worker/main %llu\n", (unsigned long long)(R * N));
    printf("expect cpu.client/main %llu\n", (unsigned long long)(R * (5 + 5 + 70)));
    printf("expect cpu.server/main %llu\n", (unsigned long long)(R * (50 + 120)));
    printf("expect cpu.driver/irq %llu\n", (unsigned long long)(R * (110 + 30)));
    printf("expect prio.5 %llu\n", (unsigned long long)(R * N));
    printf("expect state.client/main.REPLY %llu\n", (unsigned long long)(R * L));
    printf("expect kcall.MsgSend.count %llu\n", (unsigned long long)(2 * R));
    printf("expect kcall.SemWait.errors %llu\n", (unsigned long long)R);
    printf("expect kcall.SemWait.errno %u\n", EAGAIN_);
    printf("expect kcall.ThreadSleep.count %llu\n", (unsigned long long)(R - 1));
    printf("expect kcall.ThreadSleep.max %u\n", 2000u - 400u);
    printf("expect kcall.MsgSend.max %u\n", 330u - 5u);
    printf("expect kcall.MsgSend.min %u\n", 200u - 70u);
    uint64_t nbusy = busy_irq ? (R + 2) / 4 : 0; // rounds 1, 5, 9, ... (from 0)
    printf("expect irq.%u.count %llu\n", IRQ, (unsigned long long)(R + nbusy));
    printf("expect irq.%u.handler %u\n", IRQ, H);
    if (nbusy) {    // every interrupt has its latency, the busy driver's ones too
        printf("expect irq.%u.latency_n %llu\n", IRQ, (unsigned long long)(R + nbusy));
        printf("expect irq.%u.latency_min %u\nexpect irq.%u.latency_max %u\n", IRQ, B2, IRQ, D);
    } else {        // once a round: P cycles apart
        printf("expect irq.%u.latency %u\n", IRQ, D);
        printf("expect irq.%u.rate %u\n", IRQ, HZ / P);
    }
    printf("expect msg.client/main>server.count %llu\n", (unsigned long long)R);
    printf("expect msg.client/main>server.latency %u\n", L);
    printf("expect msg.server/main>driver.latency %u\n", 180u - 70u);
    printf("expect path.depth 3\n");
    printf("expect path.total %u\n", L);
    printf("expect flows %llu\n", (unsigned long long)(2 * R));
    if (kstyle)
        printf("expect pulses.irq_%u>driver %llu\n", IRQ,
               (unsigned long long)(R + nbusy));
    if (b) {
        printf("expect lost %llu\n", (unsigned long long)b->lost);
        printf("expect burst %llu %llu %llu\n", (unsigned long long)b->n,
               (unsigned long long)b->t0, (unsigned long long)b->t1);
    }
}

// The scripts kevscen plays (usage), by their names.
enum scenario { SC_BASIC, SC_LOSS, SC_SMP, SC_WAKE, SC_SYNC, SC_EVENTS, SC_EMUL, SC_NONE };
static const char *const scenario_names[SC_NONE] = {
    [SC_BASIC] = "basic", [SC_LOSS] = "loss", [SC_SMP] = "smp", [SC_WAKE] = "wake",
    [SC_SYNC] = "sync", [SC_EVENTS] = "events", [SC_EMUL] = "emul",
};

static enum scenario scenario_of(const char *name)
{
    for (unsigned k = 0; name && k < SC_NONE; k++)
        if (!strcmp(name, scenario_names[k]))
            return (enum scenario)k;
    return SC_NONE;
}

// The options the sync scenario takes (-s, -t).
struct sync_opts {
    int events, timeout;
};

// The scenario's rounds into the ring, each drained into the capture, then the clock at the
// end; b: the loss scenario's burst.
static void play(enum scenario sc, unsigned rounds, const struct sync_opts *so, struct burst *b)
{
    const uint64_t T0 = 2000;
    for (unsigned i = 0; i < rounds; i++) {
        uint64_t T = T0 + (uint64_t)i * P;
        switch (sc) {
        case SC_EVENTS: events_round(T0 + (uint64_t)i * 10000u); break; // the table's events
        case SC_EMUL: emul_round(T0 + (uint64_t)i * 10000u); break;
        case SC_SYNC:
            sync_round(T0 + (uint64_t)i * 10000u, so->events);
            if (i + 1 == rounds)
                sync_deadlock(T0 + (uint64_t)rounds * 10000u, so->events, so->timeout);
            break;
        case SC_WAKE: wake_round(T); break;
        case SC_SMP: smp_round(T); break;
        default:
            round_at(T, i == 0);
            if (sc == SC_LOSS && i == rounds / 2) // during the idle time: a burst nobody drains
                loss_burst(T + 1910, b);
            break;
        }
        kcap_drain(&cap, &ring);
    }
    int long_rounds = sc == SC_SYNC || sc == SC_EVENTS || sc == SC_EMUL;
    at(T0 + (uint64_t)rounds * (long_rounds ? 10000u : P) + (sc == SC_SYNC ? 3000u : 0));
}

// The scenario's truths as "expect" lines (the events scenario's are its own expect-* lines).
static void expect(enum scenario sc, unsigned rounds, const struct sync_opts *so,
                   const struct burst *b)
{
    switch (sc) {
    case SC_EMUL: emul_expect(rounds, qemu_clock); break;
    case SC_SYNC: sync_expect(rounds, so->events, so->timeout); break;
    case SC_SMP: case SC_WAKE: expect_smp(rounds, sc == SC_WAKE); break;
    case SC_EVENTS: break;
    default: expect_basic(rounds, sc == SC_LOSS ? b : NULL); break;
    }
}

int main(int argc, char **argv)
{
    unsigned rounds = 20;
    struct sync_opts so = { 0, 0 };
    const char *words[2] = { NULL, NULL };
    int r = parse_args(argc, argv, &rounds, &so.events, &so.timeout, words);
    if (r >= 0)
        return r;
    const char *scen = words[0], *out = words[1];
    enum scenario sc = scenario_of(scen);
    if (!out || sc == SC_NONE || rounds < 2) {
        usage(stderr);
        return 2;
    }
    if ((sc == SC_SMP || sc == SC_WAKE || sc == SC_EMUL) && TRACE_MAX_CPUS < 2) {
        fprintf(stderr, "kevscen: %s needs a build for several CPUs (kevscen4)\n", scen);
        return 2;
    }
    unsigned nbufs = sc == SC_LOSS ? 2 : 8;
    struct kev_slot *mem = malloc(nbufs * KEV_BUF_BYTES);
    if (!mem || trace_ring_init(&ring, mem, nbufs * KEV_BUF_BYTES, nbufs)) {
        fprintf(stderr, "kevscen: cannot set up the ring\n");
        return 1;
    }
    trace_filter_all(&ring, 1);
    if (sc == SC_SYNC) {
        NPROC = sync_nproc;
        pname = sync_pname, tname = sync_tname, prio = sync_prio;
    }
    trace_host_port.step = 0;
    at(1000);
    trace_ring_start(&ring);
    if (sc == SC_WAKE || sc == SC_EMUL)
        snapshot_idles = 2; // the two CPUs the scenario uses
    begin_file();
    snapshot(1000);
    struct burst b = { 0 };
    play(sc, rounds, &so, &b);
    kcap_finish(&cap, &ring);
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(cap.data, 1, cap.len, f) != cap.len || fclose(f)) {
        fprintf(stderr, "kevscen: cannot write %s\n", out);
        return 1;
    }
    printf("generated %llu events\n", (unsigned long long)emitted);
    expect(sc, rounds, &so, &b);
    kcap_free(&cap);
    free(mem);
    return 0;
}
