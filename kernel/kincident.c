// SPDX-License-Identifier: MIT
// The incident record (kernel/kincident.h, trace/kev_incident.h, docs/incidents.md): at a D
// trigger, the frozen ring's last buffers, the D program and its unread records and
// aggregations, every process and every thread's registers and stack top, written into the
// board's incident region, a RAM range outside every load segment of the image (so neither
// the boot nor QEMU's loader, which zeroes each segment's .bss part at a reset, clears it); at
// the next boot, checked (kev_incident_check, the readers' one check) and held for the
// tracelogger, which writes it out and marks it read (KTRACE_INCIDENT). A record not yet read
// is never overwritten: the first failure is the one kept, until a reader has it.
// Writing order, so that a record cut by a second failure is refused and never believed:
// the state word WRITING first, the body, the header's words and CRC, the state COMMIT last.
// Runs in the trigger's firing (interrupts off, no lock of the ring's held; the ring frozen
// first, so no CPU writes its buffers meanwhile); the D engine's buffers and tables of other
// CPUs are read as they are (a firing there may be appending: its last entry may be torn).
#include <kernel/kincident.h>
#include <stddef.h>
#include <kernel/ktrace.h>
#include <kernel/kview.h>
#include <kernel/arch_trace.h>
#include <kernel/board.h>
#include <arch_cache.h>
#include <trace/kev_incident.h>
#include <trace/kev_stream.h>
#include <d/dvm.h>
#include <d/duname.h>
#include <d/dobj_file.h>
#include <uapi/ktrace.h>

// The region (ldscripts/kernel.ld.S): empty on a board without INCIDENT_RAM_BASE.
extern uint8_t __incident_start[], __incident_end[];

// Each thread's stack kept from its sp up: enough for gdb's backtrace through a few frames.
#define STACK_KEEP 2048u

static uint32_t seq_next = 1;   // the number the next record takes (set at boot)
static bool held;               // an earlier boot's record, not yet read out: kept
static bool written;            // this boot wrote one

// The region's map for a reader outside the target (kevdump -I): no code refers to it, the
// image's link keeps it (-Wl,--undefined=kev_incident_map, user/module.mk).
_Static_assert(offsetof(struct kev_inc_map, start) == KEV_INC_MAP_ADDRS, "addresses after the words");
__attribute__((used)) const struct kev_inc_map kev_incident_map = {
    .magic = KEV_INC_MAP_MAGIC,
    .version = KEV_INC_VERSION,
    .ptr_bytes = sizeof(void *),
    .start = (uintptr_t)__incident_start,
    .end = (uintptr_t)__incident_end,
};

static uint32_t region_bytes(void)
{
    return (uint32_t)(__incident_end - __incident_start);
}

static struct kev_inc_hdr *hdr(void)
{
    return (struct kev_inc_hdr *)(void *)__incident_start;
}

static uint8_t *body(void)
{
    return __incident_start + sizeof(struct kev_inc_hdr);
}

static int region_read(void *arg, uint32_t off, void *dst, uint32_t n)
{
    (void)arg;
    kmemcpy(dst, body() + off, n);
    return 0;
}

// What the region holds at boot: refused (said, then cleared, so that nothing of it is
// believed and the next boot says nothing more), an earlier record to keep, or nothing.
void kincident_boot(void)
{
    if (region_bytes() <= sizeof(struct kev_inc_hdr))
        return;
    // (from the pool, given back below: a board without a region keeps its kernel RAM)
    struct kev_inc_view *v = kview_alloc(sizeof(*v), 8);     // (no section table: cap 0)
    if (!v) {
        kprintf("kernel: incident record not read: no memory for its check\n");
        return;
    }
    const char *why = "";
    int r = kev_incident_check(__incident_start, region_bytes(), region_read, NULL, v, &why);
    if (r < 0) {
        kprintf("kernel: incident record refused: %s; nothing of it is believed\n", why);
        kmemset(hdr(), 0, sizeof(struct kev_inc_hdr));
        arch_dcache_publish(hdr(), sizeof(struct kev_inc_hdr));
    } else if (r == 0) {
        seq_next = v->hdr.seq + 1u;
        if (v->hdr.state != KEV_INC_READ) {
            held = true;
            kprintf("kernel: incident record %u from the last boot: %s( ) at %s, clause %u, in "
                    "%u/%u (%u bytes): the tracelogger writes it out\n", (unsigned)v->hdr.seq,
                    kev_incident_action_name(v->trig.action), v->trig.probe,
                    (unsigned)v->trig.clause, (unsigned)(v->trig.who >> 16),
                    (unsigned)(v->trig.who & 0xffffu),
                    (unsigned)(v->hdr.body_bytes + sizeof(struct kev_inc_hdr)));
        }
    }
    kview_free(v);
}

