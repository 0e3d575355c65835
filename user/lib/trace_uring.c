// SPDX-License-Identifier: MIT
// This process's user-event ring (uapi/ktrace.h struct kuser_ring, kernel/kuring.c has the
// protocol): a 2-word user event is a few stores here and reaches the trace at the process's
// next kernel entry. The first insert registers the ring (KTRACE_USERRING); when that fails,
// the ring is full, or the kernel gave the ring up, inserts go by kernel call as before.
// Threads of the process share the ring: a record is reserved by an atomic increment of head
// and committed by storing its tag last. On boards with several CPUs (BOARD_USER_RING_THREADS)
// each thread the library creates also gets a ring of its own while one is free (one whose
// thread ended is free again once the kernel forgot it), registered by its first insert
// (KTRACE_USERRING_THREAD) and drained at its own kernel entries: two threads
// writing on two CPUs then share no cache line (the same protocol; its compare-and-swap meets
// no other CPU). The first insert finds the thread's ring by its stack pointer; from then on,
// where the architecture has a register the kernel sets and the thread cannot
// (arch_ring_hint.h: TPIDRRO_EL0 on AArch64), the kernel names the registered ring there and
// the insert reads it, so its cost does not grow with the threads in the table. The first
// thread and any created while every slot was held use the process's ring.
#include <kern.h>
#include <stdbool.h>
#include <trace/kev.h>
#include <board_user.h>
#include <board_clock.h>
#include "trace_uring.h"
#if __has_include(<arch_ring_hint.h>)
#include <arch_ring_hint.h>
#else
static inline uintptr_t arch_ring_hint(void) { return 0; }     // no such register: look up
#endif
// The two inserts' alignment, where the architecture asks for one (arch_ring_hint.h): each is
// smaller than it, so neither crosses a page.
#ifdef ARCH_URING_TEXT_ALIGN
#define URING_TEXT __attribute__((aligned(ARCH_URING_TEXT_ALIGN)))
#else
#define URING_TEXT
#endif

// The ring: its header then the records (struct kuser_ring's flexible array), sized per
// program in its header object (user/lib/apphdr.c).
extern const uint32_t trace_uring_records;
extern uint32_t trace_uring_mem[];
static int uring_state;     // 0 not registered yet, 1 in use, -1 not available

#if defined(BOARD_USER_RING_THREADS) && BOARD_USER_RING_THREADS > 0
#define URING_DRAIN_FIRST 1     // a full ring: KTRACE_USERDRAIN before any ThreadYield
extern const uint32_t trace_uring_thread_words;
extern uint32_t trace_uring_thread_mem[];        // rows of trace_uring_thread_words words
extern struct trace_uring_slot trace_uring_slots[BOARD_USER_RING_THREADS];
static unsigned uring_nslots;   // slots claimed so far (the lookup looks at these only)

// A slot's life. Free: never used (seq 0), or its ring marked KUSER_RING_FORGOTTEN. The kernel
// stores that mark last when the slot's thread has ended, after the ring's last drain, and
// touches the ring no more until a thread registers it again (kernel/kuring.c,
// kuring_thread_gone): so a slot is never handed out while the kernel may still drain the old
// thread's records. A thread that never registered its ring (it inserted nothing) marks it
// itself as it ends (trace_uring_thread_end, from ThreadExit): the kernel never knew it.
// Claimed by a creating thread with one compare-and-swap (seq 0 -> 1, or the ring's mark
// FORGOTTEN -> 0): two threads created at once on two CPUs never take one slot. The claimer
// alone then writes the stack's range, under seq (odd while it changes; the lookup reads the
// range whole). So the table serves any number of threads over a program's life, as many at
// once as it has slots.
static struct kuser_ring *slot_ring(unsigned i)
{
    return (struct kuser_ring *)&trace_uring_thread_mem[i * trace_uring_thread_words];
}

