// SPDX-License-Identifier: MIT
// tracelogger main loop. Active mode: it configures and starts tracing, saves buffers as the
// kernel announces them (KIRQ_TRACE pulses, with a 50 ms poll as a safety net), and stops
// after -n buffers, -s seconds, or when the kernel stops (fill policy). Passive mode (-d1):
// another program starts and stops tracing; the logger saves buffers until tracing has stopped
// and nothing is left. Either way it ends with a trailer and a report of every lost event.
// The flush interval (-x flush=MS, LTTng's live timer): every MS the logger asks the kernel to
// close each CPU's buffer that holds events (KTRACE_FLUSHBUFFER, the kernel's own path for
// it: no event costs more) and saves them, so an event reaches the stream at most MS (and the
// logger's wake-up) after it happened; an interval with nothing to save sends a HEARTBEAT
// frame instead (stream.c). Buffers the stream's host did not take are counted per CPU with
// the rest of the loss.
#include "tracelogger.h"
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/kev_file.h>
#include <board_user.h>     // BOARD_TRACELOGGER_CMDLINE_BYTES

#ifndef TRACELOGGER_DEFAULT_ARGS
#define TRACELOGGER_DEFAULT_ARGS "tracelogger -d1"
#endif

// The whole boot command line (every program's part) is read into this buffer: as much as
// appinit and the target's dtrace read (x86-pc's make dtrace carries the D text on it), less
// where a board's RAM slot has no room (netduinoplus2's 8 KB: board_user.h). A longer line is
// an error, never a run with the built-in options.
#ifndef BOARD_TRACELOGGER_CMDLINE_BYTES
#define BOARD_TRACELOGGER_CMDLINE_BYTES 2048
#endif

#define POLL_NS (50u * 1000000u)

// The lowest priority of the image's other programs (their app.mk PRIO), linked in as this
// symbol's address (user/module.mk); absent (0) in a program linked otherwise.
extern const char tl_image_low_prio[] __attribute__((weak));

// The logger's own priority (the thread table's entry for this thread), 0 when not found.
static unsigned own_prio(void)
{
    int pid = ProcSelf(), tid = ThreadSelf();
    uint32_t nthread = 0;
    SysInfo(KSYSINFO_NTHREAD, &nthread);
    for (unsigned slot = 0; slot < nthread; slot++) {
        struct kthread_info ti;
        if (ThreadInfo(slot, &ti) == 0 && ti.pid == pid && ti.tid == tid)
            return (unsigned)ti.priority;
    }
    return 0;
}

// The stream's send priority when -x sendprio is not given: one below every program of the
// image but the background ones (app.mk BACKGROUND), so that none of their threads waits for
// the sending (KPRIO_MIN at the least: then level with the lowest); 0 (the logger's own)
// when the image does not say, or when the logger's own is no higher (a board that starts it
// below the programs, BOARD_LOGGER_SPAWN_PRIO).
// A board whose ring is too small for it (BOARD_STREAM_BELOW 0, board_user.h) sends at the
// logger's own.
#ifndef BOARD_STREAM_BELOW
#define BOARD_STREAM_BELOW 1
#endif

static unsigned default_send_prio(unsigned own)
{
    if (!BOARD_STREAM_BELOW)
        return 0;
    unsigned low = (unsigned)(uintptr_t)tl_image_low_prio;
    unsigned prio = !low ? 0 : low > KPRIO_MIN ? low - 1u : KPRIO_MIN;
    return prio < own ? prio : 0;
}

static struct tl_opts opts;
static int main_chid;       // the logger's channel: the kernel's pulses, its own, the UART's
static uint32_t buffers_written, buffers_failed, last_seq, loss_points;
static bool have_seq;
static uint64_t events_written, events_failed, events_refused;
static uint32_t buffers_refused;
// Per CPU (a buffer is one CPU's: its CPU is in its slots' headers), for the trailer.
static uint64_t cpu_written[KTRACE_QUERY_CPUS];
static uint64_t cpu_failed[KTRACE_QUERY_CPUS];      // not stored, and not taken by the host

