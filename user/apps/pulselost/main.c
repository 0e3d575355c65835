// SPDX-License-Identifier: MIT
// pulselost: a program that loses a known number of its timer's pulses, and counts them
// itself, for the trace's TIMER_LOST events to be held against
// (test/qemu/test_pulse_lost.sh; docs/trace-events.md).
//
// One timer, its pulses to the program's own channel, armed SHOTS times as a one-shot of 1 ms,
// each followed by a 3 ms sleep: it fires SHOTS times while nobody receives. The kernel queues
// a process's pulses up to its bound (KMAX_PULSES_PER_PROC, 16: kernel/include/kernel/kernel.h)
// and loses the rest. Then the program receives until nothing comes for 20 ms and prints
//   pulselost: timer T shots S received R lost L
// with L = S - R, its own count of what the kernel could not deliver, then `pulselost: done`.
#include <kern.h>
#include <stdio.h>

#define CODE   9
#define SHOTS  24u

int main(void)
{
    int chid = ChannelCreate(0);
    int coid = chid >= 0 ? ConnectAttach(0, chid) : -1;
    int id = coid >= 0 ? TimerCreate(coid, CODE, 0) : -1;
    if (id < 0) {
        printf("pulselost: set-up failed\n");
        return 1;
    }
    for (unsigned i = 0; i < SHOTS; i++) {
        if (TimerSettime(id, 1000, 0) < 0) {
            printf("pulselost: TimerSettime failed\n");
            return 1;
        }
        ThreadSleep(3000000u);      // the shot fires meanwhile, into the queue or lost
    }
    unsigned received = 0;
    for (;;) {
        struct kpulse p;
        TimerTimeout(20000000u);
        if (MsgReceive(chid, &p, sizeof(p), NULL) < 0)
            break;                  // nothing for 20 ms: the queue is empty
        received += p.code == CODE;
    }
    TimerDestroy(id);
    printf("pulselost: timer %d shots %u received %u lost %u\n", id, SHOTS, received,
           SHOTS - received);
    printf("pulselost: done\n");
    return 0;
}