// Whether slot s belongs to the live thread whose stack holds sp: its range read whole, its
// ring not forgotten (a forgotten slot's range is a dead thread's stack, whose memory another
// thread may run on now) nor unavailable. Only where the insert's quick range test matched.
static __attribute__((noinline)) bool slot_holds(struct trace_uring_slot *s, uintptr_t sp)
{
    unsigned i = (unsigned)(s - trace_uring_slots);
    unsigned q = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
    uintptr_t lo = __atomic_load_n(&s->lo, __ATOMIC_RELAXED);
    uintptr_t hi = __atomic_load_n(&s->hi, __ATOMIC_RELAXED);
    int state = __atomic_load_n(&s->state, __ATOMIC_RELAXED);
    uint32_t mark = __atomic_load_n(&slot_ring(i)->corrupt, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return !(q & 1u) && q == __atomic_load_n(&s->seq, __ATOMIC_RELAXED) &&
           sp - lo < hi - lo && state >= 0 && mark != KUSER_RING_FORGOTTEN;
}

void trace_uring_thread_stack(void *stack, size_t size)
{
    if (trace_uring_records == 0)
        return;             // the program has no rings: its events go by kernel call
    for (unsigned i = 0; i < BOARD_USER_RING_THREADS; i++) {
        struct trace_uring_slot *s = &trace_uring_slots[i];
        unsigned q = 0;
        uint32_t forgotten = KUSER_RING_FORGOTTEN;
        if (__atomic_compare_exchange_n(&s->seq, &q, 1u, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            s->ring = slot_ring(i);         // never used: claimed, seq odd already
        } else if (__atomic_load_n(&slot_ring(i)->corrupt, __ATOMIC_ACQUIRE) == forgotten &&
                   __atomic_compare_exchange_n(&slot_ring(i)->corrupt, &forgotten, 0u, 0,
                                               __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            q = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);     // ours alone from here
            __atomic_store_n(&s->seq, q + 1u, __ATOMIC_RELAXED);
        } else {
            continue;
        }
        __atomic_thread_fence(__ATOMIC_RELEASE);    // seq odd before the range changes
        __atomic_store_n(&s->lo, (uintptr_t)stack, __ATOMIC_RELAXED);
        __atomic_store_n(&s->hi, (uintptr_t)stack + size, __ATOMIC_RELAXED);
        __atomic_store_n(&s->state, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&s->seq, q + 2u, __ATOMIC_RELEASE);   // usable from now on
        unsigned n = __atomic_load_n(&uring_nslots, __ATOMIC_RELAXED);
        while (n < i + 1u && !__atomic_compare_exchange_n(&uring_nslots, &n, i + 1u, 1,
                                                          __ATOMIC_RELEASE, __ATOMIC_RELAXED))
            ;
        return;
    }
}

// The calling thread's slot, when its stack is in the table.
static inline struct trace_uring_slot *thread_slot(void)
{
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    unsigned n = __atomic_load_n(&uring_nslots, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++) {
        struct trace_uring_slot *s = &trace_uring_slots[i];
        if (sp - s->lo < s->hi - s->lo && slot_holds(s, sp))
            return s;
    }
    return NULL;
}

// Slot s is free again: its ring is one the kernel never knew (never registered) or has
// given up (corrupt 1: it forgot it then, kernel/kuring.c give_up).
static void slot_unused(struct trace_uring_slot *s)
{
    if (s && (s->state == 0 || __atomic_load_n(&s->ring->corrupt, __ATOMIC_ACQUIRE) == 1u))
        __atomic_store_n(&s->ring->corrupt, KUSER_RING_FORGOTTEN, __ATOMIC_RELEASE);
}

void trace_uring_thread_end(void)
{
    slot_unused(thread_slot());
}

void trace_uring_thread_failed(void *stack, size_t size)
{
    unsigned n = __atomic_load_n(&uring_nslots, __ATOMIC_ACQUIRE);
    for (unsigned i = 0; i < n; i++) {
        struct trace_uring_slot *s = &trace_uring_slots[i];
        if (slot_holds(s, (uintptr_t)stack) && s->lo == (uintptr_t)stack &&
            s->hi == (uintptr_t)stack + size) {
            slot_unused(s);
            return;
        }
    }
}

// This thread's ring and registration: its own when its stack is in the table. (The loop is
// thread_slot's, written out so that the compiler lays the insert out as before: a thread
// without a ring of its own pays the same instructions per insert.)
static inline struct kuser_ring *thread_ring(int **state, uint32_t *which)
{
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    unsigned n = __atomic_load_n(&uring_nslots, __ATOMIC_ACQUIRE);
    if (n) {
        struct trace_uring_slot *s = trace_uring_slots, *end = s + n;
        do {
            if (sp - s->lo < s->hi - s->lo && slot_holds(s, sp)) {
                *state = &s->state;
                *which = KTRACE_USERRING_THREAD;
                return s->ring;
            }
        } while (++s != end);
    }
    return (struct kuser_ring *)trace_uring_mem;
}
#else
#define URING_DRAIN_FIRST 0
void trace_uring_thread_stack(void *stack, size_t size)
{
    (void)stack, (void)size;
}

void trace_uring_thread_end(void) {}

void trace_uring_thread_failed(void *stack, size_t size)
{
    (void)stack, (void)size;
}

static inline struct kuser_ring *thread_ring(int **state, uint32_t *which)
{
    (void)state, (void)which;
    return (struct kuser_ring *)trace_uring_mem;
}
#endif

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

// The insert, its time read here (clock) or given by the caller (ts): one body, inlined into
// each entry point with `clock` a constant, so the library's usual insert tests nothing more.
static inline __attribute__((always_inline)) int uring_insert(uint32_t code, uint32_t a,
                                                              uint32_t b, const bool clock,
                                                              uint32_t given)
{
    struct kuser_ring *u = (struct kuser_ring *)arch_ring_hint();   // registered, its own
    if (!u) {
        int *state = &uring_state;
        uint32_t which = 0;
        u = thread_ring(&state, &which);
        if (__builtin_expect(*state <= 0, 0)) {
            if (*state < 0 || trace_uring_records == 0)
                return -1;
            int r = TraceEvent(KTRACE_USERRING, (uint32_t)(uintptr_t)u, trace_uring_records,
                               which);
            *state = r < 0 ? -1 : 1;
            if (r < 0)
                return -1;
        }
    }
    uint32_t n = *(volatile uint32_t *)&u->nrec;
    if (code > KEV_EVENT_MASK || n == 0)  // bad code: the kernel call says why; 0: given up
        return -1;
    uint32_t ts = clock ? uring_now() : given;
    uint32_t h = __atomic_load_n(&u->head, __ATOMIC_RELAXED);
    for (unsigned full = 0;;) {
        if (h - *(volatile uint32_t *)&u->tail >= n) {
            // Full. A kernel entry drains it, up to a record another thread has reserved
            // and not committed yet; an event sent by kernel call now would come before
            // this thread's own records still behind that one. So: on several CPUs a drain
            // first (a kernel entry that does nothing else, on the shared side of the kernel
            // lock: docs/smp.md, "User events"), then yield (a kernel entry, and a turn for
            // that thread) a few times; then the kernel call, which the drain makes rare.
            // One CPU yields at once.
            if (++full > 4)
                return -1;
            if (URING_DRAIN_FIRST && full == 1)
                TraceEvent(KTRACE_USERDRAIN, 0, 0, 0);
            else
                ThreadYield();
            h = __atomic_load_n(&u->head, __ATOMIC_RELAXED);
            if (clock)
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

URING_TEXT int trace_uring_insert(uint32_t code, uint32_t a, uint32_t b)
{
    return uring_insert(code, a, b, true, 0);
}

URING_TEXT int TraceUserEventAt(uint32_t code, uint32_t ts, uint32_t a, uint32_t b)
{
    if (uring_insert(code, a, b, false, ts) == 0)
        return 0;
    return TraceEvent(KTRACE_INSERTSUSEREVENT, code, a, b);    // the kernel's call, its time
}