// A buffer's events (its BUFFER_END says) and times; DROPPED events and sequence gaps are
// loss points. Its time: the 64-bit TIME events give the high word, each slot the low one.
static void scan(const struct kev_slot *s, unsigned n, uint32_t seq, struct tl_buf *b)
{
    uint64_t hi = 0;
    uint32_t lo = 0;
    b->events = 0;
    b->t_first = 0;
    // (unrolled by 4: the loop runs once a slot, 7.3 instructions a slot rolled on a
    // Cortex-M3, 5.8 unrolled: scripts/program-insns.sh)
#pragma GCC unroll 4
    for (unsigned i = 0; i < n; i++) {
        if (kev_hdr_class(s[i].header) != KEV_C_CONTROL || kev_hdr_type(s[i].header) != KEV_TYPE_S)
            continue;
        switch (kev_hdr_event(s[i].header)) {
        case KEV_CTL_TIME:
            hi = (uint64_t)s[i].data[1] << 32;
            lo = s[i].data[2];
            if (!b->t_first)
                b->t_first = hi | lo;
            break;
        case KEV_CTL_BUFFER_END:
            b->events = s[i].data[2];
            break;
        case KEV_CTL_DROPPED:
            loss_points++;
            break;
        }
    }
    uint32_t end = n ? s[n - 1].data[0] : 0;   // BUFFER_END's time, after the last TIME
    b->t_last = (hi | end) + (end < lo ? 1ull << 32 : 0);
    b->seq = seq;
    b->cpu = n ? kev_hdr_cpu(s[0].header) % KTRACE_QUERY_CPUS : 0;
    if (have_seq && seq != last_seq + 1)
        loss_points++;
    have_seq = true;
    last_seq = seq;
}

// Buffers taken while the stream waited for the UART (tl_take_ahead), oldest first: the
// kernel's 70% pulse is answered even then, so the buffer is closed at its mark and the
// writers go on into the next one; drain sends them before it takes more.
#define AHEAD_MAX 8
static struct ktrace_buffer ahead[AHEAD_MAX];
static unsigned ahead_n;

static void save(const struct ktrace_buffer *b, unsigned drop_why);

// Every ready buffer taken ahead, up to AHEAD_MAX held. With stalled (the UART takes
// nothing), past that the oldest held is dropped whole for the stream's host (counted, in a
// LOSS frame before the next buffer sent), so that the kernel's ring keeps free buffers: the
// losses are the logger's, placed, not the kernel's.
void tl_take_ahead(bool stalled)
{
    // At most AHEAD_MAX held, and two of the kernel's buffers left to it besides the one
    // being sent (none held on a board of two: each one taken while stalled is dropped).
    const unsigned limit = opts.kbufs < AHEAD_MAX + 2 ? (opts.kbufs > 2 ? opts.kbufs - 2 : 0)
                                                        : AHEAD_MAX;
    struct ktrace_buffer b;
    while ((stalled || ahead_n < limit) &&
           TraceEvent(KTRACE_TAKEBUFFER, (uint32_t)(uintptr_t)&b, 0, 0) == 0) {
        if (!limit) {
            save(&b, stream_stall_reason());
            continue;
        }
        if (ahead_n == limit) {
            save(&ahead[0], stream_stall_reason());
            for (unsigned i = 1; i < ahead_n; i++)
                ahead[i - 1] = ahead[i];
            ahead_n--;
        }
        ahead[ahead_n++] = b;
    }
}

// The next buffer to save: one taken ahead, else one the kernel has ready.
static bool next_buffer(struct ktrace_buffer *b)
{
    if (ahead_n) {
        *b = ahead[0];
        for (unsigned i = 1; i < ahead_n; i++)
            ahead[i - 1] = ahead[i];
        ahead_n--;
        return true;
    }
    return TraceEvent(KTRACE_TAKEBUFFER, (uint32_t)(uintptr_t)b, 0, 0) == 0;
}

