// SPDX-License-Identifier: MIT
// srv: the demo's resource manager. Its channel has a name (name_attach: DEMO_SRV_NAME), by
// which the others find it. Two threads receive on it: clients read and write a set point, the
// driver posts device samples, the ticker's pulses advance a clock; the data they share is the
// server's own, under a mutex of its process (docs/applications.md, "Sharing a resource").
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <sys/dispatch.h>
#include <demo_proto.h>

static int chid, lock;
static struct demo_stats stats;
static int32_t setpoint = 100, last_sample;
static volatile int quitting;
static KSTACK(stack2, 1024);

static int serve(void *arg)
{
    (void)arg;
    while (!quitting) {
        union {
            struct demo_msg m;
            struct kpulse p;
        } u;
        int rcvid = MsgReceive(chid, &u, sizeof(u), NULL);
        if (rcvid < 0)
            continue;
        MutexLock(lock);
        if (rcvid == 0) {
            if (u.p.code == DEMO_PULSE_TICK)
                stats.ticks++;
            MutexUnlock(lock);
            continue;
        }
        int32_t reply = 0;
        switch (u.m.op) {
        case DEMO_READ:   stats.reads++; reply = setpoint + last_sample % 7; break;
        case DEMO_WRITE:  stats.writes++; setpoint = u.m.value; break;
        case DEMO_SAMPLE: stats.samples++; last_sample = u.m.value; break;
        case DEMO_STATS:
            MutexUnlock(lock);
            MsgReply(rcvid, 0, &stats, sizeof(stats));
            continue;
        case DEMO_QUIT:
            quitting = 1;
            // Wake the other receiving thread so it sees the flag.
            MsgSendPulse(ConnectAttach(0, chid), 1, 99, 0);
            break;
        default:
            MutexUnlock(lock);
            MsgError(rcvid, 22);
            continue;
        }
        MutexUnlock(lock);
        MsgReply(rcvid, 0, &reply, sizeof(reply));
    }
    return 0;
}

int main(void)
{
    ThreadName(0, "srv-main");
    lock = MutexCreate();
    name_attach_t *att = name_attach(NULL, DEMO_SRV_NAME, 0);
    if (!att) {
        printf("srv: name_attach(%s) failed: errno %d\n", DEMO_SRV_NAME, errno);
        return 1;
    }
    chid = att->chid;
    int t = ThreadCreate(serve, NULL, stack2, sizeof(stack2), 0, 0);
    ThreadName(t, "srv-worker");
    serve(NULL);
    ThreadJoin(t, NULL);
    name_detach(att, 0);
    return 0;
}
