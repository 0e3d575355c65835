// SPDX-License-Identifier: MIT
// Messages of the demo system (user/apps/{init,srv,client,ticker,driver,worker}).
// init runs a registry channel; srv registers there; the others get srv's address from
// init as their spawn argument: (pid << 8) | chid.
#ifndef DEMO_PROTO_H
#define DEMO_PROTO_H

#include <stdint.h>

enum demo_op {
    DEMO_REGISTER = 1,  // srv -> init: value = srv's channel
    DEMO_READ,          // client -> srv: reply value = current reading
    DEMO_WRITE,         // client -> srv: value = new set point
    DEMO_SAMPLE,        // driver -> srv: value = device sample
    DEMO_STATS,         // init -> srv: reply with struct demo_stats
    DEMO_QUIT,          // init -> srv
};

#define DEMO_PULSE_TICK 1   // ticker -> srv, value = tick number

struct demo_msg {
    int32_t op;
    int32_t value;
};

struct demo_stats {
    int32_t reads, writes, samples, ticks;
};

#define DEMO_ADDR(pid, chid) ((uint32_t)(pid) << 8 | (uint32_t)(chid))
#define DEMO_PID(addr)  ((int)((addr) >> 8))
#define DEMO_CHID(addr) ((int)((addr) & 0xff))

#endif
