// SPDX-License-Identifier: MIT
// st_peer's modes: messages (main.c) and pulses (pulse.c, ProcArg bit 31).
#ifndef ST_PEER_H
#define ST_PEER_H
#include <stdint.h>

#define ST_PEER_MAXCPU 4
#define ST_PEER_PULSES (1u << 31)

int st_peer_pulses(uint32_t arg);

#endif
