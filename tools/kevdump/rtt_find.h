// SPDX-License-Identifier: MIT
// Finding and reading an RTT control block (trace/rtt.h) through a GDB server: as a probe
// does with OpenOCD's `rtt setup ADDR SIZE "SEGGER RTT"`, by scanning a RAM range for the ID.
#ifndef TOOLS_RTT_FIND_H
#define TOOLS_RTT_FIND_H

#include <kevhost/gdb_remote.h>
#include <trace/rtt.h>

// The control block's address in [start, start + len), or 0 when the ID is not there (yet);
// -1 on a GDB error. The target must be halted.
long long rtt_find(struct gdbr *g, uint64_t start, uint64_t len);
// Up-channel `ch` of the control block at cb: 0, or -1 (g->err says why).
int rtt_read_up(struct gdbr *g, uint64_t cb, unsigned ch, struct rtt_channel *out);

#endif
