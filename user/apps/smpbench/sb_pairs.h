// SPDX-License-Identifier: MIT
// smpbench's pairs (smpbench.c), shared with its other pair benchmarks (sb_pulses.c): n
// server/client pairs, pair k's two threads bound to CPU k by themselves, on channel
// pair_chid[k]; the client calls pair_ready_wait_go() once set up and pair_done(k) at its
// phase's end.
#ifndef SMPBENCH_SB_PAIRS_H
#define SMPBENCH_SB_PAIRS_H
#include <kern.h>
#include <stdint.h>

extern int pair_chid[];
// What a pair's server receives: a client's number (0: the end), or a pulse.
union pair_msg {
    uint32_t v;
    struct kpulse p;
};

void pair_ready_wait_go(void);
void pair_done(uint32_t k);
// Counter cycles from the start to the last pair's end, n pairs at once.
uint64_t pairs_phase_of(uint32_t n, int (*server)(void *), int server_prio,
                        int (*client)(void *), int client_prio);
uint32_t sysinfo(uint32_t what);    // SysInfo's value (0 when refused)

#endif
