// SPDX-License-Identifier: MIT
// The trace producer: a ring of N buffers of 1024 16-byte slots (trace/kev.h) in one
// caller-provided contiguous block, with an explicit context (struct trace_ring, no globals).
// The kernel emits events through the inline hooks below; the logger side takes full buffers,
// saves them and releases them. Freestanding C: builds for the target and for host tests.
//
// PORT CONTRACT. `#include <trace_port.h>` is resolved by the include path (the kernel's port,
// or test/unit/trace_port.h on the host). It must define these static inline functions:
//   uint32_t trace_port_now32(void);   low 32 bits of the cycle counter; equal to
//                                      (uint32_t)trace_port_now64() read at the same instant
//   uint64_t trace_port_now64(void);   the full cycle counter (monotonic per CPU)
//   unsigned trace_port_cpu(void);     this CPU's number, < TRACE_MAX_CPUS
// It may define TRACE_PORT_CPU_STATE(r), this CPU's &r->tr_cpu[trace_port_cpu()] found
// faster (the kernel keeps a pointer to it in its per-CPU structure: one load instead of the
// number's load and the index arithmetic).
//   unsigned long trace_port_irq_save(void);        disable local interrupts, return old state
//   void trace_port_irq_restore(unsigned long s);    restore what irq_save returned
//   int trace_port_in_interrupt(void);  non-zero in interrupt (handler) context
//   void trace_port_notify(struct trace_ring *r, unsigned bufidx, unsigned seq);
//        "buffer bufidx (sequence seq) wants saving": raise the synthetic interrupt the logger
//        waits on. Called with interrupts disabled, never in interrupt context (deferred
//        notifications are delivered by trace_ring_irq_exit), and must not emit trace events.
//   void trace_port_stopped(struct trace_ring *r);
//        the ring stopped itself (FILL policy, every buffer used): tr_active is now 0. For a
//        port that mirrors the active classes. Same context and limits as trace_port_notify.
//   void trace_port_publish(const void *p, size_t n);
//        what this CPU stored over [p, p + n) made visible to a reader outside the CPUs' caches
//        (a debug probe's system-bus reads, trace/kev_probe.h): the lines cleaned to the point
//        of coherency, ordered before the stores that follow; nothing where no cache stands
//        between. Called only on a quiet ring (a probe reads it), with the ring's locks held.
//   void trace_port_fetch(const void *p, size_t n);
//        the next loads of [p, p + n) read what such a reader wrote there (the lines cleaned
//        and invalidated); nothing where no cache stands between.
//   void trace_port_lock(uint32_t *word);    void trace_port_unlock(uint32_t *word);
//        a spinlock on a word that starts 0 (acquire / release ordering). Used only when
//        TRACE_MAX_CPUS > 1; a one-CPU port may make them empty.
// trace_port_notify and trace_port_stopped may be called on any CPU, by several CPUs at once,
// with no lock of the caller's held (only the ring's own): a port defers what needs more
// (the kernel queues the notification per CPU and raises the interrupt at its kernel exit).
//
// LOCKING (the contract the kernel relies on). Every call runs with local interrupts disabled
// (port irq_save) and needs no lock of the caller's: trace_emit_* may run on several CPUs at
// once, each CPU writing its own buffer, concurrently with the control and logger calls on
// another CPU. The ring's locks, taken inside it, all spinlocks through the port and all
// compiled out when TRACE_MAX_CPUS == 1:
//   tc_lock (one per CPU, in that CPU's own cache line): the CPU's write pointer, limit and
//            its FILLING buffer, for the slow path (trace_ring.c) and for another CPU that
//            closes this CPU's buffer for the logger (take, flush, stop) or reads its counts.
//            The inline hooks do not take it: see WRITER AND CLOSER below.
//   tr_pool_lock: the pool (which buffer is FREE/FULL/LOGGER, sequence numbers, the
//            policy), buffer switches, every CPU's other loss counts (tc_recorded,
//            tc_overwritten, tc_unreported: a CPU overwriting another's buffer changes them
//            without waiting for that CPU), deferred notifications, the control calls and the
//            filters. Taken only at buffer switches and by the control/logger calls, never
//            for an event that fits in the CPU's current buffer, nor for one dropped while
//            the CPU is dry (DRY below). (tc_npending, changed from interrupt context under
//            the CPU's lock alone, is atomic.) tc_dropped and the dry state are the CPU's own
//            (its tc_lock; a reader of the counts holds both).
// Order: tr_pool_lock, then tc_locks. A CPU holding its tc_lock and needing the pool lets go
// of it first; only the holder of the pool lock takes a second tc_lock (another CPU's, or all
// of them in CPU order for a filter change, so that filters read under one's own tc_lock are
// whole), and never while it holds its own. So no cycle: no deadlock. The filter words the inline hooks read unlocked
// (tr_active, tr_slow, tr_wide) are single words: a stale value sends the event to the slow
// path, which re-checks under the locks.
//
// WRITER AND CLOSER (several CPUs). An inline hook writes its CPU's buffer with no lock; a
// CPU closing another's buffer must not write the end slot while that CPU writes an event.
// So the two meet as in Dekker's algorithm, through two words of the writer's struct
// trace_cpu, each side storing one and then loading the other, both sequentially consistent:
//   writer: stores the busy mark (the CPU's own struct trace_cpu address, never a slot's) in
//           tc_wp, loads tc_limit, writes the event below it, and stores the new tc_wp
//           (release: the mark's end and the event's publication in one store);
//   closer: holding the pool lock and the writer's tc_lock (so the writer's slow path, the
//           only other writer of tc_limit, waits), stores tc_limit = 0 (no room), loads tc_wp
//           and waits while it holds the busy mark (trace_ring.c, quiesce).
// Either the closer sees the mark and waits for the event's end, or the writer sees the zero
// limit and takes the slow path, which waits for the closer's lock: the end slot and an
// event are never written at once. A closer leaves tc_limit 0 (a closed buffer's, or
// restored by set_limit after a count), so a hook never pairs a write pointer of the closer's
// with a limit of its own. The writer's cost: one store and one ordered load (no lock, no
// barrier instruction beyond the ordered accesses).
//
// DRY (what a full ring costs). A CPU whose pick found no buffer is dry: until something could
// have freed one, each of its events is counted dropped under its own lock, in a constant
// number of instructions, without looking at the pool. Something could have: the logger gave
// a buffer back (tr_freed moved), the host wrote the word of the buffer it frees next (the
// oldest FULL one, watched: one load), or the CPU dropped as many events as its backoff says
// (1, 2, 4 ... TRACE_DRY_SPAN_MAX: the rare frees out of order, and a host's claim's passes).
// Then it picks again as any event would. So a reader that is slow, paused or gone costs the
// writer its dropped events' count, and a pick (O(buffers)) once per buffer freed or per
// backoff span, never per event.
//
// INVARIANTS. Every buffer starts with CONTROL BUFFER (seq, index) and CONTROL TIME (64-bit
// time) and, when events were lost before it on this CPU, CONTROL DROPPED (count, total). Its
// last used slot is CONTROL BUFFER_END (seq, events in the buffer); a slot is reserved for it.
// A combine event never spans two buffers. Per CPU: recorded + lost == events generated, where
// "generated" means emitted while the class was active and passing the filters; CONTROL
// events are the ring's own and are not counted.
#ifndef TRACE_TRACE_RING_H
#define TRACE_TRACE_RING_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <trace/kev.h>
#include <trace/kev_ring_map.h>

