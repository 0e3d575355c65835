// SPDX-License-Identifier: MIT
// client: a control loop talking to srv: 200 requests, reads and the odd write, pausing now
// and then like an application waiting for input. Reports its round-trip times.
#include <kern.h>
#include <stdio.h>
#include <sys/dispatch.h>
#include <demo_proto.h>

int main(void)
{
    TimerTimeout(DEMO_OPEN_WAIT_NS);   // srv may still be starting: wait for its name
    int coid = name_open(DEMO_SRV_NAME, NAME_FLAG_WAIT);
    if (coid < 0)
        return 1;
    uint64_t worst = 0, total = 0;
    int n = 200;
    for (int i = 0; i < n; i++) {
        struct demo_msg m = { (i % 10 == 9) ? DEMO_WRITE : DEMO_READ, 100 + i };
        int32_t reply;
        uint64_t t0 = ClockCycles();
        if (MsgSend(coid, &m, sizeof(m), &reply, sizeof(reply)) < 0)
            return 2;
        uint64_t dt = ClockCycles() - t0;
        total += dt;
        if (dt > worst)
            worst = dt;
        if (i % 20 == 19)
            ThreadSleep(1000000);
    }
    uint32_t hz = ClockCyclesPerSec();
    printf("client: %d requests, mean round trip %lu us, worst %lu us\n", n,
           (unsigned long)(total * 1000000u / n / hz), (unsigned long)(worst * 1000000u / hz));
    return 0;
}
