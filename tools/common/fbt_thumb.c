// SPDX-License-Identifier: MIT
// Thumb-2 (ARMv7-M) for fbtgen: instruction lengths, control flow, pc reads, and the
// out-of-line code of a displaced instruction. Encodings from the ARMv7-M Architecture
// Reference Manual, chapter A5 (16-bit and 32-bit instruction encodings) and A7 (B, BL, CBZ,
// LDR literal, ADR, POP, LDM, BX, IT, UDF).
#include <kevhost/fbt_insn.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev_bytes.h>

#define UDF_FILL 0xdefeu    // udf #0xfe: a slot's unused halfwords (never executed)

static int decode16(unsigned hw, uint64_t pc, struct insn *in)
{
    uint64_t base4 = (pc + 4) & ~3ull;   // Align(PC, 4) of the literal and ADR forms
    if ((hw & 0xff00u) == 0xbf00u && (hw & 0xfu)) {
        fbt_named(in, I_IT, "it");
        in->it = 4u - (unsigned)__builtin_ctz(hw & 0xfu);
    } else if ((hw & 0xfe00u) == 0xbc00u && (hw & 0x100u)) {   // pop {..., pc}
        fbt_named(in, I_RET, "pop");
        in->ra = DFBT_RA_SP + (unsigned)__builtin_popcount(hw & 0x1ffu) - 1u;
    } else if ((hw & 0xff87u) == 0x4700u) {                     // bx rm
        unsigned rm = (hw >> 3) & 15u;
        if (rm == 14) {
            fbt_named(in, I_RET, "bx lr");
            in->ra = DFBT_RA_LR;
        } else {
            fbt_named(in, rm == 15 ? I_BAD : I_IJUMP, "bx");
        }
    } else if ((hw & 0xff87u) == 0x4780u) {
        fbt_named(in, I_ICALL, "blx");
    } else if ((hw & 0xf000u) == 0xd000u) {
        unsigned cond = (hw >> 8) & 15u;
        if (cond == 14)
            fbt_named(in, I_TRAP, "udf");
        else if (cond == 15)
            fbt_named(in, I_OTHER, "svc");
        else {
            fbt_named(in, I_CBRANCH, "b<c>");
            in->target = pc + 4 + (uint64_t)fbt_sext((hw & 0xffu) << 1, 9);
        }
    } else if ((hw & 0xf800u) == 0xe000u) {
        fbt_named(in, I_BRANCH, "b");
        in->target = pc + 4 + (uint64_t)fbt_sext((hw & 0x7ffu) << 1, 12);
    } else if ((hw & 0xf500u) == 0xb100u) {
        fbt_named(in, I_CBRANCH, "cbz");
        in->target = pc + 4 + ((((hw >> 9) & 1u) << 6) | (((hw >> 3) & 0x1fu) << 1));
    } else if ((hw & 0xf800u) == 0x4800u) {
        fbt_named(in, I_PCREL, "ldr literal");
        in->lit = 1;
        in->size = 4;
        in->reg = (hw >> 8) & 7u;
        in->target = base4 + (hw & 0xffu) * 4u;
    } else if ((hw & 0xf800u) == 0xa000u) {
        fbt_named(in, I_PCREL, "adr");
        in->reg = (hw >> 8) & 7u;
        in->target = base4 + (hw & 0xffu) * 4u;
    } else if ((hw & 0xfc00u) == 0x4400u) {   // add, cmp, mov with high registers
        unsigned op = (hw >> 8) & 3u, rm = (hw >> 3) & 15u, rdn = ((hw >> 4) & 8u) | (hw & 7u);
        if (op == 2 && rm == 14 && rdn == 15) {
            fbt_named(in, I_RET, "mov pc, lr");
            in->ra = DFBT_RA_LR;
        } else if (rm == 15) {
            fbt_named(in, I_PCREL, "pc operand");
            in->reg = 16; // not rewritable
        } else if (rdn == 15 && op != 1) {
            fbt_named(in, I_BAD, "write of pc");
        }
    } else if ((hw & 0xff00u) == 0xbe00u) {
        fbt_named(in, I_TRAP, "bkpt");
    }
    return 0;
}

