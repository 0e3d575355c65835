// SPDX-License-Identifier: MIT
// The engine's stack table (d/dstacks.h): stacks interned once, so that an 8-byte id stands
// for a stack in records and aggregation keys. Entries are appended to one block and chained
// by hash; nothing is ever removed while the program runs (a profile's distinct stacks are
// few). Runs in the probe context: bounded (one unwind of at most DVM_STACK_MAXDEPTH frames,
// one chain walk) and allocation-free. Firings on several CPUs at once (d/dvm.h, CONCURRENCY):
// an entry's space is claimed by compare-and-swap on `used`, written, then published by
// compare-and-swap on its bucket's head, after a walk of the chain found no equal stack; a
// failed publication walks the chain again from the new head, and finding the stack there
// leaves the claimed space unused: one id a stack, whichever CPU interned it first.
#include "dvm_impl.h"
#include <d/dstacks.h>

dvm_stack_fn dvm_stack;

struct stack_ent {
    uint32_t next;  /* offset / 8 + 1 of the next entry in the chain; 0: none */
    uint32_t hash;
    uint16_t kind, n;
    uint32_t pad;
    /* uint64_t pcs[n] */
};

static struct stack_ent *ent_at(const struct dvm_stacktab *t, uint32_t id)
{
    uint64_t off = ((uint64_t)id - 1u) * 8u, used = __atomic_load_n(&t->used, __ATOMIC_RELAXED);
    if (!id || off + sizeof(struct stack_ent) > used)
        return NULL;
    struct stack_ent *e = (struct stack_ent *)(t->mem + off);
    if (off + sizeof(*e) + (uint64_t)e->n * 8u > used)
        return NULL;
    return e;
}

int dvm_stacks_layout(struct dvm_state *st, struct d_arena *a)
{
    const struct dif_obj *o = &st->obj;
    int uses = 0;
    for (uint32_t k = 0; k < o->hdr->dh_ninsns; k++)
        uses |= DIF_OP(o->insns[k]) == DIF_CALL && DIF_IDX(o->insns[k]) == DIF_S_STACK;
    if (!uses)
        return 0;
    struct dvm_stacktab *t = &st->stacks;
    t->size = DVM_STACKTAB_SIZE;
    t->nbuckets = DVM_STACKTAB_SIZE / 128u;
    t->mem = d_alloc(a, t->size);
    t->bucket = d_alloc(a, t->nbuckets * 4u);
    return t->mem && t->bucket ? 0 : -1;
}

unsigned dvm_stack_depth(unsigned kind)
{
    uint64_t pcs[DVM_STACK_MAXDEPTH];
    return dvm_stack ? dvm_stack(kind, pcs, DVM_STACK_MAXDEPTH) : 0;
}

/* stack_find: the id of the stack (kind, pcs[n], hash h) on the chain from id, or 0. */
static uint32_t stack_find(const struct dvm_stacktab *t, uint32_t id, uint32_t h, unsigned kind,
                           const uint64_t *pcs, unsigned n, unsigned conc)
{
    while (id) {
        const struct stack_ent *e = ent_at(t, id);
        if (!e)
            break;
        if (e->hash == h && e->kind == kind && e->n == n &&
            d_words_eq((const uint8_t *)(e + 1), (const uint8_t *)pcs, n * 8u))
            return id;
        id = d_load_acq(&((struct stack_ent *)(void *)e)->next, conc);
    }
    return 0;
}

/* stack_claim: need bytes of the table's space, or NULL when it is full. */
static struct stack_ent *stack_claim(struct dvm_stacktab *t, uint32_t need, unsigned conc)
{
    for (uint32_t used; (used = d_load_acq(&t->used, conc)) <= t->size && t->size - used >= need;)
        if (d_cas(&t->used, used, used + need, conc))
            return (struct stack_ent *)(t->mem + used);
    return NULL;
}

uint64_t dvm_stack_value(struct dvm_state *st, unsigned kind, unsigned nframes)
{
    struct dvm_stacktab *t = &st->stacks;
    unsigned conc = st->opts.concurrent;
    uint64_t pcs[DVM_STACK_MAXDEPTH];
    if (nframes > DVM_STACK_MAXDEPTH)
        nframes = DVM_STACK_MAXDEPTH;
    unsigned n = dvm_stack && t->mem ? dvm_stack(kind, pcs, nframes) : 0;
    if (!n)
        return 0;
    uint32_t h = d_hash_words(2166136261u ^ kind, (const uint8_t *)pcs, n * 8u);
    uint32_t *slot = &t->bucket[h % t->nbuckets];
    struct stack_ent *e = NULL;
    for (;;) {
        uint32_t head = d_load_acq(slot, conc), id = stack_find(t, head, h, kind, pcs, n, conc);
        if (id)
            return id;  /* (a claimed entry of this walk's stays unused) */
        if (!e) {
            uint32_t need = (uint32_t)sizeof(struct stack_ent) + n * 8u;
            if (!(e = stack_claim(t, need, conc))) {
                d_fetch_add(&t->drops, 1u, conc);
                return 0;
            }
            e->hash = h;
            e->kind = (uint16_t)kind;
            e->n = (uint16_t)n;
            e->pad = 0;
            d_words_copy(e + 1, pcs, n * 8u);
        }
        e->next = head;
        uint32_t id_new = (uint32_t)((uint8_t *)e - t->mem) / 8u + 1u;
        if (d_cas(slot, head, id_new, conc)) /* release: the entry is seen whole */
            return id_new;
    }
}

const uint64_t *dvm_stack_get(const struct dvm_state *st, uint64_t id, unsigned *n,
                              unsigned *kind)
{
    const struct stack_ent *e = id <= UINT32_MAX ? ent_at(&st->stacks, (uint32_t)id) : NULL;
    *n = e ? e->n : 0;
    *kind = e ? e->kind : 0;
    return e ? (const uint64_t *)(e + 1) : NULL;
}
