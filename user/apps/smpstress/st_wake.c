// SPDX-License-Identifier: MIT
// smpstress's wake-up test (test 10): sleeps on every CPU at once, the tick taken by whichever
// CPU sees a period end first (kernel/arch/aarch64/irq_timer.c), so that a sleeper's timer
// often expires on another CPU than its own, which must then be interrupted (IPI) out of its
// WFI to run it; and, on the same CPUs at the same time, pulse senders that sleep on every
// refusal of the pulse bound while a receiver on CPU 0 frees the slots (a sleep racing with
// the queue becoming free, docs/smp.md "Wake-ups across CPUs": a sleep there is late, never
// lost):
//   a. a thread bound to each CPU sleeps WAKE_ROUNDS times, lengths from 1 ns to two tick
//      periods (below a tick, a tick less a microsecond, a tick, a tick and a half...);
//   b. a thread bound to each of CPUs 1..n-1 sends WAKE_PULSES numbered pulses to a receiver
//      bound to CPU 0 and sleeps (a tick, or a third of one, in turn) whenever the kernel
//      refuses one (EAGAIN: this process's 16 queued pulses); the receiver sleeps half a tick
//      after every eighth pulse, so that the senders' bound fills and frees while they sleep;
//   c. then, alone, pulses back and forth between CPU 0 and the last CPU, each side idle in
//      WFI until the other's comes (st_ipi.c).
// Checked against the generic timer's counter, read from EL0 (st_sleep.c): no sleep ends
// before the time asked; under -icount none ends later than the bound (3 1/4 tick periods past
// the time asked, st_sleep.c says why) and every wake-up of c comes within a quarter period
// (the IPI's, not the CPU's next timer interrupt); every pulse arrives once, in its sender's
// order; and no thread stalls: main watches each thread's last progress on the same counter
// and reports the one that made none for STALL_TICKS ticks (a wake-up lost for good) with the
// kernel's view of every thread, instead of hanging (`hold`: it then spins, for a debugger on
// QEMU's gdbstub). Its own sleeps are the kernel's too: were those lost, QEMU's time limit ends
// the run. Both checks were seen to fail on a kernel made to lose them: no IPI sent
// (sched_kick_others), every 97th wake-up of a bound sleeper dropped (thread_timeout_fired).
#include "st_wake.h"
#include "st_sleep.h"
#include "st_ipi.h"
#include <kern.h>
#include <board_clock.h>
#include <errno.h>
#include <stdio.h>

#define WMAXCPU 4
// Each count divided by HOST_DIVISOR on the host's clock, where a loaded host makes a sleep of
// a tick last up to seconds (docs/smp.md, "Tests") and only early and lost wake-ups are checked.
#define WAKE_ROUNDS 100u
#define WAKE_PULSES 400u
#define HOST_DIVISOR 4u
#define WAKE_STACK 1024
#define WAKE_PRIO_SLEEPER 30
#define WAKE_PRIO_SENDER 40
#define WAKE_PRIO_RECEIVER 50
#define WAKE_PULSE_PRIO 10
#define WAKE_DONE 0x7000
// A thread that made no progress for this long stalled: far past any sleep's bound (2 ticks
// asked + 3 1/4), and on the host's clock past what a loaded host holds a virtual CPU back.
#define STALL_TICKS_VIRTUAL 100u
#define STALL_TICKS_HOST 30000u
#define NTHREADS (2 * WMAXCPU + 1)  // sleepers 0..3, senders WMAXCPU + c (c 1..3), receiver

static KSTACK(wstacks[NTHREADS], WAKE_STACK);
static int wchid, wcoid;
static uint32_t wncpu;
static struct sleep_stats wstats[NTHREADS];
static volatile uint64_t beat[NTHREADS];     // the counter at each thread's last progress
static volatile uint32_t finished[NTHREADS], wbad, wnotpulse, wgot[WMAXCPU];
static volatile int werr[WMAXCPU];      // a sender's MsgSendPulse failure other than EAGAIN
static uint32_t rounds, npulses;        // WAKE_ROUNDS and WAKE_PULSES for this run

static void progress(uint32_t slot)
{
    beat[slot] = board_cntvct();
}

static uint64_t length_of(uint32_t i)
{
    uint64_t p = sleep_tick_ns();
    const uint64_t len[] = { 1, p / 4, p / 2, p - 1000, p, p + p / 2, 2 * p, p / 3 };
    return len[i % (sizeof(len) / sizeof(len[0]))];
}