struct trace_ring;
#include <trace_port.h>

#ifndef TRACE_MAX_CPUS
#define TRACE_MAX_CPUS 1u
#endif
#ifndef TRACE_MAX_BUFS
#define TRACE_MAX_BUFS 64u
#endif
#define TRACE_EV_FILTERS 8u // per-event PID/TID filter entries
// A host's claim (trace/kev_probe.h) holds its buffer against this many picks that would have
// reused it (a slow probe's copy of 16 KB spans a few at the demo's rate: docs/probe-path.md).
#define TRACE_CLAIM_PASSES 8u
#define TRACE_CLAIM_COUNTED 0x80u   // (tb_claim: this life's refusal is counted)
// A dry CPU (DRY below) picks again at the latest after this many drops (its backoff's cap).
#define TRACE_DRY_SPAN_MAX 1024u
// On several CPUs each CPU's struct trace_cpu starts a cache line of its own (and the shared
// words the hooks read, tr_active ..., keep theirs), so a CPU writing its own buffer never
// writes a line another CPU reads on its hot path. TRACE_CACHE_LINE: the largest data-cache
// line of the CPUs (64 bytes on the Cortex-A53); a port may set it.
#ifndef TRACE_CACHE_LINE
#define TRACE_CACHE_LINE 64u
#endif
#if TRACE_MAX_CPUS > 1
#define TRACE_PER_CPU_LINE __attribute__((aligned(TRACE_CACHE_LINE)))
#else
#define TRACE_PER_CPU_LINE
#endif

// Error codes returned negated; the values are those of the kernel's uapi/kerrno.h.
#define TRACE_EAGAIN    11
#define TRACE_EBUSY     16
#define TRACE_EINVAL    22
#define TRACE_ENOSPC    28
#define TRACE_ECANCELED 140

_Static_assert(TRACE_MAX_CPUS >= 1u && TRACE_MAX_CPUS <= KEV_MAX_CPUS, "CPU count fits the header");

// Overrun policies (what happens when the producer needs a buffer and the next is unsaved).
enum trace_policy {
    TRACE_POLICY_SWITCH = 0,    // default: never overwrite an unsaved buffer; drop and count
    TRACE_POLICY_OVERWRITE = 1, // QNX: skip the logger's buffer, overwrite the next unsaved one
    TRACE_POLICY_RING = 2,      // flight recorder: no notifications, wrap until stop
    TRACE_POLICY_FILL = 3,      // one pass over the buffers, tracing stops when all are full
};

// Buffer life cycle (enum trace_bufstate, FREE -> FILLING -> FULL -> LOGGER -> FREE): in
// trace/kev_ring_map.h, beside the map through which a reader outside the target reads it.

// Dynamic filter: return non-zero to log the event. Called with interrupts disabled.
typedef int (*trace_dyn_filter_fn)(void *arg, unsigned cls, unsigned ev, const uint32_t *words,
                                   unsigned nwords);

