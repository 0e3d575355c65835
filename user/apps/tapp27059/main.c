// SPDX-License-Identifier: MIT
// tapp27059: a periodic "sensor" task and the "ctrl" server it reports to, as two threads of one
// program (written by `make new-app`; docs/applications.md walks through it).
//
//   sensor (main thread)             ctrl (a second thread)
//   timer pulse every PERIOD_US  ->
//   reads the "sensor"
//   user event (id EV_READING)
//   MsgSend(reading)             ->  MsgReceive
//                                    keeps the sum, decides
//   gets the reply               <-  MsgReply(setpoint)
//
// Every step shows in the trace: the timer pulse, the send/receive/reply and the two
// threads' state changes (class COMM, THREAD), and one user event per reading (USER class:
// traceprinter, kevstat, kevreport; D probe user:::event, arg0 = EV_READING, arg1 = the
// reading). Change freely: this directory is yours.
#include <kern.h>
#include <stdio.h>

#define PERIOD_US   10000       // one reading every 10 ms
#define NREADINGS   20          // then stop and exit 0
#define EV_READING  100         // user event id of a reading (0-1023)

struct reading {
    uint32_t seq;
    int32_t value;
};

struct reply {
    int32_t setpoint;
};

static int ctrl_chid;
static uint8_t ctrl_stack[1024] __attribute__((aligned(8)));

// The server: one reply per reading; a reading with seq 0 asks it to stop.
static int ctrl(void *arg)
{
    (void)arg;
    int32_t sum = 0;
    for (;;) {
        union {
            struct reading r;
            struct kpulse p;    // a receive buffer must be able to hold a pulse
        } u;
        int rcvid = MsgReceive(ctrl_chid, &u, sizeof(u), NULL);
        if (rcvid < 0)
            return 1;           // the channel is gone: nothing more will come
        if (rcvid == 0)
            continue;           // a pulse (none expected here)
        struct reading r = u.r;
        if (r.seq == 0) {
            MsgReply(rcvid, 0, NULL, 0);
            return (int)(sum != 0 ? 0 : 1);
        }
        sum += r.value;
        struct reply rep = { .setpoint = sum / (int32_t)r.seq };
        MsgReply(rcvid, 0, &rep, sizeof(rep));
    }
}

// A stand-in for a real sensor: a sawtooth.
static int32_t read_sensor(uint32_t seq)
{
    return (int32_t)(500 + (seq * 37) % 100);
}

int main(void)
{
    ctrl_chid = ChannelCreate(0);
    int tid = ThreadCreate(ctrl, NULL, ctrl_stack, sizeof(ctrl_stack), 0, 0);
    int to_ctrl = ConnectAttach(0, ctrl_chid);
    // The timer delivers pulses on a channel of our own.
    int tick_chid = ChannelCreate(0);
    int timer = TimerCreate(ConnectAttach(0, tick_chid), 1, 0);
    if (ctrl_chid < 0 || tid < 0 || to_ctrl < 0 || tick_chid < 0 || timer < 0) {
        printf("tapp27059: set-up failed\n");
        return 1;
    }
    ThreadName(tid, "ctrl");
    TimerSettime(timer, PERIOD_US, PERIOD_US);
    struct reply rep = { 0 };
    for (uint32_t seq = 1; seq <= NREADINGS; seq++) {
        struct kpulse p;
        if (MsgReceive(tick_chid, &p, sizeof(p), NULL) != 0)
            return 2;                   // not the timer's pulse
        struct reading r = { seq, read_sensor(seq) };
        TraceEvent(KTRACE_INSERTSUSEREVENT, EV_READING, (uint32_t)r.seq, (uint32_t)r.value);
        if (MsgSend(to_ctrl, &r, sizeof(r), &rep, sizeof(rep)) < 0)
            return 3;
    }
    TimerDestroy(timer);
    struct reading stop = { 0, 0 };
    MsgSend(to_ctrl, &stop, sizeof(stop), NULL, 0);
    int st = 1;
    ThreadJoin(tid, &st);
    printf("tapp27059: %d readings sent, last setpoint %ld\n", NREADINGS, (long)rep.setpoint);
    return st;
}
