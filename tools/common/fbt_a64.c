// SPDX-License-Identifier: MIT
// A64 (ARMv8-A, AArch64) for fbtgen: control flow, pc reads and the out-of-line code of a
// displaced instruction. Every instruction is one little-endian word, 4-byte aligned, so the
// length is never in doubt. Encodings from the ARM Architecture Reference Manual for A-profile,
// section C4.1 (the top-level groups: branches, exception generation and system instructions;
// loads and stores; data processing) and C6.2 (B, BL, B.cond, CBZ, TBZ, BR, BLR, RET, ADR,
// ADRP, LDR (literal), LDRSW (literal), BRK, HLT, UDF).
//
// The instructions that read the pc are the branches, ADR, ADRP and the literal loads: A64 has
// no pc operand in its data-processing or other load/store forms (the pc is not a general
// register), so everything else runs the same out of line.
#include <kevhost/fbt_insn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev_bytes.h>

#define A64_BRK_FILL 0xd4201fc0u    // brk #0xfe: a slot's unused words (never executed)

// The imm19 of b.cond, cbz/cbnz and the literal loads (bits 23:5), in bytes from the pc.
static int64_t imm19(uint32_t w)
{
    return fbt_sext((w >> 5) & 0x7ffffu, 19) * 4;
}

static int a64_decode(const uint8_t *p, size_t avail, uint64_t pc, struct insn *in)
{
    memset(in, 0, sizeof(*in));
    in->len = 4;
    if (avail < 4 || (pc & 3u)) {
        in->cls = I_BAD;
        return -1;
    }
    uint32_t w = kev_get_le32(p);
    fbt_named(in, I_OTHER, "");
    if ((w & 0x7c000000u) == 0x14000000u) {                  // B, BL: imm26
        bool link = w >> 31;
        fbt_named(in, link ? I_CALL : I_BRANCH, link ? "bl" : "b");
        in->target = pc + (uint64_t)(fbt_sext(w & 0x3ffffffu, 26) * 4);
    } else if ((w & 0xff000010u) == 0x54000000u) {           // B.cond
        fbt_named(in, I_CBRANCH, "b.cond");
        in->target = pc + (uint64_t)imm19(w);
    } else if ((w & 0x7e000000u) == 0x34000000u) {           // CBZ, CBNZ
        fbt_named(in, I_CBRANCH, "cbz");
        in->target = pc + (uint64_t)imm19(w);
    } else if ((w & 0x7e000000u) == 0x36000000u) {           // TBZ, TBNZ: imm14
        fbt_named(in, I_CBRANCH, "tbz");
        in->target = pc + (uint64_t)(fbt_sext((w >> 5) & 0x3fffu, 14) * 4);
    } else if ((w & 0xfe000000u) == 0xd6000000u) {           // branch to a register
        unsigned rn = (w >> 5) & 31u;
        uint32_t op = w & 0xfffffc1fu;
        if (op == 0xd65f0000u && rn == 30) {
            fbt_named(in, I_RET, "ret");
            in->ra = DFBT_RA_LR;
        } else if (op == 0xd65f0000u) {
            // ret xN: leaves for an address no DFBT_RA_* names (compilers return by x30)
            fbt_named(in, I_IJUMP, "ret xN");
            in->unsure = 1;
        } else if (op == 0xd61f0000u) {
            // br xN: a tail call through a register, or a switch's dispatch (adr, ldrb, add,
            // br): the two look alike, so the function's returns are not probed
            fbt_named(in, I_IJUMP, "br");
            in->unsure = 1;
        } else if (op == 0xd63f0000u) {
            fbt_named(in, I_ICALL, "blr");
        } else {
            fbt_named(in, I_BAD, "eret/drps/pauth");
        }
    } else if ((w & 0x1f000000u) == 0x10000000u) {           // ADR, ADRP
        uint64_t imm = ((w >> 29) & 3u) | ((uint64_t)((w >> 5) & 0x7ffffu) << 2);
        in->reg = w & 31u;
        if (w >> 31) {
            fbt_named(in, I_PCREL, "adrp");
            in->target = (pc & ~0xfffull) + (uint64_t)(fbt_sext(imm, 21) * 4096);
        } else {
            fbt_named(in, I_PCREL, "adr");
            in->target = pc + (uint64_t)fbt_sext(imm, 21);
        }
    } else if ((w & 0x3b000000u) == 0x18000000u) {           // LDR (literal) and kin
        unsigned opc = w >> 30, simd = (w >> 26) & 1u;
        in->reg = w & 31u;
        in->target = pc + (uint64_t)imm19(w);
        if (simd) {
            fbt_named(in, I_PCREL, "ldr simd literal");
            in->reg = 32;   // not rewritten (the kernel is built with general registers only)
        } else if (opc == 3) {
            fbt_named(in, I_OTHER, "prfm literal");   // a hint: harmless from anywhere
        } else {
            fbt_named(in, I_PCREL, opc == 2 ? "ldrsw literal" : "ldr literal");
            in->lit = 1;
            in->size = opc == 1 ? 8u : 4u;
        }
    } else if ((w & 0xffe0001fu) == 0xd4200000u) {
        fbt_named(in, I_TRAP, "brk");
    } else if ((w & 0xffe0001fu) == 0xd4400000u) {
        fbt_named(in, I_TRAP, "hlt");
    } else if ((w & 0xffff0000u) == 0) {
        fbt_named(in, I_TRAP, "udf");
    }
    return 0;
}

