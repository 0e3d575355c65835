// SPDX-License-Identifier: MIT
// The engine around the interpreter: dvm_load lays the engine out in the caller's memory
// after dif_verify accepted the object; dvm_fire runs a probe's enabled clauses (predicate,
// then actions in order) and records their data; the principal buffers implement the
// switch / fill / ring policies; the dynamic-variable space holds arrays and self->.
// A clause that faults is abandoned (its record is withdrawn), an error record is written and
// the ERROR probe fires (not again from inside ERROR clauses). A clause that cannot get
// buffer space is skipped whole and counted as a drop.
#include "dvm_impl.h"
#include <d/dprobes.h>
#include <d/dstacks.h>

_Static_assert(DPROBE_COUNT <= DVM_PROBE_TABLE_MAX, "probe_map is sized by DVM_PROBE_TABLE_MAX");

dvm_relax_fn dvm_spin_relax;

static int err_set(char *err, size_t errlen, const char *msg)
{
    d_strlcpy(err, msg, errlen);
    return -1;
}

/* ---- dynamic variables -------------------------------------------------------------------
 * Chunks of dynvarsize, each a struct dent, then the key (keymax bytes), then the value. A live
 * chunk is on its bucket's chain (`next`); a free one on a CPU's free list (`next` too); a
 * deleted one, when firings run concurrently, on its CPU's dirty list (`dirty`), its `next` left
 * as it was, so that a firing walking the chain through it goes on to the chunks after it
 * (d/dvm.h, CONCURRENCY: chains are walked without a lock; a chunk is linked in by
 * compare-and-swap on its bucket, after its key and zeroed value are written; deleters of a
 * stripe of buckets take its lock to unlink; a deleted chunk is reused only after
 * dvm_dyn_clean, when no firing runs: nobody is still at it). keylen 0: not live. */

struct dent {
    uint32_t next;   /* chain / free list, chunk index + 1 */
    uint32_t keylen;
    uint32_t hash;
    uint32_t dirty;  /* dirty list, chunk index + 1 */
};

static struct dent *dyn_chunk(struct dvm_dyn *d, uint32_t k)
{
    return (struct dent *)(d->mem + (size_t)k * d->chunk);
}

/* A chunk's chain link and liveness, which other CPUs' firings read while this one writes
 * them (d_load_acq / d_store_rel: plain accesses when not concurrent). */
static inline uint32_t dent_next(struct dent *e, unsigned conc)
{
    return d_load_acq(&e->next, conc);
}
static inline void dent_set_next(struct dent *e, uint32_t k, unsigned conc)
{
    d_store_rel(&e->next, k, conc);
}
static inline uint32_t dent_keylen(struct dent *e, unsigned conc)
{
    return d_load_acq(&e->keylen, conc);
}

static uint32_t dyn_hash(const uint8_t *key, unsigned n)
{
    return d_hash_words(2166136261u, key, n); /* keys are whole words (dyn_key in vm.c) */
}

/* dyn_reclaim: cpu's limbo free again once every CPU that was in a firing when it closed has
 * left that firing (its epoch moved on: no firing that began after the chunks were unlinked
 * can reach them); then cpu's dirty chunks close into the next limbo, the CPUs' epochs read
 * after a full barrier (a CPU's firing sets its epoch, then a full barrier, then walks chains:
 * either this reads its odd epoch, or its walk sees the chunks unlinked). cpu's firing only. */
static void dyn_reclaim(struct dvm_state *st, unsigned cpu)
{
    struct dvm_dyn *d = &st->dyn;
    unsigned n = st->opts.ncpu;
    if (d->limbo[cpu]) {
        for (unsigned j = 0; j < n; j++) {
            uint32_t then = d->limbo_epoch[cpu * n + j];
            if (j != cpu && (then & 1u) &&
                __atomic_load_n(&st->cpus[j].epoch, __ATOMIC_ACQUIRE) == then)
                return;     /* still in that firing: it may hold one of them */
        }
        uint32_t first = d->limbo[cpu], last = first;
        for (uint32_t k = first; k;) {
            struct dent *e = dyn_chunk(d, k - 1);
            dent_set_next(e, e->dirty, 1u); /* (no firing reaches it: now the free list's) */
            e->dirty = 0;
            last = k;
            k = dent_next(e, 1u);
        }
        uint32_t *list = &d->free[cpu];
        for (uint32_t head;;) {     /* others may pop meanwhile: spliced by compare-and-swap */
            head = d_load_acq(list, 1u);
            dent_set_next(dyn_chunk(d, last - 1), head, 1u);
            if (d_cas(list, head, first, 1u))
                break;
        }
        d->limbo[cpu] = 0;
    }
    if (d->dirty[cpu]) {
        d->limbo[cpu] = d->dirty[cpu];
        d->dirty[cpu] = 0;
        d->ndirty[cpu] = 0;
        d_full_barrier(&d->limbo[cpu]);
        for (unsigned j = 0; j < n; j++)   /* (acquire: what an ended firing read, before) */
            d->limbo_epoch[cpu * n + j] = __atomic_load_n(&st->cpus[j].epoch, __ATOMIC_ACQUIRE);
    }
}

/* dyn_pop: a chunk (index + 1) off free list `list`, or 0. Concurrent: by compare-and-swap; a
 * chunk returns to a free list only when no firing still at it runs (dyn_reclaim), so no pop
 * meets its head gone and back (no ABA). */
static uint32_t dyn_pop(struct dvm_dyn *d, uint32_t *list, unsigned conc)
{
    for (uint32_t k; (k = d_load_acq(list, conc)) != 0;)
        if (d_cas(list, k, dent_next(dyn_chunk(d, k - 1), conc), conc))
            return k;
    return 0;
}

/* dyn_take: a free chunk (index + 1) for cpu: from its own list, its limbo when that is free
 * again, then the other CPUs' lists; 0 when there is none. */
static uint32_t dyn_take(struct dvm_state *st, unsigned cpu)
{
    struct dvm_dyn *d = &st->dyn;
    unsigned conc = st->opts.concurrent, n = st->opts.ncpu;
    if (!conc)
        return dyn_pop(d, &d->free[0], 0);
    uint32_t k = dyn_pop(d, &d->free[cpu], 1u);
    if (!k) {
        dyn_reclaim(st, cpu);
        k = dyn_pop(d, &d->free[cpu], 1u);
    }
    for (unsigned i = 1; i < n && !k; i++)
        k = dyn_pop(d, &d->free[(cpu + i) % n], 1u);
    return k;
}

/* dyn_drop: chunk k (index + 1), unlinked or never linked, out of use: free at once when one
 * firing runs at a time, else on cpu's dirty list (dyn_reclaim). */
static void dyn_drop(struct dvm_state *st, unsigned cpu, uint32_t k)
{
    struct dvm_dyn *d = &st->dyn;
    struct dent *e = dyn_chunk(d, k - 1);
    if (!st->opts.concurrent) {
        dent_set_next(e, d->free[0], 0);
        d->free[0] = k;
        return;
    }
    e->dirty = d->dirty[cpu];
    d->dirty[cpu] = k;
    if (++d->ndirty[cpu] >= d->batch) /* so that a limbo's wait starts early */
        dyn_reclaim(st, cpu);
}

/* dyn_find: the live chunk holding key (h its hash) on the chain from k, or NULL. */
static struct dent *dyn_find(struct dvm_dyn *d, uint32_t k, uint32_t h, const uint8_t *key,
                             unsigned keylen, unsigned conc)
{
    for (; k; k = dent_next(dyn_chunk(d, k - 1), conc)) {
        struct dent *e = dyn_chunk(d, k - 1);
        if (e->hash == h && dent_keylen(e, conc) == keylen && d_words_eq(e + 1, key, keylen))
            return e;
    }
    return NULL;
}

uint8_t *dvm_dyn_lookup(struct dvm_state *st, unsigned cpu, const uint8_t *key,
                        unsigned keylen, int create)
{
    struct dvm_dyn *d = &st->dyn;
    unsigned conc = st->opts.concurrent;
    if (!d->nchunks || keylen > d->keymax)
        return NULL;
    uint32_t h = dyn_hash(key, keylen), k = 0;
    uint32_t *slot = &d->bucket[h % d->nbuckets];
    for (;;) {
        uint32_t head = d_load_acq(slot, conc);
        struct dent *e = dyn_find(d, head, h, key, keylen, conc);
        if (e || !create) {
            if (k) /* another CPU linked the key first: this chunk was never seen */
                dyn_drop(st, cpu, k);
            return e ? (uint8_t *)(e + 1) + d->keymax : NULL;
        }
        if (!k) {
            if (!(k = dyn_take(st, cpu)))
                return NULL;
            e = dyn_chunk(d, k - 1);
            d_store_rel(&e->keylen, keylen, conc);
            e->hash = h;
            d_words_zero(e + 1, d->keymax + d->valmax);
            d_words_copy(e + 1, key, keylen);
        }
        dent_set_next(dyn_chunk(d, k - 1), head, conc);
        if (d_cas(slot, head, k, conc)) /* release: its key and value are seen with it */
            return (uint8_t *)(dyn_chunk(d, k - 1) + 1) + d->keymax;
    }
}

void dvm_dyn_free(struct dvm_state *st, unsigned cpu, const uint8_t *key, unsigned keylen)
{
    struct dvm_dyn *d = &st->dyn;
    unsigned conc = st->opts.concurrent;
    if (!d->nchunks)
        return;
    uint32_t h = dyn_hash(key, keylen), b = h % d->nbuckets, k = 0;
    uint32_t *lock = conc ? &d->stripe[b % DVM_DYN_STRIPES] : NULL;
    d_word_lock(lock, conc);
    /* Under the stripe's lock no other deleter changes this chain; an inserter may still put
     * a chunk before its head, so the head is unlinked by compare-and-swap, and looked for
     * again from the new head when one came. */
    for (uint32_t *link = &d->bucket[b];;) {
        uint32_t cur = d_load_acq(link, conc);
        if (!cur)
            break;
        struct dent *e = dyn_chunk(d, cur - 1);
        if (e->hash != h || dent_keylen(e, conc) != keylen || !d_words_eq(e + 1, key, keylen)) {
            link = &e->next;
            continue;
        }
        uint32_t after = dent_next(e, conc);
        if (link == &d->bucket[b] ? d_cas(link, cur, after, conc)
                                  : (d_store_rel(link, after, conc), 1)) {
            d_store_rel(&e->keylen, 0, conc); /* not live: dvm_dyn_memval( ) refuses it */
            k = cur;
            break;
        }
        link = &d->bucket[b]; /* a chunk came before the head: walk again */
    }
    d_word_unlock(lock, conc);
    if (k) {   /* the caches invalidated before the chunk can go into a limbo (dyn_reclaim) */
        d_fetch_add(&d->gen, 1u, conc);
        dyn_drop(st, cpu, k);
    }
}