// Saves every buffer the kernel has ready. Returns how many.
// Saves one buffer, or drops it whole for why (a KS_LOSS_* reason, counted as the host's),
// and gives it back to the kernel.
static void save(const struct ktrace_buffer *b, unsigned drop_why)
{
    const struct kev_slot *s = (const struct kev_slot *)(uintptr_t)b->addr;
    struct tl_buf tb;
    scan(s, b->nslots, b->seq, &tb);
    int r = 1;
    if (drop_why)
        stream_drop(&tb, drop_why);
    else
        r = out_buffer(s, b->nslots, &tb);
    if (r == 0) {
        buffers_written++;
        events_written += tb.events;
        cpu_written[tb.cpu] += tb.events;
    } else if (r > 0) {
        buffers_refused++;
        events_refused += tb.events;
        cpu_failed[tb.cpu] += tb.events;
    } else {
        buffers_failed++;
        events_failed += tb.events;
        cpu_failed[tb.cpu] += tb.events;
    }
    if (opts.verbose)
        printf("tracelogger: buffer %lu (seq %lu): %lu slots, %s events%s\n",
               (unsigned long)b->index, (unsigned long)b->seq, (unsigned long)b->nslots,
               u64txt(tb.events).s, r > 0 ? ", not taken by the host" : "");
    TraceEvent(KTRACE_RELEASEBUFFER, b->index, 0, 0);
    if (opts.delay_ms)
        ThreadSleep((uint64_t)opts.delay_ms * 1000000u);
}

static unsigned drain(void)
{
    struct ktrace_buffer b;
    unsigned n = 0;
    for (; next_buffer(&b); n++)
        save(&b, 0);
    return n;
}

static int configure(void)
{
    if (opts.ring && TraceEvent(KTRACE_SETRINGMODE, 0, 0, 0) < 0)
        return -1;
    if (opts.policy >= 0 && TraceEvent(KTRACE_SETPOLICY, (uint32_t)opts.policy, 0, 0) < 0)
        return -1;
    // -w holds in passive mode too: the event sizes are the logger's choice, the classes and
    // the start the other program's.
    if (opts.wide && TraceEvent(KTRACE_SETALLCLASSESWIDE, 0, 0, 0) < 0)
        return -1;
    // -F: the classes the capture never records, passive or not (the program that starts a
    // passive capture adds every class: the kernel keeps these off all the same).
    if (opts.classes_off && TraceEvent(KTRACE_WITHHOLDCLASSES, opts.classes_off, 0, 0) < 0)
        return -1;
    if (opts.stack_hz && TraceEvent(KTRACE_STACKSAMPLE, opts.stack_hz, 0, 0) < 0) {
        printf("tracelogger: -p %u: the kernel refused the rate (errno %d; a board without a "
               "profile timer samples at its tick, at most 1000 a second)\n",
               (unsigned)opts.stack_hz, errno);
        return -1;
    }
    if (opts.passive)
        return 0;
    TraceEvent(KTRACE_ADDALLCLASSES, 0, 0, 0);
    TraceEvent(opts.wide ? KTRACE_SETALLCLASSESWIDE : KTRACE_SETALLCLASSESFAST, 0, 0, 0);
    return 0;
}

// Is tracing running, and has it ever run (a buffer was started) since we allocated?
static bool running(bool *has_run)
{
    struct ktrace_query q;
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0);
    *has_run = q.buffers != 0;
    return q.running != 0;
}

// The flush interval's work when it comes round: the kernel closes the buffers holding
// events and the logger saves them; with none, the stream hears the LOSS frames it is owed
// or else, while tracing runs, a heartbeat, so a reader hears from the board at least once an
// interval. (Once tracing stopped, a heartbeat would vouch for time the trace does not cover:
// a reader would count a running thread's CPU past the trace's last event.)
// The heartbeat's time is read before the flush: an event stamped before it is in a buffer
// the flush closes (and then there is no heartbeat); read after, an interrupt or another CPU
// could stamp one in between that the next buffer brings, behind the time the reader was told
// had passed. Returns the buffers saved.
static unsigned flush_tick(void)
{
    uint64_t t = ClockCycles();
    TraceEvent(KTRACE_FLUSHBUFFER, 0, 0, 0);
    unsigned got = drain();
    bool has_run;
    if (!got && !stream_catch_up() && running(&has_run))
        stream_heartbeat(t, opts.flush_ms, buffers_written);
    return got;
}

// The flush interval's next tick (ClockTime), 0: no flush interval.
static uint64_t flush_ns, next_flush;

// The next tick one interval on; after a late wake-up (a long buffer write), one interval
// from now rather than a burst of ticks catching up.
static void flush_next(void)
{
    next_flush += flush_ns;
    if (next_flush <= ClockTime())
        next_flush = ClockTime() + flush_ns;
}

