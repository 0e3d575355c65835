// SPDX-License-Identifier: MIT
// usdtpeer: a program other than pidself, whose read-only constants, wide instruction and
// .data variable (usdt_bait.h) a trace-only pidself names as USDT sites and a semaphore in
// changed notes (test/qemu/test_usdt_perm.sh, docs/usdt.md "Who may"). It reports what it
// reads at its start, ProcArg() ms later (ClockTime; the object loaded) and as long again
// later (the object unloaded), looking and passing its site every millisecond in between, and
// exits 0 only if no look found anything changed: the victim's own word.
#include <kern.h>
#include "usdt_bait.h"

int main(void)
{
    unsigned ms = ProcArg();
    bait_report("usdtpeer", "at start");
    for (unsigned phase = 0; phase < 2; phase++) {
        uint64_t end = ClockTime() + (uint64_t)ms * 1000000u;
        for (unsigned t = 0; ClockTime() < end; t++) {
            bait_look();
            bait_mark(t);
            ThreadSleep(1000000u);
        }
        bait_report("usdtpeer", phase ? "after" : "during");
    }
    return bait_look() ? 1 : 0;
}
