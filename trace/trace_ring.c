// SPDX-License-Identifier: MIT
// The out-of-line half of the trace producer (see trace/trace_ring.h for the port contract,
// the invariants and the locking): buffer switching and overrun policies, high-water
// notifications (deferred from interrupts), TIME/BUFFER/BUFFER_END/DROPPED control events,
// combine events, filters, and the logger-side calls.
// Every function that touches shared state runs with local interrupts disabled, under the
// locks trace_ring.h's LOCKING names (each function says which it holds).
#include <trace/trace_ring.h>

#define TRACE_END_SLOT (KEV_BUF_SLOTS - 1u) // slot reserved for BUFFER_END

static struct kev_slot *buf_start(const struct trace_ring *r, unsigned idx)
{
    return r->tr_mem + (size_t)idx * KEV_BUF_SLOTS;
}

static unsigned used_slots(const struct trace_ring *r, const struct trace_cpu *c)
{
    return (unsigned)(c->tc_wp - buf_start(r, (unsigned)c->tc_buf));
}

// The same for a write pointer read by quiesce() (another CPU's).
static unsigned used_below(const struct trace_ring *r, const struct trace_cpu *c,
                           const struct kev_slot *wp)
{
    return (unsigned)(wp - buf_start(r, (unsigned)c->tc_buf));
}

static void put_slot(struct kev_slot *s, uint32_t hdr, uint32_t t, uint32_t a, uint32_t b)
{
    s->header = hdr;
    s->data[0] = t;
    s->data[1] = a;
    s->data[2] = b;
}

static uint32_t control_hdr(unsigned ev, unsigned cpu)
{
    return KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, ev, cpu);
}

// A reader outside the CPUs' caches (a debug probe's system-bus access, trace/kev_probe.h)
// reads what a quiet ring publishes: the bytes this CPU stored there are cleaned to memory
// (the port's trace_port_publish: a Cortex-A's lines; nothing on a core without a data cache).
// A ring that is not quiet has no such reader and pays nothing.
static void publish(const struct trace_ring *r, const void *p, size_t n)
{
    if (r->tr_quiet)
        trace_port_publish(p, n);
}

// Every store before it is seen before every store after it. (ThreadSanitizer, which builds
// the host's threaded tests, models no fence: there the host's own order, x86's, and a
// compiler barrier do it.)
#ifdef __SANITIZE_THREAD__
#define release_fence() __asm__ volatile("" ::: "memory")
#else
#define release_fence() __atomic_thread_fence(__ATOMIC_RELEASE)
#endif

// ---- locks (trace_ring.h, LOCKING: pool first, then CPUs; nothing on one CPU) ---------------

#define pool_lock(r)   trace_lock(&(r)->tr_pool_lock)
#define pool_unlock(r) trace_unlock(&(r)->tr_pool_lock)

// A control call: interrupts off, the pool and every CPU (so that filters read under one
// CPU's lock are whole and no CPU's slow path runs while its buffer is closed; its inline
// hooks are kept out by quiesce below).
static unsigned long control_lock(struct trace_ring *r)
{
    unsigned long fl = trace_port_irq_save();
    pool_lock(r);
    for (unsigned cpu = 0; cpu < TRACE_MAX_CPUS; cpu++)
        trace_cpu_lock(&r->tr_cpu[cpu]);
    return fl;
}

static void control_unlock(struct trace_ring *r, unsigned long fl)
{
    for (unsigned cpu = TRACE_MAX_CPUS; cpu-- > 0;)
        trace_cpu_unlock(&r->tr_cpu[cpu]);
    pool_unlock(r);
    trace_port_irq_restore(fl);
}

// The words an inline hook on another CPU reads with no lock (trace_ring.h, WRITER AND
// CLOSER): stored as atomics, relaxed (a plain store on every target), on one CPU plainly.
#if TRACE_MAX_CPUS > 1
#define store_wp(c, v)    __atomic_store_n(&(c)->tc_wp, (v), __ATOMIC_RELAXED)
#define store_limit(c, v) __atomic_store_n(&(c)->tc_limit, (v), __ATOMIC_RELEASE)
#define NO_ROOM(r)        ((struct kev_slot *)0)   // below every slot: a closer's limit
#else
#define store_wp(c, v)    ((c)->tc_wp = (v))
#define store_limit(c, v) ((c)->tc_limit = (v))
#define NO_ROOM(r)        (&(r)->tr_noslot)        // == tc_wp: no room
#endif

// Another CPU's buffer is about to be closed or its write pointer read: make sure that CPU is
// not writing an event (trace_ring.h, WRITER AND CLOSER): its limit goes to 0, then wait while
// its write pointer holds the busy mark. Under the pool lock and CPU cpu's lock. The caller
// closes the buffer or restores the limit (set_limit, a release: what was read here comes
// before the CPU's next event). Returns the CPU's write pointer: tc_wp itself may still hold
// a busy mark now and then (a hook that finds no room puts the pointer back and goes to the
// slow path, which waits for CPU cpu's lock), so the caller uses this value, not tc_wp. On
// this CPU's own buffer it waits for nothing (interrupts off: this CPU is in no hook).
static struct kev_slot *quiesce(struct trace_ring *r, unsigned cpu)
{
    struct trace_cpu *c = &r->tr_cpu[cpu];
#if TRACE_MAX_CPUS > 1
    struct kev_slot *wp, *busy = (struct kev_slot *)(void *)c;
    __atomic_store_n(&c->tc_limit, NO_ROOM(r), __ATOMIC_SEQ_CST);
    while ((wp = __atomic_load_n(&c->tc_wp, __ATOMIC_SEQ_CST)) == busy)
        ;   // a few instructions with interrupts off on that CPU
    return wp;
#else
    (void)r;
    return c->tc_wp;
#endif
}

// Recompute the masks the hooks read from the filter state.
static void update_masks(struct trace_ring *r)
{
    uint32_t slow = r->tr_evfilter | (r->tr_dyn ? r->tr_dynmask : 0u);
    for (unsigned c = 0; c < KEV_NCLASS; c++)
        if (r->tr_cls_pid[c] || r->tr_cls_tid[c])
            slow |= 1u << c;
    for (unsigned i = 0; i < TRACE_EV_FILTERS; i++)
        if (r->tr_evf[i].ef_pid || r->tr_evf[i].ef_tid)
            slow |= 1u << r->tr_evf[i].ef_cls;
    __atomic_store_n(&r->tr_slow, slow, __ATOMIC_RELAXED);     // read unlocked by the hooks
    __atomic_store_n(&r->tr_active, r->tr_running ? r->tr_classes & ~r->tr_withheld : 0u,
                     __ATOMIC_RELAXED);
}