struct trace_buf {
    uint32_t tb_seq;      // sequence number given when the buffer started filling
    uint8_t tb_state;     // enum trace_bufstate
    uint8_t tb_cpu;       // CPU that filled it
    uint8_t tb_notified;  // 0 not yet, 1 notified (or never will be), 2 deferred
    uint8_t tb_claim;     // this life: picks that passed over the host's claim (low bits),
                          // TRACE_CLAIM_COUNTED once a word of the host's was refused
    uint32_t tb_reported; // loss count of the DROPPED event this buffer starts with
    uint16_t tb_nslots;   // slots used, BUFFER_END included (valid once FULL)
    uint16_t tb_overhead; // slots that are not events: control slots, extra combine slots
    uint32_t tb_lost;     // seq + 1 of the last life reused, counted lost, under a host's
                          // claim (trace/kev_probe.h, "Hand-over": a host that gave a buffer
                          // back as a pick reused it reads whether its copy was counted
                          // lost; it claims no later life of it before it has read this);
                          // stored before the new life's sequence
};

struct trace_cpu {
    // Hot path fields first (small offsets). No room when there is no buffer: tc_wp ==
    // tc_limit (one CPU) or tc_limit 0 (several, WRITER AND CLOSER).
    struct kev_slot *tc_wp;    // next free slot (several CPUs: the busy mark while an inline
                               // hook writes, WRITER AND CLOSER above); first, so that its
                               // ordered stores need no address arithmetic
    struct kev_slot *tc_limit; // the fast path may write a slot only below this (0: no room)
    uint32_t tc_last;          // low timestamp of the last slot written
#if TRACE_MAX_CPUS > 1
    uint32_t tc_hdr;           // this CPU's number in a header's place (set at init); one
                               // CPU has no such word: its bits are 0
#endif
    uint32_t tc_pid, tc_tid;   // current thread (trace_ring_set_current), for PID/TID filters
    uint32_t tc_hi;            // high time word of the last TIME event
    int tc_buf;                // current buffer index, -1 when none
    unsigned tc_npending;      // notifications deferred from interrupt context
    uint64_t tc_recorded;      // events in this CPU's closed buffers (minus overwritten ones)
    uint64_t tc_dropped;       // events that found no buffer
    uint64_t tc_overwritten;   // events lost when their buffer was overwritten
    uint64_t tc_unreported;    // lost events not yet written in a DROPPED event
    uint32_t tc_buffers;       // buffers this CPU started
    uint32_t tc_lock;          // this CPU's lock (LOCKING above)
    uint32_t tc_flushed;       // a flush closed its buffer: the next buffer start is the
                               // flush's doing (tr_reopen_cycles), under the pool lock
    // DRY (above), under this CPU's lock: the last pick found no buffer; tr_freed then; the
    // buffer whose host word is watched (-1: none) and that word then; drops left before the
    // next pick and the span they were counted from; the drops a DROPPED event has reported.
    uint32_t tc_dry;
    uint32_t tc_dry_freed;
    int tc_dry_watch;
    uint32_t tc_dry_word;
    uint32_t tc_dry_left, tc_dry_span;
    uint64_t tc_drop_seen;
} TRACE_PER_CPU_LINE;

struct trace_evfilter {
    uint16_t ef_cls, ef_ev;
    uint32_t ef_pid, ef_tid; // 0 = no filter
};

struct trace_ring {
    // tr_active: bit per class, set when tracing runs and the class is enabled. It is the only
    // thing a disabled hook reads, so keep it the first member.
    uint32_t tr_active;
    uint32_t tr_slow; // classes whose events must go through the filters (slow path)
    uint32_t tr_wide; // classes with at least one event in wide mode (tr_ev_wide's summary)
    struct trace_cpu tr_cpu[TRACE_MAX_CPUS];
    // (On several CPUs the array's lines are padded whole: what follows starts a line.)
    uint32_t tr_classes;  // classes enabled by the user (ADDCLASS / ADDEVENT)
    uint32_t tr_evfilter; // classes restricted to the events set in tr_ev_enable
    uint32_t tr_dynmask;  // classes the dynamic filter applies to
    uint32_t tr_ev_enable[KEV_NCLASS][32];
    uint32_t tr_ev_wide[KEV_NCLASS][32]; // per-event wide mode (class settings fill it)
    uint32_t tr_cls_pid[KEV_NCLASS], tr_cls_tid[KEV_NCLASS];
    struct trace_evfilter tr_evf[TRACE_EV_FILTERS];
    uint32_t tr_pool_lock; // the pool, buffer switches, control and filters (LOCKING above)
    trace_dyn_filter_fn tr_dyn;
    void *tr_dyn_arg;

