// SPDX-License-Identifier: MIT
// A wake-up across CPUs is the IPI's (part c of smpstress's wake-up test, st_wake.c). Two
// threads, bound to CPU 0 and to the last CPU, send a pulse to each other in turn, each blocked
// in MsgReceive (its CPU idle, in WFI) until the other's pulse comes. The sender's kernel makes
// the receiver ready and interrupts its CPU (sched_kick_others, GIC SGI 0); that CPU leaves WFI
// and runs it. Each leg, from the counter read just before the send to the one just after the
// receive returns (CNTVCT_EL0 from EL0: board_clock.h), must be under a quarter of a tick
// period: were the IPI lost, the receiver would wait for its CPU's own timer interrupt, which
// comes once a period (staggered by P/n across the CPUs: kernel/arch/aarch64/irq_timer.c), so
// a lost IPI shows as a leg of up to a period, over the bound three times in four. A leg takes
// a few thousand instructions; under -icount shift=0 that is microseconds.
#include "st_ipi.h"
#include "st_sleep.h"
#include <kern.h>
#include <board_clock.h>

#define PING_ROUNDS 100u
#define PING_STACK 1024
#define PING_PRIO 70
#define PING_CODE 0x7100

static KSTACK(ping_stacks[2], PING_STACK);
static int ping_chid[2], ping_coid[2];
static volatile uint64_t ping_sent_at;
static struct ipi_result *res;
static uint32_t ping_cpu[2];

// Waits for the other side's pulse (no timeout: a receive with one armed would take the
// exclusive path, kernel/ipc.c first_receiver_timed) and measures the leg.
static void ping_wait(uint32_t side)
{
    struct kpulse p = { 0 };
    int r = MsgReceive(ping_chid[side], &p, sizeof(p), NULL);
    uint64_t took = board_cntvct() - ping_sent_at;
    res->legs++;
    res->bad += r != 0 || p.code != PING_CODE;
    if (took > res->worst)
        res->worst = took;
    res->late += took > res->bound;
}

static void ping_send(uint32_t side)
{
    ping_sent_at = board_cntvct();
    MsgSendPulse(ping_coid[!side], PING_PRIO, PING_CODE, 0);
}

static int pinger(void *arg)
{
    uint32_t side = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << ping_cpu[side]));
    for (uint32_t i = 0; i < PING_ROUNDS; i++) {
        if (side == 0) {
            ping_send(0);
            ping_wait(0);
        } else {
            ping_wait(1);
            ping_send(1);
        }
    }
    return 0;
}

void ipi_pingpong(uint32_t ncpu, struct ipi_result *r)
{
    res = r;
    ping_cpu[0] = 0;
    ping_cpu[1] = ncpu - 1;
    r->bound = sleep_cycles_per_sec() * sleep_tick_ns() / 4u / 1000000000u;
    int tids[2];
    for (uint32_t s = 0; s < 2; s++) {
        ping_chid[s] = ChannelCreate(0);
        ping_coid[s] = ConnectAttach(0, ping_chid[s]);
    }
    // The receiving side first, so that the first pulse finds it waiting.
    for (int s = 1; s >= 0; s--) {
        tids[s] = ThreadCreate(pinger, (void *)(uintptr_t)s, ping_stacks[s], sizeof(ping_stacks[0]),
                               PING_PRIO, 0);
        ThreadSleep(sleep_tick_ns());   // (it binds itself and waits meanwhile)
    }
    for (uint32_t s = 0; s < 2; s++) {
        ThreadJoin(tids[s], NULL);
        ConnectDetach(ping_coid[s]);
        ChannelDestroy(ping_chid[s]);
    }
}
