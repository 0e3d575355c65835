// SPDX-License-Identifier: MIT
// The library's user-event ring (trace_uring.c), used by TraceEvent(KTRACE_INSERTSUSEREVENT).
#ifndef USER_LIB_TRACE_URING_H
#define USER_LIB_TRACE_URING_H

#include <stdint.h>

// Puts a 2-word user event in this process's ring: 0 done, -1 when the caller must make the
// kernel call instead (no ring, the ring full or given up by the kernel, a bad code).
int trace_uring_insert(uint32_t code, uint32_t a, uint32_t b);

#endif
