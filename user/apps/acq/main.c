// SPDX-License-Identifier: MIT
// acq: a small data-acquisition system, the kind of program the trace is for. Five threads of
// one process, fed by the board's device timer at 1 kHz (x86-pc's RTC: 1024 Hz):
//
//   thread       prio  does                                   shares
//   acq (main)    40   takes each device interrupt as a pulse,  -> MsgSend(sample) to filter
//                      reads a sample, acks, unmasks
//   filter        30   MsgReceive: moving average, min, max     mutex `stats`; a pulse to the
//                                                               logger every REPORT_EVERY samples
//   supervisor    35   every AUDIT_MS takes the semaphore       semaphore `report`
//                      `report` and audits the statistics      mutex `stats`
//   hog           20   a CPU-bound burst (HOG_BURST_US) on
//                      each of the logger's pulses
//   logger        10   on the filter's pulse: takes `report`,   semaphore `report`, mutex `stats`
//                      takes `stats`, wakes the hog, copies the statistics,
//                      formats a line (CPU work, FORMAT_US)
//
// The deliberate priority inversion, once a report: the logger (10) takes the semaphore
// `report` and wakes the hog (20), which preempts it and burns HOG_BURST_US; the supervisor's
// next audit (35, every AUDIT_MS) then waits on `report` for the rest of the hog's burst and
// the logger's formatting. A semaphore has no owner, so nothing inherits. The logger wakes the
// hog while it also holds the mutex `stats`: the filter's next sample blocks on it, and the
// logger inherits the filter's 30 until it unlocks (the kernel's mutexes inherit), which the
// hog's burst cannot delay. An inversion needs the three on one CPU (on several the hog would
// run beside the logger): the logger, the hog and the supervisor pin themselves to CPU 0, the
// program's choice (ThreadCtl KTCTL_RUNMASK); the filter runs on any CPU, and the acquisition
// thread, which programs and acknowledges the device timer, where the device binds it (a
// device of CPU 0's own on AArch64: docs/interrupts.md "Devices and CPUs"). The supervisor
// measures its waits, and the trace shows them (SYNC_WAIT, the THSEM state). The CPU work is
// a calibrated loop, not a clock-reading one, so that it costs no kernel calls and no trace
// events.
// The acquisition thread is above everything else, so the inversion never costs a sample: it
// counts the samples itself and holds them against the rate the device was programmed at.
// It runs RUN_MS of board time, then stops every thread and exits 0 when every thread ended
// well and the filter saw every sample. User events EV_START/EV_STOP mark the acquisition in
// the trace (test/qemu/test_acq.sh holds the interrupts between them against the rate).
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <board_user.h>

#define RATE_HZ        1000u
#define RUN_MS         500u
#define REPORT_EVERY   100u     // samples between two log lines
#define AUDIT_MS       5u
#define HOG_BURST_US   8000u
#define FORMAT_US      1500u    // the logger's CPU work while it holds `report`
#define CODE_IRQ       5
#define CODE_REPORT    6
#define CODE_STOP      7
#define CODE_BURST     8
#define EV_SAMPLES     300      // user event: a = samples so far, b = filtered value
#define EV_INVERSION   301      // user event: a = the supervisor's wait in us
#define EV_START       210      // user event: a = the rate programmed (Hz), b = the line
#define EV_STOP        211      // user event: a = the samples taken

struct sample {
    uint32_t seq;               // 1.. ; 0 asks the filter to stop
    int32_t value;
};

struct stats {
    uint32_t n;
    int32_t mean, min, max;
};

static struct stats stats;      // under the mutex stats_mx
static int stats_mx;
static int report_sem;          // binary: whoever reports or audits holds it
static int filter_chid, logger_chid;
static int to_logger, to_hog, hog_chid;
static uint32_t loops_per_ms;   // of spin_us's loop, measured at start
static volatile int stopping;
static uint32_t reports, audits, inv_waits, inv_max_us;
static uint64_t cps;

static KSTACK(filter_stack, 1536);
static KSTACK(logger_stack, 2048);
static KSTACK(super_stack, 1024);
static KSTACK(hog_stack, 768);

static uint32_t us_since(uint64_t t0)
{
    return (uint32_t)((ClockCycles() - t0) * 1000000u / cps);
}

