// SPDX-License-Identifier: MIT
// @NAME@: a periodic "sensor" task and the "ctrl" server it reports to, which find each other
// by name (name_attach, name_open: <sys/dispatch.h>). Written by `make new-app`;
// docs/applications.md walks through it.
//
//   sensor (client)                  ctrl (server)
//                                    name_attach("@NAME@"): a channel with a name
//   name_open("@NAME@")          ->  (the kernel finds the channel by its name)
//   timer pulse every PERIOD_US
//   user event (id EV_READING)
//   MsgSend(reading)             ->  MsgReceive
//                                    keeps the sum, decides
//   gets the reply               <-  MsgReply(setpoint)
//
// Its arguments (main's argv: ARGS in app.mk, or `make run APPS=@NAME@ @NAME@_ARGS='...'`)
// say which part it plays:
//   (none)          both, as two threads of this one program
//   -s [-n NAME]    the server only, under NAME (default: @NAME@); -d MS: start MS ms late
//   -c NAME [-k]    the sensor only, reporting to the server NAME; -k: then kill the server
//                   (ProcKill: KAPP_F_PRIV in FLAGS) and wait for its name to go
// so that two programs made by `make new-app` talk: ARGS := -s in one, ARGS := -c <the
// first's name> in the other.
//
// Every step shows in the trace: NameCtl (the name's kernel call), the timer pulse, the
// send/receive/reply and the threads' state changes (class COMM, THREAD), and one user event
// per reading (USER class: traceprinter, kevstat, kevreport; D probe user:::event, arg0 =
// EV_READING, arg1 = the reading). Change freely: this directory is yours.
#include <kern.h>
#include <sys/dispatch.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERIOD_US   10000       // one reading every 10 ms
#define NREADINGS   20          // then stop and exit 0
#define EV_READING  100         // user event id of a reading (0-1023)
#define OPEN_WAIT_MS 2000       // how long the sensor waits for its server's name

struct reading {
    uint32_t seq;
    int32_t value;
};

struct reply {
    int32_t setpoint;
    int32_t pid;                // the server's, for -k
};

static const char *server_name = "@NAME@";
// The server thread's stack: 1 KB above a guard at its bottom, which an overflow hits (kern.h
// KSTACK; a plain array is used whole, with no guard).
static KSTACK(ctrl_stack, 1024);

// The server: one reply per reading; a reading with seq 0 asks it to stop.
static int ctrl(void *arg)
{
    name_attach_t *att = arg;
    int32_t sum = 0;
    for (;;) {
        union {
            struct reading r;
            struct kpulse p;    // a receive buffer must be able to hold a pulse
        } u;
        int rcvid = MsgReceive(att->chid, &u, sizeof(u), NULL);
        if (rcvid < 0)
            return 1;           // the channel is gone: nothing more will come
        if (rcvid == 0)
            continue;           // a pulse (none expected here)
        struct reading r = u.r;
        if (r.seq == 0) {
            MsgReply(rcvid, 0, NULL, 0);
            name_detach(att, 0);
            return (int)(sum != 0 ? 0 : 1);
        }
        sum += r.value;
        struct reply rep = { .setpoint = sum / (int32_t)r.seq, .pid = ProcSelf() };
        MsgReply(rcvid, 0, &rep, sizeof(rep));
    }
}

// A stand-in for a real sensor: a sawtooth.
static int32_t read_sensor(uint32_t seq)
{
    return (int32_t)(500 + (seq * 37) % 100);
}

// The server's name, opened; its server may still be starting: NAME_FLAG_WAIT waits for it
// to attach the name, for at most OPEN_WAIT_MS (TimerTimeout bounds name_open's one kernel
// call; ETIMEDOUT after it).
static int open_server(void)
{
    TimerTimeout(OPEN_WAIT_MS * 1000000ull);
    return name_open(server_name, NAME_FLAG_WAIT);
}