    struct kev_slot *tr_mem; // nbufs * KEV_BUF_SLOTS slots
    unsigned tr_nbufs;
    unsigned tr_policy;  // enum trace_policy
    unsigned tr_running;
    unsigned tr_filled;  // FILL policy: stopped because every buffer was used
    unsigned tr_big;     // strings are packed for a big-endian file (init: the host's order)
    unsigned tr_last;    // last buffer handed to a CPU
    unsigned tr_fill_next;
    uint32_t tr_next_seq;
    struct kev_slot tr_noslot; // tc_wp (and on one CPU tc_limit) point here without a buffer
    struct trace_buf tr_buf[TRACE_MAX_BUFS];
    // Last, so that the fast path's fields keep their offsets (its instruction count).
    unsigned tr_quiet;   // no notifications: a probe reads the buffers (trace/kev_probe.h)
    uint32_t tr_refused; // words refused (trace_ring.c): a table's CPU or state byte out of
                         // range, a host's word naming no life of its buffer, a claim held
                         // past TRACE_CLAIM_PASSES picks
    const uint32_t *tr_acks; // a host reader's acknowledgement words, one a buffer (NULL: none)
    uint32_t tr_wake_bufs;   // quiet: notify the buffer that makes this many started (0: none)
    uint32_t tr_reopens;     // buffer starts a flush caused (a CPU's first after its buffer was
    uint64_t tr_reopen_cycles;  // flushed) and their cycles, from the slow path's clock reading
    uint32_t tr_withheld;    // classes kept off whatever the class filters say (the owner's)
    uint32_t tr_freed;       // moves whenever a buffer may have become free (a release, a
                             // start, new host words): dry CPUs pick again (DRY above)
};

// Counts for the logger (trace_ring_counts). recorded includes the current buffer.
struct trace_counts {
    uint64_t recorded, dropped, overwritten, unreported;
    uint32_t buffers;
};

// ---- set-up and control (not in interrupt context) -------------------------------------------
// Prepare r over mem (len bytes, 4-byte aligned) for nbufs buffers. -TRACE_EINVAL on bad arguments
// (NULL, nbufs 0 or > TRACE_MAX_BUFS, len < nbufs * KEV_BUF_BYTES). Filters start all off.
int trace_ring_init(struct trace_ring *r, void *mem, size_t len, unsigned nbufs);
int trace_ring_set_policy(struct trace_ring *r, unsigned policy); // -EINVAL, -EBUSY if running
// Quiet (on != 0): no buffer started from now on is ever notified (as in ring mode, whatever
// the policy), so the fast path runs to each buffer's end slot; a reader outside the target
// takes the buffers (trace/kev_probe.h). A buffer already filling keeps its one notification.
void trace_ring_set_quiet(struct trace_ring *r, unsigned on);
// Quiet, the one buffer still notified: the one that makes nbufs buffers started since the
// ring's init, as it begins (the logger's buffer count, -n, without a look per buffer); 0: none.
void trace_ring_set_wake(struct trace_ring *r, uint32_t nbufs);
// A host reader outside the target takes FULL buffers without halting it: acks (nbufs words,
// written by the host only) say which it claimed and which it has (trace/kev_probe.h,
// "Hand-over"); the buffer pick reads them, under the pool lock. NULL: no such reader.
// The words are untrusted: one that names no life of its buffer is refused and counted
// (tr_refused, once a life), and a claim holds a buffer for TRACE_CLAIM_PASSES picks that
// wanted to reuse it at most (overwrite and ring policies; then refused, counted, and the
// buffer reused, its events counted overwritten): a reader that claims every buffer for ever
// costs the writers no more than the policy's own loss.
void trace_ring_set_acks(struct trace_ring *r, const uint32_t *acks);
int trace_ring_start(struct trace_ring *r);  // -ECANCELED without buffers, -EBUSY if running
void trace_ring_stop(struct trace_ring *r);  // closes every current buffer
// The flight recorder frozen at this event (a D trigger, docs/incidents.md): stopped as
// trace_ring_stop stops it, every buffer closed and kept, from any context that holds none of
// the ring's locks (a D firing, on any CPU), and the port told the ring stopped itself
// (trace_port_stopped), as the fill policy's end tells it. 1 when it stopped a running ring,
// 0 when the ring was not running.
int trace_ring_freeze(struct trace_ring *r);
// Closes the current buffers holding events; *done (unless NULL): a time every event stamped
// before which is in a closed buffer, and no BUFFER_END after (a reader's heartbeat).
int trace_ring_flush(struct trace_ring *r, uint64_t *done);
// Logger: take the full buffer with the lowest sequence number, or, when none is full, close
// and take a filling buffer past its high-water mark (QNX: the flush the notification asked
// for). 0 and *idx set, -EAGAIN when nothing is ready, -EBUSY in ring mode while running.
int trace_ring_take(struct trace_ring *r, unsigned *idx);
int trace_ring_release(struct trace_ring *r, unsigned idx); // -EINVAL unless the logger owns it
// Slots of a buffer the logger owns (NULL otherwise); *nslots = slots used.
const struct kev_slot *trace_ring_buffer(const struct trace_ring *r, unsigned idx,
                                         unsigned *nslots, uint32_t *seq);
