// SPDX-License-Identifier: MIT
// prioself: one thread that runs at known priorities in turn, changing its own priority while
// it runs, and measures on its own clock (ClockCycles) how long it spun at each, for the CPU
// time by priority (kevstat -s cpu, its JSON, the report) to be held against
// (test/qemu/test_prio_split.sh; docs/analysis.md).
//
//   phase  how it gets there                                  priority
//   1      ThreadSetPrio                                      210
//   2      ThreadSetPrio                                      225
//   3      a pulse at 235 to itself, received (QNX's rule:    235
//          a receiver runs at its pulse's priority)
//   4      a pulse at 215 (the one before is given back at    215
//          this receive, the new one taken)
//   then   a pulse at 250 (its ceiling, no phase's): what is left (the printing) runs there
//
// Each phase reads ClockCycles, spins a fixed loop (no kernel call inside), reads it again.
// Between the priority change and the first read there is one kernel call's return and one
// clock read; the test allows for that. At the end it prints, per phase:
//   prioself: prio P cycles C
// and `prioself: cps HZ done`.
#include <kern.h>
#include <stdio.h>

#define CODE 7
#define LAST_PRIO 250

static const struct { int prio, pulse; uint32_t turns; } phase[] = {
    { 210, 0, 200000 }, { 225, 0, 300000 }, { 235, 1, 400000 }, { 215, 1, 100000 },
};
#define NPHASE (sizeof(phase) / sizeof(phase[0]))

// n turns of a loop the compiler keeps (its counter is volatile).
static __attribute__((noinline)) void spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++)
        ;
}

// Runs at prio from here on: its own call, or a pulse at prio received from itself.
static int take_prio(int chid, int coid, int prio, int pulse)
{
    if (!pulse)
        return ThreadSetPrio(0, prio, 0);
    struct kpulse p;
    if (MsgSendPulse(coid, prio, CODE, 0) != 0 || MsgReceive(chid, &p, sizeof(p), NULL) != 0)
        return -1;
    return p.code == CODE ? 0 : -1;
}

int main(void)
{
    static uint64_t cycles[NPHASE];
    int chid = ChannelCreate(0);
    int coid = chid >= 0 ? ConnectAttach(0, chid) : -1;
    if (coid < 0) {
        printf("prioself: set-up failed\n");
        return 1;
    }
    for (unsigned i = 0; i < NPHASE; i++) {
        if (take_prio(chid, coid, phase[i].prio, phase[i].pulse)) {
            printf("prioself: phase %u: priority %d not taken\n", i + 1, phase[i].prio);
            return 1;
        }
        uint64_t t0 = ClockCycles();
        spin(phase[i].turns);
        cycles[i] = ClockCycles() - t0;
    }
    if (take_prio(chid, coid, LAST_PRIO, 1)) {
        printf("prioself: priority %d not taken\n", LAST_PRIO);
        return 1;
    }
    for (unsigned i = 0; i < NPHASE; i++)
        printf("prioself: prio %d cycles %llu\n", phase[i].prio, (unsigned long long)cycles[i]);
    printf("prioself: cps %lu done\n", (unsigned long)ClockCyclesPerSec());
    return 0;
}