static int sleeper(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    for (uint32_t i = 0; i < rounds; i++) {
        timed_sleep(length_of(i + c), &wstats[c]);
        progress(c);
    }
    finished[c] = 1;
    return 0;
}

static int sender(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg, slot = WMAXCPU + c, refused = 0;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    for (uint32_t n = 1; n <= npulses; n++) {
        int r;      // the raw result: errno is the whole process's
        while ((r = (int)KCALL4(KC_MsgSendPulse, wcoid, WAKE_PULSE_PRIO, (int)c, (int)n)) ==
               -EAGAIN) {
            timed_sleep(++refused & 1u ? sleep_tick_ns() : sleep_tick_ns() / 3u, &wstats[slot]);
            progress(slot);
        }
        if (r != 0) {
            werr[c] = r;
            return 1;
        }
        progress(slot);
    }
    finished[slot] = 1;
    return 0;
}

static int receiver(void *arg)
{
    (void)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);
    for (uint32_t k = 1;; k++) {
        struct kpulse p = { 0 };
        int rcvid = MsgReceive(wchid, &p, sizeof(p), NULL);
        if (rcvid != 0) {
            wnotpulse++;
            if (rcvid > 0)
                MsgError(rcvid, 1);
            continue;
        }
        if (p.code == WAKE_DONE)
            break;
        uint32_t c = (uint32_t)p.code;
        if (c >= WMAXCPU || (uint32_t)p.value != wgot[c] + 1u)
            wbad++;
        else
            wgot[c] = (uint32_t)p.value;
        progress(NTHREADS - 1);
        if (k % 8u == 0) {
            timed_sleep(sleep_tick_ns() / 2u, &wstats[NTHREADS - 1]);
            progress(NTHREADS - 1);
        }
    }
    finished[NTHREADS - 1] = 1;
    return 0;
}

// Whether thread `slot` is part of this run (senders exist for CPUs 1..n-1 only).
static bool in_run(uint32_t slot)
{
    if (wake_no_pulses)
        return slot < wncpu;
    return slot < wncpu || (slot > WMAXCPU && slot < WMAXCPU + wncpu) || slot == NTHREADS - 1;
}

// Waits until the threads of the run in `mask` finished, or one stalled: the stalled one's
// slot, or -1. (main's own sleeps: a lost one of them is QEMU's timeout.)
static int watch(uint32_t mask, uint64_t stall)
{
    for (;;) {
        ThreadSleep(sleep_tick_ns());
        uint32_t left = 0;
        for (uint32_t s = 0; s < NTHREADS; s++) {
            if (!in_run(s) || !(mask >> s & 1u) || finished[s])
                continue;
            left++;
            uint64_t last = beat[s], now = board_cntvct();     // (in this order: now >= last)
            if (now - last > stall)
                return (int)s;
        }
        if (!left)
            return -1;
    }
}

// On a stall: every thread as the kernel sees it (state numbers: uapi/kstate.h; 12 NANOSLEEP,
// 2 READY, 1 RUNNING), and the CPU it runs on or last ran on.
static void dump_threads(void)
{
    uint32_t slots = 0;
    struct kthread_info ti;
    SysInfo(KSYSINFO_NTHREAD, &slots);
    for (uint32_t i = 0; i < slots; i++)
        if (ThreadInfo(i, &ti) == 0)
            printf("# wake:   thread %ld/%ld %s: state %ld, priority %ld, cpu %ld\n", (long)ti.pid,
                   (long)ti.tid, ti.name, (long)ti.state, (long)ti.priority, (long)ti.cpu);
}

static const char *role(int slot)
{
    return slot < WMAXCPU ? "sleeper" : slot < NTHREADS - 1 ? "pulse sender" : "receiver";
}

static uint32_t us_of(uint64_t cycles)
{
    return (uint32_t)(cycles * 1000000u / sleep_cycles_per_sec());
}

uint32_t wake_no_pulses, wake_hold_on_stall;
volatile uint32_t wake_spin;     // (a variant: the sleepers alone, smpstress's wake-sleepers)