// ---- the table's words a debugger can write --------------------------------------------------
// A probe's reader (trace/kev_probe.h) or anyone with a debugger writes the buffer table while
// the target runs or halts: a CPU or state byte the kernel never wrote is refused and counted
// (tr_refused), never used as an index.

// The CPU that filled buffer b: its tb_cpu when in range, else the CPU its own BUFFER slot
// names (the kernel wrote both), else cpu 0; the lie counted.
static unsigned buf_cpu(struct trace_ring *r, const struct trace_buf *b)
{
    if (b->tb_cpu < TRACE_MAX_CPUS)
        return b->tb_cpu;
    __atomic_fetch_add(&r->tr_refused, 1u, __ATOMIC_RELAXED);
    unsigned cpu = kev_hdr_cpu(buf_start(r, (unsigned)(b - r->tr_buf))->header);
    return cpu < TRACE_MAX_CPUS ? cpu : 0u;
}

// A state byte out of range is refused, counted and put right: FILLING when a CPU is filling
// the buffer, else FULL (its events kept for the logger, or counted lost when it is reused).
// Under the pool lock (each CPU's tc_buf changes under it).
static void check_states(struct trace_ring *r)
{
    for (unsigned i = 0; i < r->tr_nbufs; i++) {
        if (r->tr_buf[i].tb_state <= TRACE_BUF_LOGGER)
            continue;
        unsigned st = TRACE_BUF_FULL;
        for (unsigned c = 0; c < TRACE_MAX_CPUS; c++)
            if (r->tr_cpu[c].tc_buf == (int)i)
                st = TRACE_BUF_FILLING;
        r->tr_buf[i].tb_state = (uint8_t)st;
        publish(r, &r->tr_buf[i], sizeof(r->tr_buf[i]));
        __atomic_fetch_add(&r->tr_refused, 1u, __ATOMIC_RELAXED);
    }
}

// Tell the logger buffer idx wants saving, now or (in interrupt context) at interrupt exit.
// Under the lock of the CPU filling it (tb_cpu); and the pool's when the buffer is FULL.
static void notify_buffer(struct trace_ring *r, unsigned idx)
{
    struct trace_buf *b = &r->tr_buf[idx];
    if (b->tb_notified)
        return;
    if (trace_port_in_interrupt()) {
        b->tb_notified = 2;
        __atomic_fetch_add(&r->tr_cpu[buf_cpu(r, b)].tc_npending, 1u, __ATOMIC_RELAXED);
        return;
    }
    b->tb_notified = 1;
    trace_port_notify(r, idx, b->tb_seq);
}

// Close the current buffer of CPU cpu: write BUFFER_END in the reserved slot, mark it FULL and
// make sure the logger hears of it (except in ring mode, where nobody is told).
// Under the pool lock and CPU cpu's lock.
static void close_buffer(struct trace_ring *r, unsigned cpu, uint32_t now)
{
    struct trace_cpu *c = &r->tr_cpu[cpu];
    struct kev_slot *wp = quiesce(r, cpu);
    unsigned idx = (unsigned)c->tc_buf;
    struct trace_buf *b = &r->tr_buf[idx];
    unsigned used = used_below(r, c, wp);
    uint32_t events = used - b->tb_overhead;

    // Another CPU closing this one (a flush, the stop) read its clock before quiesce waited for
    // this CPU's last event: the end must not go back before that event, or a reader takes the
    // step back for the low word's wrap (2^32 cycles later).
    if ((int32_t)(now - c->tc_last) < 0)
        now = c->tc_last;
    put_slot(wp, control_hdr(KEV_CTL_BUFFER_END, cpu), now, b->tb_seq, events);
    b->tb_nslots = (uint16_t)(used + 1u);
    b->tb_overhead++;
    // (release: a reader outside the CPU that sees FULL sees the slots and the count too; one
    // around the caches, once the slots reached memory before the state did)
    publish(r, buf_start(r, idx), (used + 1u) * sizeof(struct kev_slot));
    __atomic_store_n(&b->tb_state, (uint8_t)TRACE_BUF_FULL, __ATOMIC_RELEASE);
    publish(r, b, sizeof(*b));
    c->tc_recorded += events;
    c->tc_buf = -1;
    store_wp(c, &r->tr_noslot);
    store_limit(c, NO_ROOM(r));
    notify_buffer(r, idx);
}

// A word of the host's refused for buffer b: counted once a life of the buffer (a word left
// there is looked at again at every pick). Under the pool lock.
static void refuse_host(struct trace_ring *r, struct trace_buf *b)
{
    if (b->tb_claim & TRACE_CLAIM_COUNTED)
        return;
    b->tb_claim |= TRACE_CLAIM_COUNTED;
    __atomic_fetch_add(&r->tr_refused, 1u, __ATOMIC_RELAXED);
}

// Whether w, a word the host left in buffer seq's place, names one of the buffer's earlier
// lives (the host's claim or done of an older sequence: left by a reader that saw the buffer
// move), or is the word's first value 0. Sequences count up from 0 and a capture never gives
// out 2^32 of them.
static int earlier_life(uint32_t w, uint32_t seq)
{
    return w == 0 || w - 1u < seq || ~w - 1u < seq;
}

// The host's acknowledgement word of buffer i (trace/kev_probe.h, "Hand-over"): the host writes
// ~(seq + 1) to claim FULL buffer i (it copies it) and seq + 1 once it has it. Untrusted: only
// compared with the sequence this ring gave the buffer; a word that names none of its lives
// (garbage, a sequence it never had) is refused, counted once a life (refuse_host). 0 claimed,
// 1 done, -1 neither (or no host, or refused). Under the pool lock.
static int host_word(struct trace_ring *r, unsigned i)
{
    struct trace_buf *b = &r->tr_buf[i];
    if (!r->tr_acks)
        return -1;
    trace_port_fetch(&r->tr_acks[i], sizeof(r->tr_acks[i]));     // (written around the caches)
    uint32_t w = __atomic_load_n(&r->tr_acks[i], __ATOMIC_SEQ_CST);
    uint32_t tag = b->tb_seq + 1u;
    if (w == tag || w == ~tag)
        return w == tag;
    if (!earlier_life(w, b->tb_seq))
        refuse_host(r, b);
    return -1;
}

// FREE, or FULL and the host has it whole.
static int reusable(struct trace_ring *r, unsigned i)
{
    unsigned st = r->tr_buf[i].tb_state;
    return st == TRACE_BUF_FREE || (st == TRACE_BUF_FULL && host_word(r, i) == 1);
}

