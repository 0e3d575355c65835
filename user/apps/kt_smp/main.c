// SPDX-License-Identifier: MIT
// kt_smp: what the kernel promises on several CPUs (docs/smp.md), seen from a program. ktest
// spawns it (arg 0) and checks its exit status (its failure count); its "# kt_smp:" lines say
// which check failed. On one CPU it says so and checks nothing. Checks:
//   - the highest-priority ready threads run at once, one per CPU, and the others wait;
//   - messages between threads on different CPUs;
//   - priority inheritance through a mutex whose owner runs on another CPU;
//   - a process faulting while threads run on the other CPUs: reported, the rest runs on;
//   - a process killed while its thread runs on another CPU (kt_fault 10 spins until killed);
//   - ThreadCtl(KTCTL_RUNMASK): a thread moves to each CPU it is bound to, at once, and stays
//     there; the mask reads back; a mask of no running CPU is refused; a message round trip
//     between a client and a server bound to two different CPUs;
//   - the trace ring taken back and allocated again while this process, its owner, has
//     threads entering the kernel, traced, on the other CPUs (check_ring_tables);
//   - a thread of the ring's owner reading the ring at EL0 on another CPU, without kernel
//     calls, once the ring is freed and its memory is another process's ring: it faults,
//     never reads the new owner's events (check_freed_ring, kt_fault 13 the owner);
//   - AArch64: the register the kernel names a thread's own user-event ring in (TPIDRRO_EL0,
//     kernel/kuring.c): read here by the instruction itself, it is the address this thread
//     registered, on every CPU the thread moves to, and nobody else's; 0 again once forgotten.
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev.h>
#include "../kt_fault/ring_spy.h"

#define MAIN_PRIO 100
#define MAXT 5
#define STACK 2048

static int failures;
static KSTACK(stacks[MAXT], STACK);
static volatile bool stop;
static volatile uint32_t spins[MAXT];

static void check(bool ok, const char *fmt, const char *what, long a, long b)
{
    printf("# kt_smp: %s ", ok ? "ok" : "FAILED");
    printf(fmt, what, a, b);
    printf("\n");
    failures += !ok;
}

// Threads of this process by tid: state, priority, CPU.
static bool info_of(int tid, struct kthread_info *out)
{
    uint32_t n = 0;
    SysInfo(KSYSINFO_NTHREAD, &n);
    for (uint32_t i = 0; i < n; i++)
        if (ThreadInfo(i, out) == 0 && out->pid == ProcSelf() && out->tid == tid)
            return true;
    return false;
}

static int spinner(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    while (!stop)
        spins[i]++;
    return 0;
}

static int start_spinners(unsigned n, int *tids, int prio0, int step)
{
    stop = false;
    for (unsigned i = 0; i < n; i++) {
        spins[i] = 0;
        tids[i] = ThreadCreate(spinner, (void *)(uintptr_t)i, stacks[i],
                               sizeof(stacks[0]), prio0 + step * (int)i, 0);
        if (tids[i] < 0)
            return -1;
    }
    return 0;
}

static void stop_spinners(unsigned n, const int *tids)
{
    stop = true;
    for (unsigned i = 0; i < n; i++)
        if (tids[i] > 0)
            ThreadJoin(tids[i], NULL);
}

