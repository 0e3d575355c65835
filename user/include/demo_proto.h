// SPDX-License-Identifier: MIT
// Messages of the demo system (user/apps/{init,srv,client,ticker,driver,worker}). srv gives
// its channel the name DEMO_SRV_NAME (name_attach); its clients find it by that name
// (name_open with NAME_FLAG_WAIT: they may start before it has attached it), as QNX programs
// find a resource manager.
#ifndef DEMO_PROTO_H
#define DEMO_PROTO_H

#include <stdint.h>

#define DEMO_SRV_NAME "srv"
#define DEMO_OPEN_WAIT_NS 2000000000ull    // how long a client waits for srv's name

enum demo_op {
    DEMO_READ = 2,      // client -> srv: reply value = current reading
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

#endif
