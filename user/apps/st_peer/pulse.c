// SPDX-License-Identifier: MIT
// st_peer's pulse mode (ProcArg bit 31; smpstress's test 9, user/apps/smpstress/st_pulse.c):
// one thread per CPU other than 0, bound to it, sends pulses without end to pid 1's channel,
// code incarnation << 8 | its CPU (bits 24-30 of the argument), value 1, 2, ..., each number
// sent again until the kernel takes it (EAGAIN: the process's or the channel's bound), until
// smpstress kills the process mid-stream.
#include <kern.h>
#include <errno.h>
#include "st_peer.h"

#define PULSE_PRIO 10           // smpstress's own (one priority: the channel keeps FIFO order)
#define STACK 1024

static KSTACK(stacks[ST_PEER_MAXCPU], STACK);
static int coid;
static uint32_t incarnation;

static int pulser(void *arg)
{
    uint32_t c = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << c));
    for (uint32_t n = 1;; n++) {
        int r;  // the raw result: errno is the whole process's
        while ((r = (int)KCALL4(KC_MsgSendPulse, coid, PULSE_PRIO, (int)(incarnation << 8 | c),
                                (int)n)) == -EAGAIN)
            ThreadYield();
        if (r != 0)
            return 2;
    }
}

int st_peer_pulses(uint32_t arg)
{
    uint32_t ncpu = (arg >> 16) & 0xffu;
    incarnation = (arg >> 24) & 0x7fu;
    coid = ConnectAttach(1, (int)(arg & 0xffffu));
    if (coid < 0)
        return 1;
    for (uint32_t c = 2; c < ncpu && c < ST_PEER_MAXCPU; c++)
        ThreadCreate(pulser, (void *)(uintptr_t)c, stacks[c], sizeof(stacks[0]), 0, 0);
    return pulser((void *)1u);
}