uint64_t tl_flush_due(void)
{
    return flush_ns ? next_flush : 0;
}

// The flush interval came round while the stream waits for the UART: the buffers holding
// events are closed and taken ahead, as flush_tick would (the stream is busy: no heartbeat).
void tl_flush_ahead(void)
{
    if (!flush_ns || ClockTime() < next_flush)
        return;
    TraceEvent(KTRACE_FLUSHBUFFER, 0, 0, 0);
    tl_take_ahead(true);
    flush_next();
}

// The probe path's capture (-x probe): a reader outside the board takes the buffers; the
// logger is blocked until the capture ends, with no look in between: the kernel's pulse says
// tracing stopped (KTRACE_STOP by the program recording, passive; the fill policy) or, active
// with -n, that the buffer making -n started began (uapi/ktrace.h, KTRACE_PROBE); a timeout
// ends -s, or a passive wait for a start that never came (-x startwait). Each wake-up reads
// the capture's state once (KTRACE_PROBE_STATUS: not KTRACE_QUERYEVENTS, whose counts wait for
// every CPU's event in progress). 0, or -1 when tracing was never started (said).
static int capture_probe(void)
{
    const uint64_t t0 = ClockTime(), s = 1000000000u;
    bool seen_running = !opts.passive;
    for (;;) {
        int st = TraceEvent(KTRACE_PROBE, KTRACE_PROBE_STATUS, 0, 0);
        uint32_t buffers = st > 0 ? (uint32_t)st >> 1 : 0;
        bool on = st > 0 && (st & 1);
        uint64_t now = ClockTime();
        if (opts.seconds && now - t0 >= (uint64_t)opts.seconds * s)
            return 0;
        if (!opts.passive && opts.iterations && buffers >= opts.iterations)
            return 0;
        if (on || buffers)
            seen_running = true;
        if (!on && seen_running)
            return 0;
        if (!seen_running && now - t0 >= (uint64_t)opts.start_wait * s) {
            printf("tracelogger: passive (-d1) and tracing was not started within %u s; "
                   "giving up\n", opts.start_wait);
            return -1;
        }
        // The next deadline (none: only the kernel's pulse ends the wait).
        uint64_t due = opts.seconds ? t0 + (uint64_t)opts.seconds * s : 0;
        uint64_t start_due = t0 + (uint64_t)opts.start_wait * s;
        if (!seen_running && (!due || start_due < due))
            due = start_due;
        if (due)
            TimerTimeout(due - now);
        struct kpulse p;
        MsgReceive(main_chid, &p, sizeof(p), NULL);     // (a pulse or the timeout: look again)
    }
}

static int capture(void)
{
    uint64_t t0 = ClockTime();
    flush_ns = (uint64_t)opts.flush_ms * 1000000u;
    // The first tick at once: events recorded while the header went out (a UART that makes
    // the logger wait) are handed over now, not an interval later.
    next_flush = t0;
    bool seen_running = !opts.passive;
    for (;;) {
        struct kpulse p;
        uint64_t now = ClockTime(), wait = POLL_NS;
        if (flush_ns)
            wait = next_flush <= now ? 1 : next_flush - now < wait ? next_flush - now : wait;
        TimerTimeout(wait);
        if (MsgReceive(main_chid, &p, sizeof(p), NULL) == 0)
            stream_pulse(p.code);
        stream_poll();
        unsigned got = drain();
        if (flush_ns && ClockTime() >= next_flush) {
            got += flush_tick();
            flush_next();
        }
        if (opts.seconds && ClockTime() - t0 >= (uint64_t)opts.seconds * 1000000000u)
            break;
        if (!opts.passive && opts.iterations &&
            buffers_written + buffers_failed + buffers_refused >= opts.iterations)
            break;
        bool has_run;
        bool on = running(&has_run);
        // Passive: the other program may have started and stopped tracing while we slept.
        if (on || has_run)
            seen_running = true;
        if (!on && seen_running && !got)
            break;      // stopped (by the other program, or the fill policy) and drained
        // Passive and never started: the program meant to start tracing could not (EPERM
        // without KAPP_F_TRACE) or never tried. Say so rather than wait for ever.
        if (!seen_running && ClockTime() - t0 >= (uint64_t)opts.start_wait * 1000000000u) {
            printf("tracelogger: passive (-d1) and tracing was not started within %u s: the "
                   "program meant to start it failed (EPERM: it needs KAPP_F_TRACE) or never "
                   "tried; giving up\n", opts.start_wait);
            return -1;
        }
    }
    return 0;
}

