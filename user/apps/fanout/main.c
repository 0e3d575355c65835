// SPDX-License-Identifier: MIT
// fanout: a periodic source on CPU 0 fanning each period's batch out to three workers bound to
// CPUs 1-3, and the periods it missed by its own clock. A timer pulse every PERIOD_US releases
// batch k at t0 + k * PERIOD_US (t0: the first pulse, by ClockCycles); the source sends each
// worker a pulse whose value is its share of the batch, in units, and waits on a semaphore for
// the three to finish. A unit is a fixed computation, then the worker's result added to a total
// under one mutex the three share (they contend for it across CPUs) and a read of its clock.
// The batch's response is the time of the source's last SemWait's return less its release; past
// DEADLINE_US it is a miss. Every HEAVY_EVERY-th batch the last worker gets HEAVY_UNITS instead
// of UNITS: such a batch misses by far, the next one, released meanwhile, still meets its own
// deadline, and every other batch meets it with room, so that a run that disturbs the workers
// by less than that room misses the heavy batches alone (test/qemu/test_fanout.sh: the same
// under a D program on every CPU as without).
//   fanout [BATCHES]     (default 400)
// Prints "fanout: B batches, missed M: k1 k2 ...; worst W us, mean A us, periods lost L, units
// U, exclusive entries E" (W and A over the batches that are not heavy; L periods whose pulse
// never came; E the kernel entries every CPU was kept out of meanwhile, SysInfo's count) and
// exits 0, or 1 when a worker's units or the total disagree with what was handed out.
#include <cpus.h>
#include <kern.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <uapi/kapi.h>

#define PERIOD_US   1000u
#define DEADLINE_US 600u
#define NWORKERS    3u
#define UNITS       2u       // a worker's share of an ordinary batch
#define HEAVY_EVERY 40u      // every HEAVY_EVERY-th batch ...
#define HEAVY_UNITS 20u      // ... the last worker's share
#define UNIT_TURNS  12000u   // a unit's computation (loop turns)
#define MAX_LISTED  24u
#define STACK       1536

// Each stack with its guard below it (kern.h KSTACK), a row a thread.
static KSTACK(stacks[NWORKERS], STACK);
static int chids[NWORKERS], done_sem, total_mtx;
static unsigned ncpus = 1;
static uint64_t total;                   // under total_mtx
static uint32_t units_done[NWORKERS];    // each worker's own

// One unit: the computation (a value that depends on every turn), added to the shared total.
static void unit(uint32_t seed)
{
    uint32_t x = seed;
    for (uint32_t i = 0; i < UNIT_TURNS; i++)
        x = x * 1664525u + 1013904223u;
    MutexLock(total_mtx);
    total += x & 0xffu;
    MutexUnlock(total_mtx);
    (void)ClockCycles();
}

// A worker: each pulse is a batch's share (its value, in units); a share of 0 ends it.
static int worker(void *arg)
{
    unsigned w = (unsigned)(uintptr_t)arg;
    cpus_bind(1u + w);
    for (;;) {
        struct kpulse p;
        if (MsgReceive(chids[w], &p, sizeof(p), NULL) != 0)
            continue;
        if (p.value <= 0)
            break;
        for (int32_t u = 0; u < p.value; u++)
            unit((uint32_t)p.code * 7u + (uint32_t)u);
        units_done[w] += (uint32_t)p.value;
        SemPost(done_sem);
    }
    return 0;
}

// Worker w's share of batch k, in units.
static unsigned share(unsigned k, unsigned w)
{
    bool heavy = k % HEAVY_EVERY == HEAVY_EVERY - 1u;
    return w == NWORKERS - 1u && heavy ? HEAVY_UNITS : UNITS;
}

// The total the units add (each unit's computation again, on the source's side).
static uint64_t expected_total(unsigned batches)
{
    uint64_t sum = 0;
    for (unsigned k = 0; k < batches; k++)
        for (unsigned w = 0; w < NWORKERS; w++) {
            unsigned n = share(k, w);
            for (unsigned u = 0; u < n; u++) {
                uint32_t x = k * 7u + u;
                for (uint32_t i = 0; i < UNIT_TURNS; i++)
                    x = x * 1664525u + 1013904223u;
                sum += x & 0xffu;
            }
        }
    return sum;
}