// The run's threads, in their slots (tids[s]: -1 for a slot not in the run): the sleepers,
// the senders and the receiver. Returns how many were created; *wanted counts the run's.
static uint32_t start_threads(int *tids, uint32_t *wanted)
{
    uint32_t created = 0;
    for (uint32_t s = 0; s < NTHREADS; s++) {
        tids[s] = -1;
        if (!in_run(s))
            continue;
        (*wanted)++;
        if (s < WMAXCPU)
            tids[s] = ThreadCreate(sleeper, (void *)(uintptr_t)s, wstacks[s], sizeof(wstacks[0]),
                                   WAKE_PRIO_SLEEPER, 0);
        else if (s < NTHREADS - 1)
            tids[s] = ThreadCreate(sender, (void *)(uintptr_t)(s - WMAXCPU), wstacks[s],
                                   sizeof(wstacks[0]), WAKE_PRIO_SENDER, 0);
        else
            tids[s] = ThreadCreate(receiver, NULL, wstacks[s],
                                   sizeof(wstacks[0]), WAKE_PRIO_RECEIVER,
                                   0);
        created += tids[s] > 0;
    }
    return created;
}

// What one run of the test saw, for its report.
struct wake_run {
    uint64_t t0, t1, hz, tick;          // the counter at the start and the end, its rate; the tick
    uint32_t ticks, late;               // the kernel's ticks in the run, the periods late ones counted
    uint32_t created, wanted, joined, short_count;
    int stalled;                        // the slot that made no progress, or -1
    struct sleep_stats sleepers, senders, all;
    struct ipi_result ipi;
};

// The threads watched until they finish (a sleeper or sender that made no progress for stall
// cycles ends the run: r->stalled); then the receiver's end, queued after every sender's last
// pulse (one priority: FIFO), sent again while the bound refuses it; the threads joined, and
// part c run alone (every other CPU idle).
static void threads_finish(struct wake_run *r, const int *tids, uint64_t stall)
{
    r->stalled = watch((1u << (NTHREADS - 1)) - 1u, stall);
    if (r->stalled >= 0 && wake_hold_on_stall) {
        printf("# wake: stalled slot %d; holding for a debugger\n", r->stalled);
        for (;;)
            wake_spin++;
    }
    if (r->stalled < 0) {
        while (KCALL4(KC_MsgSendPulse, wcoid, WAKE_PULSE_PRIO, WAKE_DONE, 0) == -EAGAIN)
            ThreadSleep(r->tick);
        beat[NTHREADS - 1] = board_cntvct();
        r->stalled = watch(1u << (NTHREADS - 1), stall);
    }
    r->joined = 0;
    if (r->stalled < 0)         // (a stalled thread cannot be joined: the run ends with it)
        for (uint32_t s = 0; s < NTHREADS; s++)
            r->joined += tids[s] > 0 && ThreadJoin(tids[s], NULL) == 0;
    ConnectDetach(wcoid);
    if (r->stalled < 0) {
        ChannelDestroy(wchid);
        ipi_pingpong(wncpu, &r->ipi);   // c: alone, every other CPU idle
    }
}

// The threads' sleeps summed: the sleepers', the senders' (with the receiver's), both; and the
// senders whose pulses did not all arrive.
static void stats_sum(struct wake_run *r)
{
    r->short_count = 0;
    for (uint32_t c = 0; c < wncpu; c++) {
        sleep_stats_add(&r->sleepers, &wstats[c]);
        if (c > 0) {
            sleep_stats_add(&r->senders, &wstats[WMAXCPU + c]);
            r->short_count += wgot[c] != npulses;
        }
    }
    sleep_stats_add(&r->senders, &wstats[NTHREADS - 1]);   // (the receiver's with the senders')
    r->all = r->sleepers;
    sleep_stats_add(&r->all, &r->senders);
}