// ncpu spinners at priorities 10, 20, ...: while main (100) looks, the ncpu-1 highest run,
// each on a CPU of its own and none on main's, and the lowest waits READY.
static void check_priorities(unsigned ncpu)
{
    int tids[MAXT];
    unsigned n = ncpu;
    if (start_spinners(n, tids, 10, 10) < 0) {
        check(false, "%s: cannot create threads (%ld %ld)", "priorities", 0, 0);
        return;
    }
    ThreadSleep(20000000);
    struct kthread_info me, ti;
    info_of(ThreadSelf(), &me);
    unsigned running = 0, cpus = 0, ncpus_seen = 0, on_mine = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!info_of(tids[i], &ti))
            continue;
        bool expect_run = i >= 1;              // all but the lowest
        if (ti.state == THS_RUNNING) {
            running++;
            ncpus_seen += !(cpus & (1u << ti.cpu));
            cpus |= 1u << ti.cpu;
            on_mine += ti.cpu == me.cpu;
        }
        if (expect_run != (ti.state == THS_RUNNING))
            check(false, "%s: spinner %ld in the wrong state (%ld)", "priorities", (long)i, ti.state);
    }
    check(running == n - 1 && ncpus_seen == n - 1 && !on_mine,
          "%s: the %ld highest ready threads run at once on distinct CPUs (%ld running)",
          "priorities", (long)(n - 1), (long)running);
    // While main stays on its CPU (busy, not sleeping), the lowest does not run.
    uint32_t top0 = spins[n - 1], low0 = spins[0];
    for (uint64_t t0 = ClockTime(); ClockTime() - t0 < 5000000u;)
        ;
    check(spins[n - 1] != top0 && spins[0] == low0,
          "%s: the top spinner ran on (%ld) and the lowest waited (%ld)", "priorities",
          (long)(spins[n - 1] - top0), (long)(spins[0] - low0));
    stop_spinners(n, tids);
}

// A server thread on one CPU, clients on the others.
static int chid;
static int server(void *arg)
{
    (void)arg;
    for (;;) {
        union {
            uint32_t v;
            struct kpulse p;    // a receive buffer must be able to hold a pulse
        } u;
        int rcvid = MsgReceive(chid, &u, sizeof(u), NULL);
        if (rcvid <= 0)
            return 0;
        uint32_t v = u.v * 2 + 1;
        MsgReply(rcvid, 0, &v, sizeof(v));
        if (v == 1)     // asked 0: the end
            return 0;
    }
}

static volatile unsigned client_ok[MAXT];
static int client(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    int coid = ConnectAttach(0, chid);
    for (uint32_t k = 1; k <= 200; k++) {
        uint32_t in = k + 1000 * i, out = 0;
        if (MsgSend(coid, &in, sizeof(in), &out, sizeof(out)) == 0 && out == in * 2 + 1)
            client_ok[i]++;
    }
    ConnectDetach(coid);
    return 0;
}

static void check_ipc(unsigned ncpu)
{
    chid = ChannelCreate(0);
    int st = ThreadCreate(server, NULL, stacks[0], sizeof(stacks[0]), 50, 0);
    int ct[MAXT];
    unsigned nc = ncpu - 1 < MAXT - 1 ? ncpu - 1 : MAXT - 1;
    for (unsigned i = 0; i < nc; i++) {
        client_ok[i] = 0;
        ct[i] = ThreadCreate(client, (void *)(uintptr_t)i, stacks[1 + i], sizeof(stacks[0]), 40, 0);
    }
    unsigned ok = 0;
    for (unsigned i = 0; i < nc; i++) {
        ThreadJoin(ct[i], NULL);
        ok += client_ok[i];
    }
    int coid = ConnectAttach(0, chid);
    uint32_t zero = 0, out;
    MsgSend(coid, &zero, sizeof(zero), &out, sizeof(out));
    ThreadJoin(st, NULL);
    ConnectDetach(coid);
    ChannelDestroy(chid);
    check(ok == 200 * nc, "%s: %ld of %ld messages from clients on other CPUs answered right",
          "ipc", (long)ok, (long)(200 * nc));
}

// Priority inheritance across CPUs: L (priority 20) takes the mutex and spins on one CPU; H
// (priority 60) blocks on it from another; L runs at 60 until it lets go.
static int mtx;
static volatile bool l_has, l_release;
static int low(void *arg)
{
    (void)arg;
    MutexLock(mtx);
    l_has = true;
    while (!l_release)
        spins[0]++;
    MutexUnlock(mtx);
    return 0;
}
static int high(void *arg)
{
    (void)arg;
    MutexLock(mtx);
    MutexUnlock(mtx);
    return 0;
}

