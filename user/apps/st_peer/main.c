// SPDX-License-Identifier: MIT
// st_peer: smpstress's client process. ProcArg(): bits 0-15 the channel of pid 1 to send to,
// bits 16-23 how many CPUs there are. One thread per CPU other than 0, bound to it, sends
// numbered messages without end until smpstress kills the process: most of their time the
// threads are blocked in MsgSend or running on their CPUs, so the kill lands mid-IPC on
// other CPUs than the killer's. With bit 31 set it sends pulses instead (pulse.c). With bit 24
// set (sync mode, smpstress's test 8) the threads instead take one mutex and post and wait on
// semaphores without end, one of them blocked on a semaphore nobody posts: the kill lands
// while they wait on a mutex or a semaphore.
#include <kern.h>
#include "st_peer.h"

#define MAXCPU 4
#define STACK 1024

static KSTACK(stacks[MAXCPU], STACK);
static int coid;

static int sender(void *arg)
{
    ThreadCtl(KTCTL_RUNMASK, arg);
    for (uint32_t n = 1;; n++) {
        uint32_t reply = 0;
        if (MsgSend(coid, &n, sizeof(n), &reply, sizeof(reply)) < 0)
            return 2;
    }
}

static int mutex, sem, never;

static int syncer(void *arg)
{
    ThreadCtl(KTCTL_RUNMASK, arg);
    while (MutexLock(mutex) == 0) {
        ThreadSleep(1000000);   // the others block on the mutex meanwhile
        MutexUnlock(mutex);
        SemPost(sem);
        SemWait(sem);
        SemWait(sem);       // may block until another thread's post (never all: one is spare)
        SemPost(sem);
    }
    return 2;
}

static int sync_mode(uint32_t ncpu)
{
    mutex = MutexCreate();
    sem = SemCreate(1);
    never = SemCreate(0);
    for (uint32_t c = 2; c < ncpu && c < MAXCPU; c++)
        ThreadCreate(syncer, (void *)(uintptr_t)(1u << c), stacks[c], sizeof(stacks[0]), 0, 0);
    ThreadCreate(syncer, (void *)(uintptr_t)(1u << 1), stacks[0], sizeof(stacks[0]), 0, 0);
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << 1));
    return SemWait(never);   // until the kill
}

int main(void)
{
    uint32_t arg = ProcArg(), ncpu = (arg >> 16) & 0xffu;
    if (arg & ST_PEER_PULSES)
        return st_peer_pulses(arg);
    if (arg & (1u << 24))
        return sync_mode(ncpu);
    coid = ConnectAttach(1, (int)(arg & 0xffffu));
    if (coid < 0)
        return 1;
    for (uint32_t c = 2; c < ncpu && c < MAXCPU; c++)
        ThreadCreate(sender, (void *)(uintptr_t)(1u << c), stacks[c], sizeof(stacks[0]), 0, 0);
    return sender((void *)(uintptr_t)(1u << 1));
}