static int decode32(unsigned hw1, unsigned hw2, uint64_t pc, struct insn *in)
{
    uint64_t base4 = (pc + 4) & ~3ull;
    if ((hw1 & 0xf800u) == 0xf000u && (hw2 & 0x8000u)) {   // branches, misc control
        unsigned s = (hw1 >> 10) & 1u, j1 = (hw2 >> 13) & 1u, j2 = (hw2 >> 11) & 1u;
        unsigned kind = hw2 & 0xd000u;
        if (kind == 0x9000u || kind == 0xd000u) {           // B.W T4, BL
            unsigned i1 = !(j1 ^ s), i2 = !(j2 ^ s);
            uint64_t off = (uint64_t)s << 24 | (uint64_t)i1 << 23 | (uint64_t)i2 << 22 |
                           (uint64_t)(hw1 & 0x3ffu) << 12 | (uint64_t)(hw2 & 0x7ffu) << 1;
            fbt_named(in, kind == 0x9000u ? I_BRANCH : I_CALL, kind == 0x9000u ? "b.w" : "bl");
            in->target = pc + 4 + (uint64_t)fbt_sext(off, 25);
        } else if (kind == 0xc000u) {
            fbt_named(in, I_BAD, "blx imm");
        } else if (((hw1 >> 7) & 7u) == 7u) {   // op1 = hw1[9:7] = 111x: misc, msr/mrs, udf.w
            if ((hw1 & 0xfff0u) == 0xf7f0u && (hw2 & 0xf000u) == 0xa000u)
                fbt_named(in, I_TRAP, "udf.w");
            else if ((hw1 & 0xffe0u) == 0xf3c0u)
                fbt_named(in, I_BAD, "bxj/eret");
        } else {                                // B<c>.W T3
            uint64_t off = (uint64_t)s << 20 | (uint64_t)j2 << 19 | (uint64_t)j1 << 18 |
                           (uint64_t)(hw1 & 0x3fu) << 12 | (uint64_t)(hw2 & 0x7ffu) << 1;
            fbt_named(in, I_CBRANCH, "b<c>.w");
            in->target = pc + 4 + (uint64_t)fbt_sext(off, 21);
        }
    } else if ((hw1 & 0xfff0u) == 0xe8d0u && (hw2 & 0xffe0u) == 0xf000u) {
        fbt_named(in, I_JTAB, "tbb/tbh");
    } else if ((hw1 & 0xffd0u) == 0xe890u && (hw2 & 0x8000u)) {   // LDM(IA) with pc
        if ((hw1 & 0xfu) == 13 && (hw1 & 0x20u)) {
            fbt_named(in, I_RET, "pop.w");
            in->ra = DFBT_RA_SP + (unsigned)__builtin_popcount(hw2 & 0xdfffu) - 1u;
        } else {
            fbt_named(in, I_IJUMP, "ldm pc");
        }
    } else if ((hw1 & 0xffd0u) == 0xe910u && (hw2 & 0x8000u)) {   // LDMDB with pc
        fbt_named(in, I_IJUMP, "ldmdb pc");
    } else if ((hw1 & 0xff7fu) == 0xf85fu) {                     // LDR (literal) T2
        unsigned rt = hw2 >> 12;
        if (rt == 15) {
            fbt_named(in, I_BAD, "ldr pc literal");
        } else {
            fbt_named(in, I_PCREL, "ldr.w literal");
            in->lit = 1;
            in->size = 4;
            in->reg = rt;
            in->target = (hw1 & 0x80u) ? base4 + (hw2 & 0xfffu) : base4 - (hw2 & 0xfffu);
        }
    } else if ((hw1 & 0xfe5fu) == 0xf81fu || (hw1 & 0xfe5fu) == 0xe85fu) {
        fbt_named(in, I_PCREL, "ldrb/ldrh/ldrd literal");  // other literal loads: not rewritten
        in->reg = 16;
    } else if (((hw1 & 0xfff0u) == 0xf850u || (hw1 & 0xfff0u) == 0xf8d0u) && (hw2 >> 12) == 15) {
        if (hw1 == 0xf85du && hw2 == 0xfb04u) {   // ldr.w pc, [sp], #4
            fbt_named(in, I_RET, "ldr pc, [sp], #4");
            in->ra = DFBT_RA_SP;
        } else if ((hw1 & 0xfff0u) == 0xf850u && !(hw2 & 0x0fc0u)) {
            fbt_named(in, I_JTAB, "ldr pc, [rn, rm]");  // a switch's table of addresses
        } else {
            fbt_named(in, I_IJUMP, "ldr pc, [rn, #imm]");
            in->unsure = 1;                         // a switch's or a tail call: not known
        }
    } else if (((hw1 & 0xfbffu) == 0xf2afu || (hw1 & 0xfbffu) == 0xf20fu) && !(hw2 & 0x8000u)) {
        uint64_t imm = ((hw1 >> 10) & 1u) << 11 | ((hw2 >> 12) & 7u) << 8 | (hw2 & 0xffu);
        fbt_named(in, I_PCREL, "adr.w");
        in->reg = (hw2 >> 8) & 15u;
        in->target = (hw1 & 0xfbffu) == 0xf2afu ? base4 - imm : base4 + imm;
    }
    return 0;
}

static int thumb_decode(const uint8_t *p, size_t avail, uint64_t pc, struct insn *in)
{
    memset(in, 0, sizeof(*in));
    if (avail < 2)
        return -1;
    unsigned hw1 = kev_get_le16(p);
    unsigned top = hw1 >> 11;
    in->len = top == 0x1du || top == 0x1eu || top == 0x1fu ? 4u : 2u;
    if (in->len > avail) {
        in->cls = I_BAD;
        return -1;
    }
    fbt_named(in, I_OTHER, "");
    if (in->len == 2)
        return decode16(hw1, pc, in);
    return decode32(hw1, kev_get_le16(p + 2), pc, in);
}

