// SPDX-License-Identifier: MIT
// The hostile suite's attacks 17 to 24 (rerun.c), and what it shares with the runner (main.c).
#ifndef KT_HOSTILE_RERUN_H
#define KT_HOSTILE_RERUN_H
#include <stdbool.h>
#include <stdint.h>

#include <tap.h>     // tap_check: a TAP line
// Runs attack `mode` in its own kt_attack at `prio`, checks its end and the victim (main.c).
int run_attack(unsigned mode, uint32_t param, int prio, int sig, const char *what);
// Receives the pulses queued on chid until none comes within timeout_ns: how many came, and in
// *matched how many had the code `code` (and the value `value`, unless it is -1).
int drain_pulses(int chid, uint64_t timeout_ns, int code, int value, int *matched);
// The rerun's attacks, after the suite's own.
void hostile_rerun(void);
#endif