uint32_t kincident_next(void)
{
    return region_bytes() > sizeof(struct kev_inc_hdr) + 1024u && !held && !written ? seq_next : 0;
}

bool kincident_written(void)
{
    return written;
}

// ---- the body, a section at a time ------------------------------------------------------------

struct out {
    uint8_t *p;
    uint32_t cap, len;
    uint32_t sec;       // the open section's header offset
};

static uint32_t room(const struct out *o)
{
    return o->cap - o->len;
}

static void put(struct out *o, const void *p, uint32_t n)
{
    kmemcpy(o->p + o->len, p, n);
    o->len += n;
}

// A section of `need` payload bytes begun, or false when they do not fit (nothing written).
static bool sec_open(struct out *o, uint32_t type, uint32_t need)
{
    if (room(o) < sizeof(struct kev_inc_sec) + kev_inc_pad8(need))
        return false;
    o->sec = o->len;
    struct kev_inc_sec s = { type, need };
    put(o, &s, sizeof(s));
    return true;
}

static void sec_close(struct out *o)
{
    uint32_t n = o->len - o->sec - (uint32_t)sizeof(struct kev_inc_sec);
    kmemset(o->p + o->len, 0, kev_inc_pad8(n) - n);
    o->len = o->sec + (uint32_t)sizeof(struct kev_inc_sec) + kev_inc_pad8(n);
}

static void copy_name(char *dst, size_t n, const char *src)
{
    kmemset(dst, 0, n);
    if (src)
        kstrlcpy(dst, src, n);
}

static void put_trigger(struct out *o, const struct kincident_trig *tr, uint32_t dropped)
{
    struct kev_inc_trigger g;
    kmemset(&g, 0, sizeof(g));
    g.action = tr->action;
    g.probe_id = tr->probe_id;
    g.clause = tr->clause;
    g.cpu = cpu_id();
    g.who = tr->t ? tr->t->trace_who : 0;
    g.ncpus = k_ncpus;
    g.at_lo = (uint32_t)tr->at;
    g.at_hi = (uint32_t)(tr->at >> 32);
    g.hz = board_cycles_per_sec();
    g.dropped = dropped;
    copy_name(g.probe, sizeof(g.probe), tr->probe);
    copy_name(g.board, sizeof(g.board), dvm_uname(DUN_NODENAME));
    copy_name(g.machine, sizeof(g.machine), dvm_uname(DUN_MACHINE));
    if (sec_open(o, KEV_INC_TRIGGER, sizeof(g))) {
        put(o, &g, sizeof(g));
        sec_close(o);
    }
}

static void put_procs(struct out *o)
{
    for (unsigned i = 0; i < KMAX_PROCS; i++) {
        const struct proc *p = &k_procs[i];
        if (p->state != PROC_ALIVE)
            continue;
        struct kev_inc_proc e = { (uint32_t)p->pid, (uint32_t)p->ppid, { 0 } };
        copy_name(e.name, sizeof(e.name), p->name);
        if (sec_open(o, KEV_INC_PROC, sizeof(e))) {
            put(o, &e, sizeof(e));
            sec_close(o);
        }
    }
}