static void check_inheritance(void)
{
    struct kthread_info li;
    l_has = l_release = false;
    mtx = MutexCreate();
    int lt = ThreadCreate(low, NULL, stacks[0], sizeof(stacks[0]), 20, 0);
    while (!l_has)
        ThreadSleep(1000000);
    int ht = ThreadCreate(high, NULL, stacks[1], sizeof(stacks[0]), 60, 0);
    ThreadSleep(5000000);
    bool got = info_of(lt, &li);
    check(got && li.priority == 60 && li.state == THS_RUNNING,
          "%s: the owner runs at its waiter's priority while it waits (priority %ld, state %ld)",
          "inheritance", li.priority, li.state);
    l_release = true;
    ThreadJoin(ht, NULL);
    ThreadJoin(lt, NULL);
    MutexDestroy(mtx);
    check(true, "%s: both ended (%ld %ld)", "inheritance", 0, 0);
}

// A process that faults while spinners hold the other CPUs, and one killed while it runs.
static void check_fault_and_kill(unsigned ncpu)
{
    int tids[MAXT], st = -1;
    unsigned n = ncpu - 1;
    start_spinners(n, tids, 30, 0);
    int pid = ProcSpawn("kt_fault", 90, 1);   // writes kernel memory at once
    int w = ProcWait(pid, &st);
    check(pid > 0 && w == pid && KW_SIGNALED(st),
          "%s: a process faulting on another CPU is reported (status %#lx, pid %ld)", "fault",
          (long)st, (long)pid);
    uint32_t s0 = spins[0];
    ThreadSleep(3000000);
    check(spins[0] != s0, "%s: the spinners ran on (%ld) %ld", "fault", (long)(spins[0] - s0), 0);
    stop_spinners(n, tids);

    pid = ProcSpawn("kt_fault", 50, 10);      // spins until killed
    ThreadSleep(10000000);
    struct kthread_info ti;
    bool running = false;
    uint32_t nth = 0;
    SysInfo(KSYSINFO_NTHREAD, &nth);
    for (uint32_t i = 0; i < nth; i++)
        if (ThreadInfo(i, &ti) == 0 && ti.pid == pid && ti.state == THS_RUNNING)
            running = true;
    int k = ProcKill(pid);
    w = ProcWait(pid, &st);
    check(running && k == 0 && w == pid && KW_SIGNALED(st) && KW_TERMSIG(st) == KSIG_KILL,
          "%s: a process running on another CPU is killed (status %#lx, was running %ld)", "kill",
          (long)st, (long)running);
}

// The CPU the calling thread runs on now.
static int my_cpu(void)
{
    struct kthread_info me;
    return info_of(ThreadSelf(), &me) ? me.cpu : -1;
}

static int pinned_server(void *arg)
{
    ThreadCtl(KTCTL_RUNMASK, arg);
    return server(NULL);
}

