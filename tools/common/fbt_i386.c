// SPDX-License-Identifier: MIT
// i386 for fbtgen: instruction lengths, control flow and the out-of-line code of a displaced
// instruction. The lengths and operands come from Capstone (Debian's libcapstone, a maintained
// x86 decoder): i386's instructions are 1 to 15 bytes long, with prefixes, ModRM, SIB,
// displacement and immediate forms, which a table of our own would have to repeat. Encodings
// of what the slots write: Intel SDM vol. 2, JMP (E9 cd), Jcc (0F 80+cc cd), PUSH (68 id).
//
// No i386 instruction reads its own address except the relative branches and calls (there is
// no EIP-relative data access in 32-bit mode), so every other instruction runs out of line as
// it is; a direct branch, conditional branch or call is rewritten for the slot's address.
#include <kevhost/fbt_insn.h>
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev_bytes.h>

#define INT3 0xccu          // the trap; also a slot's unused bytes (never executed)
#define JMP_REL32 0xe9u
#define PUSH_IMM32 0x68u
#define JMP_LEN 5u

static csh handle;

static csh cs(void)
{
    if (!handle) {
        if (cs_open(CS_ARCH_X86, CS_MODE_32, &handle) != CS_ERR_OK) {
            fprintf(stderr, "fbtgen: Capstone: no i386 decoder\n");
            exit(1);
        }
        cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
    }
    return handle;
}

static int in_group(const cs_insn *x, unsigned g)
{
    for (unsigned i = 0; i < x->detail->groups_count; i++)
        if (x->detail->groups[i] == g)
            return 1;
    return 0;
}

// A near branch's or call's operand: 1 with *target for an immediate (a direct one), 0 for a
// register or memory operand; *table: a memory operand with an index register (a table of
// addresses indexed by a value, a switch's dispatch).
static int direct(const cs_insn *x, uint64_t *target, int *table)
{
    const cs_x86 *d = &x->detail->x86;
    *table = 0;
    if (d->op_count == 1 && d->operands[0].type == X86_OP_IMM) {
        *target = (uint32_t)d->operands[0].imm;
        return 1;
    }
    if (d->op_count == 1 && d->operands[0].type == X86_OP_MEM)
        *table = d->operands[0].mem.index != X86_REG_INVALID;
    return 0;
}

static int i386_decode(const uint8_t *p, size_t avail, uint64_t pc, struct insn *in)
{
    memset(in, 0, sizeof(*in));
    cs_insn *x;
    if (cs_disasm(cs(), p, avail, pc, 1, &x) != 1) {
        in->len = 1;
        fbt_named(in, I_BAD, "undecodable");
        return -1;
    }
    in->len = x->size;
    fbt_named(in, I_OTHER, x->mnemonic);
    int table;
    switch (x->id) {
    case X86_INS_RET:                       // ret, ret imm16: the return address at esp
        in->cls = I_RET;
        in->ra = DFBT_RA_SP;
        break;
    case X86_INS_JMP:
        if (direct(x, &in->target, &table)) {
            in->cls = I_BRANCH;
        } else if (table) {
            in->cls = I_JTAB;               // jmp *table(, %reg, 4): a switch's dispatch
        } else {
            in->cls = I_IJUMP;              // a tail call through a pointer; through a
            in->unsure = x->detail->x86.operands[0].type == X86_OP_REG;   // register, it
        }                                   // may as well be a switch's (dvm_run's)
        break;
    case X86_INS_CALL:
        in->cls = direct(x, &in->target, &table) ? I_CALL : I_ICALL;
        break;
    case X86_INS_INT3: case X86_INS_UD2: case X86_INS_UD2B:
        in->cls = I_TRAP;
        break;
    case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_RETF: case X86_INS_LJMP:
    case X86_INS_LCALL: case X86_INS_SYSEXIT: case X86_INS_SYSENTER:
        in->cls = I_BAD;                    // leaves the kernel's flow: not followed
        break;
    default:
        if (in_group(x, X86_GRP_JUMP)) {    // jcc, jecxz, loop
            in->cls = direct(x, &in->target, &table) ? I_CBRANCH : I_BAD;
        }
        break;
    }
    cs_free(x, 1);
    return in->cls == I_BAD ? -1 : 0;
}

static void put_rel32(uint8_t *o, uint64_t at_end, uint64_t to)
{
    kev_put_le32(o, (uint32_t)(to - at_end));
}

// jmp rel32 at `at` to `to` (any address: 32-bit offsets wrap).
static unsigned enc_jmp(uint8_t *o, uint64_t at, uint64_t to)
{
    o[0] = JMP_REL32;
    put_rel32(o + 1, at + JMP_LEN, to);
    return JMP_LEN;
}

static int i386_slot(const uint8_t *p, const struct insn *in, uint64_t pc, uint64_t s,
                     fbt_read_fn read, uint8_t out[DFBT_SLOT_BYTES], const char **why)
{
    (void)read;
    memset(out, INT3, DFBT_SLOT_BYTES);
    uint64_t back = pc + in->len;
    switch (in->cls) {
    case I_OTHER: case I_ICALL:      // the instruction, then back (a call returns to the jmp)
        if (in->len + JMP_LEN > DFBT_SLOT_BYTES) {
            *why = "instruction too long for a slot";
            return -1;
        }
        memcpy(out, p, in->len);
        return (int)(in->len + enc_jmp(out + in->len, s + in->len, back));
    case I_RET: case I_IJUMP:        // it leaves: nothing after it
        memcpy(out, p, in->len);
        return (int)in->len;
    case I_BRANCH:
        return (int)enc_jmp(out, s, in->target);
    case I_CALL:                     // push the return address, then to the callee
        out[0] = PUSH_IMM32;
        put_rel32(out + 1, 0, back);
        return (int)(5 + enc_jmp(out + 5, s + 5, in->target));
    case I_CBRANCH: {                // jcc rel32 to the target, else back
        unsigned cc;
        if ((p[0] & 0xf0u) == 0x70u)
            cc = p[0] & 0x0fu;
        else if (p[0] == 0x0fu && (p[1] & 0xf0u) == 0x80u)
            cc = p[1] & 0x0fu;
        else {
            *why = in->what;         // jecxz, loop: no 32-bit form
            return -1;
        }
        out[0] = 0x0f;
        out[1] = (uint8_t)(0x80u | cc);
        put_rel32(out + 2, s + 6, in->target);
        return (int)(6 + enc_jmp(out + 6, s + 6, back));
    }
    default:
        return fbt_no_slot(in, why);
    }
}

const struct fbt_isa fbt_i386 = {
    .arch = DFBT_ARCH_I386, .trap_len = 1, .insn_align = 1,
    .decode = i386_decode, .slot = i386_slot,
};