// One thread: its registers as the core file gives them and its stack from sp up, as much as
// its process's RAM holds (at most STACK_KEEP).
static void put_thread(struct out *o, const struct thread *t, const struct kincident_trig *tr)
{
    uint64_t regs[KEV_INC_REGS_MAX], sp = 0;
    const struct proc *p = t->proc;
    unsigned nregs = arch_thread_uregs(t, regs, &sp);
    uint32_t keep = 0, end = p->ram_base + p->ram_size;
    if (nregs && sp >= p->ram_base && sp < end) {
        keep = end - (uint32_t)sp < STACK_KEEP ? end - (uint32_t)sp : STACK_KEEP;
        if (!proc_can_read(p, (uint32_t)sp, keep))
            keep = 0;
    }
    struct kev_inc_thread e;
    kmemset(&e, 0, sizeof(e));
    e.pid = (uint32_t)p->pid;
    e.tid = t->tid;
    e.state = t->state;
    e.prio = t->prio;
    e.flags = t == tr->t ? KEV_INC_THR_TRIGGER | (tr->signal ? KEV_INC_THR_FAULT : 0u) : 0u;
    e.signal = t == tr->t ? tr->signal : 0u;
    e.nregs = nregs;
    e.stack_lo = (uint32_t)sp;
    e.stack_hi = (uint32_t)(sp >> 32);
    copy_name(e.name, sizeof(e.name), p->name);
    uint32_t need = (uint32_t)sizeof(e) + 8u * nregs;
    if (!sec_open(o, KEV_INC_THREAD, need + keep)) {
        keep = 0;       // no room for its stack: its registers alone
        if (!sec_open(o, KEV_INC_THREAD, need))
            return;
    }
    e.stack_bytes = keep;
    put(o, &e, sizeof(e));
    for (unsigned k = 0; k < nregs; k++) {
        uint32_t w[2] = { (uint32_t)regs[k], (uint32_t)(regs[k] >> 32) };
        put(o, w, sizeof(w));
    }
    put(o, (const void *)(uintptr_t)sp, keep);
    sec_close(o);
}

// The trigger's thread first (the core file's first thread is gdb's current one), then every
// other thread of a process.
static void put_threads(struct out *o, const struct kincident_trig *tr)
{
    if (tr->t && tr->t->proc)
        put_thread(o, tr->t, tr);
    for (unsigned i = 0; i < KMAX_THREADS; i++) {
        const struct thread *t = &k_threads[i];
        if (t->in_use && t->proc && t->state != THS_DEAD && t != tr->t)
            put_thread(o, t, tr);
    }
}

// ---- the D program ----------------------------------------------------------------------------

struct rec_copy {
    struct out *o;
    uint32_t left;
};

static void rec_one(void *arg, const struct dvm_rechdr *rec)
{
    struct rec_copy *c = arg;
    if (rec->rh_size <= c->left) {
        put(c->o, rec, rec->rh_size);
        c->left -= rec->rh_size;
    }
}

static uint32_t rec_bytes_sum;
static void rec_size(void *arg, const struct dvm_rechdr *rec)
{
    (void)arg;
    rec_bytes_sum += rec->rh_size;
}

// The program as a .dobj file (its consumer's header, then its object), each CPU's unread
// records and each CPU's aggregation entries.
static void put_dprog(struct out *o, const struct kincident_trig *tr)
{
    const struct dvm_state *d = tr->d;
    if (!d || !d->obj.hdr || !tr->dobj)
        return;
    uint32_t objlen = d->obj.hdr->dh_size;
    struct dobj_file_hdr h = *tr->dobj;
    h.objlen = objlen;
    if (!sec_open(o, KEV_INC_DOBJ, (uint32_t)sizeof(h) + objlen))
        return;
    put(o, &h, sizeof(h));
    put(o, d->obj.hdr, objlen);
    sec_close(o);
    for (unsigned c = 0; c < d->opts.ncpu; c++) {
        rec_bytes_sum = 0;
        dvm_buf_peek(d, c, rec_size, NULL);
        uint32_t n = rec_bytes_sum;
        struct kev_inc_dcpu e = { c, n, (uint32_t)d->stats[c].drops,
                                  (uint32_t)(d->stats[c].drops >> 32) };
        if (!sec_open(o, KEV_INC_DBUF, (uint32_t)sizeof(e) + n))
            continue;
        put(o, &e, sizeof(e));
        struct rec_copy rc = { o, n };
        dvm_buf_peek(d, c, rec_one, &rc);
        o->len += rc.left;      // (a record that grew meanwhile: its room left zero)
        sec_close(o);
    }
    for (unsigned c = 0; c < d->opts.ncpu; c++) {
        uint32_t n = d->agg[c].used;
        struct kev_inc_dcpu e = { c, n, 0, 0 };
        if (!n || !sec_open(o, KEV_INC_DAGG, (uint32_t)sizeof(e) + n))
            continue;
        put(o, &e, sizeof(e));
        put(o, d->agg[c].mem, n);
        sec_close(o);
    }
}