static void check_runmask(unsigned ncpu)
{
    unsigned moved = 0;
    for (unsigned c = 0; c < ncpu; c++) {
        if (ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c)) != 0)
            break;
        int first = my_cpu();
        ThreadSleep(2000000);           // off the CPU and back: still on CPU c
        for (uint64_t t0 = ClockTime(); ClockTime() - t0 < 1000000u;)
            ;
        moved += first == (int)c && my_cpu() == (int)c;
    }
    check(moved == ncpu, "%s: bound to each of %ld CPUs in turn, ran there %ld times", "runmask",
          (long)ncpu, (long)moved);
    uint32_t m = 0;
    int r = ThreadCtl(KTCTL_RUNMASK_GET_AND_SET, &m);
    check(r == 0 && m == 1u << (ncpu - 1), "%s: the mask reads back (%#lx, result %ld)", "runmask",
          (long)m, r);
    errno = 0;
    r = ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << ncpu));    // no such CPU
    check(r == -1 && errno == EINVAL && my_cpu() == (int)ncpu - 1,
          "%s: a mask of no running CPU is refused (errno %ld), the thread stays (%ld)", "runmask",
          (long)errno, (long)my_cpu());
    errno = 0;
    r = ThreadCtl(99, NULL);
    check(r == -1 && errno == EINVAL, "%s: an unknown command is refused (errno %ld) %ld",
          "runmask", (long)errno, 0);

    // A client on CPU 0 and a server on CPU 1: every round trip crosses CPUs.
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)1u);
    chid = ChannelCreate(0);
    int st = ThreadCreate(pinned_server, (void *)(uintptr_t)2u, stacks[0],
                          sizeof(stacks[0]), 50, 0);
    int coid = ConnectAttach(0, chid);
    unsigned ok = 0, where = 0;
    struct kthread_info si;
    for (uint32_t k = 1; k <= 100; k++) {
        uint32_t out = 0;
        if (MsgSend(coid, &k, sizeof(k), &out, sizeof(out)) == 0 && out == k * 2 + 1)
            ok++;
        where += my_cpu() == 0 && info_of(st, &si) && si.cpu == 1;
    }
    uint32_t zero = 0, out;
    MsgSend(coid, &zero, sizeof(zero), &out, sizeof(out));
    ThreadJoin(st, NULL);
    ConnectDetach(coid);
    ChannelDestroy(chid);
    check(ok == 100 && where == 100,
          "%s: 100 round trips between CPU 0 and CPU 1: %ld answered, %ld with each on its CPU",
          "runmask", (long)ok, (long)where);
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)((1u << ncpu) - 1u));
}

// The trace ring is mapped read-only into its owner; on AArch64 that holds for the kernel too,
// which writes it, so an entry from the owner's threads must not stay on their translation
// table (kernel/arch/aarch64/mmu.c, "The kernel on a user table"), even on a CPU whose table
// was opened while an earlier ring was mapped: freed, its memory is the next ring's. Workers
// bound to the other CPUs make kernel calls without end (each an entry, traced while the ring
// runs). Each round main allocates a ring and starts it, lets the workers call for a while on
// the tables they have (opened in the round before, with the ring then mapped, at the same
// address), then has each sleep once (off its CPU and back: its table opened again, with this
// ring), lets them call again, stops the ring and frees it. A kernel on the wrong table faults
// (a panic). The truth: each round's ring records events, and every worker's calls go on.
#define RING_ROUNDS 6
static volatile uint32_t ring_calls[MAXT], ring_phase;

static int ring_worker(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    uint32_t seen = 0;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << (i + 1)));
    while (!stop) {
        ThreadSelf();
        ring_calls[i]++;
        if (seen != ring_phase) {
            seen = ring_phase;
            ThreadSleep(100000);
        }
    }
    return 0;
}

// Whether every worker made calls since c0 (and takes a new snapshot).
static bool ring_workers_ran(unsigned n, uint32_t *c0)
{
    unsigned moved = 0;
    for (unsigned i = 0; i < n; i++) {
        moved += ring_calls[i] != c0[i];
        c0[i] = ring_calls[i];
    }
    return moved == n;
}

// Lets the workers call for 2 ms, then waits up to 200 ms more for every one of them to have
// made a call since c0 (taking a new snapshot). A fixed 2 ms window failed about once in a few
// runs under host load: with -icount shift=auto a busy CPU's turn can come later than that.
// A worker whose calls stopped (a kernel stuck on the wrong table) still fails it.
static bool ring_workers_went_on(unsigned n, uint32_t *c0)
{
    ThreadSleep(2000000);
    for (unsigned ms = 0; ms < 200; ms++) {
        unsigned moved = 0;
        for (unsigned i = 0; i < n; i++)
            moved += ring_calls[i] != c0[i];
        if (moved == n)
            break;
        ThreadSleep(1000000);
    }
    return ring_workers_ran(n, c0);
}

