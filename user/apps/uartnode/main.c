// SPDX-License-Identifier: MIT
// uartnode: a UART telemetry node. Five threads of one process, each keeping its own truth:
//
//   thread  prio  does
//   driver   40   owns the board's UART for programs by interrupt pulses: its receive line's
//                 pulse reads the bytes in, a line ('\n') goes to the server by MsgSend, the
//                 reply goes out a byte per transmit pulse (InterruptAttachEvent on both lines,
//                 InterruptUnmask after each); counts bytes in and out and pulses of each line
//   loop     30   a 500 Hz control loop released by a timer's pulses, PERIODS jobs of 0.4 ms of
//                 work, OVERRUNS of them 3 ms (one and a half periods, spread over the run):
//                 counts the jobs that ended past their deadline by its own clock, and the
//                 pulses it never got; publishes its counts under the mutex
//   server   20   the commands of the peer on the UART's other end (PING n, ECHO text, STAT,
//                 QUIT): a reply a line; STAT reads the loop's counts under the mutex
//   hog       2   CPU-bound until the others are done: counts its turns
//   main     10   starts them, joins them, prints the truths
//
//   uartnode [PERIODS [OVERRUNS]] [-x LINE]   (ARGS in its app.mk; or its part of the boot's
//                                             command line: "uartnode -x 0 ;; ...")
// -x LINE first tries to attach LINE, a line not its own (the console's receive line is 0 on
// mps2-an385): refused, with the kernel's line naming the lines it may take.
// The peer: QEMU's -serial for the board's next UART through QEMU_EXTRA (docs/boards.md), e.g.
// test/qemu/uart_peer.py. Exits 0 when every thread did its part (its misses are its lines'
// to judge: the programmed ones, and more where the host's clock runs QEMU).
#include <kern.h>
#include <board_user.h>
#include <busy.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef USER_UART_RX_IRQ

#define PERIOD_US 2000u
#define WORK_US   400u
#define OVER_US   3000u
#define LINE_MAX  64
#define CODE_RX   1
#define CODE_TX   2
#define CODE_TICK 3

static int mutex;                         // the loop's published counts
static struct { unsigned jobs, missed; } shared;
static volatile int hog_stop;

static struct {
    unsigned bytes_in, bytes_out, rx_pulses, tx_pulses, lines;
} drv;
static unsigned periods = 600, overruns = 6, loop_missed, loop_lost, server_cmds;
static unsigned long hog_turns;
static uint32_t loops_per_ms;
static int server_chid;

// ---- the driver --------------------------------------------------------------------------
static char txq[LINE_MAX + 16];
static unsigned txlen, txpos;

static void tx_next(void)
{
    if (txpos < txlen) {
        USER_UART_REG(USER_UART_DATA) = (uint8_t)txq[txpos++];
        drv.bytes_out++;
    }
}