// b.w (T4) at `at` to `to`; -1 out of range.
static int enc_bw(uint8_t *o, uint64_t at, uint64_t to)
{
    int64_t off = (int64_t)(to - (at + 4));
    if ((off & 1) || off < -(1ll << 24) || off >= (1ll << 24))
        return -1;
    uint64_t u = (uint64_t)off;
    unsigned s = (u >> 24) & 1u, i1 = (u >> 23) & 1u, i2 = (u >> 22) & 1u;
    unsigned j1 = !i1 ^ s, j2 = !i2 ^ s;
    kev_put_le16(o, 0xf000u | s << 10 | ((u >> 12) & 0x3ffu));
    kev_put_le16(o + 2, 0x9000u | j1 << 13 | j2 << 11 | ((u >> 1) & 0x7ffu));
    return 0;
}

// b<cond>.w (T3) at `at` to `to`; -1 out of range.
static int enc_bcw(uint8_t *o, unsigned cond, uint64_t at, uint64_t to)
{
    int64_t off = (int64_t)(to - (at + 4));
    if ((off & 1) || off < -(1ll << 20) || off >= (1ll << 20))
        return -1;
    uint64_t u = (uint64_t)off;
    unsigned s = (u >> 20) & 1u, j2 = (u >> 19) & 1u, j1 = (u >> 18) & 1u;
    kev_put_le16(o, 0xf000u | s << 10 | cond << 6 | ((u >> 12) & 0x3fu));
    kev_put_le16(o + 2, 0x8000u | j1 << 13 | j2 << 11 | ((u >> 1) & 0x7ffu));
    return 0;
}

// ldr.w rt, [pc, #4] at a 4-aligned `at`: loads the word at at + 8.
static void enc_ldr_lit8(uint8_t *o, unsigned rt)
{
    kev_put_le16(o, 0xf8dfu);
    kev_put_le16(o + 2, rt << 12 | 4u);
}

static int thumb_slot(const uint8_t *p, const struct insn *in, uint64_t pc, uint64_t s,
                      fbt_read_fn read, uint8_t out[DFBT_SLOT_BYTES], const char **why)
{
    for (unsigned i = 0; i < DFBT_SLOT_BYTES; i += 2)
        kev_put_le16(out + i, UDF_FILL);
    uint64_t back = pc + in->len;
    *why = "branch out of range";
    switch (in->cls) {
    case I_OTHER: case I_ICALL:      // the instruction, then back (a call returns to the b.w)
        memcpy(out, p, in->len);
        return enc_bw(out + in->len, s + in->len, back) < 0 ? -1 : (int)in->len + 4;
    case I_RET: case I_IJUMP:        // it leaves: nothing after it
        memcpy(out, p, in->len);
        return (int)in->len;
    case I_BRANCH:
        return enc_bw(out, s, in->target) < 0 ? -1 : 4;
    case I_CALL:                     // lr = back | 1, then the callee
        enc_ldr_lit8(out, 14);
        kev_put_le32(out + 8, (uint32_t)back | 1u);
        return enc_bw(out + 4, s + 4, in->target) < 0 ? -1 : 8;
    case I_CBRANCH: {
        unsigned hw = kev_get_le16(p);
        if ((hw & 0xf500u) == 0xb100u) {   // cbz/cbnz rn, taken: to the b.w at s + 8
            kev_put_le16(out, (hw & 0xfd07u) | 2u << 3);
            if (enc_bw(out + 2, s + 2, back) < 0)
                return -1;
            kev_put_le16(out + 6, 0xbf00u);
            return enc_bw(out + 8, s + 8, in->target) < 0 ? -1 : 12;
        }
        unsigned cond = in->len == 2 ? (hw >> 8) & 15u : (hw >> 6) & 15u;
        if (enc_bcw(out, cond, s, in->target) < 0)
            return -1;
        return enc_bw(out + 4, s + 4, back) < 0 ? -1 : 8;
    }
    case I_PCREL: {
        uint32_t v = (uint32_t)in->target;
        if (in->reg > 14) {
            *why = in->what;
            return -1;
        }
        if (in->lit && (in->size != 4 || read(in->target, &v, 4) < 0)) {
            *why = "literal not readable";
            return -1;
        }
        enc_ldr_lit8(out, in->reg);
        kev_put_le32(out + 8, v);
        return enc_bw(out + 4, s + 4, back) < 0 ? -1 : 8;
    }
    default:
        return fbt_no_slot(in, why);
    }
}

const struct fbt_isa fbt_thumb2 = {
    .arch = DFBT_ARCH_THUMB2, .trap_len = 2, .insn_align = 2,
    .decode = thumb_decode, .slot = thumb_slot,
};
