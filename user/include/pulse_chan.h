// SPDX-License-Identifier: MIT
// A channel of the program's own that pulses arrive on, from a periodic timer or from an
// interrupt line: ChannelCreate, a connection to it, then TimerCreate + TimerSettime or
// InterruptAttachEvent. Opt-in (a program's app.mk lists user/lib/pulse_chan.c in EXTRA).
#ifndef PULSE_CHAN_H
#define PULSE_CHAN_H

// chid: the channel to MsgReceive on; coid: the program's connection to it; id: the timer's
// (for TimerDestroy) or the interrupt's (for InterruptDetach). After a failure each holds
// what its call returned (-1 where the call was not reached).
struct pulse_chan {
    int chid, coid, id;
};

// A pulse of `code` every period_us, the first rounded up to a whole tick: 0, or -1 (errno).
int pulse_chan_timer(struct pulse_chan *c, unsigned period_us, int code);
// A pulse of `code` at each interrupt of `line`: 0, or -1 (errno).
int pulse_chan_irq(struct pulse_chan *c, unsigned line, int code);

#endif