// The oldest FULL buffer not in `skip` (never the logger's, never a filling one); -1 if none.
static int oldest_full(const struct trace_ring *r, uint64_t skip)
{
    int best = -1;
    for (unsigned i = 0; i < r->tr_nbufs; i++)
        if (r->tr_buf[i].tb_state == TRACE_BUF_FULL && !((skip >> i) & 1u) &&
            (best < 0 || (int32_t)(r->tr_buf[i].tb_seq - r->tr_buf[best].tb_seq) < 0))
            best = (int)i;
    return best;
}

// Pick the next buffer under the overrun policy; -1 when there is none (the event is lost).
// In overwrite and ring modes a FULL buffer is reused and *lost set: its events become lost
// events, unless a host reader claimed it (*lost 2: a claim refused, the host may hold a copy). The kernel stores the buffer's new state first and
// reads the host's word after, the host the other way round (both sequentially consistent): the
// host sees the buffer move and lets it go, or the kernel sees its claim and skips it. A claim
// is honoured for TRACE_CLAIM_PASSES picks that wanted its buffer, then refused (counted) and
// the buffer reused: the host, which checks its copy against the table after copying, sees it
// move (a torn read, never kept). Under the pool lock.
static int pick_buffer(struct trace_ring *r, int *lost)
{
    unsigned n = r->tr_nbufs;
    check_states(r);
    *lost = 0;
    if (r->tr_policy == TRACE_POLICY_FILL) {
        if (r->tr_fill_next >= n || r->tr_buf[r->tr_fill_next].tb_state != TRACE_BUF_FREE)
            return -1;
        return (int)r->tr_fill_next++;
    }
    for (unsigned k = 1; k <= n; k++) { // a free buffer, in ring order
        unsigned i = (r->tr_last + k) % n;
        if (reusable(r, i))
            return (int)i;
    }
    if (r->tr_policy == TRACE_POLICY_SWITCH)
        return -1;
    uint64_t skip = 0; // else the oldest unsaved one no host reader holds
    for (int best; (best = oldest_full(r, skip)) >= 0; skip |= 1ull << best) {
        struct trace_buf *b = &r->tr_buf[best];
        if (!r->tr_acks) {
            *lost = 1;
            return best;
        }
        __atomic_store_n(&b->tb_state, (uint8_t)TRACE_BUF_FILLING, __ATOMIC_SEQ_CST);
        publish(r, b, sizeof(*b));      // (in memory before the word is read: the host's order)
        int w = host_word(r, best);
        if (w == 0 && (b->tb_claim & ~TRACE_CLAIM_COUNTED) >= TRACE_CLAIM_PASSES) {
            refuse_host(r, b);      // a claim that never finishes: the buffer is reused
            *lost = 2;
            return best;
        }
        if (w != 0) {       // unclaimed (lost), or the host finished it meanwhile (free)
            *lost = w < 0;
            return best;
        }
        b->tb_claim++;
        __atomic_store_n(&b->tb_state, (uint8_t)TRACE_BUF_FULL, __ATOMIC_RELAXED);
        publish(r, b, sizeof(*b));
    }
    return -1;
}

// Give CPU cpu a new buffer starting at time t64. Returns 0, or -1 when none is available.
// Under the pool lock and CPU cpu's lock.
static int acquire_buffer(struct trace_ring *r, unsigned cpu, uint64_t t64)
{
    struct trace_cpu *c = &r->tr_cpu[cpu];
    int overwrite;
    int i = pick_buffer(r, &overwrite);
    if (i < 0) {
        if (r->tr_policy == TRACE_POLICY_FILL) { // every buffer used once: stop tracing
            r->tr_filled = 1;
            r->tr_running = 0;
            update_masks(r);
            trace_port_stopped(r);
        }
        return -1;
    }
    struct trace_buf *b = &r->tr_buf[i];
    if (overwrite) { // its events are lost
        // The filler's loss counts are the pool's (its lock is not needed: no waiting on
        // a CPU in the middle of an event).
        struct trace_cpu *owner = &r->tr_cpu[buf_cpu(r, b)];
        if (overwrite == 2) {   // the host held a claim: it reads that its copy was counted lost
            __atomic_store_n(&b->tb_lost, b->tb_seq + 1u, __ATOMIC_RELAXED);
            release_fence();    // (before the new life's state and sequence)
        }
        uint32_t lost = (uint32_t)(b->tb_nslots - b->tb_overhead);
        owner->tc_recorded -= lost;
        owner->tc_overwritten += lost;
        owner->tc_unreported += lost + b->tb_reported; // its DROPPED record goes too
        if (b->tb_notified == 2)
            __atomic_fetch_sub(&owner->tc_npending, 1u, __ATOMIC_RELAXED);
        publish(r, owner, sizeof(*owner));  // (its loss counts, which a probe reads)
    }
    uint32_t lo = (uint32_t)t64, hi = (uint32_t)(t64 >> 32);
    struct kev_slot *s = buf_start(r, (unsigned)i);
    // The new state and sequence before the next sequence and the slots (a reader outside the
    // CPU copying the old buffer sees them move; one that reads the next sequence first finds
    // every one below it in the table, trace/kev_probe.h).
    __atomic_store_n(&b->tb_state, (uint8_t)TRACE_BUF_FILLING, __ATOMIC_RELAXED);
    __atomic_store_n(&b->tb_seq, r->tr_next_seq, __ATOMIC_RELAXED);
    release_fence();
    publish(r, b, sizeof(*b));
    __atomic_store_n(&r->tr_next_seq, r->tr_next_seq + 1u, __ATOMIC_RELAXED);
    publish(r, &r->tr_next_seq, sizeof(r->tr_next_seq));
    b->tb_cpu = (uint8_t)cpu;
    b->tb_claim = 0;
    b->tb_notified = r->tr_policy == TRACE_POLICY_RING || r->tr_quiet;
    if (r->tr_quiet && r->tr_wake_bufs && b->tb_seq + 1u == r->tr_wake_bufs)
        trace_port_notify(r, (unsigned)i, b->tb_seq);   // (the count the logger waits for)
    b->tb_nslots = 0;
    b->tb_reported = 0;
    // QNX's BUFFER: [sequence, number of events], and its kernel writes 0 for the count at
    // the start of a buffer, as here (BUFFER_END carries the real count).
    put_slot(s++, control_hdr(KEV_CTL_BUFFER, cpu), lo, b->tb_seq, 0);
    put_slot(s++, control_hdr(KEV_CTL_TIME, cpu), lo, hi, lo);
    b->tb_overhead = 2;
    uint64_t unreported = c->tc_unreported + (c->tc_dropped - c->tc_drop_seen);
    if (unreported) {
        uint64_t total = c->tc_dropped + c->tc_overwritten;
        put_slot(s++, control_hdr(KEV_CTL_DROPPED, cpu), lo, (uint32_t)unreported,
                 (uint32_t)total);
        b->tb_reported = (uint32_t)unreported;
        c->tc_unreported = 0;
        c->tc_drop_seen = c->tc_dropped;
        b->tb_overhead = 3;
    }
    c->tc_dry = 0;
    r->tr_last = (unsigned)i;
    c->tc_buf = i;
    c->tc_wp = s;
    c->tc_hi = hi;
    c->tc_last = lo;
    c->tc_buffers++;
    return 0;
}

