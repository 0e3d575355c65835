// SPDX-License-Identifier: MIT
// The engine's stack table (d/dstacks.h): stacks interned once, so that an 8-byte id stands
// for a stack in records and aggregation keys. Entries are appended to one block and chained
// by hash; nothing is ever removed while the program runs (a profile's distinct stacks are
// few). Runs in the probe context: bounded (one unwind of at most DVM_STACK_MAXDEPTH frames,
// one chain walk) and allocation-free. The locking rule is the dynamic variables' (dvm.h).
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
    uint64_t off = ((uint64_t)id - 1u) * 8u;
    if (!id || off + sizeof(struct stack_ent) > t->used)
        return NULL;
    struct stack_ent *e = (struct stack_ent *)(t->mem + off);
    if (off + sizeof(*e) + (uint64_t)e->n * 8u > t->used)
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

uint64_t dvm_stack_value(struct dvm_state *st, unsigned kind, unsigned nframes)
{
    struct dvm_stacktab *t = &st->stacks;
    uint64_t pcs[DVM_STACK_MAXDEPTH];
    if (nframes > DVM_STACK_MAXDEPTH)
        nframes = DVM_STACK_MAXDEPTH;
    unsigned n = dvm_stack && t->mem ? dvm_stack(kind, pcs, nframes) : 0;
    if (!n)
        return 0;
    uint32_t h = d_hash_words(2166136261u ^ kind, (const uint8_t *)pcs, n * 8u);
    uint32_t *slot = &t->bucket[h % t->nbuckets];
    for (uint32_t id = *slot; id;) {
        struct stack_ent *e = ent_at(t, id);
        if (!e)
            break;
        if (e->hash == h && e->kind == kind && e->n == n &&
            d_words_eq((const uint8_t *)(e + 1), (const uint8_t *)pcs, n * 8u))
            return id;
        id = e->next;
    }
    uint32_t need = (uint32_t)sizeof(struct stack_ent) + n * 8u;
    if (t->size - t->used < need) {
        t->drops++;
        return 0;
    }
    struct stack_ent *e = (struct stack_ent *)(t->mem + t->used);
    uint32_t id = t->used / 8u + 1u;
    e->next = *slot;
    e->hash = h;
    e->kind = (uint16_t)kind;
    e->n = (uint16_t)n;
    e->pad = 0;
    d_words_copy(e + 1, pcs, n * 8u);
    t->used += need;
    *slot = id;
    return id;
}

const uint64_t *dvm_stack_get(const struct dvm_state *st, uint64_t id, unsigned *n,
                              unsigned *kind)
{
    const struct stack_ent *e = id <= UINT32_MAX ? ent_at(&st->stacks, (uint32_t)id) : NULL;
    *n = e ? e->n : 0;
    *kind = e ? e->kind : 0;
    return e ? (const uint64_t *)(e + 1) : NULL;
}