uint32_t dvm_dyn_clean(struct dvm_state *st)
{
    struct dvm_dyn *d = &st->dyn;
    uint32_t n = 0;
    for (unsigned cpu = 0; cpu < st->opts.ncpu && st->opts.concurrent; cpu++) {
        uint32_t *lists[2] = { &d->dirty[cpu], &d->limbo[cpu] };
        for (unsigned l = 0; l < 2; l++) {
            for (uint32_t k = *lists[l], next; k; k = next, n++) {
                struct dent *e = dyn_chunk(d, k - 1);
                next = e->dirty;
                e->dirty = 0;
                dent_set_next(e, d->free[cpu], 0);
                d->free[cpu] = k;
            }
            *lists[l] = 0;
        }
        d->ndirty[cpu] = 0;
    }
    return n;
}

uint8_t *dvm_dyn_memval(struct dvm_state *st, uintptr_t addr, unsigned n)
{
    struct dvm_dyn *d = &st->dyn;
    uintptr_t base = (uintptr_t)d->mem;
    if (!d->nchunks || addr < base || addr - base >= (uintptr_t)d->chunk * d->nchunks)
        return NULL;
    struct dent *e = dyn_chunk(d, (uint32_t)((addr - base) / d->chunk));
    uint32_t off = (uint32_t)((addr - base) % d->chunk), val = sizeof(*e) + d->keymax;
    uint32_t v;
    if (dent_keylen(e, st->opts.concurrent) == 0 || off < val) /* free, or its header or key */
        return NULL;
    memcpy(&v, e + 1, 4); /* the key's first word: the variable (dyn_key in vm.c) */
    if (v >= st->obj.hdr->dh_nvars)
        return NULL;
    const struct dif_var *dv = &st->obj.vars[v];
    if (dv->dv_scope != DIF_SCOPE_ARRAY || dv->dv_type != DIF_TYPE_MEM ||
        n > dif_var_memsize(dv) || off - val > dif_var_memsize(dv) - n)
        return NULL;
    return (uint8_t *)addr;
}

/* ---- principal buffers ------------------------------------------------------------------- */

/* buf_reserve: n bytes (multiple of 8) for one record, or NULL (the caller counts a drop).
 * The switch policy, the default, is inline; the others are out of line. */
static uint8_t *buf_reserve_slow(struct dvm_state *st, unsigned cpu, uint32_t n, int is_end);

static inline uint8_t *buf_reserve(struct dvm_state *st, unsigned cpu, uint32_t n, int is_end)
{
    struct dvm_buf *b = &st->buf[cpu];
    if (st->opts.bufpolicy != DVM_BUF_SWITCH)
        return buf_reserve_slow(st, cpu, n, is_end);
    if (n > b->size - b->off)
        return NULL;
    b->off += n;
    return b->data[b->active] + b->off - n;
}

__attribute__((noinline)) static uint8_t *buf_reserve_slow(struct dvm_state *st, unsigned cpu,
                                                           uint32_t n, int is_end)
{
    struct dvm_buf *b = &st->buf[cpu];
    switch (st->opts.bufpolicy) {
    case DVM_BUF_FILL: {
        uint32_t limit = is_end ? b->size : b->size - b->reserve;
        if (st->stats[cpu].filled && !is_end)
            return NULL;
        if (n > limit - b->off || b->off > limit) {
            st->stats[cpu].filled = 1;
            return NULL;
        }
        b->off += n;
        return b->data[0] + b->off - n;
    }
    case DVM_BUF_RING: {
        if (n > b->size)
            return NULL;
        for (int pass = 0; pass < 2; pass++) {
            uint32_t want = b->off + n > b->size ? b->size - b->off : n;
            while (b->size - b->used < want) {
                const struct dvm_rechdr *h = (const void *)(b->data[0] + b->head);
                b->head = (b->head + h->rh_size) % b->size;
                b->used -= h->rh_size;
            }
            if (want == n)
                break;
            struct dvm_rechdr *pad = (void *)(b->data[0] + b->off);
            pad->rh_epid = DVM_EPID_PAD;
            pad->rh_size = (uint16_t)want;
            b->used += want;
            b->off = 0;
        }
        uint8_t *p = b->data[0] + b->off;
        b->off = (b->off + n) % b->size;
        b->used += n;
        return p;
    }
    default:
        if (n > b->size - b->off)
            return NULL;
        b->off += n;
        return b->data[b->active] + b->off - n;
    }
}

/* buf_cancel: withdraws the record at p (size n) reserved last. */
static void buf_cancel(struct dvm_state *st, unsigned cpu, uint8_t *p, uint32_t n)
{
    struct dvm_buf *b = &st->buf[cpu];
    if (st->opts.bufpolicy == DVM_BUF_RING)
        ((struct dvm_rechdr *)(void *)p)->rh_epid = DVM_EPID_PAD;
    else
        b->off -= n;
}

static void walk(const uint8_t *data, uint32_t len, dvm_rec_cb cb, void *arg)
{
    for (uint32_t pos = 0; pos + sizeof(struct dvm_rechdr) <= len;) {
        const struct dvm_rechdr *h = (const void *)(data + pos);
        if (h->rh_size < sizeof(*h) || h->rh_size > len - pos)
            return;
        if (h->rh_epid != DVM_EPID_PAD)
            cb(arg, h);
        pos += h->rh_size;
    }
}

void dvm_buf_read(struct dvm_state *st, unsigned cpu, int final, dvm_rec_cb cb, void *arg)
{
    if (cpu >= st->opts.ncpu)
        return;
    struct dvm_buf *b = &st->buf[cpu];
    switch (st->opts.bufpolicy) {
    case DVM_BUF_FILL:
        if (!final && !st->stats[cpu].filled)
            return;
        walk(b->data[0], b->off, cb, arg);
        b->off = 0;
        return;
    case DVM_BUF_RING:
        if (!final)
            return;
        for (uint32_t pos = b->head, left = b->used; left;) {
            const struct dvm_rechdr *h = (const void *)(b->data[0] + pos);
            if (h->rh_epid != DVM_EPID_PAD)
                cb(arg, h);
            pos = (pos + h->rh_size) % b->size;
            left -= h->rh_size;
        }
        b->head = b->off = b->used = 0;
        return;
    default: {
        uint32_t len = b->off, old = b->active;
        b->active ^= 1u;
        b->off = 0;
        walk(b->data[old], len, cb, arg);
        return;
    }
    }
}

void dvm_buf_peek(const struct dvm_state *st, unsigned cpu, dvm_rec_cb cb, void *arg)
{
    if (cpu >= st->opts.ncpu)
        return;
    const struct dvm_buf *b = &st->buf[cpu];
    if (st->opts.bufpolicy == DVM_BUF_RING) {
        for (uint32_t pos = b->head, left = b->used; left;) {
            const struct dvm_rechdr *h = (const void *)(b->data[0] + pos);
            if (h->rh_size < sizeof(*h) || h->rh_size > left)
                return;
            if (h->rh_epid != DVM_EPID_PAD)
                cb(arg, h);
            pos = (pos + h->rh_size) % b->size;
            left -= h->rh_size;
        }
        return;
    }
    walk(b->data[st->opts.bufpolicy == DVM_BUF_FILL ? 0 : b->active], b->off, cb, arg);
}

void dvm_trigger_taken(struct dvm_state *st)
{
    st->trig_ecb = 0;
    __atomic_store_n(&st->trig_cpu, 0u, __ATOMIC_RELAXED);
    __atomic_store_n(&st->trig_kind, 0u, __ATOMIC_RELEASE);
}

/* ---- speculations ------------------------------------------------------------------------
 * A speculation's buffer is claimed by compare-and-swap on `active`; its records are copied in,
 * and out by commit( ) or dropped by discard( ), under its lock (d/dvm.h, CONCURRENCY), which
 * no firing holds for more than that copy. */

uint64_t dvm_spec_alloc(struct dvm_state *st, unsigned cpu)
{
    unsigned conc = st->opts.concurrent;
    for (unsigned k = 0; k < st->opts.nspec; k++)
        if (!d_load_acq(&st->spec[k].active, conc) && d_cas(&st->spec[k].active, 0, 1u, conc))
            return k + 1u; /* (its off was left 0 by spec_end, or by the load) */
    st->stats[cpu].specfailed++;
    return 0;
}

static struct dvm_spec *spec_get(struct dvm_state *st, uint64_t id)
{
    if (id == 0 || id > st->opts.nspec ||
        !d_load_acq(&st->spec[id - 1].active, st->opts.concurrent))
        return NULL;
    return &st->spec[id - 1];
}

/* spec_hold: speculation id locked, while it is active; NULL (and not locked) when there is
 * none or it ended meanwhile. The caller unlocks it. */
static struct dvm_spec *spec_hold(struct dvm_state *st, uint64_t id)
{
    struct dvm_spec *s = spec_get(st, id);
    unsigned conc = st->opts.concurrent;
    if (!s)
        return NULL;
    d_word_lock(&s->lock, conc);
    if (!d_load_acq(&s->active, conc)) {
        d_word_unlock(&s->lock, conc);
        return NULL;
    }
    return s;
}

/* spec_end: commit copies the speculation's records into cpu's principal buffer (each one that
 * does not fit is a drop) and frees it; discard just frees it. */
static void spec_end(struct dvm_state *st, unsigned cpu, uint64_t id, int commit)
{
    struct dvm_spec *s = spec_hold(st, id);
    unsigned conc = st->opts.concurrent;
    if (!s)
        return;
    for (uint32_t pos = 0; commit && pos + sizeof(struct dvm_rechdr) <= s->off;) {
        struct dvm_rechdr h;
        memcpy(&h, s->data + pos, sizeof(h));
        uint8_t *p = buf_reserve(st, cpu, h.rh_size, 0);
        if (p) {
            memcpy(p, s->data + pos, h.rh_size);
            ((struct dvm_rechdr *)(void *)p)->rh_cpu = (uint16_t)cpu;
        } else {
            st->stats[cpu].drops++;
        }
        pos += h.rh_size;
    }
    d_store_rel(&s->off, 0, conc);
    d_store_rel(&s->active, 0, conc);
    d_word_unlock(&s->lock, conc);
}

