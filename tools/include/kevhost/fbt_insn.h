// SPDX-License-Identifier: MIT
// fbtgen's instruction decoders (one per instruction set, fbt_thumb.c, fbt_a64.c, fbt_i386.c):
// the few facts the table needs about each instruction of a kernel function (its length, what
// it does to control flow, whether it reads the pc) and the out-of-line code that stands for
// an instruction a trap replaces. Not disassemblers: an instruction the table needs no fact
// about is I_OTHER, one they cannot size is I_BAD (the function is then not probed).
#ifndef FBTGEN_H
#define FBTGEN_H

#include <d/dfbt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum insn_class {
    I_OTHER,    // runs the same anywhere (out of line as it is)
    I_RET,      // leaves the function: pop of pc, bx lr, ret (ra: where its return address is)
    I_BRANCH,   // direct unconditional branch to target
    I_CBRANCH,  // direct conditional branch to target (b<c>, cbz, tbz, jcc)
    I_CALL,     // direct call of target
    I_ICALL,    // indirect call
    I_IJUMP,    // indirect jump (bx rN, br xN, jmp *): an indirect tail call
    I_JTAB,     // jump through a table inside the function (tbb, ldr pc, [pc, ...])
    I_PCREL,    // reads the pc some other way (a literal load, adr, adrp): target the value's
                // address (lit 1: the word loaded there) or the value itself (lit 0)
    I_IT,       // Thumb-2 IT: the next `it` instructions are conditional
    I_TRAP,     // a breakpoint or permanently undefined instruction
    I_BAD,      // not decoded
};

struct insn {
    unsigned len;
    enum insn_class cls;
    uint64_t target;
    unsigned it;        // I_IT: instructions it covers
    unsigned ra;        // I_RET: DFBT_RA_*
    unsigned lit;       // I_PCREL: 1 a load from target, 0 target is the value
    unsigned reg;       // I_PCREL: the destination register
    unsigned size;      // I_PCREL with lit: bytes loaded (4 or 8)
    unsigned unsure;    // I_IJUMP that may as well jump inside the function (a switch's
                        // dispatch): the function's returns are not probed
    char what[24];      // for a refusal: the instruction's kind ("it", "tbb", "adr")
};

// The decoders' shared pieces: v's low `bits` bits as a signed number (an offset field), and
// an instruction's class with the kind a refusal names.
static inline int64_t fbt_sext(uint64_t v, unsigned bits)
{
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)(v ^ m) - (int64_t)m;
}

static inline void fbt_named(struct insn *in, enum insn_class c, const char *what)
{
    in->cls = c;
    snprintf(in->what, sizeof(in->what), "%.*s", (int)sizeof(in->what) - 1, what);
}

// A slot the instruction in cannot have: -1, *why its kind ("not decoded" when it has none).
static inline int fbt_no_slot(const struct insn *in, const char **why)
{
    *why = in->what[0] ? in->what : "not decoded";
    return -1;
}

// How the generator reads the linked image: n bytes at addr, 0 or -1.
typedef int (*fbt_read_fn)(uint64_t addr, void *dst, size_t n);

struct fbt_isa {
    unsigned arch;              // DFBT_ARCH_*
    unsigned trap_len;          // bytes of the trap the kernel writes at a site
    unsigned insn_align;        // instructions start on this many bytes
    // decode: the instruction at pc (its bytes p, avail of them readable); 0, or -1 (I_BAD).
    int (*decode)(const uint8_t *p, size_t avail, uint64_t pc, struct insn *in);
    // slot: DFBT_SLOT_BYTES of code at slot_addr that does what the instruction at pc did and
    // goes on where it would have (for an exit, leaves as it would have): returns how many of
    // its bytes are instructions (the rest: a literal, fill), or -1 with *why.
    int (*slot)(const uint8_t *p, const struct insn *in, uint64_t pc, uint64_t slot_addr,
                fbt_read_fn read, uint8_t out[DFBT_SLOT_BYTES], const char **why);
};

extern const struct fbt_isa fbt_thumb2, fbt_a64, fbt_i386;

#endif