// The capture set up on channel chid: the kernel's buffers, the control shared when passive,
// the buffer pulse, the output and the stream, the file's head, the probe block; then tracing
// started unless passive. 0, or -1 after saying why.
__attribute__((cold)) static int capture_start(int chid)
{
    int coid = ConnectAttach(0, chid);
    if (TraceEvent(KTRACE_ALLOCBUFFER, opts.kbufs, 0, 0) < 0) {
        printf("tracelogger: cannot allocate %u kernel buffers: %s\n", opts.kbufs,
               strerror(errno));
        return -1;
    }
    // Passive: the program being recorded starts and stops tracing, so the capture's control
    // is shared (uapi/ktrace.h); an active capture stays this logger's alone.
    if (opts.passive && TraceEvent(KTRACE_SHARECONTROL, 1, 0, 0) < 0) {
        printf("tracelogger: cannot share the capture's control: %s\n", strerror(errno));
        return -1;
    }
    if (InterruptAttachEvent(KIRQ_TRACE, coid, TL_PULSE_BUFFER) < 0 || configure() < 0) {
        printf("tracelogger: cannot set up tracing: %s\n", strerror(errno));
        return -1;
    }
    if (opts.probe == 1)
        opts.file = NULL;   // the reader writes the file; a header names none
    if (out_open(&opts) < 0)
        return -1;
    // The stream is sent below the programs (the buffers are still taken at the logger's own
    // priority, at the kernel's 70% pulse): said, so that a reader knows who waits for whom.
    unsigned own = own_prio();
    if (!opts.send_prio_set)
        opts.send_prio = default_send_prio(own);
    if (stream_send_below(chid, coid, opts.send_prio, own) < 0)
        return -1;
    if (stream_on() && opts.send_prio)
        printf("tracelogger: sending the stream at priority %u%s (-x sendprio=N|own)\n",
               opts.send_prio, opts.send_prio_set ? "" : ", below the image's programs");
    if (kev_write_head(&opts) < 0)
        return -1;
    if (opts.probe && probe_publish(&opts) < 0)
        return -1;
    // A live stream is flushed by default; a file alone, or a ring, only when asked.
    if (!opts.flush_set && stream_on() && !opts.ring && opts.policy != 2)
        opts.flush_ms = TL_FLUSH_MS;
    if (!opts.passive && TraceEvent(KTRACE_START, 0, 0, 0) < 0) {
        printf("tracelogger: cannot start tracing: %s\n", strerror(errno));
        return -1;
    }
    if (opts.verbose)
        printf("tracelogger: %u kernel buffers, %s mode, writing %s%s\n", opts.kbufs,
               opts.passive ? "passive" : "active", opts.file, opts.uart ? " and UART 1" : "");
    return 0;
}

// The end's report: what was written where, each stream's rate (-v), the kernel's own counts
// and what was lost (q: the kernel's at the stop; lost: every event lost in all). Cold, as
// main is to the compiler: run once, so sized small (inlining kern.h's u64txt at each of its
// calls would add 6 KB to the logger).
__attribute__((cold)) static void end_report(const struct ktrace_query *q, uint64_t lost,
                                              int probe_lost)
{
    if (opts.probe == 1)
        printf("tracelogger: the probe's reader took the buffers%s\n",
               probe_lost ? " (not to the end)" : "");
    else
        printf("tracelogger: %s events in %lu buffers written to %s (%s bytes)\n",
               u64txt(events_written).s, (unsigned long)buffers_written, out_where(&opts),
               u64txt(out_bytes()).s);
    // -v: the events per second of its own time each stream transport sustained (make bench).
    for (int r = 0; r < 2 && opts.verbose; r++) {
        uint64_t c = stream_sink_cycles(r), hz = ClockCyclesPerSec();
        if (!(r ? opts.rtt : opts.uart) || !c)
            continue;
        printf("tracelogger: %s carried %s events/s of the logger's time (%s cycles",
               r ? "RTT" : "UART 1", u64txt(events_written * hz / c).s, u64txt(c).s);
        uint64_t irqs, waits = r ? 0 : stream_uart_waits(&irqs);
        if (!r)
            printf(", waits for room %s, %s ended by its interrupt", u64txt(waits).s,
                   u64txt(irqs).s);
        printf(")\n");
    }
    // What the kernel itself counted, so the file can be checked against it.
    printf("tracelogger: the kernel generated %s events: recorded %s, dropped %s, overwritten %s\n",
           u64txt(q->generated).s, u64txt(q->recorded).s, u64txt(q->dropped).s,
           u64txt(q->overwritten).s);
    if (lost)
        printf("tracelogger: %s events lost in %lu buffers (dropped %s, overwritten %s, "
               "not stored %s)\n", u64txt(lost).s,
               (unsigned long)(loss_points + buffers_failed + buffers_refused),
               u64txt(q->dropped).s, u64txt(q->overwritten).s,
               u64txt(events_failed + events_refused).s);
    if (buffers_refused)
        printf("tracelogger: the stream's host did not take %lu buffers (%s events): "
               "dropped whole, in LOSS frames and the trailer\n",
               (unsigned long)buffers_refused, u64txt(events_refused).s);
    if (!lost)
        printf("tracelogger: no events lost\n");
}