// Busy for about us microseconds (the CPU work the scheduler must share), no kernel call.
static void spin_us(uint32_t us)
{
    uint32_t n = (uint32_t)((uint64_t)loops_per_ms * us / 1000u);
    for (volatile uint32_t i = 0; i < n && !stopping; i++)
        ;
}

static void spin_calibrate(void)
{
    const uint32_t n = 20000;
    uint64_t t0 = ClockCycles();
    for (volatile uint32_t i = 0; i < n; i++)
        ;
    uint64_t dt = ClockCycles() - t0;
    loops_per_ms = (uint32_t)((uint64_t)n * cps / 1000u / (dt ? dt : 1));
}

// The inversion's three threads keep to CPU 0 (above; on a one-CPU board a no-op).
static void on_cpu0(void)
{
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);
}

// The filter server: an 8-sample moving average, min and max, under the mutex.
static int filter(void *arg)
{
    (void)arg;
    int32_t win[8] = { 0 };
    int32_t sum = 0;
    for (;;) {
        union {
            struct sample s;
            struct kpulse p;
        } u;
        int rcvid = MsgReceive(filter_chid, &u, sizeof(u), NULL);
        if (rcvid <= 0)
            continue;
        struct sample s = u.s;
        MsgReply(rcvid, 0, NULL, 0);
        if (s.seq == 0)
            return 0;
        sum += s.value - win[s.seq % 8];
        win[s.seq % 8] = s.value;
        int32_t avg = sum / 8;
        MutexLock(stats_mx);
        if (s.seq == 8 || (s.seq > 8 && avg < stats.min))   // once the window is full
            stats.min = avg;
        if (s.seq == 8 || (s.seq > 8 && avg > stats.max))
            stats.max = avg;
        stats.mean = avg;
        stats.n = s.seq;
        MutexUnlock(stats_mx);
        if (s.seq % REPORT_EVERY == 0) {
            TraceEvent(KTRACE_INSERTSUSEREVENT, EV_SAMPLES, s.seq, (uint32_t)avg);
            MsgSendPulse(to_logger, 10, CODE_REPORT, (int)s.seq);
        }
    }
}

// A thread's stop pulse must reach it, or the joins below wait for ever: a receiver that fell
// behind (its queue of pulses full: EAGAIN, as under every-function fbt on a host-paced clock)
// takes it once it has caught up.
static void send_stop(int coid)
{
    while (MsgSendPulse(coid, 10, CODE_STOP, 0) != 0 && errno == EAGAIN)
        ThreadSleep(1000000ull);
}

// The logger's and the hog's wait for work: the next pulse on chid, 0 once it is CODE_STOP (or
// the receive failed: the thread ends either way).
static int next_work(int chid)
{
    struct kpulse p;
    return MsgReceive(chid, &p, sizeof(p), NULL) == 0 && p.code != CODE_STOP;
}

// The logger: a line per report, formatted while holding `report` (the low-priority holder).
static int logger(void *arg)
{
    (void)arg;
    on_cpu0();
    while (next_work(logger_chid)) {
        SemWait(report_sem);
        // The hog (at the pulse's 20) preempts us while we hold `stats` too: the filter's next
        // sample then blocks on the mutex, we inherit its 30, copy and unlock (the inversion a
        // mutex's owner repairs, beside the semaphore's, which nothing repairs).
        MutexLock(stats_mx);
        MsgSendPulse(to_hog, 20, CODE_BURST, 0);
        struct stats s = stats;
        MutexUnlock(stats_mx);
        spin_us(FORMAT_US);
        printf("acq: logger: %lu samples, filtered %ld (min %ld, max %ld)\n",
               (unsigned long)s.n, (long)s.mean, (long)s.min, (long)s.max);
        reports++;
        SemPost(report_sem);
    }
    return 0;
}

// The supervisor: audits the statistics every AUDIT_MS under `report`, timing its wait.
static int supervisor(void *arg)
{
    (void)arg;
    on_cpu0();
    while (!stopping) {
        ThreadSleep(AUDIT_MS * 1000000ull);
        uint64_t t0 = ClockCycles();
        SemWait(report_sem);
        uint32_t w = us_since(t0);
        if (w > 100u) {
            inv_waits++;
            TraceEvent(KTRACE_INSERTSUSEREVENT, EV_INVERSION, w, 0);
        }
        if (w > inv_max_us)
            inv_max_us = w;
        MutexLock(stats_mx);
        if (stats.n >= 8 && (stats.mean < stats.min || stats.mean > stats.max))
            printf("acq: supervisor: statistics inconsistent\n");
        MutexUnlock(stats_mx);
        audits++;
        SemPost(report_sem);
    }
    return 0;
}

