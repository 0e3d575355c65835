// SPDX-License-Identifier: MIT
// decide: the scheduling decisions and the kills D's sched:::remain-cpu and proc:::signal-send
// describe, made by a program that counts its own (test/qemu/test_decisions.sh). It spins
// alone on its CPU for a number of clock ticks (each tick's choice keeps it: nothing else is
// ready), then spawns decidevic KILLS times (it blocks on its own channel for ever) and kills
// each one, waiting for it. It prints
//   decide: kills K
//   decide: spun N ns
// (N from its own reads of ClockTime) and `decide: done`.
#include <kern.h>
#include <stdio.h>

#define KILLS 5

// Spins for `ms` milliseconds of the kernel's clock; the nanoseconds it saw.
static uint64_t spin(uint64_t ms)
{
    uint64_t t0 = ClockTime(), t = t0;
    while (t - t0 < ms * 1000000u)
        t = ClockTime();
    return t - t0;
}

int main(void)
{
    uint64_t ns = spin(50);
    int kills = 0;
    for (int i = 0; i < KILLS; i++) {
        int pid = ProcSpawn("decidevic", 0, 0);
        int st = 0;
        if (pid < 0)
            break;
        spin(2);        // the victim runs and blocks
        if (ProcKill(pid) == 0 && ProcWait(pid, &st) == pid)
            kills++;
    }
    printf("decide: kills %d\n", kills);
    printf("decide: spun %llu ns\n", (unsigned long long)ns);
    printf("decide: done\n");
    return kills == KILLS ? 0 : 1;
}
