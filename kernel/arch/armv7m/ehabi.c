// SPDX-License-Identifier: MIT
// EHABI unwinding (ARM IHI 0038, "Exception Handling ABI for the ARM Architecture", section
// 9-10): find the function's .ARM.exidx entry by binary search on its prel31 start addresses,
// get its unwind opcodes (inline in the entry, or personality 0/1/2 words in .ARM.extab), and
// run them on a virtual sp. Every read goes through the walk's checked reader; the opcodes
// of one function are at most 4 + 4 * 255 bytes, so a step is bounded.
#include <ehabi.h>

#define EXIDX_CANTUNWIND 1u
#define STEP_DONE        (-1) // the frame is the outermost one (not an error)

static int rd32(const struct unwind_mem *m, uint32_t addr, uint32_t *v)
{
    return m->read(m->ctx, addr, v, 4);
}

static uint32_t prel31(uint32_t where, uint32_t word)
{
    uint32_t off = word & 0x7fffffffu;
    if (off & 0x40000000u)
        off |= 0x80000000u; // sign-extend the 31-bit offset
    return where + off;
}

// find: the entry of the function containing pc; 0 and *entry, or an unwind_err.
static int find(const struct unwind_mem *m, const struct ehabi_table *t, uint32_t pc,
                uint32_t *entry)
{
    if (t->end <= t->start || ((t->end - t->start) & 7u) || (t->start & 3u))
        return UNWIND_E_NOINFO;
    uint32_t lo = 0, hi = (t->end - t->start) / 8u, found = UINT32_MAX;
    while (lo < hi) { // the last entry whose function starts at or below pc
        uint32_t mid = lo + (hi - lo) / 2u, w;
        uint32_t at = t->start + mid * 8u;
        if (rd32(m, at, &w) != 0)
            return UNWIND_E_READ;
        if (prel31(at, w) <= pc) {
            found = mid;
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    if (found == UINT32_MAX)
        return UNWIND_E_NOINFO;
    *entry = t->start + found * 8u;
    return UNWIND_OK;
}

// The opcode bytes of one function, most significant byte of each word first.
struct ops {
    const struct unwind_mem *m;
    uint32_t first;        // the word holding the first opcodes
    uint32_t next;         // address of the next word in .ARM.extab
    unsigned nwords;       // further words to read
    uint32_t cur;          // current word, shifted so the next byte is on top
    unsigned left;         // bytes left in cur
    int bad;
};

static int op_next(struct ops *o)
{
    if (!o->left) {
        if (!o->nwords)
            return 0xb0; // past the end: "finish"
        if (rd32(o->m, o->next, &o->cur) != 0) {
            o->bad = UNWIND_E_READ;
            return 0xb0;
        }
        o->next += 4u;
        o->nwords--;
        o->left = 4;
    }
    int b = (int)(o->cur >> 24);
    o->cur <<= 8;
    o->left--;
    return b;
}

static int pop(const struct unwind_mem *m, struct ehabi_regs *r, uint32_t *vsp, uint32_t mask)
{
    for (unsigned i = 0; i < 16; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint32_t v;
        if (rd32(m, *vsp, &v) != 0)
            return UNWIND_E_READ;
        if (i == 13)
            return UNWIND_E_NOINFO; // popping sp: not in code gcc generates for C
        r->r[i] = v;
        *vsp += 4u;
    }
    return UNWIND_OK;
}

// run: the opcodes on regs; 0 or an unwind_err.
static int run(struct ops *o, struct ehabi_regs *r, int *pc_set)
{
    uint32_t vsp = r->r[13];
    for (unsigned guard = 0; guard < 4u + 4u * 255u; guard++) {
        int b = op_next(o), e = UNWIND_OK;
        if (o->bad)
            return o->bad;
        if ((b & 0xc0) == 0x00) {
            vsp += ((uint32_t)(b & 0x3f) << 2) + 4u;
        } else if ((b & 0xc0) == 0x40) {
            vsp -= ((uint32_t)(b & 0x3f) << 2) + 4u;
        } else if ((b & 0xf0) == 0x80) {
            uint32_t mask = ((uint32_t)(b & 0x0f) << 8 | (uint32_t)op_next(o)) << 4;
            if (!mask)
                return UNWIND_E_NOINFO; // "refuse to unwind"
            e = pop(o->m, r, &vsp, mask);
            if (mask & (1u << 15))
                *pc_set = 1;
        } else if ((b & 0xf0) == 0x90) {
            unsigned n = (unsigned)b & 0x0f;
            if (n == 13 || n == 15)
                return UNWIND_E_NOINFO; // reserved
            vsp = r->r[n];
        } else if ((b & 0xf0) == 0xa0) {
            uint32_t mask = (0xffu >> (7 - (b & 7))) << 4; // r4-r[4+nnn]
            if (b & 0x08)
                mask |= 1u << 14;
            e = pop(o->m, r, &vsp, mask);
        } else if (b == 0xb0) {
            break;
        } else if (b == 0xb1) {
            int x = op_next(o);
            if (x == 0 || (x & 0xf0))
                return UNWIND_E_NOINFO; // spare
            e = pop(o->m, r, &vsp, (uint32_t)x);
        } else if (b == 0xb2) {
            uint32_t v = 0;
            unsigned sh = 0;
            int x;
            do {
                x = op_next(o);
                if (sh < 28)
                    v |= (uint32_t)(x & 0x7f) << sh;
                sh += 7;
            } while ((x & 0x80) && !o->bad);
            vsp += 0x204u + (v << 2);
        } else if (b == 0xb3) {
            vsp += ((uint32_t)(op_next(o) & 0x0f) + 1u) * 8u + 4u;  // FSTMFDX d[s]-d[s+c]
        } else if ((b & 0xf8) == 0xb8) {
            vsp += ((uint32_t)(b & 7) + 1u) * 8u + 4u;              // FSTMFDX d8-d[8+n]
        } else if (b == 0xc8 || b == 0xc9) {
            vsp += ((uint32_t)(op_next(o) & 0x0f) + 1u) * 8u;       // VPUSH
        } else if ((b & 0xf8) == 0xd0) {
            vsp += ((uint32_t)(b & 7) + 1u) * 8u;                   // VPUSH d8-d[8+n]
        } else {
            return UNWIND_E_NOINFO; // iWMMXt and spare opcodes: not for a Cortex-M
        }
        if (e != UNWIND_OK)
            return e;
        if (o->bad)
            return o->bad;
    }
    r->r[13] = vsp;
    return UNWIND_OK;
}

int ehabi_step(const struct unwind_mem *m, const struct ehabi_table *t, struct ehabi_regs *regs)
{
    uint32_t entry, w;
    int e = find(m, t, regs->r[15], &entry);
    if (e != UNWIND_OK)
        return e;
    if (rd32(m, entry + 4u, &w) != 0)
        return UNWIND_E_READ;
    if (w == EXIDX_CANTUNWIND)
        return STEP_DONE;
    struct ops o = { .m = m };
    if (w & 0x80000000u) { // inline: personality 0, three opcode bytes
        o.cur = w << 8;
        o.left = 3;
    } else {
        uint32_t at = prel31(entry + 4u, w), h;
        if (rd32(m, at, &h) != 0)
            return UNWIND_E_READ;
        if (!(h & 0x80000000u))
            return UNWIND_E_NOINFO; // a generic personality routine (C++ handlers)
        unsigned pers = (h >> 24) & 0x0f;
        if (pers == 0) {
            o.cur = h << 8;
            o.left = 3;
        } else if (pers == 1 || pers == 2) {
            o.cur = h << 16;
            o.left = 2;
            o.nwords = (h >> 16) & 0xff;
            o.next = at + 4u;
        } else {
            return UNWIND_E_NOINFO;
        }
    }
    int pc_set = 0;
    e = run(&o, regs, &pc_set);
    if (e != UNWIND_OK)
        return e;
    if (!pc_set)
        regs->r[15] = regs->r[14];
    regs->r[15] &= ~1u;
    return UNWIND_OK;
}

unsigned ehabi_unwind(const struct unwind_mem *m, const struct ehabi_table *t,
                      struct ehabi_regs *regs, uint64_t *pcs, unsigned max, int *err)
{
    unsigned n = 0;
    int why = UNWIND_OK;
    regs->r[15] &= ~1u;
    if (max && regs->r[15])
        pcs[n++] = regs->r[15];
    while (n < max) {
        uint32_t sp = regs->r[13], pc = regs->r[15];
        if (sp == m->hi) // the stack is empty: the outermost frame
            break;
        if (sp < m->lo || sp > m->hi || (sp & 3u)) {
            why = sp & 3u ? UNWIND_E_ALIGN : UNWIND_E_BOUNDS;
            break;
        }
        if (n > 1) // a return address: look up the call's own function (a call may end one)
            regs->r[15] = pc - 1u;
        int e = ehabi_step(m, t, regs);
        if (e == STEP_DONE)
            break;
        if (e != UNWIND_OK) {
            why = e;
            break;
        }
        if (!regs->r[15]) // the outermost frame (crt0 clears lr)
            break;
        if (regs->r[15] < t->code_lo || regs->r[15] >= t->code_hi) { // a return address that is not code
            why = UNWIND_E_READ;
            break;
        }
        // a caller's frame lies strictly above its callee's; only the interrupted function
        // (a leaf that pushed nothing) may leave sp as it was
        if (regs->r[13] < sp || (regs->r[13] == sp && (n > 1 || regs->r[15] == pc))) {
            why = UNWIND_E_LOOP;
            break;
        }
        pcs[n++] = regs->r[15];
    }
    if (err)
        *err = why;
    return n;
}