// Point tc_limit where the fast path must stop: the high-water slot until the logger has been
// told, else the reserved BUFFER_END slot.
static void set_limit(struct trace_ring *r, struct trace_cpu *c)
{
    struct kev_slot *start = buf_start(r, (unsigned)c->tc_buf);
    store_limit(c, start + (r->tr_buf[c->tc_buf].tb_notified ? TRACE_END_SLOT
                                                               : KEV_HIGH_WATER - 1u));
}

static int filters_pass(const struct trace_ring *r, const struct trace_cpu *c, unsigned cls,
                        unsigned ev, const uint32_t *w, unsigned nw)
{
    if (((r->tr_evfilter >> cls) & 1u) && !((r->tr_ev_enable[cls][ev >> 5] >> (ev & 31u)) & 1u))
        return 0;
    if (r->tr_cls_pid[cls] && r->tr_cls_pid[cls] != c->tc_pid)
        return 0;
    if (r->tr_cls_tid[cls] && r->tr_cls_tid[cls] != c->tc_tid)
        return 0;
    for (unsigned i = 0; i < TRACE_EV_FILTERS; i++) {
        const struct trace_evfilter *f = &r->tr_evf[i];
        if (f->ef_cls != cls || f->ef_ev != ev)
            continue;
        if ((f->ef_pid && f->ef_pid != c->tc_pid) || (f->ef_tid && f->ef_tid != c->tc_tid))
            return 0;
    }
    if (r->tr_dyn && ((r->tr_dynmask >> cls) & 1u) && !r->tr_dyn(r->tr_dyn_arg, cls, ev, w, nw))
        return 0;
    return 1;
}

// ---- a full ring (trace_ring.h, DRY) -----------------------------------------------------------

// The host's word of buffer i as it stands (no check: only compared with what it was).
static uint32_t host_word_now(const struct trace_ring *r, unsigned i)
{
    trace_port_fetch(&r->tr_acks[i], sizeof(r->tr_acks[i]));
    return __atomic_load_n(&r->tr_acks[i], __ATOMIC_SEQ_CST);
}

// CPU c's pick found no buffer: it goes dry, its backoff doubled when it already was, the
// buffer the host frees next watched (the oldest FULL one: a host takes them in sequence
// order). Under the pool lock and c's lock.
static void dry_enter(struct trace_ring *r, struct trace_cpu *c)
{
    uint32_t span = c->tc_dry ? c->tc_dry_span * 2u : 1u;
    c->tc_dry = 1;
    c->tc_dry_span = span < TRACE_DRY_SPAN_MAX ? span : TRACE_DRY_SPAN_MAX;
    c->tc_dry_left = c->tc_dry_span;
    c->tc_dry_freed = r->tr_freed;
    c->tc_dry_watch = r->tr_acks ? oldest_full(r, 0) : -1;
    if (c->tc_dry_watch >= 0)
        c->tc_dry_word = host_word_now(r, (unsigned)c->tc_dry_watch);
}

// Whether dry CPU c should pick again: a buffer may have been freed since it went dry, or its
// backoff ran out. One CPU's own state, two loads of shared words. Under c's lock alone.
static inline __attribute__((always_inline)) int dry_due(struct trace_ring *r,
                                                          struct trace_cpu *c)
{
    if (__atomic_load_n(&r->tr_freed, __ATOMIC_RELAXED) != c->tc_dry_freed)
        return 1;
    if (c->tc_dry_watch >= 0 && r->tr_acks &&
        host_word_now(r, (unsigned)c->tc_dry_watch) != c->tc_dry_word)
        return 1;
    return c->tc_dry_left == 0 || --c->tc_dry_left == 0;
}

// Something may have freed a buffer: every dry CPU picks again at its next event. Under the
// pool lock.
static void pool_freed(struct trace_ring *r)
{
    __atomic_store_n(&r->tr_freed, r->tr_freed + 1u, __ATOMIC_RELAXED);
}

// Payload of an event: nw words, then the bytes of str (NUL included), as one byte stream.
struct payload {
    const uint32_t *w;
    unsigned nw;
    const char *str;
    unsigned slen; // string bytes including the NUL (0 without string)
    unsigned big;  // pack the string for a big-endian file
};

static uint32_t payload_word(const struct payload *p, unsigned k)
{
    if (k < p->nw)
        return p->w[k];
    // String bytes are stored in memory order in the file, as QNX's do: byte i goes to the
    // word's byte i % 4 in the file's byte order (docs/kev-format.md).
    uint32_t v = 0;
    unsigned base = (k - p->nw) * 4u;
    for (unsigned j = 0; j < 4u; j++) {
        unsigned i = base + j;
        if (i + 1u < p->slen)
            v |= (uint32_t)(unsigned char)p->str[i] << (8u * (p->big ? 3u - j : j));
    }
    return v;
}

// The event's slots at this CPU's write pointer, after a TIME when need says the high word
// moved on; then the high-water notification and the next inline limit. Under this CPU's lock.
static inline __attribute__((always_inline)) void put_event(struct trace_ring *r,
                                                            struct trace_cpu *c, unsigned cpu,
                                                            unsigned cls, unsigned ev,
                                                            const struct payload *p,
                                                            unsigned nslots, unsigned need,
                                                            uint32_t lo, uint32_t hi)
{
    struct trace_buf *b = &r->tr_buf[c->tc_buf];
    struct kev_slot *s = c->tc_wp;
    if (need > nslots) { // the high word moved on (or time went back): restate the full time
        put_slot(s++, control_hdr(KEV_CTL_TIME, cpu), lo, hi, lo);
        b->tb_overhead++;
        c->tc_hi = hi;
    }
    if (nslots == 1u) {
        put_slot(s++, KEV_HEADER(KEV_TYPE_S, cls, ev, cpu), lo, payload_word(p, 0),
                 payload_word(p, 1));
    } else {
        for (unsigned k = 0; k < nslots; k++) {
            unsigned type = k == 0 ? KEV_TYPE_CB : k + 1u == nslots ? KEV_TYPE_CE : KEV_TYPE_CC;
            put_slot(s++, KEV_HEADER(type, cls, ev, cpu), lo, payload_word(p, 2u * k),
                     payload_word(p, 2u * k + 1u));
        }
        b->tb_overhead = (uint16_t)(b->tb_overhead + nslots - 1u);
    }
    c->tc_wp = s;
    c->tc_last = lo;
    if (used_slots(r, c) >= KEV_HIGH_WATER)
        notify_buffer(r, (unsigned)c->tc_buf);
    set_limit(r, c);
}

