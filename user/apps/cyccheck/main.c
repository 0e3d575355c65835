// SPDX-License-Identifier: MIT
// cyccheck: ClockCycles() read in user mode against the kernel's own clock (test/qemu/
// test_cycles.sh). It prints what the test compares: a user read, the kernel's read
// (the ClockCycles kernel call itself), a user read again (the kernel's value must lie
// between them); the cycles and the kernel's ClockTime() across a 200 ms sleep (the same
// rate); and how many ClockCycles() calls it made in a busy-wait, which the capture's
// kercall::ClockCycles count holds to the boards where the read is a kernel call.
#include <kern.h>
#include <stdio.h>

#define BUSY_READS 1000

int main(void)
{
    uint64_t u0 = ClockCycles();
    uint64_t k = kcall64(KC_ClockCycles);       // the kernel's read: one kernel call
    uint64_t u1 = ClockCycles();
    printf("cyc value: user %llu kernel %llu user %llu\n", (unsigned long long)u0,
           (unsigned long long)k, (unsigned long long)u1);

    uint64_t c0 = ClockCycles(), t0 = ClockTime();
    ThreadSleep(200000000u);
    uint64_t c1 = ClockCycles(), t1 = ClockTime();
    printf("cyc rate: %llu cycles, %llu ns of ClockTime, %lu cycles a second\n",
           (unsigned long long)(c1 - c0), (unsigned long long)(t1 - t0),
           (unsigned long)ClockCyclesPerSec());

    uint64_t last = 0, back = 0;
    for (int i = 0; i < BUSY_READS; i++) {
        uint64_t c = ClockCycles();
        back += c < last;
        last = c;
    }
    printf("cyc busy: %d reads, %llu went back\n", BUSY_READS, (unsigned long long)back);
    return back != 0;
}
