// SPDX-License-Identifier: MIT
// The library's user-event ring (trace_uring.c), used by TraceEvent(KTRACE_INSERTSUSEREVENT).
#ifndef USER_LIB_TRACE_URING_H
#define USER_LIB_TRACE_URING_H

#include <stddef.h>
#include <stdint.h>

// Puts a 2-word user event in this process's ring: 0 done, -1 when the caller must make the
// kernel call instead (no ring, the ring full or given up by the kernel, a bad code).
int trace_uring_insert(uint32_t code, uint32_t a, uint32_t b);

// A thread is about to be created on [stack, stack + size): on boards with several CPUs
// (BOARD_USER_RING_THREADS) it gets a ring of its own, found by its stack, while one is free.
void trace_uring_thread_stack(void *stack, size_t size);

// The calling thread ends (ThreadExit): a ring of its own that it never registered is free
// for a later thread now (one it registered, the kernel frees when it has drained it).
void trace_uring_thread_end(void);

// The thread trace_uring_thread_stack was told of was not created: its ring is free again.
void trace_uring_thread_failed(void *stack, size_t size);

// One thread's ring: its stack's bounds, its registration (0 not yet, 1 in use, -1 not
// available: the process's ring serves it) and the ring (set when the slot is claimed, so
// that the insert's lookup computes nothing); seq: 0 never used, odd while the claiming
// thread writes the range (trace_uring.c has the slot's life). 32 bytes on a 64-bit target
// (the lookup steps by a shift). The table is apphdr.c's, sized per board.
struct kuser_ring;
struct trace_uring_slot {
    uintptr_t lo, hi;
    int state;
    unsigned seq;
    struct kuser_ring *ring;
};

#endif