// Emit one event (1 slot if its payload fits 2 words, else a combine event). The core of every
// slow path: filters, room (switching buffers per policy), TIME on a new high word,
// high-water notification. Under this CPU's lock; an event that needs a buffer switch lets it
// go, takes the pool lock and then it again, and starts over (the state may have changed).
static void emit_event(struct trace_ring *r, unsigned cls, unsigned ev, const struct payload *p)
{
    unsigned nwords = p->nw + (p->slen + 3u) / 4u;
    unsigned nslots = nwords <= 2u ? 1u : (nwords + 1u) / 2u;
    if (cls >= KEV_NCLASS || ev > KEV_EVENT_MASK)
        return;

    unsigned long fl = trace_port_irq_save();
    unsigned cpu = trace_port_cpu();
    struct trace_cpu *c = &r->tr_cpu[cpu];
    int pooled = TRACE_MAX_CPUS == 1;   // one CPU: no locks, nothing to take again
    trace_cpu_lock(c);
    // Dry (trace_ring.h, DRY): the event is counted dropped, the pool left alone.
    if (c->tc_buf < 0 && c->tc_dry && ((TRACE_LOAD(r->tr_active) >> cls) & 1u) &&
        !dry_due(r, c)) {
        if (!((TRACE_LOAD(r->tr_slow) >> cls) & 1u) || filters_pass(r, c, cls, ev, p->w, p->nw))
            c->tc_dropped++;
        goto out;
    }
again:
    if (!((TRACE_LOAD(r->tr_active) >> cls) & 1u))
        goto out;
    uint64_t t64 = trace_port_now64();
    uint32_t lo = (uint32_t)t64, hi = (uint32_t)(t64 >> 32);
    unsigned need = nslots + (hi != c->tc_hi || lo < c->tc_last);
    if (!pooled && (c->tc_buf < 0 || used_slots(r, c) + need > TRACE_END_SLOT)) {
        trace_cpu_unlock(c);    // a buffer switch: the pool's lock first (the lock order),
        pool_lock(r);           // before the filters, which run once per event (D's
        trace_cpu_lock(c);      // predicates among them)
        pooled = 1;
        goto again;
    }
    if (((TRACE_LOAD(r->tr_slow) >> cls) & 1u) && !filters_pass(r, c, cls, ev, p->w, p->nw))
        goto out;
    for (;;) {
        if (c->tc_buf >= 0) {
            need = nslots + (hi != c->tc_hi || lo < c->tc_last);
            if (used_slots(r, c) + need <= TRACE_END_SLOT)
                break;
        }
        if (c->tc_buf >= 0)
            close_buffer(r, cpu, lo); // a combine event never spans two buffers
        if (acquire_buffer(r, cpu, t64) < 0) {
            if (!r->tr_filled) { // FILL stops tracing instead: later events are not generated
                c->tc_dropped++;
                dry_enter(r, c);
            }
            goto out;
        }
        if (c->tc_flushed) {    // the buffer start a flush caused: its cost is the flush's
            c->tc_flushed = 0;
            r->tr_reopens++;
            r->tr_reopen_cycles += trace_port_now64() - t64;
        }
    }
    put_event(r, c, cpu, cls, ev, p, nslots, need, lo, hi);
out:
    trace_cpu_unlock(c);
    if (pooled)
        pool_unlock(r);
    trace_port_irq_restore(fl);
}

void trace_emit_simple_slow(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t a,
                            uint32_t b)
{
    uint32_t w[2] = { a, b };
    struct payload p = { w, 2u, 0, 0u, 0u };
    emit_event(r, cls, ev, &p);
}

// The inline paths' event of class cls on a dry CPU (trace_ring.h, DRY), counted dropped in
// about what writing it would have cost: 1 when it was; 0 for everything else (a buffer, a
// pick due, the class off or filtered: the general path decides). Interrupts off and this
// CPU's lock held (nothing on one CPU) for its few loads and stores: a closer on another CPU
// writes tc_buf under it, a reader of the counts reads tc_dropped under it.
static inline __attribute__((always_inline)) int dry_drop(struct trace_ring *r, unsigned cls)
{
    unsigned long fl = trace_port_irq_save();
    struct trace_cpu *c = trace_cpu_here(r);
    trace_cpu_lock(c);
    uint32_t plain = TRACE_LOAD(r->tr_active) & ~TRACE_LOAD(r->tr_slow);
    int dropped = c->tc_buf < 0 && c->tc_dry && ((plain >> cls) & 1u) && !dry_due(r, c);
    if (dropped)
        c->tc_dropped++;
    trace_cpu_unlock(c);
    trace_port_irq_restore(fl);
    return dropped;
}

// (Out of line: the drop above returns with no frame of the general path's.)
static __attribute__((noinline)) void simple_general(struct trace_ring *r, uint32_t cls_ev,
                                                     uint32_t a, uint32_t b)
{
    trace_emit_simple_slow(r, cls_ev >> 16, cls_ev & 0xffffu, a, b);
}

void trace_emit_simple_slow_ce(struct trace_ring *r, uint32_t cls_ev, uint32_t a, uint32_t b)
{
    if (dry_drop(r, cls_ev >> 16))
        return;
    simple_general(r, cls_ev, a, b);
}

void trace_emit_words_slow(struct trace_ring *r, unsigned cls, unsigned ev, const uint32_t *w,
                           unsigned nwords)
{
    if (cls < KEV_NCLASS && dry_drop(r, cls))
        return;
    if (nwords > 2u * KEV_MAX_COMBINE_SLOTS)
        nwords = 2u * KEV_MAX_COMBINE_SLOTS;
    struct payload p = { w, nwords, 0, 0u, 0u };
    emit_event(r, cls, ev, &p);
}

void trace_emit_string(struct trace_ring *r, unsigned cls, unsigned ev, const uint32_t *w,
                       unsigned nwords, const char *str)
{
    const unsigned max_bytes = 8u * KEV_MAX_COMBINE_SLOTS;
    if (nwords > 2u * KEV_MAX_COMBINE_SLOTS - 1u)
        nwords = 2u * KEV_MAX_COMBINE_SLOTS - 1u;
    unsigned room = max_bytes - 4u * nwords, n = 0;
    while (str && n + 1u < room && str[n])
        n++;
    // A string alone always takes two slots or more (TRACE_STRING_MIN_BYTES, trace_ring.h).
    char pad[TRACE_STRING_MIN_BYTES] = { 0 };
    if (nwords == 0 && n + 1u < sizeof(pad)) {
        for (unsigned i = 0; i < n; i++)
            pad[i] = str[i];
        struct payload p = { w, 0, pad, sizeof(pad), r->tr_big };
        emit_event(r, cls, ev, &p);
        return;
    }
    struct payload p = { w, nwords, str ? str : "", n + 1u, r->tr_big };
    emit_event(r, cls, ev, &p);
}