// The hog: a CPU-bound burst on each pulse, between the logger and the supervisor.
static int hog(void *arg)
{
    (void)arg;
    on_cpu0();
    while (next_work(hog_chid))
        spin_us(HOG_BURST_US);
    return 0;
}

// A stand-in for the converter: a triangle wave with a little noise from the clock.
static int32_t read_adc(uint32_t seq)
{
    int32_t tri = (int32_t)(seq % 200u);
    return 400 + (tri < 100 ? tri : 200 - tri) + (int32_t)(ClockCycles() & 7u);
}

// The acquisition until `end`: each device interrupt's pulse on irq_chid (interrupt `id`) gives
// a sample, sent to the filter. Returns how many; *late counts a wait of 100 ms with none.
static uint32_t acquire(int irq_chid, int id, int to_filter, uint64_t end, uint32_t *late)
{
    uint32_t n = 0;
    while (ClockCycles() < end) {
        struct kpulse p;
        TimerTimeout(100 * 1000000ull);
        if (MsgReceive(irq_chid, &p, sizeof(p), NULL) != 0) {
            (*late)++;              // no interrupt for 100 ms
            break;
        }
        if (p.code != CODE_IRQ)
            continue;
        n++;
        struct sample s = { n, read_adc(n) };
        devtimer_ack();
        InterruptUnmask(DEVTIMER_IRQ, id);
        MsgSend(to_filter, &s, sizeof(s), NULL, 0);
    }
    return n;
}

// The run's channels, connections and threads, as parts_make makes them.
struct parts {
    int irq_chid, to_filter, id;
    int tids[4];                // filter, logger, supervisor, hog
};

// The channels, the threads (filter 30, logger 10, supervisor 35, hog 20), the lock and the
// semaphore they share, and the device's interrupt attached: 0, or -1 when one failed.
static int parts_make(struct parts *s)
{
    filter_chid = ChannelCreate(0);
    logger_chid = ChannelCreate(0);
    hog_chid = ChannelCreate(0);
    to_hog = ConnectAttach(0, hog_chid);
    spin_calibrate();
    s->irq_chid = ChannelCreate(0);
    s->to_filter = ConnectAttach(0, filter_chid);
    to_logger = ConnectAttach(0, logger_chid);
    int self = ConnectAttach(0, s->irq_chid);
    stats_mx = MutexCreate();
    report_sem = SemCreate(1);
    int tf = s->tids[0] = ThreadCreate(filter, NULL, filter_stack, sizeof(filter_stack), 30, 0);
    int tl = s->tids[1] = ThreadCreate(logger, NULL, logger_stack, sizeof(logger_stack), 10, 0);
    int ts = s->tids[2] = ThreadCreate(supervisor, NULL, super_stack, sizeof(super_stack), 35, 0);
    int th = s->tids[3] = ThreadCreate(hog, NULL, hog_stack, sizeof(hog_stack), 20, 0);
    s->id = InterruptAttachEvent(DEVTIMER_IRQ, self, CODE_IRQ);
    if (filter_chid < 0 || logger_chid < 0 || hog_chid < 0 || to_hog < 0 || s->irq_chid < 0 ||
        s->to_filter < 0 || to_logger < 0 || self < 0 || stats_mx < 0 || report_sem < 0 ||
        tf < 0 || tl < 0 || ts < 0 || th < 0 || s->id < 0)
        return -1;
    ThreadName(tf, "filter");
    ThreadName(tl, "logger");
    ThreadName(ts, "supervisor");
    ThreadName(th, "hog");
    return 0;
}

// What a run measured: the device's rate (0: unknown), the samples, the run's length, the
// waits of 100 ms without one, and the CPUs with the kernel's count of the entries that ran
// exclusive and the calls that ran shared meanwhile.
struct run {
    uint32_t hz, n, ms, late, ncpu, excl, shared;
};

