// SPDX-License-Identifier: MIT
// This process's user-event ring (uapi/ktrace.h struct kuser_ring, kernel/kuring.c has the
// protocol): a 2-word user event is a few stores here and reaches the trace at the process's
// next kernel entry. The first insert registers the ring (KTRACE_USERRING); when that fails,
// the ring is full, or the kernel gave the ring up, inserts go by kernel call as before.
// Threads of the process share the ring: a record is reserved by an atomic increment of head
// and committed by storing its tag last.
#include <kern.h>
#include <trace/kev.h>
#include <board_user.h>
#include <board_clock.h>
#include "trace_uring.h"

// The ring: its header then the records (struct kuser_ring's flexible array), sized per
// program in its header object (user/lib/apphdr.c).
extern const uint32_t trace_uring_records;
extern uint32_t trace_uring_mem[];
static int uring_state;     // 0 not registered yet, 1 in use, -1 not available

// The low word of the cycle counter when the board lets programs read it, else 0 (the
// kernel then stamps the event when it drains it).
static inline uint32_t uring_now(void)
{
#if defined(BOARD_USER_CLOCK) && BOARD_USER_CLOCK
    return board_cycles32();
#else
    return 0;
#endif
}

int trace_uring_insert(uint32_t code, uint32_t a, uint32_t b)
{
    struct kuser_ring *u = (struct kuser_ring *)trace_uring_mem;
    if (__builtin_expect(uring_state <= 0, 0)) {
        if (uring_state < 0 || trace_uring_records == 0)
            return -1;
        int r = TraceEvent(KTRACE_USERRING, (uint32_t)(uintptr_t)u, trace_uring_records, 0);
        uring_state = r < 0 ? -1 : 1;
        if (r < 0)
            return -1;
    }
    uint32_t n = *(volatile uint32_t *)&u->nrec;
    if (code > KEV_EVENT_MASK || n == 0)  // bad code: the kernel call says why; 0: given up
        return -1;
    uint32_t ts = uring_now();
    uint32_t h = __atomic_load_n(&u->head, __ATOMIC_RELAXED);
    for (unsigned full = 0;;) {
        if (h - *(volatile uint32_t *)&u->tail >= n) {
            // Full. A kernel entry drains it, up to a record another thread has reserved
            // and not committed yet; an event sent by kernel call now would come before
            // this thread's own records still behind that one. So: yield (a kernel entry,
            // and a turn for that thread) a few times first; then the kernel call.
            if (++full > 4)
                return -1;
            ThreadYield();
            h = __atomic_load_n(&u->head, __ATOMIC_RELAXED);
            ts = uring_now();
            continue;
        }
        if (__atomic_compare_exchange_n(&u->head, &h, h + 1u, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            break;
    }
    struct kuser_rec *rec = &u->rec[h & (n - 1u)];
    rec->ts = ts;
    rec->a = a;
    rec->b = b;
    __atomic_store_n(&rec->tag, (h & 0xffffu) << 16 | code, __ATOMIC_RELEASE);
    return 0;
}