int main(void)
{
    static char cmd[BOARD_TRACELOGGER_CMDLINE_BYTES];
    char *argv[33];
    int argc = tl_get_args(cmd, sizeof(cmd), argv, 32, TRACELOGGER_DEFAULT_ARGS);
    if (argc < 0) {
        // Short: a console line over 95 characters is cut on netduinoplus2.
        printf("tracelogger: boot command line over %u bytes: options not read, no capture\n",
               (unsigned)sizeof(cmd) - 2);
        return 2;
    }
    argv[argc] = NULL;     // getopt wants the C convention
    int r = tl_parse_args(argc, argv, &opts);
    if (r)
        return r == 1 ? 0 : 2;
    if (opts.cpu >= 0 && ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << opts.cpu)) < 0) {
        printf("tracelogger: cannot run on CPU %d: %s\n", opts.cpu, strerror(errno));
        return 2;
    }

    tl_incident(&opts);     // an earlier boot's incident record first (incident.c)
    int chid = ChannelCreate(0);
    if (capture_start(chid) < 0)
        return 1;
    main_chid = chid;
    int never_started = (opts.probe ? capture_probe() : capture()) < 0;

    TraceEvent(KTRACE_STOP, 0, 0, 0);
    uint64_t stop_time = ClockCycles();
    struct ktrace_query q;
    TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0);
    uint32_t trl_known = (opts.ring ? KEV_TRL_RING : 0u) |
                         (!q.running && opts.policy == 3 ? KEV_TRL_FILLED : 0u);
    int probe_lost = opts.probe && probe_finish(&opts, stop_time, trl_known) < 0;
    if (opts.probe)
        probe_report();     // (while the ring is there to ask)
    if (opts.probe != 1)
        drain();                // what the stop closed; ring mode: everything, oldest first
    uint64_t lost = q.dropped + q.overwritten + events_failed + events_refused;
    uint32_t flags = trl_known | (buffers_failed ? KEV_TRL_LOGGER_LOSS : 0u) |
                     (buffers_refused ? KEV_TRL_HOST_LOSS : 0u);
    // Per CPU: what was written, and what the kernel lost there plus what we failed to write
    // or the host did not take.
    unsigned ncpu = q.ncpus ? q.ncpus : 1;
    if (ncpu > KTRACE_QUERY_CPUS)
        ncpu = KTRACE_QUERY_CPUS;
    struct kev_cpu_totals tot[KTRACE_QUERY_CPUS];
    for (unsigned c = 0; c < ncpu; c++) {
        tot[c].events = cpu_written[c];
        tot[c].lost = q.cpu[c].dropped + q.cpu[c].overwritten + cpu_failed[c];
    }
    int werr = opts.probe == 1 ? 0 : kev_write_trailer(buffers_written, flags, tot, ncpu, lost,
                                                        (uint32_t)stop_time);
    if (out_close() < 0 || werr < 0)
        printf("tracelogger: writing %s failed\n", opts.file);
    TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);

    end_report(&q, lost, probe_lost);
    return buffers_failed || never_started || probe_lost ? 1 : 0;
}
