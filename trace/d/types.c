// SPDX-License-Identifier: MIT
// The D compiler's struct and union types: the tag table, member layout and the sizes of
// every type (dcc_impl.h). Layout follows libdtrace's (CTF's) rules rather than a C
// compiler's: each member starts on a byte boundary rounded up to its own alignment (bit-fields
// are not packed together: a bit-field takes the smallest integer holding its bits), and a
// struct's size ends with its last member, with no tail padding; a union's size is that of its
// largest member. Pointers are 8 bytes. A tag named before it is defined is incomplete (size 0).
#include "dcc_impl.h"

#define DCC_MAXSOU 128u

/* dcc_sou: the struct/union a DT_SOU type refers to. */
struct dsou *dcc_sou(struct dcc *cc, struct dtype t)
{
    return cc->sous[t.sou - 1];
}

unsigned dcc_type_size(struct dcc *cc, struct dtype t)
{
    if (t.ptr)
        return 8;
    if (t.kind == DT_SOU)
        return dcc_sou(cc, t)->size;
    if (t.kind == DIF_TYPE_STR)
        return cc->strsize;
    return t.size;
}

unsigned dcc_type_align(struct dcc *cc, struct dtype t)
{
    if (t.ptr)
        return 8;
    if (t.kind == DT_SOU)
        return dcc_sou(cc, t)->align;
    if (t.kind == DIF_TYPE_STR)
        return 1;
    return t.size ? t.size : 1;
}

/* dcc_ptr_to: a pointer to t; dcc_deref: what pointer t points to. */
struct dtype dcc_ptr_to(struct dtype t)
{
    if (t.ptr) {
        t.ptr++;
        return t;
    }
    return (struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 0, .ptr = 1, .sou = t.sou,
                           .pkind = t.kind, .psize = t.size, .psign = t.sign };
}

struct dtype dcc_deref(struct dtype t)
{
    if (t.ptr > 1) {
        t.ptr--;
        return t;
    }
    return (struct dtype){ .kind = t.pkind, .size = t.psize, .sign = t.psign, .sou = t.sou };
}

/* dcc_sou_get: the struct (or union) tag `tag`, created incomplete when it is new (a
 * reference before the definition, as CTF's forward tags). tag NULL: a new anonymous one. */
struct dtype dcc_sou_get(struct dcc *cc, const char *tag, int is_union, int line)
{
    for (unsigned k = 0; tag && k < cc->nsous; k++) {
        struct dsou *s = cc->sous[k];
        if (s->tag && !strcmp(s->tag, tag) && s->is_union == is_union)
            return (struct dtype){ .kind = DT_SOU, .sou = (uint16_t)(k + 1) };
    }
    if (!cc->sous)
        cc->sous = dcc_alloc(cc, DCC_MAXSOU * sizeof(struct dsou *));
    if (cc->nsous == DCC_MAXSOU)
        dcc_error(cc, line, "D_DIF_SIZE", "too many struct and union types");
    struct dsou *s = dcc_alloc(cc, sizeof(*s));
    s->tag = tag;
    s->is_union = (uint8_t)is_union;
    s->align = 1;
    cc->sous[cc->nsous++] = s;
    return (struct dtype){ .kind = DT_SOU, .sou = (uint16_t)cc->nsous };
}

const char *dcc_sou_kind(const struct dsou *s)
{
    return s->is_union ? "union" : "struct";
}

struct dmember *dcc_member_find(const struct dsou *s, const char *name)
{
    for (struct dmember *m = s->members; m; m = m->next)
        if (m->name && !strcmp(m->name, name))
            return m;
    for (struct dmember *m = s->anon; m; m = m->next)
        if (!strcmp(m->name, name))
            return m;
    return NULL;
}

static unsigned bitfield_size(unsigned bits)
{
    unsigned bytes = (bits + 7u) / 8u, sz = 1;
    while (sz < bytes)
        sz <<= 1;
    return sz;
}

/* dcc_member_add: appends a member (nelem: array elements, 1 for a scalar; bits: bit-field
 * width or 0) and lays it out. The checks on the member's type are the caller's. */
void dcc_member_add(struct dcc *cc, struct dsou *s, const char *name, struct dtype t,
                    uint32_t nelem, unsigned bits, int line)
{
    if (name && dcc_member_find(s, name))
        dcc_error(cc, line, "D_UNKNOWN", "failed to define member '%s': Duplicate member or "
                  "variable name", name);
    struct dmember *m = dcc_alloc(cc, sizeof(*m));
    m->name = name;
    m->type = t;
    m->nelem = nelem;
    m->isarr = nelem != 1;
    m->bits = (uint8_t)bits;
    uint64_t esize = bits ? bitfield_size(bits) : dcc_type_size(cc, t);
    unsigned align = bits ? bitfield_size(bits) : dcc_type_align(cc, t);
    uint64_t msize = esize * nelem;
    if (msize > UINT32_MAX / 2)
        dcc_error(cc, line, "D_DECL_ARRBIG", "array dimension too big");
    if (s->is_union || !s->last) {
        m->off = 0;
        if (msize > s->size)
            s->size = (uint32_t)msize;
    } else {
        /* the end of the last member, in bits, rounded to a byte, then to this one's alignment */
        const struct dmember *l = s->last;
        uint64_t end = (uint64_t)l->off * 8u + (l->bits ? l->bits
                                               : (uint64_t)dcc_type_size(cc, l->type) * l->nelem * 8u);
        uint64_t off = (end + 7u) / 8u;
        off = (off + align - 1u) / align * align;
        if (off + msize > UINT32_MAX / 2)
            dcc_error(cc, line, "D_DECL_ARRBIG", "array dimension too big");
        m->off = (uint32_t)off;
        s->size = (uint32_t)(off + msize);
    }
    if (align > s->align)
        s->align = align;
    if (s->last)
        s->last->next = m;
    else
        s->members = m;
    s->last = m;
}