/* spec_put: a speculative clause's record of n bytes at rec into speculation id, unless the
 * speculation is gone or full (a speculative drop). */
static void spec_put(struct dvm_state *st, unsigned cpu, uint64_t id, const uint8_t *rec,
                     uint32_t n)
{
    struct dvm_spec *s = spec_hold(st, id);
    unsigned conc = st->opts.concurrent;
    if (!s)
        return;
    if (n <= s->size - s->off) {
        memcpy(s->data + s->off, rec, n);
        d_store_rel(&s->off, s->off + n, conc);
    } else {
        st->stats[cpu].specdrops++;
    }
    d_word_unlock(&s->lock, conc);
}

/* ---- firing ------------------------------------------------------------------------------ */

static inline void run_probe(struct dvm_state *st, struct dvm_cpu *c, uint32_t pidx);

static void fault(struct dvm_state *st, struct dvm_cpu *c, uint32_t action, uint32_t pc)
{
    unsigned cpu = c->ctx->cpu;
    struct dvm_errrec er = { c->epid, action, pc * 4u, c->fault, c->fault_addr };
    c->fault_addr = 0;      /* a later fault without an address must not report this one's */
    uint32_t n = (uint32_t)(sizeof(struct dvm_rechdr) + sizeof(er));
    if (c->fault == DVM_F_SPECDROP) /* not an error: the clause just stops (dvm_spec_room) */
        return;
    if (c->in_error) { /* a fault in an ERROR clause: only counted, as DTrace's dblerrors */
        st->dblerrors[cpu]++;
        return;
    }
    uint8_t *p = buf_reserve(st, cpu, n, 0);
    st->stats[cpu].errors++;
    if (p) {
        struct dvm_rechdr h = { DVM_EPID_ERROR, (uint16_t)n, (uint16_t)cpu };
        memcpy(p, &h, sizeof(h));
        memcpy(p + sizeof(h), &er, sizeof(er));
    } else {
        st->stats[cpu].drops++;
    }
    uint32_t m = st->probe_map[DPROBE_ERROR];
    if (c->in_error || !m)
        return;
    /* ERROR: arg1 epid, arg2 action, arg3 DIF offset, arg4 fault as DTrace numbers it (its
     * DTRACEFLT_* constants: tuple overflow is 8, a refused user read UPRIV's 7, a refused
     * kernel read KPRIV's 6; the work budget, DTrace's unknown, 0), arg5 address */
    static const uint8_t dtrace_flt[DVM_F_COUNT] = {
        [DVM_F_BADADDR] = 1, [DVM_F_BADALIGN] = 2, [DVM_F_ILLOP] = 3, [DVM_F_DIVZERO] = 4,
        [DVM_F_NOSCRATCH] = 5, [DVM_F_TUPLE] = 8, [DVM_F_BUDGET] = 0, [DVM_F_UPRIV] = 7,
        [DVM_F_KPRIV] = 6,
    };
    uint64_t args[DVM_NARGS] = { 0, er.er_epid, er.er_action, er.er_offset,
                                 er.er_fault < DVM_F_COUNT ? dtrace_flt[er.er_fault] : 0,
                                 er.er_addr };
    const uint64_t *sargs = c->args;
    uint32_t sprobe = c->probe, sepid = c->epid;
    c->in_error = 1;
    c->args = args;
    int32_t sbudget = c->budget;
    c->budget = DVM_FIRING_BUDGET; /* ERROR's clauses get their own (they cannot nest) */
    run_probe(st, c, m - 1);
    c->budget = sbudget;
    c->args = sargs;
    c->probe = sprobe;
    c->epid = sepid;
    c->in_error = 0;
}

/* record: lays the record stack out by the action's type descriptor; -1 if they disagree. */
static int record(struct dvm_cpu *c, const struct dif_act *a, uint8_t *dst)
{
    const char *t = dif_str(&c->st->obj, a->da_types);
    unsigned ssz = (c->st->strsize + 7u) & ~7u, off = 0;
    for (unsigned k = 0; k < c->nrec || t[k]; k++) {
        if (k >= c->nrec || !t[k] || (t[k] == 's') != (c->rectype[k] == DIF_TYPE_STR)) {
            c->fault = DVM_F_ILLOP;
            return -1;
        }
        if (dvm_put_value(c, dst + off, c->rectype[k], c->rec[k]) != 0) {
            c->fault = DVM_F_BADADDR;
            return -1;
        }
        off += c->rectype[k] == DIF_TYPE_STR ? ssz : 8u;
    }
    return 0;
}

/* fast_operand / fast_pred: evaluate a recognised comparison predicate (see match_fast) from
 * the firing's context alone, before any per-CPU state is touched. */
static inline __attribute__((always_inline)) uint64_t
fast_operand(const struct dvm_state *st, const struct dvm_ctx *ctx,
                                    const uint64_t *args, uint32_t epid, uint32_t id,
                                    const struct dvm_fastpred *fp, unsigned k)
{
    const uint8_t *x = (const uint8_t *)ctx + fp->fp_idx[k];
    uint64_t v;
    switch (fp->fp_kind[k]) {
    case DVM_FP_CTX_S32: return (uint64_t)(int64_t)*(const int32_t *)(const void *)x;
    case DVM_FP_CTX_U32: return *(const uint32_t *)(const void *)x;
    case DVM_FP_CTX_U64: return *(const uint64_t *)(const void *)x;
    case DVM_FP_ARG: return args ? args[fp->fp_idx[k]] : 0; /* a hook may pass no args */
    case DVM_FP_EPID: return epid;
    case DVM_FP_ID: return id;
    case DVM_FP_GLOBAL:
        memcpy(&v, st->gvars + fp->fp_idx[k], 8);
        return v;
    default: return fp->fp_const[k];
    }
}

static inline __attribute__((always_inline)) int
fast_pred(const struct dvm_state *st, const struct dvm_ctx *ctx,
                            const uint64_t *args, uint32_t epid, uint32_t id,
                            const struct dvm_fastpred *fp)
{
    uint64_t a = fast_operand(st, ctx, args, epid, id, fp, 0);
    uint64_t b = fp->fp_kind[1] == DVM_FP_CONST ? fp->fp_const[1]
                                                : fast_operand(st, ctx, args, epid, id, fp, 1);
    switch (fp->fp_cond) {
    case DIF_BE: return a == b;
    case DIF_BNE: return a != b;
    case DIF_BG: return (int64_t)a > (int64_t)b;
    case DIF_BGU: return a > b;
    case DIF_BGE: return (int64_t)a >= (int64_t)b;
    case DIF_BGEU: return a >= b;
    case DIF_BL: return (int64_t)a < (int64_t)b;
    case DIF_BLU: return a < b;
    case DIF_BLE: return (int64_t)a <= (int64_t)b;
    default: return a <= b; /* DIF_BLEU */
    }
}

/* memoizable: whether this update's key can be cached (see struct dvm_aggmemo): at most
 * DVM_MEMO_KEYS keys of the declared types, strings inside the object's string table. */
static inline int memoizable(const struct dvm_cpu *c, const struct dif_act *a)
{
    const struct dif_obj *o = &c->st->obj;
    const char *t = dif_str(o, a->da_types);
    if (c->nrec > DVM_MEMO_KEYS)
        return 0;
    for (unsigned j = 0; j < c->nrec; j++) {
        if (!t[j] || (t[j] == 's') != (c->rectype[j] == DIF_TYPE_STR))
            return 0;
        uintptr_t p = (uintptr_t)c->rec[j], b = (uintptr_t)o->strs;
        if (t[j] == 's' && ((uint64_t)p != c->rec[j] || p < b || p - b >= o->hdr->dh_strlen))
            return 0;
    }
    return t[c->nrec] == 0;
}

static inline int memo_same(const struct dvm_cpu *c, const struct dvm_aggmemo *m)
{
    for (unsigned j = 0; j < c->nrec; j++)
        if (m->am_val[j] != c->rec[j])
            return 0;
    return 1;
}

/* agg_key: lays an aggregation's keys out in c->key like record() would, but writes each
 * string only as far as its content (a record's strings are zero-padded to strsize; here the
 * padding is implied): returns the significant length, a multiple of 4, or -1 on a fault. */
static int agg_key(struct dvm_cpu *c, const struct dif_act *a)
{
    const char *t = dif_str(&c->st->obj, a->da_types);
    unsigned ssz = (c->st->strsize + 7u) & ~7u, off = 0, sig = 0;
    uint8_t *k = c->key;
    for (unsigned j = 0; j < c->nrec || t[j]; j++) {
        if (j >= c->nrec || !t[j] || (t[j] == 's') != (c->rectype[j] == DIF_TYPE_STR)) {
            c->fault = DVM_F_ILLOP;
            return -1;
        }
        if (t[j] != 's') {
            memcpy(k + off, &c->rec[j], 8);
            off += 8;
            sig = off;
            continue;
        }
        unsigned n;
        const char *s = dvm_str(c, c->rec[j], &n);
        if (!s) {
            c->fault = DVM_F_BADADDR;
            c->fault_addr = c->rec[j];
            return -1;
        }
        unsigned end = t[j + 1] ? off + ssz : (off + n + 3u) & ~3u; /* more keys: whole slot */
        /* zeroed whole words first (off and end are word-aligned: the kernel's memset stores
         * words then), the string over them: byte by byte, @[execname, tid] = count() cost
         * 1188 instructions a firing, 1047 with it (dbench, strsize 64) */
        memset(k + off, 0, end - off);
        memcpy(k + off, s, n);
        sig = end;
        off += ssz;
    }
    return (int)sig;
}

/* agg_incr: an aggregation update whose record stack ends with the quantize-family
 * increment (DIF_ACT_AGGINCR): popped; the update adds 1, then the rest is added. No memo. */
__attribute__((noinline)) static int agg_incr(struct dvm_state *st, struct dvm_cpu *c,
                                              const struct dif_act *a, unsigned cpu, int64_t v)
{
    if (!c->nrec || c->rectype[c->nrec - 1] == DIF_TYPE_STR) {
        c->fault = DVM_F_ILLOP;
        return -1;
    }
    uint64_t n = c->rec[--c->nrec];
    int sig = agg_key(c, a);
    if (sig < 0)
        return -1;
    int off = dvm_agg_update(st, cpu, a->da_arg, c->key, a->da_size, (unsigned)sig, v);
    if (off >= 0 && n != 1u)
        dvm_agg_add_bucket(st, cpu, a->da_arg, (uint32_t)off, v, (int64_t)(n - 1u));
    return 0;
}