// b (or bl with link) at `at` to `to`: -1 out of the +-128 MB range.
static int enc_b(uint8_t *o, uint64_t at, uint64_t to, bool link)
{
    int64_t off = (int64_t)(to - at);
    if ((off & 3) || off < -(1ll << 27) || off >= (1ll << 27))
        return -1;
    kev_put_le32(o, (link ? 0x94000000u : 0x14000000u) | ((uint32_t)(off >> 2) & 0x3ffffffu));
    return 0;
}

// ldr xN, [pc + 8] (LDR (literal), 64-bit): loads the doubleword 8 bytes on.
static uint32_t ldr_lit8(unsigned reg)
{
    return 0x58000000u | 2u << 5 | (reg & 31u);
}

static int a64_slot(const uint8_t *p, const struct insn *in, uint64_t pc, uint64_t s,
                    fbt_read_fn read, uint8_t out[DFBT_SLOT_BYTES], const char **why)
{
    for (unsigned i = 0; i < DFBT_SLOT_BYTES; i += 4)
        kev_put_le32(out + i, A64_BRK_FILL);
    uint64_t back = pc + 4;
    uint32_t w = kev_get_le32(p);
    *why = "the fbt table lies out of a branch's range (128 MB) of the code";
    switch (in->cls) {
    case I_OTHER: case I_ICALL:      // the instruction, then back (blr returns to the b)
        kev_put_le32(out, w);
        return enc_b(out + 4, s + 4, back, false) < 0 ? -1 : 8;
    case I_RET: case I_IJUMP:        // it leaves: nothing after it
        kev_put_le32(out, w);
        return 4;
    case I_BRANCH:
        return enc_b(out, s, in->target, false) < 0 ? -1 : 4;
    case I_CALL: {                   // x30 = back (the callee returns past the site), then it
        kev_put_le32(out, ldr_lit8(30));
        if (enc_b(out + 4, s + 4, in->target, false) < 0)
            return -1;
        kev_put_le64(out + 8, back);
        return 8;
    }
    case I_CBRANCH: {                // the test, taken to the b at +8; else the b back at +4
        uint32_t t = (w & 0x7e000000u) == 0x36000000u ? (w & ~(0x3fffu << 5)) | 2u << 5
                                                       : (w & ~(0x7ffffu << 5)) | 2u << 5;
        kev_put_le32(out, t);
        if (enc_b(out + 4, s + 4, back, false) < 0)
            return -1;
        return enc_b(out + 8, s + 8, in->target, false) < 0 ? -1 : 12;
    }
    case I_PCREL: {                  // the value from a literal: ldr xN, [pc + 8]; b back
        uint64_t v = in->target;
        if (in->reg > 31) {
            *why = in->what;
            return -1;
        }
        if (in->lit) {
            uint32_t lo = 0;
            if (in->size == 8 ? read(in->target, &v, 8) < 0 : read(in->target, &lo, 4) < 0) {
                *why = "literal not readable";
                return -1;
            }
            if (in->size == 4)   // ldr wN zero-extends, ldrsw sign-extends
                v = (w >> 30) == 2 ? (uint64_t)(int64_t)(int32_t)lo : lo;
        }
        kev_put_le32(out, ldr_lit8(in->reg));
        kev_put_le64(out + 8, v);
        return enc_b(out + 4, s + 4, back, false) < 0 ? -1 : 8;
    }
    default:
        return fbt_no_slot(in, why);
    }
}

const struct fbt_isa fbt_a64 = {
    .arch = DFBT_ARCH_A64, .trap_len = 4, .insn_align = 4,
    .decode = a64_decode, .slot = a64_slot,
};