// ---- the frozen ring --------------------------------------------------------------------------

// Whether buffer i holds a closed buffer's events (FULL, or taken by the logger and not
// written over since: the ring is frozen).
static bool kept_state(const struct trace_buf *b)
{
    return (b->tb_state == TRACE_BUF_FULL || b->tb_state == TRACE_BUF_LOGGER) && b->tb_nslots;
}

// The newest buffers that fit, oldest first; each CPU's losses, those of the buffers left out
// added. *dropped: the events left out.
static void put_ring(struct out *o, uint32_t *dropped)
{
    const struct trace_ring *r = &ktrace;
    struct kev_inc_ring h;
    kmemset(&h, 0, sizeof(h));
    h.ncpus = k_ncpus < KEV_INC_MAX_CPUS ? k_ncpus : KEV_INC_MAX_CPUS;
    h.policy = r->tr_policy;
    uint64_t lost[KEV_INC_MAX_CPUS] = { 0 };
    for (unsigned c = 0; c < h.ncpus; c++)
        lost[c] = r->tr_cpu[c].tc_dropped + r->tr_cpu[c].tc_overwritten;
    // Newest first: pick by sequence while they fit.
    uint64_t picked = 0;
    uint32_t need = (uint32_t)sizeof(h) + 8u, newest_below = UINT32_MAX;
    for (unsigned n = 0; r->tr_mem && n < r->tr_nbufs; n++) {
        int best = -1;
        for (unsigned i = 0; i < r->tr_nbufs; i++)
            if (kept_state(&r->tr_buf[i]) && !((picked >> i) & 1u) &&
                r->tr_buf[i].tb_seq < newest_below &&
                (best < 0 || r->tr_buf[i].tb_seq > r->tr_buf[best].tb_seq))
                best = (int)i;
        if (best < 0)
            break;
        const struct trace_buf *b = &r->tr_buf[best];
        uint32_t bytes = (uint32_t)sizeof(struct kev_inc_buf) + b->tb_nslots * KEV_SLOT_BYTES;
        newest_below = b->tb_seq;
        if (need + bytes > room(o) - sizeof(struct kev_inc_sec) - 8u) {
            for (unsigned i = 0; i < r->tr_nbufs; i++)   // this one and every older one
                if (kept_state(&r->tr_buf[i]) && !((picked >> i) & 1u) &&
                    r->tr_buf[i].tb_seq <= b->tb_seq) {
                    uint32_t ev = r->tr_buf[i].tb_nslots - r->tr_buf[i].tb_overhead;
                    if (r->tr_buf[i].tb_cpu < h.ncpus)
                        lost[r->tr_buf[i].tb_cpu] += ev;
                    *dropped += ev;
                }
            break;
        }
        picked |= 1ull << best;
        need += bytes;
        h.nbufs++;
    }
    for (unsigned c = 0; c < h.ncpus; c++) {
        h.lost[c][0] = (uint32_t)lost[c];
        h.lost[c][1] = (uint32_t)(lost[c] >> 32);
    }
    if (!sec_open(o, KEV_INC_RING, need - 8u))
        return;
    put(o, &h, sizeof(h));
    for (uint32_t last = 0, k = 0; k < h.nbufs; k++) {  // oldest first
        int best = -1;
        for (unsigned i = 0; i < r->tr_nbufs; i++)
            if (((picked >> i) & 1u) && (k == 0 || r->tr_buf[i].tb_seq > last) &&
                (best < 0 || r->tr_buf[i].tb_seq < r->tr_buf[best].tb_seq))
                best = (int)i;
        const struct trace_buf *b = &r->tr_buf[best];
        struct kev_inc_buf e = { b->tb_seq, b->tb_nslots };
        put(o, &e, sizeof(e));
        put(o, r->tr_mem + (size_t)best * KEV_BUF_SLOTS, b->tb_nslots * KEV_SLOT_BYTES);
        last = b->tb_seq;
    }
    sec_close(o);
}