/* put_rechdr: the header of ECB e's record of n bytes at rec, on CPU cpu. */
static inline struct dvm_rechdr *put_rechdr(uint8_t *rec, uint32_t e, uint32_t n, unsigned cpu)
{
    struct dvm_rechdr *h = (struct dvm_rechdr *)(void *)rec;
    h->rh_epid = e + 1;
    /* rh_size and rh_cpu in one store (every target is little-endian) */
    uint32_t sc = n | (uint32_t)cpu << 16;
    memcpy(&h->rh_size, &sc, 4);
    return h;
}

/* dvm_spec_room: as DTrace's kernel, a speculate( ) on no such speculation, or on one without
 * room left for the clause's record, drops the rest of the clause (its variable stores too);
 * only the latter is counted. Called from speculate( )'s program (DIF_S_SPECROOM), so the
 * firing path of other clauses never pays for it. */
int dvm_spec_room(struct dvm_state *st, struct dvm_cpu *c, uint64_t id)
{
    const struct dif_clause *cl = &st->obj.clauses[st->obj.ecbs[c->epid - 1].de_clause];
    uint32_t n = (uint32_t)sizeof(struct dvm_rechdr) + ((cl->dc_recsize + 7u) & ~7u);
    unsigned cpu = c->ctx->cpu;
    if (!(cl->dc_flags & DIF_CLF_SPEC) || n > st->specrec_size)
        return 1; /* recorded in the principal buffer (see run_ecb) */
    struct dvm_spec *s = spec_get(st, id);
    if (s && n <= s->size - d_load_acq(&s->off, st->opts.concurrent))
        return 1; /* (spec_put looks again under the lock) */
    if (s)
        st->stats[cpu].specdrops++;
    return 0;
}

/* exit_ran: a clause ran exit( ). As DTrace's kernel records exit at most once, a second one
 * (outside END) drops its clause's record; and, as its kernel evaluates no enabling of other
 * providers' probes once exit( ) has run, the probe's later clauses do not run: its chain of
 * enablings is cut after this one (it never fires again: only END and ERROR do, whose chains
 * stay whole). Out of line, and no check in the firing path. */
__attribute__((noinline)) static void exit_ran(struct dvm_state *st, struct dvm_cpu *c,
                                               uint8_t *rec, uint32_t n)
{
    uint32_t id = st->obj.probes[c->probe].dp_id;
    if (st->exiting && id != DPROBE_END && rec && rec != c->specrec)
        buf_cancel(st, c->ctx->cpu, rec, n);
    if (id != DPROBE_END && id != DPROBE_ERROR)
        st->ecb_link[c->epid].next = 0;
    st->exiting = 1;
}

/* ecb_enabled: whether ECB e's clause runs in this firing (its fast predicate, if any,
 * already held): as DTrace's kernel, once exit() has run (draining), the firing's later
 * clauses run only for END and ERROR (BEGIN's too stop: tracing is no longer warming up);
 * then its predicate, whose fault is reported. Sets the CPU's epid and empties its scratch. */
static inline __attribute__((always_inline)) int ecb_enabled(struct dvm_state *st,
                                                             struct dvm_cpu *c, uint32_t e)
{
    const struct dif_obj *o = &st->obj;
    uint32_t ci = o->ecbs[e].de_clause;
    const struct dif_clause *cl = &o->clauses[ci];
    uint64_t v;
    if (st->exiting) {
        uint32_t id = o->probes[c->probe].dp_id;
        if (id != DPROBE_END && id != DPROBE_ERROR)
            return 0;
    }
    c->epid = e + 1;
    c->scratch_used = 0;
    if (!st->fastpred[ci].fp_ok && cl->dc_pred.dp_len) {
        if (dvm_run(c, &cl->dc_pred, &v) != DVM_F_NONE) {
            fault(st, c, 0, c->fault_pc);
            return 0;
        }
        return v != 0;
    }
    return 1;
}

/* rec_open: ECB e's record of n bytes (clause cl) into *recp, its header written and the rest
 * zeroed: the CPU's speculation record when spec, none (NULL) for a clause that records
 * nothing, else reserved in the principal buffer: -1 when that is full (a drop, counted). */
static inline __attribute__((always_inline)) int rec_open(struct dvm_state *st,
                                                          struct dvm_cpu *c,
                                                          const struct dif_clause *cl,
                                                          uint32_t e, uint32_t n, int spec,
                                                          uint8_t **recp)
{
    unsigned cpu = c->ctx->cpu;
    uint8_t *rec = NULL;
    if (spec) {
        rec = c->specrec;
    } else if (!(cl->dc_flags & DIF_CLF_NOREC)) {
        rec = buf_reserve(st, cpu, n, st->obj.probes[c->probe].dp_id == DPROBE_END);
        if (!rec) {
            st->stats[cpu].drops++;
            return -1;
        }
    }
    if (rec) { /* records are 8-byte aligned: plain stores, no library calls */
        struct dvm_rechdr *h = put_rechdr(rec, e, n, cpu);
        for (uint64_t *w = (uint64_t *)(void *)(h + 1), *end = (uint64_t *)(void *)(rec + n);
             w < end; w++)
            *w = 0;
    }
    *recp = rec;
    return 0;
}

/* act_fault_pc: an action failed after its program ran: the fault is at the program's last
 * instruction. */
static inline void act_fault_pc(struct dvm_cpu *c, const struct dif_act *a)
{
    c->fault_pc = a->da_prog.dp_len ? a->da_prog.dp_len - 1 : 0;
}

/* rec_act: a recording action a (trace, printf, exit, stack ...) into the clause's record rec
 * of n bytes (spec: the CPU's speculation record) on CPU cpu; *exiting set by exit( ). 0 done, -1 on a
 * fault, 1 when the clause is dropped: as DTrace's kernel, only the first exit() is recorded;
 * a clause calling it again drops its whole record (END may); the draining itself stands. */
static inline __attribute__((always_inline)) int rec_act(struct dvm_state *st,
                                                         struct dvm_cpu *c,
                                                         const struct dif_act *a, uint8_t *rec,
                                                         uint32_t n, int spec, unsigned cpu,
                                                         int *exiting)
{
    if (a->da_kind == DIF_ACT_STACK && !a->da_size)
        return 0; /* jstack( ): no frames, no record */
    if (a->da_kind == DIF_ACT_EXIT && (st->exiting || *exiting) &&
        st->obj.probes[c->probe].dp_id != DPROBE_END) {
        if (rec && !spec)
            buf_cancel(st, cpu, rec, n);
        exit_ran(st, c, NULL, 0);
        return 1;
    }
    if (!rec || record(c, a, rec + sizeof(struct dvm_rechdr) + a->da_offset) != 0) {
        act_fault_pc(c, a);
        if (!rec)
            c->fault = DVM_F_ILLOP;
        return -1;
    }
    *exiting |= a->da_kind == DIF_ACT_EXIT;
    return 0;
}

/* agg_act: the aggregation update of action a (the object's action ai) of ECB e with value
 * v, on CPU cpu: through the memo when the keys are its last update's, else by its key,
 * then the memo and the ECB's constant-aggregation slot kept. -1 on a fault. */
static inline __attribute__((always_inline)) int agg_act(struct dvm_state *st,
                                                         struct dvm_cpu *c,
                                                         const struct dif_act *a, uint32_t ai,
                                                         uint32_t e, unsigned cpu, uint64_t v)
{
    struct dvm_aggmemo *m = &c->memo[ai];
    int memo = memoizable(c, a);
    if (memo && m->am_off && memo_same(c, m) &&
        dvm_agg_update_at(st, cpu, a->da_arg, m->am_off - 1, (int64_t)v) == 0)
        return 0;
    int sig = agg_key(c, a);
    if (sig < 0) {
        act_fault_pc(c, a);
        return -1;
    }
    int off = dvm_agg_update(st, cpu, a->da_arg, c->key, a->da_size, (unsigned)sig, (int64_t)v);
    if (off >= 0 && st->ecb_link[e + 1].constagg == ai + 1) {
        c->constagg[e + 1].off = (uint32_t)off + 1u;
        c->constagg[e + 1].val = (int64_t)v;
    }
    m->am_off = 0;
    if (memo && off >= 0) {
        for (unsigned j = 0; j < c->nrec; j++)
            m->am_val[j] = c->rec[j];
        m->am_off = (uint32_t)off + 1u;
    }
    return 0;
}

/* trigger_ran: a freeze( ), panic( ) or breakpoint( ) of ECB e on this firing's CPU: claimed for
 * the host unless another is pending (d/dvm.h, trig_*). Out of line: no firing path pays. */
