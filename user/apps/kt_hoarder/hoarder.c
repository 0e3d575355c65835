// SPDX-License-Identifier: MIT
// kt_hoarder (and kt_hoarder2, kt_hoarder3, the same source): flagless programs that the
// hostile suite's tree attack (attack 16, docs/hostile.md) starts from an unprivileged
// process. Each takes every kernel object it is given (threads, channels, connections, timers,
// queued pulses, mutexes, condvars, semaphores) and holds them for HOSTILE_HOARD_NS. Exit
// status 0 when every refusal was EAGAIN.
#include <kern.h>
#include <errno.h>
#include "../kt_hostile/hostile.h"

static KSTACK(stacks[HOSTILE_LIM_THREADS], 256);
static int chid, coid;

static int finish_at_once(void *arg) { (void)arg; return 0; }
static int mk_thread(int k)
{
    return ThreadCreate(finish_at_once, NULL, stacks[k % HOSTILE_LIM_THREADS],
                        sizeof(stacks[0]), 1, 0);
}
static int mk_channel(int k) { (void)k; int c = ChannelCreate(0); if (c > 0 && !chid) chid = c; return c; }
static int mk_conn(int k) { (void)k; return ConnectAttach(0, chid); }
static int mk_timer(int k) { (void)k; return TimerCreate(coid, 1, 0); }
static int mk_pulse(int k) { return MsgSendPulse(coid, 10, 1, k) == 0 ? 0 : -1; }
static int mk_mutex(int k) { (void)k; return MutexCreate(); }
static int mk_cond(int k) { (void)k; return CondCreate(); }
static int mk_sem(int k) { (void)k; return SemCreate(0); }

// Makes objects until refused: 0 when the refusal was EAGAIN, 1 otherwise.
static int take_all(int (*make)(int), int most)
{
    for (int k = 0; k < most; k++) {
        errno = 0;
        if (make(k) < 0)
            return errno != EAGAIN;
    }
    return 0;
}

int main(void)
{
    int bad = take_all(mk_thread, 64) << 0;
    bad |= take_all(mk_channel, 64) << 1;
    if (chid > 0 && (coid = ConnectAttach(0, chid)) > 0) {
        bad |= take_all(mk_timer, 64) << 2;
        bad |= take_all(mk_conn, 128) << 3;
        bad |= take_all(mk_pulse, 128) << 4;
    }
    bad |= take_all(mk_mutex, 64) << 5;
    bad |= take_all(mk_cond, 64) << 6;
    bad |= take_all(mk_sem, 64) << 7;
    ThreadSleep(HOSTILE_HOARD_NS);
    return bad;
}