static void check_ring_tables(unsigned ncpu)
{
    unsigned n = ncpu - 1, allocated = 0, recorded = 0, ran = 0;
    int tids[MAXT];
    uint32_t c0[MAXT];
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)1u);
    stop = false;
    ring_phase = 0;
    for (unsigned i = 0; i < n; i++) {
        ring_calls[i] = c0[i] = 0;
        tids[i] = ThreadCreate(ring_worker, (void *)(uintptr_t)i, stacks[i],
                               sizeof(stacks[0]), 50, 0);
    }
    ThreadSleep(2000000);
    for (unsigned r = 0; r < RING_ROUNDS; r++) {
        allocated += TraceEvent(KTRACE_ALLOCBUFFER, 2, 0, 0) == 2;
        TraceEvent(KTRACE_ADDALLCLASSES, 0, 0, 0);
        TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
        ring_workers_ran(n, c0);
        // the workers on their tables of the round before
        bool both = ring_workers_went_on(n, c0);
        ring_phase = r + 1;             // each sleeps once: its table opened with this ring
        both = ring_workers_went_on(n, c0) && both;
        TraceEvent(KTRACE_STOP, 0, 0, 0);
        struct ktrace_query q;
        memset(&q, 0, sizeof(q));
        TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0);
        recorded += q.recorded > 0;
        ran += both;
        TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    }
    stop_spinners(n, tids);
    check(allocated == RING_ROUNDS && recorded == RING_ROUNDS && ran == RING_ROUNDS,
          "%s: a ring freed and allocated again %ld times while the owner's threads call the "
          "kernel on the other CPUs: allocated, recorded, calls went on (x100, x10, x1): %ld",
          "ring tables", RING_ROUNDS, (long)(allocated * 100 + recorded * 10 + ran));
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)((1u << ncpu) - 1u));
}

// A freed ring stays readable nowhere: process A (kt_fault 13: its ring_spy) owns a trace
// ring; a thread of A bound to CPU 2 reads the ring's memory at EL0 without end, no kernel
// call; A's main thread, on CPU 1, frees the ring; this process then allocates a ring of its
// own (the same memory: the pool's first fit) and fills it with SPY_PATTERN. The reader must
// fault (its CPU's table lost the ring: A is killed, SIGSEGV) before it can see the pattern
// (it then ends A with status SPY_SAW). A kernel that left the ring mapped on the reader's
// CPU until that CPU switched tables (which a spinning thread never makes it do) gives
// status SPY_SAW, 3 runs of 3. (docs/smp.md, "Address spaces".)