// The acquisition for RUN_MS, between the trace's START and STOP events; its figures into r.
// On several CPUs, how much of the run's kernel work ran alone (the other CPUs waiting) and
// how much beside them: the kernel's own counts (SysInfo), read around the acquisition.
static void acquire_run(const struct parts *s, struct run *r)
{
    uint32_t excl[2] = { 0, 0 }, shared[2] = { 0, 0 };
    r->ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &r->ncpu);
    SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE, &excl[0]);
    SysInfo(KSYSINFO_KCALLS_SHARED, &shared[0]);
    uint64_t t0 = ClockCycles();
    uint64_t end = t0 + cps * RUN_MS / 1000u;
    r->hz = devtimer_start_hz(RATE_HZ);
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_START, r->hz, DEVTIMER_IRQ);
    r->late = 0;
    r->n = acquire(s->irq_chid, s->id, s->to_filter, end, &r->late);
    devtimer_stop();
    TraceEvent(KTRACE_INSERTSUSEREVENT, EV_STOP, r->n, 0);
    r->ms = us_since(t0) / 1000u;
    SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE, &excl[1]);
    SysInfo(KSYSINFO_KCALLS_SHARED, &shared[1]);
    r->excl = excl[1] - excl[0];
    r->shared = shared[1] - shared[0];
    InterruptDetach(s->id);
}

// The threads told to stop and joined: 0 when each ended with status 0.
static int parts_stop(const struct parts *s)
{
    stopping = 1;
    struct sample stop = { 0, 0 };
    MsgSend(s->to_filter, &stop, sizeof(stop), NULL, 0);
    send_stop(to_logger);
    send_stop(to_hog);
    int st[4] = { 1, 1, 1, 1 };
    for (int i = 0; i < 4; i++)
        ThreadJoin(s->tids[i], &st[i]);
    return st[0] == 0 && st[1] == 0 && st[2] == 0 && st[3] == 0 ? 0 : -1;
}

// The run's figures: the samples against the programmed rate (what the device should have
// given in the run's ms), each thread's work, the inversion's waits and, on several CPUs,
// the kernel's exclusive and shared work.
static void report(const struct run *r)
{
    uint32_t want = r->hz * r->ms / 1000u;
    if (r->hz)
        printf("acq: %lu samples in %lu ms, device programmed at %lu Hz (%lu expected)\n",
               (unsigned long)r->n, (unsigned long)r->ms, (unsigned long)r->hz,
               (unsigned long)want);
    else
        printf("acq: %lu samples in %lu ms, the device's rate unknown on this board "
               "(docs/interrupts.md)\n", (unsigned long)r->n, (unsigned long)r->ms);
    printf("acq: filter: %lu samples, logger: %lu reports, supervisor: %lu audits\n",
           (unsigned long)stats.n, (unsigned long)reports, (unsigned long)audits);
    printf("acq: inversion: the supervisor (35) waited %lu times on the semaphore the logger "
           "(10) held while the hog (20) ran, longest %lu us\n",
           (unsigned long)inv_waits, (unsigned long)inv_max_us);
    if (r->ncpu > 1)
        printf("acq: on %lu CPUs, in the %lu ms: %lu kernel entries ran exclusive (the other "
               "CPUs kept out), %lu kernel calls shared (docs/smp.md)\n",
               (unsigned long)r->ncpu, (unsigned long)r->ms, (unsigned long)r->excl,
               (unsigned long)r->shared);
    // Missed samples are reported, not failed on: without -icount, QEMU's clock runs on while
    // the host is busy (semihosting writes of the capture), and the device's periods pass
    // unseen (x86-pc's RTC model also merges a late period now and then). The test runs it
    // under -icount, where every period counts.
    if (r->hz && r->n + 2 < want)
        printf("acq: %lu samples fewer than the rate gives\n", (unsigned long)(want - r->n));
}

int main(void)
{
    struct parts s;
    struct run r;
    cps = ClockCyclesPerSec();
    if (parts_make(&s) < 0) {
        printf("acq: set-up failed\n");
        return 1;
    }
    acquire_run(&s, &r);
    int joined = parts_stop(&s);
    report(&r);
    int ok = joined == 0 && stats.n == r.n && !r.late && r.n > 0;
    printf("acq: done, %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
