// SPDX-License-Identifier: MIT
// smpstress's test 18: device interrupts and InterruptUnmask on the kernel lock's shared side
// (kernel/irq.c). A driver process (st_drv, bound to CPU 0 by its device-timer window) takes
// ST_DRV_NIRQ interrupts of the board's device timer, programmed at ST_DRV_RATE_HZ, each as a
// pulse, acknowledging the device and unmasking the line after each. Checked:
//   - every interrupt came, at the programmed rate: ST_DRV_NIRQ pulses, none missing (no wait of
//     100 ms), and the generic timer's count read from EL0 from the first to the last is
//     (ST_DRV_NIRQ - 1) periods of the rate programmed, within one period either side (the
//     timer is periodic from its compare value, so the interrupts do not drift);
//   - the kernel's count of exclusive entries (SysInfo) during them grows by at most the
//     kernel's ticks, a quarter more, and 8, as test 13's idle CPUs: with the interrupt and the
//     unmask exclusive it grew by two an interrupt more (2 x 400);
//   - wrong calls, st_drv's own (an id attached by nobody, another line than the id's, no line)
//     and this process's on st_drv's line (InterruptUnmask and InterruptMask on a line another
//     process attached), each fail with EINVAL, the one-CPU kernel's answer (user/apps/ktest
//     t_irq.c asks the same on every board), none takes the exclusive side beyond the ticks and
//     4, and none changes the line: its interrupts still come.
// The rate and the counts only under -icount: on the host's clock a CPU the host does not run
// takes its tick late and the device's interrupts in bursts; there the test shows them.
#include "st_irq.h"
#include "st_msg.h"
#include "../st_drv/st_drv.h"
#include <kern.h>
#include <errno.h>
#include <stdio.h>

static uint32_t ticks(void)
{
    uint32_t v = 0;
    SysInfo(KSYSINFO_TICKS, &v);
    return v;
}

// Receives st_drv's report within 5 s and replies; false when none came.
static bool report(int chid, struct st_drv_report *r, bool (*between)(const struct st_drv_report *))
{
    TimerTimeout(5000 * 1000000ull);
    int rcvid = MsgReceive(chid, r, sizeof(*r), NULL);
    if (rcvid <= 0)
        return false;
    bool ok = between ? between(r) : true;
    MsgReply(rcvid, 0, NULL, 0);
    return ok;
}

static uint32_t others_wrong, others_calls, others_excl, others_ticks;

// Another process's line: InterruptUnmask and InterruptMask on it, each EINVAL.
static bool others_line(const struct st_drv_report *r)
{
    if (r->phase != ST_DRV_ATTACHED)
        return false;
    uint32_t e0 = exclusive_entries(), t0 = ticks();
    for (uint32_t i = 0; i < ST_DRV_HOSTILE_ROUNDS; i++) {
        errno = 0;
        others_wrong += !(InterruptUnmask(r->line, r->id) == -1 && errno == EINVAL);
        errno = 0;
        others_wrong += !(InterruptMask(r->line, r->id) == -1 && errno == EINVAL);
    }
    others_excl = exclusive_entries() - e0;
    others_ticks = ticks() - t0;
    others_calls = 2 * ST_DRV_HOSTILE_ROUNDS;
    return true;
}

bool irq_test(unsigned testno, bool virtual_time)
{
    int chid = ChannelCreate(0);
    int pid = ProcSpawn("st_drv", 0, (uint32_t)chid);
    struct st_drv_report r = { 0 };
    bool attached = pid > 0 && report(chid, &r, others_line);
    bool done = attached && report(chid, &r, NULL) && r.phase == ST_DRV_DONE;
    int st = 0;
    bool exited = pid > 0 && ProcWait(pid, &st) == pid && KW_EXITED(st) && !KW_EXITSTATUS(st);
    ChannelDestroy(chid);

    uint64_t cps = ClockCyclesPerSec();
    uint64_t want = r.hz ? (uint64_t)(r.n - 1) * cps / r.hz : 0, period = r.hz ? cps / r.hz : 0;
    int64_t off = (int64_t)r.span_cycles - (int64_t)want;
    bool rate_ok = r.n == ST_DRV_NIRQ && !r.timeouts && !r.other &&
                   (!virtual_time || (off <= (int64_t)period && -off <= (int64_t)period));
    uint32_t bound = r.ticks + r.ticks / 4u + 8u;
    bool excl_ok = !virtual_time || r.excl <= bound;
    bool bad_ok = !r.bad_wrong && !others_wrong && r.bad_calls && others_calls &&
                  (!virtual_time || (r.bad_excl <= r.bad_ticks + 4u &&
                                     others_excl <= others_ticks + 4u));
    bool ok = done && exited && rate_ok && excl_ok && bad_ok;
    printf("%s %u - device interrupts shared: %lu of %u at %lu Hz, %ld cycles off "
           "N-1 periods of %lu; %lu exclusive entries with %lu ticks (at most %lu); wrong "
           "calls not EINVAL: %lu of %lu own, %lu of %lu on another's line%s\n",
           ok ? "ok" : "not ok", testno, (unsigned long)r.n, ST_DRV_NIRQ, (unsigned long)r.hz,
           (long)off, (unsigned long)period, (unsigned long)r.excl, (unsigned long)r.ticks,
           (unsigned long)bound, (unsigned long)r.bad_wrong, (unsigned long)r.bad_calls,
           (unsigned long)others_wrong, (unsigned long)others_calls,
           virtual_time ? "" : "; not checked: the host's clock");
    printf("# wrong calls: %lu and %lu exclusive entries with %lu and %lu ticks (at most the "
           "ticks and 4)\n", (unsigned long)r.bad_excl, (unsigned long)others_excl,
           (unsigned long)r.bad_ticks, (unsigned long)others_ticks);
    printf("# from the device's compare value to the driver's receipt: mean %lu, max %lu "
           "counter cycles (%lu a second)\n", (unsigned long)(r.n ? r.lat_sum / r.n : 0),
           (unsigned long)r.lat_max, (unsigned long)cps);
    if (!done || !exited)
        printf("# st_drv: pid %d, attached %d, report phase %lu, status %#x\n", pid, attached,
               (unsigned long)r.phase, st);
    return ok;
}