uint32_t kincident_write(const struct kincident_trig *tr)
{
    uint32_t seq = kincident_next();
    if (!seq) {
        kprintf("kernel: no incident record for %s( ) at %s: %s\n",
                kev_incident_action_name(tr->action), tr->probe,
                region_bytes() <= sizeof(struct kev_inc_hdr) + 1024u
                    ? "this board has no incident region"
                : held ? "the last boot's record is not read out yet (it is kept)"
                       : "one was written this boot already (the first is kept)");
        return 0;
    }
    uint64_t t0 = board_cycles();
    struct kev_inc_hdr *h = hdr();
    kmemset(h, 0, sizeof(*h));
    kmemcpy(h->magic, KEV_INC_MAGIC, sizeof(h->magic));
    h->version = KEV_INC_VERSION;
    h->state = KEV_INC_WRITING;         // a cut from here on is refused
    arch_dcache_publish(h, sizeof(*h));
    struct out o = { body(), region_bytes() - (uint32_t)sizeof(*h), 0, 0 };
    uint32_t dropped = 0;
    uint32_t trig_at = o.len;
    put_trigger(&o, tr, 0);
    put_procs(&o);
    put_threads(&o, tr);
    put_dprog(&o, tr);
    put_ring(&o, &dropped);
    if (dropped) {      // (the trigger's section is the first: its dropped word patched)
        struct kev_inc_trigger *g = (void *)(o.p + trig_at + sizeof(struct kev_inc_sec));
        g->dropped = dropped;
    }
    kincident_body_written();
    h->seq = seq;
    h->hdr_bytes = sizeof(*h);
    h->body_bytes = o.len;
    h->body_crc = ks_crc32(0, o.p, o.len);
    h->region_bytes = region_bytes();
    h->ptr_bytes = sizeof(void *);
    h->hdr_crc = ks_crc32(0, h, KEV_INC_HDR_CRC_BYTES);
    arch_dcache_publish(__incident_start, sizeof(*h) + o.len);
    __atomic_store_n(&h->state, KEV_INC_COMMIT, __ATOMIC_RELEASE);     // last
    arch_dcache_publish(&h->state, sizeof(h->state));
    written = true;
    seq_next = seq + 1u;
    kprintf("kernel: incident record %u written: %s( ) at %s, clause %u (%u bytes in %u "
            "cycles%s)\n", (unsigned)seq, kev_incident_action_name(tr->action), tr->probe,
            (unsigned)tr->clause, (unsigned)(sizeof(*h) + o.len),
            (unsigned)(board_cycles() - t0),
            dropped ? ", the oldest buffers left out for room" : "");
    return seq;
}

// Between the body and the header: the place a test's debugger stops the write to cut it
// with a reset (test/qemu/test_incident.sh). Not inlined, so that it is a place.
__attribute__((noinline)) void kincident_body_written(void)
{
    __asm__ volatile("" ::: "memory");
}

// ---- TraceEvent(KTRACE_INCIDENT) ---------------------------------------------------------------

int kincident_call(struct thread *t, uint32_t op, uint32_t arg)
{
    struct proc *p = t->proc;
    const struct kev_inc_hdr *h = hdr();
    bool whole = region_bytes() > sizeof(*h) && (held || written) &&
                 (h->state == KEV_INC_COMMIT || h->state == KEV_INC_READ);
    switch (op) {
    case KTRACE_INCIDENT_QUERY:     // the record's bytes, 0 when none is held
        return held && whole ? (int)(sizeof(*h) + h->body_bytes) : 0;
    case KTRACE_INCIDENT_READ: {    // (struct ktrace_incident_read *)
        struct ktrace_incident_read rq;
        if (proc_copy_in(p, &rq, arg, sizeof(rq)) < 0)
            return -EFAULT;
        if (!whole)
            return -ENOENT;
        uint32_t total = (uint32_t)sizeof(*h) + h->body_bytes;
        if (rq.off > total)
            return -EINVAL;
        uint32_t n = rq.len < total - rq.off ? rq.len : total - rq.off;
        if (proc_copy_out(p, rq.buf, __incident_start + rq.off, n) < 0)
            return -EFAULT;
        return (int)n;
    }
    case KTRACE_INCIDENT_DONE:      // (seq): written out; kept, no longer announced
        if (!held || !whole || h->seq != arg)
            return -ENOENT;
        hdr()->state = KEV_INC_READ;
        arch_dcache_publish(&hdr()->state, sizeof(h->state));
        held = false;
        return 0;
    default:
        return -EINVAL;
    }
}