void trace_ring_counts(const struct trace_ring *r, unsigned cpu, struct trace_counts *out);
// Emit a TIME event if the high time word changed since the last one (call from a periodic
// timer when a CPU may stay silent for more than 2^32 cycles).
void trace_ring_tick(struct trace_ring *r);
// Counts n events of class cls lost before they reached the ring (a user-event ring the
// kernel had to give up): they are added to the dropped count and reported in the next
// buffer's DROPPED event, so recorded + lost == generated still holds. Only while running.
void trace_ring_count_lost(struct trace_ring *r, unsigned cls, uint32_t n);
void trace_ring_deliver_pending(struct trace_ring *r);
// The panic path's way in (kernel/kpanic.c), on the panicking CPU: whether it may write one more
// event. A fault in the middle of an emit leaves this CPU's lock (or the pool's) held by code
// that never runs again, and waiting for it was a silent hang instead of a panic message.
// So: this CPU's lock still held after `spins` looks is taken to be its own (another CPU holds
// it for a buffer switch or a control call, a few hundred instructions) and let go; false when
// the pool's lock stays held as long (this CPU faulted in a buffer switch, or another CPU that
// holds it is stuck) or this CPU's write pointer is an inline hook's busy mark (the event it
// was writing has no known end). One CPU: only the busy mark's test, which never holds there.
bool trace_ring_panic_writable(struct trace_ring *r, unsigned long spins);

// ---- filters (TraceEvent) -------------------------------------------------------------------
// Classes 2..7 (KER_CALL..COMM) can be switched; CONTROL is always on. -EINVAL when out of range.
void trace_filter_all(struct trace_ring *r, int on);
int trace_filter_class(struct trace_ring *r, unsigned cls, int on);
// The classes in mask stay off whatever the filters above say, now and after (a logger's class
// mask, which the program that starts a passive capture cannot undo); 0: none withheld.
void trace_filter_withhold(struct trace_ring *r, uint32_t mask);
int trace_filter_event(struct trace_ring *r, unsigned cls, unsigned ev, int on);
void trace_mode_all(struct trace_ring *r, int wide);
int trace_mode_class(struct trace_ring *r, unsigned cls, int wide);
int trace_mode_event(struct trace_ring *r, unsigned cls, unsigned ev, int wide);
int trace_filter_class_pid(struct trace_ring *r, unsigned cls, uint32_t pid); // 0 clears
int trace_filter_class_tid(struct trace_ring *r, unsigned cls, uint32_t tid);
// Per-event PID/TID: -ENOSPC when TRACE_EV_FILTERS entries are in use; 0 clears.
int trace_filter_event_pid(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t pid);
int trace_filter_event_tid(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t tid);
// Attach (fn != NULL) or detach the dynamic filter for the classes in cls_mask.
void trace_filter_dynamic(struct trace_ring *r, uint32_t cls_mask, trace_dyn_filter_fn fn,
                          void *arg);

// ---- emitting --------------------------------------------------------------------------------
// Out-of-line paths (trace_ring.c). nwords may be 0; str may be NULL (else packed after the
// words, NUL included, truncated to fit KEV_MAX_COMBINE_SLOTS).
void trace_emit_simple_slow(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t a,
                            uint32_t b);
// The same as trace_emit_simple_slow with the class and event in one word (cls << 16 | ev):
// the inline path's fallback, so that its callers pass no argument on the stack.
void trace_emit_simple_slow_ce(struct trace_ring *r, uint32_t cls_ev, uint32_t a, uint32_t b);
void trace_emit_words_slow(struct trace_ring *r, unsigned cls, unsigned ev, const uint32_t *w,
                           unsigned nwords);
void trace_emit_string(struct trace_ring *r, unsigned cls, unsigned ev, const uint32_t *w,
                       unsigned nwords, const char *str);
// A string alone (no words before it) takes at least this many bytes, its NUL and zeros
// after it, so that it fills two slots or more and a reader tells it from a two-word event
// (D's user:::event, docs/d-probes.md).
#define TRACE_STRING_MIN_BYTES 9u
// The payload words trace_emit_string stores for a string alone of len bytes (NUL not
// counted; len below KEV_MAX_COMBINE_SLOTS * 8, so nothing is cut): what a consumer that sees
// the same payload (D's user:::event) is given, from this one rule.
static inline unsigned trace_string_words(unsigned len)
{
    unsigned bytes = len + 1u < TRACE_STRING_MIN_BYTES ? TRACE_STRING_MIN_BYTES : len + 1u;
    return (bytes + 3u) / 4u;
}

// The words other CPUs may change while a hook reads them unlocked (tr_active, tr_slow,
// tr_wide): one relaxed atomic load, a plain load on every target, so that the race is a
// declared one (ThreadSanitizer checks the rest, test_trace_threads.c). On one CPU a plain
// read, which the compiler may keep in a register across a loop (the user-ring drain's).
#if TRACE_MAX_CPUS > 1
#define TRACE_LOAD(word) __atomic_load_n(&(word), __ATOMIC_RELAXED)
#else
#define TRACE_LOAD(word) (word)
#endif

// The locks (LOCKING above): nothing at all on one CPU.
static inline void trace_lock(uint32_t *word)
{
#if TRACE_MAX_CPUS > 1
    trace_port_lock(word);
#else
    (void)word;
#endif
}

static inline void trace_unlock(uint32_t *word)
{
#if TRACE_MAX_CPUS > 1
    trace_port_unlock(word);
#else
    (void)word;
#endif
}

#define trace_cpu_lock(c)   trace_lock(&(c)->tc_lock)
#define trace_cpu_unlock(c) trace_unlock(&(c)->tc_lock)