// ---- control ---------------------------------------------------------------------------------

int trace_ring_init(struct trace_ring *r, void *mem, size_t len, unsigned nbufs)
{
    if (!r || !mem || nbufs == 0 || nbufs > TRACE_MAX_BUFS || ((uintptr_t)mem & 3u) ||
        len / KEV_BUF_BYTES < nbufs)
        return -TRACE_EINVAL;
    unsigned char *p = (unsigned char *)r;
    for (size_t i = 0; i < sizeof(*r); i++)
        p[i] = 0;
    r->tr_mem = mem;
    r->tr_nbufs = nbufs;
    r->tr_last = nbufs - 1u; // so that buffer 0 is used first
    const uint32_t one = 1;
    r->tr_big = *(const unsigned char *)&one == 0;
    for (unsigned i = 0; i < TRACE_MAX_CPUS; i++) {
        r->tr_cpu[i].tc_buf = -1;
        r->tr_cpu[i].tc_dry_watch = -1;
        r->tr_cpu[i].tc_wp = r->tr_cpu[i].tc_limit = &r->tr_noslot;
#if TRACE_MAX_CPUS > 1
        r->tr_cpu[i].tc_hdr = KEV_HEADER(0u, 0u, 0u, i); // the fast path's header bits
#endif
    }
    return 0;
}

int trace_ring_set_policy(struct trace_ring *r, unsigned policy)
{
    if (policy > TRACE_POLICY_FILL)
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    int rc = r->tr_running ? -TRACE_EBUSY : 0;
    if (rc == 0) {
        r->tr_policy = policy;
        pool_freed(r);
    }
    control_unlock(r, fl);
    return rc;
}

void trace_ring_set_quiet(struct trace_ring *r, unsigned on)
{
    unsigned long fl = control_lock(r);
    r->tr_quiet = on != 0;
    // What a capture already running wrote (a passive logger's program may start it first):
    // the table, the counts, the next sequence and the closed buffers, for a probe to read.
    publish(r, r->tr_buf, sizeof(r->tr_buf));
    publish(r, r->tr_cpu, sizeof(r->tr_cpu));
    publish(r, &r->tr_next_seq, sizeof(r->tr_next_seq));
    for (unsigned i = 0; i < r->tr_nbufs; i++)
        if (r->tr_buf[i].tb_state == TRACE_BUF_FULL)
            publish(r, buf_start(r, i), r->tr_buf[i].tb_nslots * sizeof(struct kev_slot));
    control_unlock(r, fl);
}

void trace_ring_set_wake(struct trace_ring *r, uint32_t nbufs)
{
    unsigned long fl = control_lock(r);
    r->tr_wake_bufs = nbufs;
    control_unlock(r, fl);
}

void trace_ring_set_acks(struct trace_ring *r, const uint32_t *acks)
{
    unsigned long fl = control_lock(r);
    r->tr_acks = acks;
    pool_freed(r);
    control_unlock(r, fl);
}

int trace_ring_start(struct trace_ring *r)
{
    if (r->tr_nbufs == 0)
        return -TRACE_ECANCELED;
    unsigned long fl = control_lock(r);
    int rc = -TRACE_EBUSY;
    if (!r->tr_running) {
        r->tr_running = 1;
        r->tr_filled = 0;
        r->tr_fill_next = 0;
        pool_freed(r);
        update_masks(r);
        rc = 0;
    }
    control_unlock(r, fl);
    return rc;
}

// The ring stopped, every CPU's buffer closed. Under control_lock.
static void stop_locked(struct trace_ring *r)
{
    r->tr_running = 0;
    update_masks(r);
    uint32_t now = trace_port_now32();
    for (unsigned cpu = 0; cpu < TRACE_MAX_CPUS; cpu++)
        if (r->tr_cpu[cpu].tc_buf >= 0)
            close_buffer(r, cpu, now);
    publish(r, r->tr_cpu, sizeof(r->tr_cpu));  // (every CPU's loss counts, final)
}

void trace_ring_stop(struct trace_ring *r)
{
    unsigned long fl = control_lock(r);
    stop_locked(r);
    control_unlock(r, fl);
}

int trace_ring_freeze(struct trace_ring *r)
{
    unsigned long fl = control_lock(r);
    int ran = r->tr_running != 0;
    if (ran) {
        stop_locked(r);
        trace_port_stopped(r);
    }
    control_unlock(r, fl);
    return ran;
}

// A CPU whose buffer holds no event keeps it, and on several CPUs keeps no room in it (quiesce
// left its limit 0) until its next event's general path, which stamps the event under its
// lock, after this call: a hook on that CPU reads its clock before it looks at its room, and
// with the room given back here it could write an event stamped before *done into an open
// buffer, a heartbeat's lie. (One CPU: no hook runs meanwhile; its room is given back.)
int trace_ring_flush(struct trace_ring *r, uint64_t *done)
{
    if (r->tr_nbufs == 0)
        return -TRACE_ECANCELED;
    unsigned long fl = control_lock(r);
    uint32_t now = trace_port_now32();
    for (unsigned cpu = 0; cpu < TRACE_MAX_CPUS; cpu++) {
        struct trace_cpu *c = &r->tr_cpu[cpu];
        if (c->tc_buf < 0)
            continue;
        struct kev_slot *wp = quiesce(r, cpu);
        if (used_below(r, c, wp) > r->tr_buf[c->tc_buf].tb_overhead) {
            close_buffer(r, cpu, now);
            c->tc_flushed = 1;
        } else if (TRACE_MAX_CPUS == 1) {
            set_limit(r, c);
        }
    }
    publish(r, r->tr_cpu, sizeof(r->tr_cpu));  // (the loss counts of CPUs without a buffer too)
    if (done)       // (every CPU's lock still held: no event is stamped meanwhile)
        *done = trace_port_now64();
    control_unlock(r, fl);
    return 0;
}