static void check_freed_ring(unsigned ncpu)
{
    if (ncpu < 3) {
        printf("# kt_smp: freed ring: needs 3 CPUs, not checked\n");
        return;
    }
    struct ktrace_query q;
    int st = -1;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)1u);
    int pid = ProcSpawn("kt_fault", 50, 13);
    unsigned owned = 0, freed = 0, inserted = 0;
    for (unsigned i = 0; i < 2000 && !owned; i++) {     // A has its ring
        memset(&q, 0, sizeof(q));
        owned = TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0) == 0;
        if (!owned)
            ThreadSleep(1000000);
    }
    for (unsigned i = 0; i < 2000 && owned && !freed; i++) {   // and has freed it
        memset(&q, 0, sizeof(q));
        freed = TraceEvent(KTRACE_QUERYEVENTS, (uint32_t)(uintptr_t)&q, 0, 0) < 0;
        if (!freed)
            ThreadSleep(1000000);
    }
    bool mine = freed && TraceEvent(KTRACE_ALLOCBUFFER, SPY_BUFS, 0, 0) == (int)SPY_BUFS;
    if (mine) {
        TraceEvent(KTRACE_ADDALLCLASSES, 0, 0, 0);
        TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
        for (unsigned i = 0; i < 300; i++)
            inserted += TraceEvent(KTRACE_INSERTSUSEREVENT, 7, SPY_PATTERN, SPY_PATTERN) == 0;
        ThreadSleep(20000000);          // the reader's passes over the pattern, if it can
        TraceEvent(KTRACE_STOP, 0, 0, 0);
    }
    ProcKill(pid);                      // (ESRCH when it has ended)
    int w = ProcWait(pid, &st);
    if (mine)
        TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    check(pid > 0 && w == pid && owned && freed && mine && inserted == 300 && KW_SIGNALED(st) &&
              KW_TERMSIG(st) == KSIG_SEGV,
          "%s: a thread of the ring's owner reading it on another CPU faults once it is freed, "
          "never reads the next ring's (status %#lx: signal 11 passes; exit 77 read it, signal "
          "9 neither, exit 1-4 no setup; %ld events written)", "freed ring", (long)st,
          (long)inserted);
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)((1u << ncpu) - 1u));
}

#if defined(__aarch64__)
static uint64_t ring_hint(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, tpidrro_el0" : "=r"(v));
    return v;
}

static volatile uint64_t other_hint = 1;
static int read_hint(void *arg)
{
    (void)arg;
    other_hint = ring_hint();
    return 0;
}

// 8 records; the kernel writes their tags at registration.
static struct {
    struct kuser_ring hdr;
    struct kuser_rec rec[8];
} own_ring __attribute__((aligned(16)));

static void check_ring_hint(unsigned ncpu)
{
    uint64_t addr = (uint64_t)(uintptr_t)&own_ring;
    uint64_t before = ring_hint();
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)1u);
    int r = TraceEvent(KTRACE_USERRING, (uint32_t)addr, 8, KTRACE_USERRING_THREAD);
    uint64_t here = ring_hint();
    check(before == 0 && r == 0 && here == addr,
          "%s: none before (%#lx); registered, the register names the ring (%#lx)", "ring hint",
          (long)before, (long)here);
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << (ncpu - 1)));
    uint64_t moved = ring_hint();
    int t = ThreadCreate(read_hint, NULL, stacks[0], sizeof(stacks[0]), MAIN_PRIO, 0);
    if (t > 0)
        ThreadJoin(t, NULL);
    check(my_cpu() == (int)ncpu - 1 && moved == addr && other_hint == 0,
          "%s: the same on the CPU it moved to (%#lx); another thread reads none (%#lx)",
          "ring hint", (long)moved, (long)other_hint);
    r = TraceEvent(KTRACE_USERRING, (uint32_t)addr + 2u, 8, KTRACE_USERRING_THREAD);
    uint64_t refused = ring_hint();
    TraceEvent(KTRACE_USERRING, (uint32_t)addr, 0, KTRACE_USERRING_THREAD);
    check(r == -1 && refused == addr && ring_hint() == 0,
          "%s: a refused registration keeps it (%#lx); forgotten, it reads 0 (%#lx)",
          "ring hint", (long)refused, (long)ring_hint());
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)((1u << ncpu) - 1u));
}
#endif

int main(void)
{
    uint32_t ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    if (ncpu < 2) {
        printf("# kt_smp: one CPU: nothing to check\n");
        return 0;
    }
    if (ncpu > MAXT)
        ncpu = MAXT;
    printf("# kt_smp: %u CPUs\n", (unsigned)ncpu);
    check_priorities(ncpu);
    check_ipc(ncpu);
    check_inheritance();
    check_fault_and_kill(ncpu);
    check_runmask(ncpu);
    check_ring_tables(ncpu);
    check_freed_ring(ncpu);
#if defined(__aarch64__)
    check_ring_hint(ncpu);
#endif
    return failures;
}
