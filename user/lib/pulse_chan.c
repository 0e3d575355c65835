// SPDX-License-Identifier: MIT
// The pulse channels of pulse_chan.h.
#include <kern.h>

#include <pulse_chan.h>

// The channel and the program's own connection to it.
static int open_chan(struct pulse_chan *c)
{
    c->id = -1;
    c->coid = -1;
    c->chid = ChannelCreate(0);
    if (c->chid < 0)
        return -1;
    c->coid = ConnectAttach(0, c->chid);
    return c->coid < 0 ? -1 : 0;
}

int pulse_chan_timer(struct pulse_chan *c, unsigned period_us, int code)
{
    if (open_chan(c) < 0)
        return -1;
    c->id = TimerCreate(c->coid, code, 0);
    if (c->id < 0 || TimerSettime(c->id, period_us, period_us) < 0)
        return -1;
    return 0;
}

int pulse_chan_irq(struct pulse_chan *c, unsigned line, int code)
{
    if (open_chan(c) < 0)
        return -1;
    c->id = InterruptAttachEvent(line, c->coid, code);
    return c->id < 0 ? -1 : 0;
}