int trace_ring_take(struct trace_ring *r, unsigned *idx)
{
    unsigned long fl = control_lock(r);
    if (r->tr_policy == TRACE_POLICY_RING && r->tr_running) {
        control_unlock(r, fl);
        return -TRACE_EBUSY;
    }
    int best = oldest_full(r, 0);
    if (best < 0) { // the flush a notification asked for: switch a buffer past its mark
        for (unsigned cpu = 0; cpu < TRACE_MAX_CPUS && best < 0; cpu++) {
            struct trace_cpu *c = &r->tr_cpu[cpu];
            if (c->tc_buf >= 0 && r->tr_buf[c->tc_buf].tb_notified == 1 &&
                r->tr_policy != TRACE_POLICY_RING) {
                best = c->tc_buf;
                close_buffer(r, cpu, trace_port_now32());
            }
        }
    }
    if (best >= 0) {
        r->tr_buf[best].tb_state = TRACE_BUF_LOGGER;
        *idx = (unsigned)best;
    }
    control_unlock(r, fl);
    return best >= 0 ? 0 : -TRACE_EAGAIN;
}

int trace_ring_release(struct trace_ring *r, unsigned idx)
{
    if (idx >= r->tr_nbufs || r->tr_buf[idx].tb_state != TRACE_BUF_LOGGER)
        return -TRACE_EINVAL;
    unsigned long fl = trace_port_irq_save();
    pool_lock(r);
    r->tr_buf[idx].tb_state = TRACE_BUF_FREE;
    pool_freed(r);
    pool_unlock(r);
    trace_port_irq_restore(fl);
    return 0;
}

const struct kev_slot *trace_ring_buffer(const struct trace_ring *r, unsigned idx,
                                         unsigned *nslots, uint32_t *seq)
{
    if (idx >= r->tr_nbufs || r->tr_buf[idx].tb_state != TRACE_BUF_LOGGER)
        return 0;
    if (nslots)
        *nslots = r->tr_buf[idx].tb_nslots;
    if (seq)
        *seq = r->tr_buf[idx].tb_seq;
    return buf_start(r, idx);
}

// Under the pool lock (the loss counts are the pool's) and CPU cpu's lock (its write
// pointer): the locks are the ring's only mutable part here, the const the caller's promise
// that nothing else changes.
void trace_ring_counts(const struct trace_ring *r, unsigned cpu, struct trace_counts *out)
{
    struct trace_ring *w = (struct trace_ring *)r;
    struct trace_cpu *c = &w->tr_cpu[cpu < TRACE_MAX_CPUS ? cpu : 0];
    unsigned long fl = trace_port_irq_save();
    pool_lock(w);
    trace_cpu_lock(c);
    out->recorded = c->tc_recorded;
    if (c->tc_buf >= 0) {
        struct kev_slot *wp = quiesce(w, (unsigned)(c - w->tr_cpu)); // then its limit again
        out->recorded += used_below(r, c, wp) - r->tr_buf[c->tc_buf].tb_overhead;
        set_limit(w, c);
    }
    out->dropped = c->tc_dropped;
    out->overwritten = c->tc_overwritten;
    out->unreported = c->tc_unreported + (c->tc_dropped - c->tc_drop_seen);
    out->buffers = c->tc_buffers;
    trace_cpu_unlock(c);
    pool_unlock(w);
    trace_port_irq_restore(fl);
}

void trace_ring_count_lost(struct trace_ring *r, unsigned cls, uint32_t n)
{
    unsigned long fl = trace_port_irq_save();
    struct trace_cpu *c = &r->tr_cpu[trace_port_cpu()];
    trace_cpu_lock(c);  // tc_dropped is the CPU's own (trace_ring.h, LOCKING)
    if (n && cls < KEV_NCLASS && ((TRACE_LOAD(r->tr_active) >> cls) & 1u))
        c->tc_dropped += n;
    trace_cpu_unlock(c);
    trace_port_irq_restore(fl);
}

void trace_ring_tick(struct trace_ring *r)
{
    unsigned long fl = trace_port_irq_save();
    struct trace_cpu *c = &r->tr_cpu[trace_port_cpu()];
    trace_cpu_lock(c);  // its own buffer only (room is checked): no switch, no pool
    uint64_t t64 = trace_port_now64();
    if (c->tc_buf >= 0 && (uint32_t)(t64 >> 32) != c->tc_hi &&
        used_slots(r, c) < TRACE_END_SLOT) {
        uint32_t lo = (uint32_t)t64;
        put_slot(c->tc_wp++, control_hdr(KEV_CTL_TIME, trace_port_cpu()), lo,
                 (uint32_t)(t64 >> 32), lo);
        r->tr_buf[c->tc_buf].tb_overhead++;
        c->tc_hi = (uint32_t)(t64 >> 32);
        c->tc_last = lo;
        if (used_slots(r, c) >= KEV_HIGH_WATER)
            notify_buffer(r, (unsigned)c->tc_buf);
        set_limit(r, c);
    }
    trace_cpu_unlock(c);
    trace_port_irq_restore(fl);
}

#if TRACE_MAX_CPUS > 1
// A lock word that stays held through `spins` looks (the panic path's bounded wait).
static bool held_throughout(uint32_t *word, unsigned long spins)
{
    for (unsigned long n = 0; n < spins; n++)
        if (!__atomic_load_n(word, __ATOMIC_ACQUIRE))
            return false;
    return true;
}
#endif

bool trace_ring_panic_writable(struct trace_ring *r, unsigned long spins)
{
    struct trace_cpu *c = &r->tr_cpu[trace_port_cpu()];
#if TRACE_MAX_CPUS > 1
    // This CPU's lock first: a pool holder on another CPU may be waiting for it.
    if (held_throughout(&c->tc_lock, spins))
        trace_unlock(&c->tc_lock);
    if (held_throughout(&r->tr_pool_lock, spins))
        return false;
#else
    (void)spins;
#endif
    return (void *)c->tc_wp != (void *)c;
}

void trace_ring_deliver_pending(struct trace_ring *r)
{
    if (trace_port_in_interrupt()) // a nested exit: the outermost one delivers
        return;
    unsigned long fl = trace_port_irq_save();
    unsigned cpu = trace_port_cpu();
    struct trace_cpu *c = &r->tr_cpu[cpu];
    pool_lock(r);       // its FULL buffers' notification state is the pool's
    trace_cpu_lock(c);
    while (TRACE_LOAD(c->tc_npending)) { // oldest first
        int best = -1;
        for (unsigned i = 0; i < r->tr_nbufs; i++)
            if (r->tr_buf[i].tb_notified == 2 && r->tr_buf[i].tb_cpu == cpu &&
                (best < 0 || (int32_t)(r->tr_buf[i].tb_seq - r->tr_buf[best].tb_seq) < 0))
                best = (int)i;
        if (best < 0) { // counter out of step with the buffers: trust the buffers
            __atomic_store_n(&c->tc_npending, 0u, __ATOMIC_RELAXED);
            break;
        }
        __atomic_fetch_sub(&c->tc_npending, 1u, __ATOMIC_RELAXED);
        r->tr_buf[best].tb_notified = 1;
        trace_port_notify(r, (unsigned)best, r->tr_buf[best].tb_seq);
    }
    if (c->tc_buf >= 0)
        set_limit(r, c);
    trace_cpu_unlock(c);
    pool_unlock(r);
    trace_port_irq_restore(fl);
}