// The sensor: NREADINGS readings, one per timer pulse, each sent to the server.
static int sensor(bool kill_server)
{
    int coid = open_server();
    if (coid < 0) {
        printf("@NAME@: name_open(%s): %s\n", server_name, strerror(errno));
        return 1;
    }
    int tick_chid = ChannelCreate(0);   // the timer delivers pulses on a channel of our own
    int timer = TimerCreate(ConnectAttach(0, tick_chid), 1, 0);
    if (tick_chid < 0 || timer < 0) {
        printf("@NAME@: set-up failed\n");
        return 1;
    }
    TimerSettime(timer, PERIOD_US, PERIOD_US);
    struct reply rep = { 0, 0 };
    int32_t sum = 0;
    for (uint32_t seq = 1; seq <= NREADINGS; seq++) {
        struct kpulse p;
        if (MsgReceive(tick_chid, &p, sizeof(p), NULL) != 0)
            return 2;                   // not the timer's pulse
        struct reading r = { seq, read_sensor(seq) };
        TraceEvent(KTRACE_INSERTSUSEREVENT, EV_READING, (uint32_t)r.seq, (uint32_t)r.value);
        if (MsgSend(coid, &r, sizeof(r), &rep, sizeof(rep)) < 0)
            return 3;
        sum += r.value;
    }
    TimerDestroy(timer);
    printf("@NAME@: %d readings sent, last setpoint %ld\n", NREADINGS, (long)rep.setpoint);
    if (rep.setpoint != sum / NREADINGS) {
        printf("@NAME@: the server's setpoint %ld is not the mean %ld\n", (long)rep.setpoint,
               (long)(sum / NREADINGS));
        return 4;
    }
    if (!kill_server) {
        struct reading stop = { 0, 0 };
        MsgSend(coid, &stop, sizeof(stop), NULL, 0);
        name_close(coid);
        return 0;
    }
    name_close(coid);
    if (ProcKill(rep.pid) < 0) {
        printf("@NAME@: ProcKill(%ld): %s (KAPP_F_PRIV in FLAGS?)\n", (long)rep.pid,
               strerror(errno));
        return 5;
    }
    // Its name goes with it: name_open fails with ENOENT once the process is gone.
    int opens = 1, r;
    while ((r = name_open(server_name, 0)) >= 0 && opens < 100) {
        name_close(r);
        opens++;
        ThreadSleep(1000000);
    }
    // (short: netduinoplus2's console cuts a line at 95 characters, its source prefix included)
    printf("@NAME@: killed %s (pid %ld); name_open: errno %d after %d calls\n", server_name,
           (long)rep.pid, r < 0 ? errno : 0, opens);
    return r < 0 && errno == ENOENT ? 0 : 6;
}

// The server alone: attach the name, serve until asked to stop.
static int server(int delay_ms)
{
    if (delay_ms > 0)
        ThreadSleep((uint64_t)delay_ms * 1000000u);
    name_attach_t *att = name_attach(NULL, server_name, 0);
    if (att == NULL) {
        printf("@NAME@: name_attach(%s): %s (errno %d)\n", server_name, strerror(errno), errno);
        return 1;
    }
    printf("@NAME@: serving as %s\n", server_name);
    return ctrl(att);
}

int main(int argc, char **argv)
{
    bool only_server = false, only_sensor = false, kill_server = false;
    int delay_ms = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0)
            only_server = true;
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
            only_sensor = true;
            server_name = argv[++i];
        }
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            server_name = argv[++i];
        else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            delay_ms = atoi(argv[++i]);
        else if (strcmp(argv[i], "-k") == 0)
            kill_server = true;
        else {
            printf("@NAME@: unknown argument '%s': use -s [-n NAME] [-d MS], or -c NAME [-k] "
                   "(ARGS in user/apps/@NAME@/app.mk)\n", argv[i]);
            return 2;
        }
    }
    if (only_server)
        return server(delay_ms);
    if (only_sensor)
        return sensor(kill_server);
    // Both, as two threads: ctrl attaches the name, the main thread opens it.
    name_attach_t *att = name_attach(NULL, server_name, 0);
    if (att == NULL) {
        printf("@NAME@: name_attach(%s): %s (errno %d)\n", server_name, strerror(errno), errno);
        return 1;
    }
    int tid = ThreadCreate(ctrl, att, ctrl_stack, sizeof(ctrl_stack), 0, 0);
    if (tid < 0) {
        printf("@NAME@: set-up failed\n");
        return 1;
    }
    ThreadName(tid, "ctrl");
    int st = sensor(false);
    int ctrl_st = 1;
    ThreadJoin(tid, &ctrl_st);
    return st ? st : ctrl_st;
}