// Is the class active? The disabled hook: one load, a bit test and a branch.
static inline int trace_on(const struct trace_ring *r, unsigned cls)
{
    return (TRACE_LOAD(r->tr_active) >> cls) & 1u;
}

// Should the hook emit the wide variant of this event? A class with no wide event (fast mode,
// the common case) is answered by one bit.
static inline int trace_is_wide(const struct trace_ring *r, unsigned cls, unsigned ev)
{
    if (!((TRACE_LOAD(r->tr_wide) >> (cls & (KEV_NCLASS - 1u))) & 1u))
        return 0;
    return (r->tr_ev_wide[cls & (KEV_NCLASS - 1u)][(ev >> 5) & 31u] >> (ev & 31u)) & 1u;
}

// The inline hooks' side of WRITER AND CLOSER (above): trace_write_begin returns the write
// pointer and marks the CPU busy, trace_limit loads the limit after the mark (ordered: both
// sequentially consistent; trace_limit_at the same through the limit's address),
// trace_write_end publishes the new write pointer, ending the mark. Limits compare as
// addresses: a closer's 0 is below every slot. One CPU: plain accesses.
#if TRACE_MAX_CPUS > 1
static inline struct kev_slot *trace_write_begin(struct trace_cpu *c)
{
    struct kev_slot *s = __atomic_load_n(&c->tc_wp, __ATOMIC_RELAXED);
    __atomic_store_n(&c->tc_wp, (struct kev_slot *)(void *)c, __ATOMIC_SEQ_CST);
    return s;
}
#define trace_limit(c) __atomic_load_n(&(c)->tc_limit, __ATOMIC_SEQ_CST)
#define trace_limit_at(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define trace_write_end(c, wp) __atomic_store_n(&(c)->tc_wp, (wp), __ATOMIC_RELEASE)
#else
#define trace_write_begin(c) ((c)->tc_wp)
#define trace_limit(c) ((c)->tc_limit)
#define trace_write_end(c, wp) ((c)->tc_wp = (wp))
#endif

// This CPU's state, and the header bits of its number: on one CPU both are constants; on
// several the port may find the state with one load (TRACE_PORT_CPU_STATE), and the header
// bits are a word of it instead of the number shifted in place.
#ifdef TRACE_PORT_CPU_STATE
#define trace_cpu_here(r) TRACE_PORT_CPU_STATE(r)
#else
#define trace_cpu_here(r) (&(r)->tr_cpu[trace_port_cpu()])
#endif
// The address of c's tc_limit (c this CPU's state): the ordered load takes no offset on
// AArch64, so a port that keeps it beside the state's pointer (TRACE_PORT_CPU_LIMIT) saves
// the add that makes it (the two pointers are then one load-pair).
#ifdef TRACE_PORT_CPU_LIMIT
#define trace_limit_here(r, c) TRACE_PORT_CPU_LIMIT(r, c)
#else
#define trace_limit_here(r, c) (&(c)->tc_limit)
#endif
#if TRACE_MAX_CPUS > 1
#define trace_cpu_hdr(c) ((c)->tc_hdr)
#else
#define trace_cpu_hdr(c) 0u
#endif

// The fast path's one test, room and time together: a CPU without a buffer has none
// (several CPUs: tc_limit 0), and a time below the last one (the low word wrapped) needs a
// TIME event first. Both are computed and then branched on once (on AArch64 a cmp, a ccmp
// and one branch).
static inline int trace_room_and_time(const struct kev_slot *s, const struct kev_slot *limit,
                                      uint32_t now, uint32_t last)
{
    return ((uintptr_t)s < (uintptr_t)limit) & (now >= last);
}