// The run's figures as comments: the sleeps, the pulses across CPUs, the tick against the
// counter (docs/timers.md: the kernel's ticks in the test and the periods the counter had, and
// the periods late ticks counted beyond their own), and what stalled or fell short.
static void figures_print(const struct wake_run *r, bool virtual_time)
{
    uint32_t ms = (uint32_t)((r->t1 - r->t0) * 1000u / r->hz);
    printf("# wake: %lu ms; sleepers on %lu CPUs: %lu sleeps, worst %lu us past the time asked; "
           "pulse senders and receiver: %lu sleeps, worst %lu us; bound %lu us (%s)\n",
           (unsigned long)ms, (unsigned long)wncpu, (unsigned long)r->sleepers.n,
           (unsigned long)us_of(r->sleepers.worst), (unsigned long)r->senders.n,
           (unsigned long)us_of(r->senders.worst), (unsigned long)us_of(sleep_bound_cycles()),
           virtual_time ? "checked: -icount" : "not checked: the host's clock");
    printf("# wake: %lu pulses between CPU 0 and CPU %lu, each woken in at most %lu us (bound "
           "%lu us, %s), %lu over it, %lu not the pulse sent\n", (unsigned long)r->ipi.legs,
           (unsigned long)(wncpu - 1), (unsigned long)us_of(r->ipi.worst),
           (unsigned long)us_of(r->ipi.bound), virtual_time ? "checked" : "not checked",
           (unsigned long)r->ipi.late, (unsigned long)r->ipi.bad);
    printf("# wake: the tick: %lu ticks in %lu periods of the counter; %lu periods counted by "
           "late ticks\n", (unsigned long)r->ticks,
           (unsigned long)((r->t1 - r->t0) * 1000000000u / r->hz / r->tick),
           (unsigned long)r->late);
    if (r->stalled >= 0)
        dump_threads();
    if (r->stalled >= 0)
        printf("# wake: the %s of slot %d made no progress for %lu ticks: never woken\n",
               role(r->stalled), r->stalled,
               (unsigned long)((virtual_time ? STALL_TICKS_VIRTUAL : STALL_TICKS_HOST)));
    if (r->short_count)
        printf("# wake: pulses received from CPUs 1..3: %lu %lu %lu of %lu; errors %d %d %d\n",
               (unsigned long)wgot[1], (unsigned long)wgot[2], (unsigned long)wgot[3],
               (unsigned long)npulses, werr[1], werr[2], werr[3]);
}

bool wake_test(uint32_t ncpu, unsigned testno, bool virtual_time)
{
    struct wake_run r = { 0 };
    wncpu = ncpu > WMAXCPU ? WMAXCPU : ncpu;
    rounds = virtual_time ? WAKE_ROUNDS : WAKE_ROUNDS / HOST_DIVISOR;
    npulses = virtual_time ? WAKE_PULSES : WAKE_PULSES / HOST_DIVISOR;
    sleep_clock_init();
    r.hz = sleep_cycles_per_sec();
    r.tick = sleep_tick_ns();
    uint64_t stall = (virtual_time ? STALL_TICKS_VIRTUAL : STALL_TICKS_HOST) * r.tick * r.hz /
                     1000000000u;
    wchid = ChannelCreate(0);
    wcoid = ConnectAttach(0, wchid);
    int tids[NTHREADS];
    uint32_t ticks0 = 0, late0 = 0, ticks1 = 0, late1 = 0;
    SysInfo(KSYSINFO_TICKS, &ticks0);
    SysInfo(KSYSINFO_TICKS_LATE, &late0);
    r.t0 = board_cntvct();
    for (uint32_t s = 0; s < NTHREADS; s++)
        beat[s] = r.t0;
    r.created = start_threads(tids, &r.wanted);
    threads_finish(&r, tids, stall);
    stats_sum(&r);
    r.t1 = board_cntvct();
    SysInfo(KSYSINFO_TICKS, &ticks1);
    SysInfo(KSYSINFO_TICKS_LATE, &late1);
    r.ticks = ticks1 - ticks0;
    r.late = late1 - late0;
    figures_print(&r, virtual_time);
    const struct sleep_stats *all = &r.all;
    bool ok = r.stalled < 0 && r.created == r.wanted && r.joined == r.wanted && !all->early &&
              (!virtual_time || !all->late) && r.ipi.legs == (r.stalled < 0 ? 200u : 0u) &&
              !r.ipi.bad && (!virtual_time || !r.ipi.late) && !wbad && !wnotpulse &&
              !r.short_count;
    printf("%s %u - sleeps on each of %lu CPUs and pulse senders sleeping on every refusal: "
           "%lu of %lu sleeps ended early, %lu past the bound, %lu threads stalled; %lu pulses "
           "each, %lu short, %lu bad, %lu not pulses; %lu of %lu wake-ups across CPUs slower "
           "than an IPI's bound\n", ok ? "ok" : "not ok", testno,
           (unsigned long)wncpu, (unsigned long)all->early, (unsigned long)all->n,
           (unsigned long)all->late, (unsigned long)(r.stalled >= 0), (unsigned long)npulses,
           (unsigned long)r.short_count, (unsigned long)wbad, (unsigned long)wnotpulse,
           (unsigned long)r.ipi.late, (unsigned long)r.ipi.legs);
    return ok;
}
