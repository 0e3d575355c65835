// SPDX-License-Identifier: MIT
// The i386 instructions a pid probe displaces (d/dpid_i386.h) against Capstone (Debian's
// libcapstone, a decoder that is not ours), over every first and second byte with a few third
// bytes (SIB forms) and a filler after: whatever dpid_i386_can_run accepts, Capstone decodes
// to the same length and to the instruction the table says (push of a 32-bit register or an
// immediate, sub of an immediate from esp, mov between 32-bit registers or of an immediate,
// lea of esp plus a displacement, ret), and every such instruction Capstone finds under the
// opcodes the table uses is accepted. dpid_i386_is_return: exactly ret and ret $imm16.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <capstone/capstone.h>

#include <d/dpid_i386.h>

static int gpr32(x86_reg r)
{
    return r == X86_REG_EAX || r == X86_REG_ECX || r == X86_REG_EDX || r == X86_REG_EBX ||
           r == X86_REG_ESP || r == X86_REG_EBP || r == X86_REG_ESI || r == X86_REG_EDI;
}

// What the table lists, as Capstone decoded it.
static int in_table(const cs_insn *x)
{
    const cs_x86 *d = &x->detail->x86;
    const cs_x86_op *o = d->operands;
    for (unsigned i = 0; i < 4; i++)
        if (d->prefix[i])
            return 0;
    switch (x->id) {
    case X86_INS_PUSH:
        return d->op_count == 1 && ((o[0].type == X86_OP_REG && gpr32(o[0].reg)) ||
                                    o[0].type == X86_OP_IMM);
    case X86_INS_SUB:
        return d->op_count == 2 && o[0].type == X86_OP_REG && o[0].reg == X86_REG_ESP &&
               o[1].type == X86_OP_IMM;
    case X86_INS_MOV:
        return d->op_count == 2 && o[0].type == X86_OP_REG && gpr32(o[0].reg) &&
               ((o[1].type == X86_OP_REG && gpr32(o[1].reg)) || o[1].type == X86_OP_IMM);
    case X86_INS_LEA:
        return d->op_count == 2 && o[0].type == X86_OP_REG && gpr32(o[0].reg) &&
               o[1].type == X86_OP_MEM && o[1].mem.base == X86_REG_ESP &&
               o[1].mem.index == X86_REG_INVALID && o[1].mem.segment == X86_REG_INVALID;
    case X86_INS_RET:
        return d->op_count == 0 || (d->op_count == 1 && o[0].type == X86_OP_IMM);
    default:
        return 0;
    }
}

static void test_against_capstone(void **state)
{
    (void)state;
    static const uint8_t third[] = { 0x00, 0x24, 0x25, 0x64, 0xa4, 0xe4, 0x20, 0xff };
    static const uint8_t opcodes[] = { 0x68, 0x6a, 0x81, 0x83, 0x89, 0x8b, 0x8d, 0xc2, 0xc3 };
    csh h;
    assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_32, &h), CS_ERR_OK);
    cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
    unsigned accepted = 0, forms[256] = { 0 };
    for (unsigned b0 = 0; b0 < 256; b0++)
        for (unsigned b1 = 0; b1 < 256; b1++)
            for (unsigned k = 0; k < sizeof(third); k++) {
                uint8_t p[DPID_I386_MAXLEN + 8];
                memset(p, 0x11, sizeof(p));
                p[0] = (uint8_t)b0;
                p[1] = (uint8_t)b1;
                p[2] = third[k];
                unsigned len = 0;
                bool ours = dpid_i386_can_run(p, DPID_I386_MAXLEN, &len);
                cs_insn *x = NULL;
                size_t n = cs_disasm(h, p, sizeof(p), 0x1000, 1, &x);
                int listed = (b0 & 0xf8u) == 0x50u || (b0 & 0xf8u) == 0xb8u ||
                             memchr(opcodes, (int)b0, sizeof(opcodes)) != NULL;
                int theirs = n == 1 && listed && in_table(x);
                if (ours != theirs || (ours && x->size != len))
                    fail_msg("%02x %02x %02x: ours %d (%u bytes), Capstone's %s %s (%u bytes)",
                             b0, b1, third[k], ours, len, n ? x->mnemonic : "?",
                             n ? x->op_str : "", n ? x->size : 0);
                if (ours) {
                    accepted++;
                    forms[b0] = 1;
                    assert_int_equal(dpid_i386_is_return(p, len),
                                     x->id == X86_INS_RET);
                }
                if (n)
                    cs_free(x, n);
            }
    unsigned nforms = 0;
    for (unsigned i = 0; i < 256; i++)
        nforms += forms[i];
    assert_true(accepted > 0);
    assert_int_equal(nforms, 8 + 8 + 9);    // 50+r, b8+r and the other nine opcodes
    cs_close(&h);
}

// A length past what can be read is refused, never read beyond.
static void test_short(void **state)
{
    (void)state;
    static const uint8_t sub32[] = { 0x81, 0xec, 0x00, 0x01, 0x00, 0x00 };
    unsigned len = 0;
    assert_true(dpid_i386_can_run(sub32, 6, &len));
    assert_int_equal(len, 6);
    assert_false(dpid_i386_can_run(sub32, 5, &len));
    assert_false(dpid_i386_can_run(sub32, 1, &len));
    assert_false(dpid_i386_can_run(sub32, 0, &len));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_capstone),
        cmocka_unit_test(test_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
