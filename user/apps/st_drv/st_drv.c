// SPDX-License-Identifier: MIT
// st_drv: smpstress's device driver process (test 14, user/apps/smpstress/st_irq.c). ProcArg():
// the channel of pid 1 to report on (st_drv.h). It drives the board's device timer at
// ST_DRV_RATE_HZ through the normal driver path (InterruptAttachEvent, a pulse per interrupt,
// acknowledge the device, InterruptUnmask) for ST_DRV_NIRQ interrupts, and reads around them
// the kernel's count of exclusive entries and of ticks, and the generic timer's count from EL0
// at each interrupt (and its latency: that count less the timer's compare value). Before that it makes wrong InterruptMask / InterruptUnmask calls (ids and
// lines not its own), each of which must fail with EINVAL, the one-CPU kernel's answer
// (user/apps/ktest/t_irq.c asks the same there), and counts the exclusive entries meanwhile.
// Nothing in its loop but the interrupts and InterruptUnmask enters the kernel exclusive on a
// kernel that takes them on its shared side (MsgReceive and TimerTimeout are shared, the
// device and the counter are read from EL0).
#include <kern.h>
#include <errno.h>
#include <board_user.h>
#include <board_clock.h>
#include "st_drv.h"

#define CODE_IRQ 5

static uint32_t sysinfo(unsigned what)
{
    uint32_t v = 0;
    SysInfo(what, &v);
    return v;
}

static uint32_t einval(int r)
{
    return r == -1 && errno == EINVAL;
}

// The wrong calls: each answered EINVAL, none changing the line (its interrupts still come).
static void wrong_calls(unsigned line, int id, struct st_drv_report *r)
{
    uint32_t e0 = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE), t0 = sysinfo(KSYSINFO_TICKS);
    uint32_t ok = 0;
    for (uint32_t i = 0; i < ST_DRV_HOSTILE_ROUNDS; i++) {
        ok += einval(InterruptUnmask(line, id + 1));        // an id attached by nobody
        ok += einval(InterruptUnmask(line + 1, id));        // another line than the id's
        ok += einval(InterruptUnmask(0xffffffffu, id));     // no line at all
        ok += einval(InterruptMask(line, 0));
        ok += einval(InterruptMask(line, -1));
        ok += einval(InterruptMask(line - 1, id));
    }
    r->bad_excl = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE) - e0;
    r->bad_ticks = sysinfo(KSYSINFO_TICKS) - t0;
    r->bad_calls = 6 * ST_DRV_HOSTILE_ROUNDS;
    r->bad_wrong = r->bad_calls - ok;
}

int main(void)
{
    int parent = ConnectAttach(1, (int)(ProcArg() & 0xffffu));
    int chid = ChannelCreate(0);
    int self = ConnectAttach(0, chid);
    int id = InterruptAttachEvent(DEVTIMER_IRQ, self, CODE_IRQ);
    struct st_drv_report r = { .phase = ST_DRV_ATTACHED, .line = DEVTIMER_IRQ, .id = id };
    if (parent < 0 || chid < 0 || self < 0 || id < 0) {
        r.phase = ST_DRV_FAILED;
        MsgSend(parent, &r, sizeof(r), NULL, 0);
        return 1;
    }
    MsgSend(parent, &r, sizeof(r), NULL, 0);    // the parent tries our line, then replies
    wrong_calls(DEVTIMER_IRQ, id, &r);

    uint32_t e0 = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE), t0 = sysinfo(KSYSINFO_TICKS);
    r.hz = devtimer_start_hz(ST_DRV_RATE_HZ);
    uint64_t first = 0, last = 0;
    while (r.n < ST_DRV_NIRQ) {
        struct kpulse p;
        TimerTimeout(100 * 1000000ull);
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0) {
            r.timeouts++;
            break;
        }
        if (p.code != CODE_IRQ) {
            r.other++;
            continue;
        }
        last = board_cntvct();
        if (!r.n++)
            first = last;
        uint32_t lat = (uint32_t)(last - devtimer_deadline());
        r.lat_sum += lat;
        r.lat_max = lat > r.lat_max ? lat : r.lat_max;
        devtimer_ack();
        InterruptUnmask(DEVTIMER_IRQ, id);
    }
    devtimer_stop();
    r.excl = sysinfo(KSYSINFO_KENTRIES_EXCLUSIVE) - e0;
    r.ticks = sysinfo(KSYSINFO_TICKS) - t0;
    r.span_cycles = (uint32_t)(last - first);
    InterruptDetach(id);
    r.phase = ST_DRV_DONE;
    MsgSend(parent, &r, sizeof(r), NULL, 0);
    return 0;
}