__attribute__((noinline)) static void trigger_ran(struct dvm_state *st, struct dvm_cpu *c,
                                                  const struct dif_act *a, uint32_t e)
{
    uint32_t none = 0;
    if (!__atomic_compare_exchange_n(&st->trig_kind, &none, a->da_arg + 1u, 0, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
        return;
    st->trig_ecb = e + 1u;
    __atomic_store_n(&st->trig_cpu, c->ctx->cpu + 1u, __ATOMIC_RELEASE);
}

/* run_ecb: one enabled clause; its fast predicate (if any) already held. Out of line so that
 * a failing fast predicate never pays for this function's frame. */
__attribute__((noinline)) static void run_ecb(struct dvm_state *st, struct dvm_cpu *c,
                                              uint32_t e)
{
    const struct dif_obj *o = &st->obj;
    const struct dif_clause *cl = &o->clauses[o->ecbs[e].de_clause];
    unsigned cpu = c->ctx->cpu;
    uint64_t v;
    if (!ecb_enabled(st, c, e))
        return;
    uint8_t *rec;
    uint32_t n = (uint32_t)sizeof(struct dvm_rechdr) + ((cl->dc_recsize + 7u) & ~7u);
    uint64_t specid = 0;
    int spec = (cl->dc_flags & DIF_CLF_SPEC) != 0 && n <= st->specrec_size;
    if (rec_open(st, c, cl, e, n, spec, &rec) != 0)
        return;
    int exiting = 0, rc;
    for (uint32_t k = 0; k < cl->dc_nacts; k++) {
        const struct dif_act *a = &o->acts[cl->dc_act + k];
        c->nrec = 0;
        /* strings die with their action: each after the first starts with the scratch
         * empty, unless the clause keeps pointers into it (alloca, copyin) */
        if (k && !(cl->dc_flags & DIF_CLF_SCRATCH))
            c->scratch_used = 0;
        v = 0;
        if (a->da_prog.dp_len && dvm_run(c, &a->da_prog, &v) != DVM_F_NONE)
            goto failed;
        switch (a->da_kind) {
        case DIF_ACT_TRACE: case DIF_ACT_PRINTF: case DIF_ACT_EXIT: case DIF_ACT_TRUNC:
        case DIF_ACT_NORMALIZE: case DIF_ACT_SYSTEM: case DIF_ACT_STACK: case DIF_ACT_RAISE:
            rc = rec_act(st, c, a, rec, n, spec, cpu, &exiting);
            if (rc > 0)
                return;
            if (rc < 0)
                goto failed;
            break;
        case DIF_ACT_AGG:
            if (agg_act(st, c, a, cl->dc_act + k, e, cpu, v) != 0)
                goto failed;
            break;
        case DIF_ACT_AGGINCR:
            if (agg_incr(st, c, a, cpu, (int64_t)v) != 0) {
                act_fault_pc(c, a);
                goto failed;
            }
            break;
        case DIF_ACT_TRACEMEM:
            if (!rec || c->nrec != 1 ||
                dvm_copy_mem(c, rec + sizeof(struct dvm_rechdr) + a->da_offset, c->rec[0],
                             a->da_arg) != 0) {
                act_fault_pc(c, a);
                if (!c->fault)
                    c->fault = DVM_F_ILLOP;
                goto failed;
            }
            break;
        case DIF_ACT_SPECULATE:
            specid = v;
            break;
        case DIF_ACT_COMMIT: case DIF_ACT_DISCARD:
            spec_end(st, cpu, v, a->da_kind == DIF_ACT_COMMIT);
            break;
        case DIF_ACT_TRIGGER:
            trigger_ran(st, c, a, e);
            break;
        default:
            break;
        }
        continue;
    failed:
        if (rec && !spec)
            buf_cancel(st, cpu, rec, n);
        fault(st, c, k + 1, c->fault_pc);
        return;
    }
    if (spec)
        spec_put(st, cpu, specid, rec, n);
    if (exiting)
        exit_ran(st, c, rec, n);
}

/* shortcut: a CTXKEY or SELFSET clause (struct dvm_ecb_link) done without the interpreter
 * when the CPU's caches allow: 1 if done, 0 if the clause must run. The same effect as the
 * clause's program: the operand is read as the builtin or load reads it, and the entry or
 * variable is the one the program's last run on this CPU found. */
static inline __attribute__((always_inline)) int shortcut(struct dvm_state *st,
                                                          struct dvm_cpu *c,
                                                          const struct dvm_ecb_link *l,
                                                          uint32_t e, uint32_t id)
{
    uint32_t w = l->constagg & ~DVM_LINK_KINDS;
    uint64_t v = fast_operand(st, c->ctx, c->args, e, id, l->op, 0);
    if (l->constagg & DVM_LINK_CTXKEY) {
        const struct dvm_aggmemo *m = &c->memo[w - 1];
        return m->am_off && m->am_val[0] == v &&
               dvm_agg_update_at(st, c->ctx->cpu, st->obj.acts[w - 1].da_arg, m->am_off - 1,
                                 0) == 0;
    }
    if (!v || c->self_var != w || c->self_thr != dvm_thread_key(c->ctx) ||
        c->self_gen != __atomic_load_n(&st->dyn.gen, __ATOMIC_RELAXED)) /* (vm.c self_lookup) */
        return 0;
    memcpy(c->self_val, &v, 8);
    return 1;
}

/* run_probe: the probe's enabled clauses from ECB `e` (index + 1) on, in program order. */
static inline __attribute__((always_inline)) void run_probe_from(struct dvm_state *st,
                                                                  struct dvm_cpu *c,
                                                                  uint32_t pidx, uint32_t e)
{
    uint32_t id = st->obj.probes[pidx].dp_id;
    c->probe = pidx;
    for (; e; e = st->ecb_link[e].next) {
        const struct dvm_ecb_link *l = &st->ecb_link[e];
        if (l->fast && !fast_pred(st, c->ctx, c->args, e, id, l->fast))
            continue;
        if (l->constagg) {
            /* (a header-only ECB never caches an entry: its constagg[e].off stays 0) */
            if (c->constagg[e].off &&
                dvm_agg_update_at(st, c->ctx->cpu, st->obj.acts[l->constagg - 1].da_arg,
                                  c->constagg[e].off - 1, c->constagg[e].val) == 0)
                continue; /* the same entry and value as last time: no program to run */
            if (__builtin_expect((l->constagg & DVM_LINK_HDRONLY) != 0, 0)) { /* `probe { }` */
                unsigned cpu = c->ctx->cpu;
                uint32_t n = l->constagg & ~DVM_LINK_HDRONLY;
                uint8_t *rec = buf_reserve(st, cpu, n, id == DPROBE_END);
                if (rec)
                    put_rechdr(rec, e - 1, n, cpu);
                else
                    st->stats[cpu].drops++;
                continue;
            }
            if (l->constagg & (DVM_LINK_CTXKEY | DVM_LINK_SELFSET) &&
                shortcut(st, c, l, e, id))
                continue;
        }
        run_ecb(st, c, e - 1);
        c->probe = pidx;
    }
}

static inline void run_probe(struct dvm_state *st, struct dvm_cpu *c, uint32_t pidx)
{
    run_probe_from(st, c, pidx, st->first_ecb[pidx]);
}

/* firing_enter: ctx->cpu's state, set up for a firing, unless the engine is already running
 * there (a probe fired from inside the engine, by an interrupt hook say: dropped and counted,
 * never recursed): NULL. The firing ends with firing_leave. */
static inline __attribute__((always_inline)) struct dvm_cpu *
firing_enter(struct dvm_state *st, const struct dvm_ctx *ctx, const uint64_t *args)
{
    struct dvm_cpu *c = &st->cpus[ctx->cpu];
    if (c->busy) {
        st->stats[ctx->cpu].drops++;
        return NULL;
    }
    c->busy = 1;
    if (st->epochs) {   /* odd: in a firing, then a full barrier (dyn_reclaim) */
        __atomic_store_n(&c->epoch, c->epoch + 1u, __ATOMIC_RELAXED);
        d_full_barrier(&c->epoch);
    }
    c->ctx = ctx;
    c->args = args;
    c->budget = DVM_FIRING_BUDGET;
    return c;
}

/* firing_scrub: nothing of c's firing stays in its work area but what the program stored
 * (its variables, records, aggregations): for a consumer that may not see kernel addresses. */
__attribute__((noinline)) static void firing_scrub(struct dvm_cpu *c)
{
    c->ctx = NULL;
    c->args = NULL;
    memset(c->regs, 0, sizeof(c->regs));
    memset(c->tup, 0, sizeof(c->tup));
    memset(c->rec, 0, sizeof(c->rec));
}

/* firing_leave: the end of a firing on c; with st->scrub, its work area cleared. */
static inline __attribute__((always_inline)) void firing_leave(struct dvm_state *st,
                                                               struct dvm_cpu *c)
{
    if (st->scrub)
        firing_scrub(c);
    if (st->epochs)     /* even: out, everything it read of chunks read */
        __atomic_store_n(&c->epoch, c->epoch + 1u, __ATOMIC_RELEASE);
    c->busy = 0;
}

/* fire_from: runs probe pidx's clauses from ECB e on, on ctx->cpu (see firing_enter). */
static inline __attribute__((always_inline)) void
fire_from(struct dvm_state *st, const struct dvm_ctx *ctx, const uint64_t *args,
                      uint32_t pidx, uint32_t e)
{
    struct dvm_cpu *c = firing_enter(st, ctx, args);
    if (!c)
        return;
    st->stats[ctx->cpu].fired++;   /* this CPU's: no other writes it */
    run_probe_from(st, c, pidx, e);
    firing_leave(st, c);
}

/* dvm_fire_begin: BEGIN's clauses in program order, as dvm_fire, except that those after one
 * that ran exit( ) do not run (DTrace's kernel evaluates no BEGIN enabling after exit). */
void dvm_fire_begin(struct dvm_state *st, const struct dvm_ctx *ctx)
{
    static const uint64_t zero[DVM_NARGS];
    uint32_t m = st->probe_map[DPROBE_BEGIN];
    if (!m || ctx->cpu >= st->opts.ncpu || st->exiting)
        return;
    struct dvm_cpu *c = firing_enter(st, ctx, zero);
    if (!c)
        return;
    for (uint32_t e = st->first_ecb[m - 1]; e && !st->exiting; e = st->ecb_link[e].next) {
        const struct dvm_ecb_link *l = &st->ecb_link[e];
        c->probe = m - 1;
        if (!l->fast || fast_pred(st, ctx, zero, e, DPROBE_BEGIN, l->fast))
            run_ecb(st, c, e - 1);
    }
    firing_leave(st, c);
}

void dvm_fire(struct dvm_state *st, const struct dvm_ctx *ctx, uint32_t id,
              const uint64_t args[DVM_NARGS])
{
    static const uint64_t zero[DVM_NARGS];
    if (id < DPROBE_COUNT) {
        uint32_t m = st->probe_map[id];
        if (!m)
            return;
        /* The common case, a failing simple predicate, is decided first, from the context
         * alone (fast_pred touches no per-CPU state). The checks it skips (a valid CPU, exit()
         * having run) only ever stop a firing, so deciding them after it changes nothing. */
        uint32_t e = st->first_ecb[m - 1];
        for (; e; e = st->ecb_link[e].next) {
            const struct dvm_fastpred *fp = st->ecb_link[e].fast;
            if (!fp || fast_pred(st, ctx, args, e, id, fp))
                break;
        }
        if (!e || ctx->cpu >= st->opts.ncpu || (st->exiting && id != DPROBE_END))
            return;
        fire_from(st, ctx, args ? args : zero, m - 1, e);
        return;
    }
    /* timer probes: few, looked up by id */
    if (ctx->cpu >= st->opts.ncpu || st->exiting)
        return;
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++)
        if (st->obj.probes[k].dp_id == id) {
            fire_from(st, ctx, args ? args : zero, k, st->first_ecb[k]);
            return;
        }
}

void dvm_fire_probe(struct dvm_state *st, const struct dvm_ctx *ctx, uint32_t pidx,
                    const uint64_t args[DVM_NARGS])
{
    if (pidx >= st->obj.hdr->dh_nprobes)
        return;
    uint32_t id = st->obj.probes[pidx].dp_id;
    uint32_t e = st->first_ecb[pidx]; /* as dvm_fire: a failing simple predicate first */
    for (; e; e = st->ecb_link[e].next) {
        const struct dvm_fastpred *fp = st->ecb_link[e].fast;
        if (!fp || fast_pred(st, ctx, args, e, id, fp))
            break;
    }
    if (!e || ctx->cpu >= st->opts.ncpu || st->exiting)
        return;
    fire_from(st, ctx, args, pidx, e);
}

/* ---- loading ----------------------------------------------------------------------------- */

/* fast_operand_of: whether instruction i loads a fast-path operand; fills slot k. */
static int fast_operand_of(const struct dvm_state *st, uint32_t i, struct dvm_fastpred *fp,
                           unsigned k)
{
    const struct dif_obj *o = &st->obj;
    switch (DIF_OP(i)) {
    case DIF_SETX:
        fp->fp_kind[k] = DVM_FP_CONST;
        fp->fp_const[k] = o->ints[DIF_IDX(i)];
        return 1;
    case DIF_BUILTIN: {
        /* context fields are read in place; epid and id go through dvm_builtin */
        static const struct { uint8_t kind; uint8_t off; } ctx[DIF_B_COUNT] = {
            [DIF_B_TIMESTAMP] = { DVM_FP_CTX_U64, offsetof(struct dvm_ctx, timestamp) },
            [DIF_B_VTIMESTAMP] = { DVM_FP_CTX_U64, offsetof(struct dvm_ctx, vtimestamp) },
            [DIF_B_WALLTIMESTAMP] = { DVM_FP_CTX_U64, offsetof(struct dvm_ctx, walltimestamp) },
            [DIF_B_PID] = { DVM_FP_CTX_S32, offsetof(struct dvm_ctx, pid) },
            [DIF_B_TID] = { DVM_FP_CTX_S32, offsetof(struct dvm_ctx, tid) },
            [DIF_B_PPID] = { DVM_FP_CTX_S32, offsetof(struct dvm_ctx, ppid) },
            [DIF_B_ERRNO] = { DVM_FP_CTX_S32, offsetof(struct dvm_ctx, errno_) },
            [DIF_B_CPU] = { DVM_FP_CTX_U32, offsetof(struct dvm_ctx, cpu) },
        };
        unsigned id = DIF_IDX(i);
        if (id >= DIF_B_EXECNAME && id <= DIF_B_PROBENAME)
            return 0; /* strings */
        if (id < DIF_B_ARG0 + DVM_NARGS) {
            fp->fp_kind[k] = DVM_FP_ARG;
            fp->fp_idx[k] = id - DIF_B_ARG0;
        } else if (ctx[id].kind) {
            fp->fp_kind[k] = ctx[id].kind;
            fp->fp_idx[k] = ctx[id].off;
        } else if (id == DIF_B_EPID || id == DIF_B_ID) {
            fp->fp_kind[k] = id == DIF_B_EPID ? DVM_FP_EPID : DVM_FP_ID;
        } else {
            return 0;
        }
        return 1;
    }
    case DIF_LDGV:
        if (o->vars[DIF_IDX(i)].dv_type != DIF_TYPE_INT)
            return 0;
        fp->fp_kind[k] = DVM_FP_GLOBAL;
        fp->fp_idx[k] = st->var_off[DIF_IDX(i)];
        return 1;
    default:
        return 0;
    }
}

/* probe_constant: whether a program's result and pushed keys depend on the probe alone:
 * straight-line code of constants, the probe's names and ids, moves, non-faulting arithmetic
 * and pushes, reading only registers it wrote itself (registers keep values between runs). */
static int probe_constant(const struct dif_obj *o, const struct dif_prog *p)
{
    uint32_t written[(DIF_NREGS + 31u) / 32u] = { 1 }; /* %r0 is always 0 */
#define WRITTEN(r) ((written[(r) / 32u] >> ((r) % 32u)) & 1u)
    for (uint32_t k = 0; k < p->dp_len; k++) {
        uint32_t i = o->insns[p->dp_start + k];
        unsigned op = DIF_OP(i), r1 = DIF_R1(i), r2 = DIF_R2(i), rd = DIF_RD(i);
        switch (op) {
        case DIF_NOP: case DIF_FLUSHT:
            continue;
        case DIF_RET:
            return WRITTEN(rd) && k + 1 == p->dp_len;
        case DIF_OR: case DIF_XOR: case DIF_AND: case DIF_SLL: case DIF_SRL: case DIF_SRA:
        case DIF_ADD: case DIF_SUB: case DIF_MUL:
            if (!WRITTEN(r1) || !WRITTEN(r2))
                return 0;
            break;
        case DIF_NOT: case DIF_MOV: case DIF_SEXT: case DIF_ZEXT:
            if (!WRITTEN(r1))
                return 0;
            break;
        case DIF_SETX: case DIF_SETS:
            break;
        case DIF_BUILTIN: {
            unsigned b = DIF_IDX(i);
            if (!(b >= DIF_B_PROBEPROV && b <= DIF_B_PROBENAME) && b != DIF_B_EPID &&
                b != DIF_B_ID)
                return 0;
            break;
        }
        case DIF_PUSHT: case DIF_PUSHR:
            if (!WRITTEN(r1))
                return 0;
            continue;
        default:
            return 0; /* branches, loads, variables, subroutines */
        }
        written[rd / 32u] |= 1u << (rd % 32u);
    }
#undef WRITTEN
    return p->dp_len == 0; /* an empty program: value 0, no keys */
}

/* uses_strtok: whether a program calls strtok( ) (which keeps a string per CPU). */
static int uses_strtok(const struct dif_obj *o)
{
    for (uint32_t k = 0; k < o->hdr->dh_ninsns; k++)
        if (DIF_OP(o->insns[k]) == DIF_CALL && DIF_IDX(o->insns[k]) == DIF_S_STRTOK)
            return 1;
    return 0;
}

/* hdronly_of: the record size of clause ci when it records its header alone (struct
 * dvm_ecb_link's DVM_LINK_HDRONLY), else 0. */
static uint32_t hdronly_of(const struct dvm_state *st, uint32_t ci)
{
    const struct dif_clause *cl = &st->obj.clauses[ci];
    if (cl->dc_nacts || cl->dc_recsize || (cl->dc_flags & (DIF_CLF_SPEC | DIF_CLF_NOREC)) ||
        (cl->dc_pred.dp_len && !st->fastpred[ci].fp_ok))
        return 0;
    return (uint32_t)sizeof(struct dvm_rechdr);
}

/* constagg_of: the action index + 1 of clause ci's only action when it is a probe-constant
 * aggregation in a clause that records nothing else and needs no interpreted predicate. */
static uint32_t constagg_of(const struct dvm_state *st, uint32_t ci)
{
    const struct dif_obj *o = &st->obj;
    const struct dif_clause *cl = &o->clauses[ci];
    if (cl->dc_nacts != 1 || (cl->dc_flags & DIF_CLF_SPEC) || !(cl->dc_flags & DIF_CLF_NOREC) ||
        (cl->dc_pred.dp_len && !st->fastpred[ci].fp_ok))
        return 0;
    const struct dif_act *a = &o->acts[cl->dc_act];
    if (a->da_kind != DIF_ACT_AGG || !probe_constant(o, &a->da_prog))
        return 0;
    return cl->dc_act + 1;
}

/* shortcut_of: the CTXKEY or SELFSET shortcut word of clause ci (struct dvm_ecb_link), its
 * operand in op's slot 0; 0 when the clause is not one of these exact shapes of verified
 * code (a clause that does not match runs in the interpreter, with the same result):
 *   builtin/ld %r, op; pushr %r, int; ret %r0     (the only action aggregates: @[op] = f())
 *   builtin/ld %r, op; stsv %r, v; ret %r         (the only action stores: self->v = op) */
static uint32_t shortcut_of(const struct dvm_state *st, uint32_t ci, struct dvm_fastpred *op)
{
    const struct dif_obj *o = &st->obj;
    const struct dif_clause *cl = &o->clauses[ci];
    memset(op, 0, sizeof(*op));
    if (cl->dc_nacts != 1 || (cl->dc_flags & DIF_CLF_SPEC) || !(cl->dc_flags & DIF_CLF_NOREC) ||
        (cl->dc_pred.dp_len && !st->fastpred[ci].fp_ok))
        return 0;
    const struct dif_act *a = &o->acts[cl->dc_act];
    const uint32_t *in = o->insns + a->da_prog.dp_start;
    if (a->da_prog.dp_len != 3 || !fast_operand_of(st, in[0], op, 0) || DIF_RD(in[0]) == 0)
        return 0;
    unsigned r = DIF_RD(in[0]);
    if (a->da_kind == DIF_ACT_AGG) {
        const char *t = dif_str(o, a->da_types);
        if (in[1] != DIF_INSTR(DIF_PUSHR, r, DIF_TYPE_INT, 0) ||
            in[2] != DIF_INSTR(DIF_RET, 0, 0, 0) || !t[0] || t[0] == 's' || t[1])
            return 0;
        return DVM_LINK_CTXKEY | (cl->dc_act + 1u);
    }
    if (a->da_kind == DIF_ACT_EXPR && DIF_OP(in[1]) == DIF_STSV && DIF_RD(in[1]) == r &&
        o->vars[DIF_IDX(in[1])].dv_type == DIF_TYPE_INT && in[2] == DIF_INSTR(DIF_RET, 0, 0, r))
        return DVM_LINK_SELFSET | (DIF_IDX(in[1]) + 1u);
    return 0;
}

/* match_fast: recognises the compiler's code for `x <cmp> y` (see the predicate case in
 * cg_clause.c): ld x; ld y; cmp x, y; b<cond> 5; ret %r0; setx r, 1; ret r. Only a pure function of
 * verified code: a program that does not match exactly runs in the interpreter. */
static void match_fast(const struct dvm_state *st, const struct dif_prog *p,
                       struct dvm_fastpred *fp)
{
    const struct dif_obj *o = &st->obj;
    const uint32_t *in = o->insns + p->dp_start;
    memset(fp, 0, sizeof(*fp));
    if (p->dp_len != 7)
        return;
    unsigned ra = DIF_RD(in[0]), rb = DIF_RD(in[1]), br = DIF_OP(in[3]);
    if (!fast_operand_of(st, in[0], fp, 0) || !fast_operand_of(st, in[1], fp, 1) || ra == rb ||
        in[2] != DIF_INSTR(DIF_CMP, ra, rb, 0) || br < DIF_BE || br > DIF_BLEU ||
        DIF_TARGET(in[3]) != 5 || in[4] != DIF_INSTR(DIF_RET, 0, 0, 0) ||
        DIF_OP(in[5]) != DIF_SETX || o->ints[DIF_IDX(in[5])] != 1 || DIF_RD(in[5]) == 0 ||
        in[6] != DIF_INSTR(DIF_RET, 0, 0, DIF_RD(in[5])))
        return;
    fp->fp_cond = (uint8_t)br;
    fp->fp_ok = 1;
}

/* The sizes dvm_load lays out the variables and keys by (layout_vars). */
struct dvm_layout {
    uint32_t ssz;               /* a string's slot: strsize rounded up to 8 */
    uint32_t gsz, tsz;          /* the globals' and this-> variables' blocks */
    uint32_t keymax;            /* the largest key of a dynamic variable or aggregation */
    uint32_t memval;            /* the largest struct value of an associative array */
    uint32_t dynstr;            /* a dynamic variable (array or self->) holds a string */
};

/* load_probes: the probe map (probe id to index), each probe's chain of enablings in program
 * order, and a firing's budget (dvm_impl.h): its instructions are bounded here, once, by the
 * programs' lengths (branches only go forward), so that running them costs nothing; string
 * subroutines charge their bytes as they run. NULL, or why it cannot load. */
static const char *load_probes(struct dvm_state *st, struct d_arena *a)
{
    const struct dif_obj *ob = &st->obj;
    const struct dif_hdr *h = ob->hdr;
    st->probe_map = d_alloc(a, DVM_PROBE_TABLE_MAX * sizeof(uint16_t));
    st->first_ecb = d_alloc(a, (h->dh_nprobes + 1u) * 4u);
    st->ecb_link = d_alloc(a, (h->dh_necbs + 1u) * sizeof(struct dvm_ecb_link));
    st->var_off = d_alloc(a, (h->dh_nvars + 1u) * 4u);
    st->agg_vals = d_alloc(a, (h->dh_naggs + 1u) * 4u);
    st->cpus = d_alloc(a, st->opts.ncpu * sizeof(struct dvm_cpu));
    if (!st->probe_map || !st->first_ecb || !st->ecb_link || !st->var_off || !st->agg_vals ||
        !st->cpus)
        return "not enough memory for the engine";
    for (uint32_t k = 0; k < h->dh_nprobes; k++)
        if (ob->probes[k].dp_id < DPROBE_COUNT)
            st->probe_map[ob->probes[k].dp_id] = (uint16_t)(k + 1);
    for (uint32_t e = h->dh_necbs; e-- > 0;) { /* chains in program order */
        uint32_t p = ob->ecbs[e].de_probe;
        st->ecb_link[e + 1].next = st->first_ecb[p];
        st->first_ecb[p] = e + 1;
    }
    for (uint32_t p = 0; p < h->dh_nprobes; p++) {
        uint64_t steps = 0;
        for (uint32_t e = st->first_ecb[p]; e; e = st->ecb_link[e].next) {
            const struct dif_clause *cl = &ob->clauses[ob->ecbs[e - 1].de_clause];
            steps += cl->dc_pred.dp_len;
            for (uint32_t k = 0; k < cl->dc_nacts; k++)
                steps += ob->acts[cl->dc_act + k].da_prog.dp_len;
        }
        if (steps > DVM_FIRING_BUDGET / 2)
            return "a probe's clauses may run more DIF instructions than one firing's budget "
                   "allows";
    }
    return NULL;
}

/* layout_vars: globals and this-> variables get fixed slots (var_off); arrays and self-> are
 * dynamic, sized by their largest key and value; each aggregation's values and key too */
static void layout_vars(struct dvm_state *st, struct dvm_layout *l)
{
    const struct dif_obj *ob = &st->obj;
    const struct dif_hdr *h = ob->hdr;
    l->keymax = 16;
    for (uint32_t k = 0; k < h->dh_nvars; k++) {
        const struct dif_var *v = &ob->vars[k];
        uint32_t sz = v->dv_type == DIF_TYPE_STR ? l->ssz
                      : v->dv_type == DIF_TYPE_MEM ? (v->dv_keys + 7u) & ~7u : 8u;
        if (v->dv_scope == DIF_SCOPE_GLOBAL) {
            st->var_off[k] = l->gsz;
            l->gsz += sz;
        } else if (v->dv_scope == DIF_SCOPE_THIS) {
            st->var_off[k] = l->tsz;
            l->tsz += sz;
        } else if (v->dv_scope == DIF_SCOPE_SELF) {
            l->dynstr |= v->dv_type == DIF_TYPE_STR;
        } else if (v->dv_scope == DIF_SCOPE_ARRAY) {
            l->dynstr |= v->dv_type == DIF_TYPE_STR;
            uint32_t ks = 8u + dif_types_size(dif_str(ob, v->dv_keys), st->strsize);
            if (ks > l->keymax)
                l->keymax = ks;
            if (v->dv_type == DIF_TYPE_MEM && dif_var_memsize(v) > l->memval)
                l->memval = dif_var_memsize(v);
        }
    }
    uint32_t aggkey = 8;
    for (uint32_t k = 0; k < h->dh_naggs; k++) {
        uint32_t ks = dif_types_size(dif_str(ob, ob->aggs[k].dg_keys), st->strsize);
        st->agg_vals[k] = dvm_agg_nvals(&ob->aggs[k]);
        if (ks > aggkey)
            aggkey = ks;
    }
    if (aggkey > l->keymax)
        l->keymax = aggkey;
}

/* load_shortcuts: each clause's fast predicate and each enabling's shortcut (a header-only
 * record, a constant aggregation, a short operation) for the firing path. NULL, or why it
 * cannot load. */
static const char *load_shortcuts(struct dvm_state *st, struct d_arena *a)
{
    const struct dif_obj *ob = &st->obj;
    const struct dif_hdr *h = ob->hdr;
    st->fastpred = d_alloc(a, (h->dh_nclauses + 1u) * sizeof(struct dvm_fastpred));
    st->shortop = d_alloc(a, (h->dh_nclauses + 1u) * sizeof(struct dvm_fastpred));
    if (!st->fastpred || !st->shortop)
        return "not enough memory for the engine";
    for (uint32_t k = 0; k < h->dh_nclauses; k++)
        if (ob->clauses[k].dc_pred.dp_len)
            match_fast(st, &ob->clauses[k].dc_pred, &st->fastpred[k]);
    for (uint32_t e = 0; e < h->dh_necbs; e++) {
        const struct dvm_fastpred *fp = &st->fastpred[ob->ecbs[e].de_clause];
        st->ecb_link[e + 1].fast = fp->fp_ok ? fp : NULL;
        uint32_t ci = ob->ecbs[e].de_clause;
        uint32_t hdr = hdronly_of(st, ci);
        uint32_t w = hdr ? DVM_LINK_HDRONLY | hdr : constagg_of(st, ci);
        if (!w)
            w = shortcut_of(st, ci, &st->shortop[ci]);
        st->ecb_link[e + 1].constagg = w;
        st->ecb_link[e + 1].op = &st->shortop[ci];
    }
    return NULL;
}

/* load_vars: the globals, each CPU's scratch, this-> variables, key, memos and strtok( )
 * copy, and the dynamic variables' chunks (dynvarsize), all free. NULL, or why it cannot
 * load. */
static const char *load_vars(struct dvm_state *st, struct d_arena *a, const struct dvm_layout *l)
{
    const struct dif_obj *ob = &st->obj;
    const struct dif_hdr *h = ob->hdr;
    st->gvars_size = l->gsz;
    st->tvars_size = l->tsz;
    st->scratch_size = 8u * l->ssz;
    st->gvars = d_alloc(a, l->gsz + 8u);
    if (!st->gvars)
        return "not enough memory for variables";
    for (unsigned cpu = 0; cpu < st->opts.ncpu; cpu++) {
        struct dvm_cpu *c = &st->cpus[cpu];
        c->st = st;
        c->scratch = d_alloc(a, st->scratch_size);
        c->tvars = d_alloc(a, l->tsz + 8u);
        c->key = d_alloc(a, l->keymax);
        c->memo = d_alloc(a, (h->dh_nacts + 1u) * sizeof(struct dvm_aggmemo));
        c->constagg = d_alloc(a, (h->dh_necbs + 1u) * sizeof(struct dvm_constagg));
        c->strtok = uses_strtok(ob) ? d_alloc(a, l->ssz) : NULL;
        if (!c->scratch || !c->tvars || !c->key || !c->memo || !c->constagg ||
            (uses_strtok(ob) && !c->strtok))
            return "not enough memory for per-CPU state";
    }
    struct dvm_dyn *d = &st->dyn;
    d->keymax = (l->keymax + 7u) & ~7u;
    /* a chunk's value: a string's slot only when a dynamic variable holds strings (as DTrace
     * sizes its chunks by the program's variables): 8-byte values alone leave thread-locals
     * 40-byte chunks, not 300 */
    d->valmax = l->dynstr && l->ssz > 8u ? l->ssz : 8u;
    if (l->memval > d->valmax) /* a struct value fills its chunk's value part (vm.c's store) */
        d->valmax = l->memval;
    d->chunk = (uint32_t)sizeof(struct dent) + d->keymax + d->valmax;
    d->nchunks = (uint32_t)(st->opts.dynvarsize / d->chunk);
    if (d->nchunks > 1u << 20)
        d->nchunks = 1u << 20;
    d->nbuckets = d->nchunks ? d->nchunks : 1;
    d->mem = d_alloc(a, (size_t)d->chunk * d->nchunks);
    d->bucket = d_alloc(a, (size_t)d->nbuckets * 4u);
    if ((d->nchunks && !d->mem) || !d->bucket)
        return "not enough memory for dynamic variables (dynvarsize)";
    if (st->opts.concurrent) {  /* (apart from struct dvm_state: its hot fields stay near) */
        d->stripe = d_alloc(a, DVM_DYN_STRIPES * 4u);
        d->limbo_epoch = d_alloc(a, st->opts.ncpu * st->opts.ncpu * 4u);
        if (!d->stripe || !d->limbo_epoch)
            return "not enough memory for dynamic variables (dynvarsize)";
    }
    /* the free chunks: one list, or, with concurrent firings, one per CPU in equal shares, as
     * DTrace splits its dynamic-variable space (a CPU whose list is empty takes another's) */
    unsigned nl = st->opts.concurrent ? st->opts.ncpu : 1u;
    d->batch = d->nchunks / (8u * nl);
    d->batch = d->batch < 1u ? 1u : d->batch > DVM_DYN_BATCH ? DVM_DYN_BATCH : d->batch;
    for (unsigned l = 0; l < nl; l++) {
        uint32_t lo = (uint32_t)((uint64_t)d->nchunks * l / nl);
        uint32_t hi = (uint32_t)((uint64_t)d->nchunks * (l + 1u) / nl);
        for (uint32_t k = lo; k < hi; k++) {
            dyn_chunk(d, k)->next = k + 1 < hi ? k + 2 : 0;
            dyn_chunk(d, k)->keylen = 0;
        }
        d->free[l] = lo < hi ? lo + 1 : 0;
    }
    return NULL;
}

/* clause_record: the record a clause writes, with its header, rounded up to 8 bytes */
static uint32_t clause_record(const struct dif_clause *cl)
{
    return (uint32_t)sizeof(struct dvm_rechdr) + ((cl->dc_recsize + 7u) & ~7u);
}

/* load_aggs: each CPU's aggregation buffer, only if the script aggregates; bufresize=auto
 * halves aggsize until they fit the engine's memory beside the principal buffers (princ
 * bytes). NULL, or why it cannot load. */
static const char *load_aggs(struct dvm_state *st, struct d_arena *a, uint64_t princ)
{
    const struct dvm_opts *o = &st->opts;
    uint32_t naggs = st->obj.hdr->dh_naggs;
    uint64_t aggsize = o->aggsize & ~(uint64_t)7u;
    while (naggs && aggsize > 64 &&
           (aggsize + aggsize / 64u + 16u) * o->ncpu + princ > (uint64_t)(a->size - a->used)) {
        if (o->bufresize_manual)
            return "not enough memory for aggregations (aggsize)";
        aggsize = (aggsize / 2u) & ~(uint64_t)7u;
        st->aggsize_lowered = aggsize;
    }
    for (unsigned cpu = 0; cpu < o->ncpu && naggs; cpu++) {
        struct dvm_agg_table *t = &st->agg[cpu];
        t->size = (uint32_t)aggsize;
        t->nbuckets = t->size / 256u + 1u;
        t->mem = d_alloc(a, t->size);
        t->bucket = d_alloc(a, t->nbuckets * 4u);
        if (!t->mem || !t->bucket)
            return "not enough memory for aggregations (aggsize)";
    }
    return NULL;
}

/* load_specs: nspec speculation buffers and a staging record per CPU for speculative
 * clauses; bufresize=auto halves specsize until they fit beside the principal buffers (princ
 * bytes). NULL, or why it cannot load. */
static const char *load_specs(struct dvm_state *st, struct d_arena *a, uint64_t princ)
{
    const struct dvm_opts *o = &st->opts;
    const struct dif_obj *ob = &st->obj;
    if (o->nspec > DVM_MAXSPEC)
        return "too many speculation buffers (nspec)";
    for (uint32_t k = 0; k < ob->hdr->dh_nclauses; k++)
        if (ob->clauses[k].dc_flags & DIF_CLF_SPEC) {
            uint32_t n = clause_record(&ob->clauses[k]);
            if (n > st->specrec_size)
                st->specrec_size = n;
        }
    uint64_t specsize = o->specsize & ~(uint64_t)7u;
    while (st->specrec_size && specsize > 64 &&
           (specsize + 8u) * o->nspec + princ > (uint64_t)(a->size - a->used)) {
        if (o->bufresize_manual)
            return "not enough memory for speculations (specsize)";
        specsize = (specsize / 2u) & ~(uint64_t)7u;
        st->specsize_lowered = specsize;
    }
    for (unsigned k = 0; k < o->nspec && st->specrec_size; k++) {
        st->spec[k].size = (uint32_t)specsize;
        st->spec[k].data = d_alloc(a, st->spec[k].size + 8u);
        if (!st->spec[k].data)
            return "not enough memory for speculations (specsize)";
    }
    for (unsigned cpu = 0; cpu < o->ncpu && st->specrec_size; cpu++)
        if (!(st->cpus[cpu].specrec = d_alloc(a, st->specrec_size)))
            return "not enough memory for speculations";
    return NULL;
}

/* load_bufs: the principal buffers, last: bufresize=auto halves bufsize until they fit; the
 * fill policy reserves room for END's records. NULL, or why it cannot load. */
static const char *load_bufs(struct dvm_state *st, struct d_arena *a, uint64_t bufsize,
                             unsigned nbuf)
{
    const struct dvm_opts *o = &st->opts;
    const struct dif_obj *ob = &st->obj;
    uint32_t reserve = 0;
    for (uint32_t e = 0; e < ob->hdr->dh_necbs; e++)
        if (ob->probes[ob->ecbs[e].de_probe].dp_id == DPROBE_END) {
            const struct dif_clause *cl = &ob->clauses[ob->ecbs[e].de_clause];
            if (!(cl->dc_flags & DIF_CLF_NOREC))
                reserve += clause_record(cl);
        }
    for (;;) {
        uint64_t need = (bufsize + 8u) * nbuf * o->ncpu;
        if (need <= (uint64_t)(a->size - ((a->used + 7u) & ~(size_t)7u)) || bufsize < 64)
            break;
        if (o->bufresize_manual)
            return "not enough memory for principal buffers (bufsize)";
        bufsize = (bufsize / 2u) & ~(uint64_t)7u;
        st->bufsize_lowered = bufsize;
    }
    if (o->bufpolicy == DVM_BUF_FILL && reserve > bufsize)
        return "END enablings exceed size of principal buffer";
    for (unsigned cpu = 0; cpu < o->ncpu; cpu++) {
        struct dvm_buf *b = &st->buf[cpu];
        b->size = (uint32_t)bufsize;
        b->reserve = o->bufpolicy == DVM_BUF_FILL ? reserve : 0;
        for (unsigned k = 0; k < nbuf; k++) {
            b->data[k] = d_alloc(a, bufsize + 8u);
            if (!b->data[k])
                return "not enough memory for principal buffers (bufsize)";
        }
    }
    return NULL;
}

/* uses_of: what the verified program reads or keeps (struct dvm_state uses). */
static unsigned uses_of(const struct dif_obj *ob)
{
    unsigned u = 0;
    for (uint32_t k = 0; k < ob->hdr->dh_ninsns; k++) {
        uint32_t i = ob->insns[k];
        if (DIF_OP(i) == DIF_BUILTIN && DIF_IDX(i) == DIF_B_VTIMESTAMP)
            u |= DVM_USES_VTIMESTAMP;
        if (DIF_OP(i) == DIF_BUILTIN && DIF_IDX(i) == DIF_B_WALLTIMESTAMP)
            u |= DVM_USES_WALLTIME;
    }
    for (uint32_t k = 0; k < ob->hdr->dh_nvars; k++)
        if (ob->vars[k].dv_scope == DIF_SCOPE_ARRAY || ob->vars[k].dv_scope == DIF_SCOPE_SELF)
            u |= DVM_USES_DYN;
    return u;
}

int dvm_load(struct dvm_state *st, const void *objp, size_t objlen, const struct dvm_opts *o,
             void *mem, size_t memlen, char *err, size_t errlen)
{
    struct d_arena a = d_arena_init(mem, memlen);
    memset(st, 0, sizeof(*st));
    if (dif_verify(objp, objlen, &st->obj, err, errlen) != 0)
        return -1;
    const struct dif_obj *ob = &st->obj;
    const struct dif_hdr *h = ob->hdr;
    st->opts = *o;
    st->uses = uses_of(ob);
    st->epochs = o->concurrent && (st->uses & DVM_USES_DYN);
    if (o->ncpu < 1 || o->ncpu > DVM_MAXCPU || o->bufpolicy > DVM_BUF_RING)
        return err_set(err, errlen, "invalid engine options");
    /* sizes are clamped to 1 GiB so that no product below overflows a 32-bit size_t */
    const uint64_t gib = 1u << 30;
    st->opts.bufsize = o->bufsize > gib ? gib : o->bufsize;
    st->opts.aggsize = o->aggsize > gib ? gib : o->aggsize;
    st->opts.dynvarsize = o->dynvarsize > gib ? gib : o->dynvarsize;
    st->opts.specsize = o->specsize > gib ? gib : o->specsize;
    o = &st->opts;
    st->strsize = h->dh_strsize;
    struct dvm_layout l = { .ssz = (st->strsize + 7u) & ~7u };
    const char *why = load_probes(st, &a);
    if (!why) {
        layout_vars(st, &l);
        why = load_shortcuts(st, &a);
    }
    if (!why)
        why = load_vars(st, &a, &l);
    if (!why && dvm_stacks_layout(st, &a) != 0) /* stack( )/ustack( ) values (trace/d/stacks.c) */
        why = "not enough memory for the stack table";
    if (why)
        return err_set(err, errlen, why);
    /* As DTrace's kernel (dtrace_state_go): a buffer the program needs that is set below 8
     * bytes is an error; with aggregations the principal buffer is at least one record. */
    uint32_t needed = 0;
    int speculates = 0;
    for (uint32_t k = 0; k < h->dh_nclauses; k++) {
        if (!(ob->clauses[k].dc_flags & (DIF_CLF_NOREC | DIF_CLF_SPEC))) {
            uint32_t n = clause_record(&ob->clauses[k]);
            needed = n > needed ? n : needed;
        }
        speculates |= (ob->clauses[k].dc_flags & DIF_CLF_SPEC) != 0;
    }
    if (h->dh_naggs && o->bufsize < needed)
        st->opts.bufsize = needed;
    if ((needed && o->bufsize < 8) || (speculates && o->specsize < 8) ||
        (h->dh_naggs && o->aggsize < 8))
        return err_set(err, errlen, "No space left on device");
    /* The principal buffers as asked for, kept out of what the aggregations and speculations
     * may take below: they are allocated last, and halving them for the others' sake lowered
     * bufsize on every board run of a script that aggregates, where a smaller aggregation
     * buffer was what bufresize=auto should give up first. */
    unsigned nbuf = o->bufpolicy == DVM_BUF_SWITCH ? 2u : 1u;
    uint64_t bufsize = o->bufsize & ~(uint64_t)7u;
    if (bufsize > (1u << 30))
        bufsize = 1u << 30;
    uint64_t princ = (bufsize + 8u) * nbuf * o->ncpu + 8u;
    why = load_aggs(st, &a, princ);
    if (!why)
        why = load_specs(st, &a, princ);
    if (!why)
        why = load_bufs(st, &a, bufsize, nbuf);
    return why ? err_set(err, errlen, why) : 0;
}