static int driver(void *arg)
{
    (void)arg;
    int chid = ChannelCreate(0), self = ConnectAttach(0, chid);
    int srv = ConnectAttach(0, server_chid);
    USER_UART_REG(USER_UART_BAUDDIV) = 16;
    USER_UART_REG(USER_UART_CTRL) = 1u | 2u | 4u | 8u;     // TX, RX, their interrupts
    int rx = InterruptAttachEvent(USER_UART_RX_IRQ, self, CODE_RX);
    int tx = InterruptAttachEvent(USER_UART_TX_IRQ, self, CODE_TX);
    if (chid < 0 || srv < 0 || rx < 0 || tx < 0) {
        printf("uartnode: driver: cannot attach its UART's lines: errno %d\n", errno);
        return 1;
    }
    char line[LINE_MAX];
    unsigned n = 0;
    int last = 0;
    while (!last || txpos < txlen) {
        struct kpulse p;
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            continue;
        if (p.code == CODE_TX) {
            drv.tx_pulses++;
            USER_UART_REG(USER_UART_INTSTATUS) = 1u;        // INTCLEAR: TX
            tx_next();
            InterruptUnmask(USER_UART_TX_IRQ, tx);
            continue;
        }
        if (p.code != CODE_RX)
            continue;
        drv.rx_pulses++;
        // Cleared before the bytes are read: a byte that comes after the last read raises the
        // line again (cleared after, it would sit unread with no interrupt to say so).
        USER_UART_REG(USER_UART_INTSTATUS) = 2u;            // INTCLEAR: RX
        while (USER_UART_REG(USER_UART_STATE) & 2u) {       // RX full
            char c = (char)USER_UART_REG(USER_UART_DATA);
            drv.bytes_in++;
            if (c != '\n' && n + 1 < sizeof(line)) {
                line[n++] = c;
                continue;
            }
            line[n] = 0;
            n = 0;
            drv.lines++;
            int r = MsgSend(srv, line, strlen(line) + 1, txq, sizeof(txq) - 1);
            txlen = r > 0 ? (unsigned)r : 0;
            txpos = 0;
            last = strcmp(txq, "BYE\n") == 0;
            tx_next();          // the rest, a byte per transmit pulse
        }
        InterruptUnmask(USER_UART_RX_IRQ, rx);
    }
    USER_UART_REG(USER_UART_CTRL) = 0;
    printf("uartnode: driver: %u bytes in, %u bytes out, %u lines, %u receive pulses, "
           "%u transmit pulses\n", drv.bytes_in, drv.bytes_out, drv.lines, drv.rx_pulses,
           drv.tx_pulses);
    return 0;
}

// ---- the server --------------------------------------------------------------------------
static int server(void *arg)
{
    (void)arg;
    for (;;) {
        char cmd[LINE_MAX], reply[LINE_MAX + 16];
        struct kmsg_info info;
        int rcvid = MsgReceive(server_chid, cmd, sizeof(cmd), &info);
        if (rcvid <= 0)
            continue;
        cmd[sizeof(cmd) - 1] = 0;
        server_cmds++;
        int quit = 0;
        if (strncmp(cmd, "PING ", 5) == 0) {
            snprintf(reply, sizeof(reply), "PONG %s\n", cmd + 5);
        } else if (strncmp(cmd, "ECHO ", 5) == 0) {
            snprintf(reply, sizeof(reply), "%s\n", cmd + 5);
        } else if (strcmp(cmd, "STAT") == 0) {
            MutexLock(mutex);
            snprintf(reply, sizeof(reply), "STAT %u %u\n", shared.jobs, shared.missed);
            MutexUnlock(mutex);
        } else if (strcmp(cmd, "QUIT") == 0) {
            snprintf(reply, sizeof(reply), "BYE\n");
            quit = 1;
        } else {
            snprintf(reply, sizeof(reply), "ERR\n");
        }
        MsgReply(rcvid, (int)strlen(reply), reply, strlen(reply) + 1);
        if (quit)
            break;
    }
    printf("uartnode: server: %u commands\n", server_cmds);
    return 0;
}

// ---- the loop ------------------------------------------------------------------------------
static int loop(void *arg)
{
    (void)arg;
    uint64_t hz = ClockCyclesPerSec(), period = hz * PERIOD_US / 1000000u;
    int chid = ChannelCreate(0);
    int timer = TimerCreate(ConnectAttach(0, chid), CODE_TICK, 0);
    if (chid < 0 || timer < 0 || TimerSettime(timer, PERIOD_US, PERIOD_US) < 0) {
        printf("uartnode: loop: cannot set up its timer\n");
        return 1;
    }
    struct kpulse p;
    MsgReceive(chid, &p, sizeof(p), NULL);
    uint64_t t0 = ClockCycles(), k = 0;
    unsigned share = periods / (overruns ? overruns : 1u);
    for (unsigned done = 0; done < periods; done++) {
        int over = overruns && k % share == share / 2 && k / share < overruns;
        busy_us(loops_per_ms, over ? OVER_US : WORK_US);
        if (ClockCycles() - t0 > (k + 1u) * period)        // past its deadline
            loop_missed++;
        MutexLock(mutex);
        shared.jobs = done + 1u;
        shared.missed = loop_missed;
        MutexUnlock(mutex);
        if (done + 1u == periods)
            break;
        MsgReceive(chid, &p, sizeof(p), NULL);
        uint64_t idx = (ClockCycles() - t0) / period;       // the latest release now
        if (idx > k + 1u)
            loop_lost += (unsigned)(idx - k - 1u);
        k = idx > k + 1u ? idx : k + 1u;
    }
    TimerDestroy(timer);
    printf("uartnode: loop: %u jobs at 500 Hz, missed %u (programmed %u), pulses lost %u\n",
           periods, loop_missed, overruns, loop_lost);
    return 0;
}