int main(int argc, char **argv)
{
    unsigned batches = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 400u;
    ncpus = cpus_count();
    if (ncpus < 1u + NWORKERS || !batches)
        printf("fanout: %u CPUs: the workers share CPUs\n", ncpus);
    cpus_bind(0);
    done_sem = SemCreate(0);
    total_mtx = MutexCreate();
    int coids[NWORKERS], tids[NWORKERS];
    for (unsigned w = 0; w < NWORKERS; w++) {
        chids[w] = ChannelCreate(0);
        coids[w] = ConnectAttach(0, chids[w]);
        tids[w] = ThreadCreate(worker, (void *)(uintptr_t)w, stacks[w], sizeof(stacks[w]), 0, 0);
    }
    uint64_t hz = ClockCyclesPerSec(), period = hz * PERIOD_US / 1000000u;
    uint64_t deadline = hz * DEADLINE_US / 1000000u;
    int chid = ChannelCreate(0);
    int timer = TimerCreate(ConnectAttach(0, chid), 1, 0);
    TimerSettime(timer, PERIOD_US, PERIOD_US);
    uint32_t excl0 = 0, excl1 = 0;      // kernel entries run exclusive (every CPU kept out)
    SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE, &excl0);
    unsigned missed = 0, listed = 0, lost = 0, ordinary = 0, given = 0;
    unsigned list[MAX_LISTED];
    uint64_t t0 = 0, worst = 0, sum = 0, idx = 0;
    for (unsigned k = 0; k < batches; k++) {
        struct kpulse p;
        while (MsgReceive(chid, &p, sizeof(p), NULL) != 0 || p.code != 1)
            ;
        uint64_t now = ClockCycles();
        if (k == 0)
            t0 = now;
        // The latest release by the clock: the next period's, or a later one when the timer's
        // pulses for the periods between never came (a pulse still queued when its timer
        // expires again is not sent twice): those periods are lost.
        uint64_t at = (now - t0) / period;
        if (k && at > idx + 1u)
            lost += (unsigned)(at - idx - 1u);
        idx = k && at > idx + 1u ? at : idx + (k != 0);
        uint64_t release = t0 + idx * period;
        bool heavy = k % HEAVY_EVERY == HEAVY_EVERY - 1u;
        for (unsigned w = 0; w < NWORKERS; w++) {
            unsigned n = share(k, w);
            MsgSendPulse(coids[w], 10, (int)k, (int)n);
            given += n;
        }
        for (unsigned w = 0; w < NWORKERS; w++)
            SemWait(done_sem);
        uint64_t resp = ClockCycles() - release;
        if (resp > deadline) {
            if (listed < MAX_LISTED)
                list[listed++] = k;
            missed++;
        }
        if (!heavy) {
            ordinary++;
            sum += resp;
            worst = resp > worst ? resp : worst;
        }
    }
    SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE, &excl1);
    TimerDestroy(timer);
    for (unsigned w = 0; w < NWORKERS; w++) {
        MsgSendPulse(coids[w], 10, 0, 0);
        ThreadJoin(tids[w], NULL);
    }
    uint32_t got = 0;
    for (unsigned w = 0; w < NWORKERS; w++)
        got += units_done[w];
    printf("fanout: %u batches, missed %u:", batches, missed);
    for (unsigned i = 0; i < listed; i++)
        printf(" %u", list[i]);
    printf("; worst %llu us, mean %llu us, periods lost %u, units %u, exclusive entries %u\n",
           (unsigned long long)(worst * 1000000u / hz),
           (unsigned long long)(ordinary ? sum * 1000000u / hz / ordinary : 0), lost, got,
           (unsigned)(excl1 - excl0));
    return got == given && total == expected_total(batches) ? 0 : 1;
}