// ---- filters ---------------------------------------------------------------------------------

#define TRACE_USER_CLASSES 0xfcu // KER_CALL .. COMM

static int class_ok(unsigned cls)
{
    return cls < KEV_NCLASS && ((TRACE_USER_CLASSES >> cls) & 1u);
}

static void set_bits(uint32_t *map, uint32_t v)
{
    for (unsigned i = 0; i < 32u; i++)
        map[i] = v;
}

void trace_filter_all(struct trace_ring *r, int on)
{
    unsigned long fl = control_lock(r);
    r->tr_classes = on ? TRACE_USER_CLASSES : 0u;
    r->tr_evfilter = 0;
    for (unsigned c = 0; c < KEV_NCLASS; c++)
        set_bits(r->tr_ev_enable[c], 0u);
    update_masks(r);
    control_unlock(r, fl);
}

void trace_filter_withhold(struct trace_ring *r, uint32_t mask)
{
    unsigned long fl = control_lock(r);
    r->tr_withheld = mask & TRACE_USER_CLASSES;
    update_masks(r);
    control_unlock(r, fl);
}

int trace_filter_class(struct trace_ring *r, unsigned cls, int on)
{
    if (!class_ok(cls))
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    if (on)
        r->tr_classes |= 1u << cls;
    else
        r->tr_classes &= ~(1u << cls);
    r->tr_evfilter &= ~(1u << cls); // the whole class, all events
    set_bits(r->tr_ev_enable[cls], 0u);
    update_masks(r);
    control_unlock(r, fl);
    return 0;
}

int trace_filter_event(struct trace_ring *r, unsigned cls, unsigned ev, int on)
{
    if (!class_ok(cls) || ev > KEV_EVENT_MASK)
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    uint32_t bit = 1u << cls;
    if (!(r->tr_evfilter & bit)) { // switch the class to an explicit event set
        set_bits(r->tr_ev_enable[cls], (r->tr_classes & bit) ? ~0u : 0u);
        r->tr_evfilter |= bit;
    }
    if (on)
        r->tr_ev_enable[cls][ev >> 5] |= 1u << (ev & 31u);
    else
        r->tr_ev_enable[cls][ev >> 5] &= ~(1u << (ev & 31u));
    r->tr_classes |= bit;
    update_masks(r);
    control_unlock(r, fl);
    return 0;
}

// tr_wide's bit for cls: does any of its events go wide?
static void wide_summary(struct trace_ring *r, unsigned cls)
{
    uint32_t any = 0;
    for (unsigned i = 0; i < 32u; i++)
        any |= r->tr_ev_wide[cls][i];
    uint32_t wide = any ? r->tr_wide | 1u << cls : r->tr_wide & ~(1u << cls);
    __atomic_store_n(&r->tr_wide, wide, __ATOMIC_RELAXED);     // read unlocked by the hooks
}

void trace_mode_all(struct trace_ring *r, int wide)
{
    unsigned long fl = control_lock(r);
    for (unsigned c = 0; c < KEV_NCLASS; c++) {
        set_bits(r->tr_ev_wide[c], wide ? ~0u : 0u);
        wide_summary(r, c);
    }
    control_unlock(r, fl);
}

int trace_mode_class(struct trace_ring *r, unsigned cls, int wide)
{
    if (!class_ok(cls))
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    set_bits(r->tr_ev_wide[cls], wide ? ~0u : 0u);
    wide_summary(r, cls);
    control_unlock(r, fl);
    return 0;
}

int trace_mode_event(struct trace_ring *r, unsigned cls, unsigned ev, int wide)
{
    if (!class_ok(cls) || ev > KEV_EVENT_MASK)
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    if (wide)
        r->tr_ev_wide[cls][ev >> 5] |= 1u << (ev & 31u);
    else
        r->tr_ev_wide[cls][ev >> 5] &= ~(1u << (ev & 31u));
    wide_summary(r, cls);
    control_unlock(r, fl);
    return 0;
}

int trace_filter_class_pid(struct trace_ring *r, unsigned cls, uint32_t pid)
{
    if (!class_ok(cls))
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    r->tr_cls_pid[cls] = pid;
    update_masks(r);
    control_unlock(r, fl);
    return 0;
}

int trace_filter_class_tid(struct trace_ring *r, unsigned cls, uint32_t tid)
{
    if (!class_ok(cls))
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    r->tr_cls_tid[cls] = tid;
    update_masks(r);
    control_unlock(r, fl);
    return 0;
}

// Set the pid (which == 0) or tid (which == 1) of the entry for cls/ev, adding or freeing it.
static int event_filter_set(struct trace_ring *r, unsigned cls, unsigned ev, int which,
                            uint32_t v)
{
    if (!class_ok(cls) || ev > KEV_EVENT_MASK)
        return -TRACE_EINVAL;
    unsigned long fl = control_lock(r);
    struct trace_evfilter *f = 0, *spare = 0;
    for (unsigned i = 0; i < TRACE_EV_FILTERS; i++) {
        struct trace_evfilter *e = &r->tr_evf[i];
        int used = e->ef_pid || e->ef_tid;
        if (used && e->ef_cls == cls && e->ef_ev == ev)
            f = e;
        else if (!used && !spare)
            spare = e;
    }
    int rc = 0;
    if (!f && v) {
        f = spare;
        if (f) {
            f->ef_cls = (uint16_t)cls;
            f->ef_ev = (uint16_t)ev;
        }
    }
    if (f) {
        if (which == 0)
            f->ef_pid = v;
        else
            f->ef_tid = v;
    } else if (v) {
        rc = -TRACE_ENOSPC;
    }
    update_masks(r);
    control_unlock(r, fl);
    return rc;
}

int trace_filter_event_pid(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t pid)
{
    return event_filter_set(r, cls, ev, 0, pid);
}

int trace_filter_event_tid(struct trace_ring *r, unsigned cls, unsigned ev, uint32_t tid)
{
    return event_filter_set(r, cls, ev, 1, tid);
}

void trace_filter_dynamic(struct trace_ring *r, uint32_t cls_mask, trace_dyn_filter_fn fn,
                          void *arg)
{
    unsigned long fl = control_lock(r);
    r->tr_dyn = fn;
    r->tr_dyn_arg = arg;
    r->tr_dynmask = fn ? cls_mask & TRACE_USER_CLASSES : 0u;
    update_masks(r);
    control_unlock(r, fl);
}