static int hog(void *arg)
{
    (void)arg;
    while (!hog_stop) {
        busy_spin(1000);
        hog_turns++;
    }
    printf("uartnode: hog: %lu turns\n", hog_turns);
    return 0;
}

// -x LINE: a line not its own, refused (the kernel's console line says which are).
static void try_foreign(unsigned line)
{
    int chid = ChannelCreate(0);
    int id = InterruptAttachEvent(line, ConnectAttach(0, chid), CODE_RX);
    printf("uartnode: line %u, not its own: %s (errno %d)\n", line, id < 0 ? "refused" : "taken",
           id < 0 ? errno : 0);
    ChannelDestroy(chid);
}

int main(int argc, char **argv)
{
    static char buf[512];
    char *kv[8];
    int kc = kargs("uartnode", buf, sizeof(buf), kv, 8);    // the boot's part, else ARGS
    if (kc < 0) {
        printf("uartnode: its part of the boot's command line does not fit (%u bytes, 8 "
               "words)\n", (unsigned)sizeof(buf));
        return 2;
    }
    if (kc > 0) {
        argc = kc;
        argv = kv;
    }
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-x") == 0 && i + 1 < argc)
            try_foreign((unsigned)strtoul(argv[++i], NULL, 0));
        else if (pos++ == 0)
            periods = (unsigned)strtoul(argv[i], NULL, 0);
        else
            overruns = (unsigned)strtoul(argv[i], NULL, 0);
    }
    if (periods == 0 || overruns > periods) {
        printf("uartnode: usage: uartnode [PERIODS [OVERRUNS <= PERIODS]] [-x LINE]\n");
        return 2;
    }
    loops_per_ms = busy_calibrate((uint32_t)ClockCyclesPerSec());
    mutex = MutexCreate();
    server_chid = ChannelCreate(0);
    // Stacks as a QNX program gives them (plain arrays, used whole), and the hog's the library's.
    static uint8_t s_drv[2048], s_srv[2048], s_loop[1024];
    int t_srv = ThreadCreate(server, NULL, s_srv, sizeof(s_srv), 20, 0);
    int t_drv = ThreadCreate(driver, NULL, s_drv, sizeof(s_drv), 40, 0);
    int t_loop = ThreadCreate(loop, NULL, s_loop, sizeof(s_loop), 30, 0);
    int t_hog = ThreadCreate(hog, NULL, NULL, 0, 2, 0);
    if (mutex < 0 || server_chid < 0 || t_srv < 0 || t_drv < 0 || t_loop < 0 || t_hog < 0) {
        printf("uartnode: cannot start its threads: errno %d\n", errno);
        return 1;
    }
    ThreadName(t_srv, "server");
    ThreadName(t_drv, "driver");
    ThreadName(t_loop, "loop");
    ThreadName(t_hog, "hog");
    int st_srv = -1, st_drv = -1, st_loop = -1, st_hog = -1;
    ThreadJoin(t_loop, &st_loop);
    ThreadJoin(t_srv, &st_srv);
    ThreadJoin(t_drv, &st_drv);
    hog_stop = 1;
    ThreadJoin(t_hog, &st_hog);
    int ok = st_srv == 0 && st_drv == 0 && st_loop == 0 && st_hog == 0;
    printf("uartnode: done, %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

#else
int main(void)
{
    printf("uartnode: this board has no UART for programs (docs/boards.md, "
           "\"Devices for programs\")\n");
    return 2;
}
#endif