// A simple event of a class the caller knows is active and goes through no filter (tr_active
// set, tr_slow clear; the kernel keeps a word of such classes): only the room and the time are
// checked. A stale caller is still safe: a stopped ring has no room (tc_wp == tc_limit), so
// the event goes to trace_emit_simple_slow(), which checks everything again.
static inline void trace_emit_simple_fast(struct trace_ring *r, unsigned cls, unsigned ev,
                                          uint32_t a, uint32_t b)
{
    unsigned long fl = trace_port_irq_save();
#if TRACE_MAX_CPUS > 1
    struct trace_cpu *c = trace_cpu_here(r);
    struct kev_slot **limit = trace_limit_here(r, c);
    uint32_t now = trace_port_now32();
    // tc_last and tc_hdr are this CPU's alone (no closer writes them): read before the mark,
    // where they are one load-pair, not after the ordered load, which would keep them apart.
    uint32_t last = c->tc_last, hdr = trace_cpu_hdr(c);
    struct kev_slot *s = trace_write_begin(c);
    if (__builtin_expect(trace_room_and_time(s, trace_limit_at(limit), now, last), 1)) {
        // A sum of disjoint fields (ev <= KEV_EVENT_MASK, hdr the CPU's bits alone): an event
        // number that is a variable plus a constant (a call's exit) folds into one add.
        s->header = KEV_HEADER(KEV_TYPE_S, cls, 0u, 0u) + ((uint32_t)ev << KEV_EVENT_SHIFT) + hdr;
#else   // one CPU: the shape the Cortex-M's compiler does best with (measured)
    struct trace_cpu *c = &r->tr_cpu[0];
    uint32_t now = trace_port_now32();
    struct kev_slot *s = c->tc_wp;
    if (__builtin_expect(s < c->tc_limit && now >= c->tc_last, 1)) {
        s->header = KEV_HEADER(KEV_TYPE_S, cls, ev, 0u);
#endif
        s->data[0] = now;
        s->data[1] = a;
        s->data[2] = b;
        c->tc_last = now;
        trace_write_end(c, s + 1);
        trace_port_irq_restore(fl);
        return;
    }
    trace_write_end(c, s);
    trace_port_irq_restore(fl);
    trace_emit_simple_slow_ce(r, cls << 16 | ev, a, b);
}

// The hot path: a simple event (one slot, payload a, b). Allocation-free, interrupts off for
// the few stores. Anything unusual (filters, no room, high-water mark, time wrap) goes to
// trace_emit_simple_slow(), which re-checks everything under its own interrupt lock.
static inline void trace_emit_simple(struct trace_ring *r, unsigned cls, unsigned ev,
                                     uint32_t a, uint32_t b)
{
    if (__builtin_expect(!((TRACE_LOAD(r->tr_active) >> cls) & 1u), 1))
        return;
    if ((TRACE_LOAD(r->tr_slow) >> cls) & 1u) {
        trace_emit_simple_slow(r, cls, ev, a, b);
        return;
    }
    trace_emit_simple_fast(r, cls, ev, a, b);
}

// A time claimed by a producer the kernel does not trust (a process's user-event ring), made
// safe: kept when it lies after `last` and not after `now` (modulo 2^32), else `now`. The one
// rule for such times: the trace ring's slot and D's `timestamp` both take its result
// (trace_emit_simple_at returns it), so they cannot disagree.
static inline uint32_t trace_time_clamp(uint32_t ts, uint32_t last, uint32_t now)
{
    return ts - last > now - last ? now : ts;
}

// trace_emit_simple_at's general path (filters, a buffer change, time gone back): the event is
// stamped there, so the time it got is read back from the CPU's last slot when one was
// written, and is the clamp's otherwise (filtered out: no slot to agree with). Not a second
// reading of the clock, which is later than the slot's (D's timestamp must be the slot's).
static __attribute__((noinline, unused)) uint32_t
trace_emit_simple_at_slow(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t ts, uint32_t a,
                          uint32_t b)
{
    unsigned long fl = trace_port_irq_save();
    struct trace_cpu *c = &r->tr_cpu[trace_port_cpu()];
    const struct kev_slot *wp = c->tc_wp;
    int buf = c->tc_buf;
    trace_emit_simple_slow(r, cls, ev, a, b);
    ts = c->tc_wp != wp || c->tc_buf != buf ? c->tc_last
                                            : trace_time_clamp(ts, c->tc_last, trace_port_now32());
    trace_port_irq_restore(fl);
    return ts;
}

// The time the general path gave an event: *now is moved up to it, never back.
static inline uint32_t trace_emit_simple_at_advance(uint32_t *nowp, uint32_t ts)
{
    if ((int32_t)(ts - *nowp) > 0)
        *nowp = ts;
    return ts;
}

// A simple event that happened at `ts` (low cycle word), drained from somewhere else (the
// kernel's per-process user rings), `now` being a time read by the caller on this CPU: ts is
// kept when it lies between the last slot written and now, else the event takes now, so the
// ring's time stays monotonic whatever ts says. Returns the time the event was given (clamped
// the same way when the class is not recorded). A caller emitting a batch reads the clock once
// for all of it (kernel/kuring.c's drain: on QEMU a read of the counter takes its global lock,
// docs/smp.md "QEMU's host-clock ceiling"); a `*now` older than this CPU's last slot (an interrupt
// wrote one since) sends the event the general way, which stamps it afresh; *now is then moved
// up to that time (a buffer switch stamps its slots afresh: the rest of the batch would go the
// general way too). Inlined wherever it is called: a drain's loop keeps it inline, its D
// path's copy out of line (kernel/kuring.c), not one shared call of both.
static inline __attribute__((always_inline)) uint32_t
trace_emit_simple_at_now(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t ts,
                         uint32_t *nowp, uint32_t a, uint32_t b)
{
    uint32_t now = *nowp;
    if (__builtin_expect(!((TRACE_LOAD(r->tr_active) >> cls) & 1u), 0))
        return trace_time_clamp(ts, r->tr_cpu[trace_port_cpu()].tc_last, now);
    if ((TRACE_LOAD(r->tr_slow) >> cls) & 1u) {     // (filters: rare)
        ts = trace_emit_simple_at_slow(r, cls, ev, ts, a, b);
        return trace_emit_simple_at_advance(nowp, ts);
    }
    unsigned long fl = trace_port_irq_save();
    unsigned cpu = trace_port_cpu();
    struct trace_cpu *c = &r->tr_cpu[cpu];
    struct kev_slot *s = trace_write_begin(c);
    ts = trace_time_clamp(ts, c->tc_last, now);
    if (__builtin_expect((uintptr_t)s < (uintptr_t)trace_limit(c) && now >= c->tc_last, 1)) {
        s->header = KEV_HEADER(KEV_TYPE_S, cls, ev, cpu);
        s->data[0] = ts;
        s->data[1] = a;
        s->data[2] = b;
        c->tc_last = ts;
        trace_write_end(c, s + 1);
        trace_port_irq_restore(fl);
        return ts;
    }
    trace_write_end(c, s);
    trace_port_irq_restore(fl);
    ts = trace_emit_simple_at_slow(r, cls, ev, ts, a, b);
    return trace_emit_simple_at_advance(nowp, ts);
}

// The same, now being read here.
static inline uint32_t trace_emit_simple_at(struct trace_ring *r, unsigned cls, unsigned ev,
                                            uint32_t ts, uint32_t a, uint32_t b)
{
    uint32_t now = trace_port_now32();
    return trace_emit_simple_at_now(r, cls, ev, ts, &now, a, b);
}

// The most slots a combine event takes on the inline path; longer ones go the general way.
#define TRACE_FAST_COMBINE_SLOTS 4u

// A combine event of nwords payload words (2 per slot), on an inline path like the simple
// event's: the slots are reserved below the buffer's limit, written and committed under one
// interrupt lock; at a buffer end, filters, or when time moved back, the general path
// (trace_emit_words_slow) does it. The buffer's overhead count grows by the continuation
// slots, so BUFFER_END's event count stays exact.
static inline void trace_emit_words(struct trace_ring *r, unsigned cls, unsigned ev,
                                    const uint32_t *w, unsigned nwords)
{
    if (__builtin_expect(!((TRACE_LOAD(r->tr_active) >> cls) & 1u), 1))
        return;
    unsigned nslots = (nwords + 1u) / 2u;
    if (nwords < 3u || nslots > TRACE_FAST_COMBINE_SLOTS || ((TRACE_LOAD(r->tr_slow) >> cls) & 1u) ||
        ev > KEV_EVENT_MASK) {
        trace_emit_words_slow(r, cls, ev, w, nwords);
        return;
    }
    unsigned long fl = trace_port_irq_save();
    struct trace_cpu *c = trace_cpu_here(r);
    uint32_t now = trace_port_now32();
    struct kev_slot *s = trace_write_begin(c);
#if TRACE_MAX_CPUS > 1   // (a closer's limit 0 is below every slot)
    int room = (uintptr_t)s + nslots * sizeof(*s) <= (uintptr_t)trace_limit(c);
#else
    int room = c->tc_limit - s >= (ptrdiff_t)nslots;
#endif
    if (__builtin_expect(room && now >= c->tc_last, 1)) {
        for (unsigned k = 0; k < nslots; k++) {
            unsigned type = k == 0 ? KEV_TYPE_CB : k + 1u == nslots ? KEV_TYPE_CE : KEV_TYPE_CC;
            s[k].header = KEV_HEADER(type, cls, ev, 0u) | trace_cpu_hdr(c);
            s[k].data[0] = now;
            s[k].data[1] = w[2u * k];
            s[k].data[2] = 2u * k + 1u < nwords ? w[2u * k + 1u] : 0u;
        }
        r->tr_buf[c->tc_buf].tb_overhead = (uint16_t)(r->tr_buf[c->tc_buf].tb_overhead + nslots - 1u);
        c->tc_last = now;
        trace_write_end(c, s + nslots);
        trace_port_irq_restore(fl);
        return;
    }
    trace_write_end(c, s);
    trace_port_irq_restore(fl);
    trace_emit_words_slow(r, cls, ev, w, nwords);
}

// trace_emit_words, and the time the event was stamped with (its low word) in *ts: read back
// from this CPU's last slot time, which only this CPU writes and a written event moves on;
// 0 returned when it did not move (class off, filtered out, dropped; or written in the very
// cycle of the slot before, which its caller takes as no stamp). The kernel's tick has D's
// profile-N decide by its stack sample's own time (kernel/main.c), which dtrace -i replays
// the capture by. Interrupts off (the caller's kernel entry), so nothing else writes between.
static inline int trace_emit_words_stamped(struct trace_ring *r, unsigned cls, unsigned ev,
                                           const uint32_t *w, unsigned nwords, uint32_t *ts)
{
    const struct trace_cpu *c = &r->tr_cpu[trace_port_cpu()];
    uint32_t last = c->tc_last;
    trace_emit_words(r, cls, ev, w, nwords);
    if (c->tc_last == last)
        return 0;
    *ts = c->tc_last;
    return 1;
}

// The kernel calls this when it leaves interrupt context: delivers deferred notifications.
static inline void trace_ring_irq_exit(struct trace_ring *r)
{
    if (__builtin_expect(TRACE_LOAD(r->tr_cpu[trace_port_cpu()].tc_npending) != 0, 0))
        trace_ring_deliver_pending(r);
}

// The kernel calls this on every context switch (for PID/TID filters).
static inline void trace_ring_set_current(struct trace_ring *r, uint32_t pid, uint32_t tid)
{
    struct trace_cpu *c = &r->tr_cpu[trace_port_cpu()];
    c->tc_pid = pid;
    c->tc_tid = tid;
}

#endif
