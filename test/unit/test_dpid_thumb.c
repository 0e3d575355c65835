// SPDX-License-Identifier: MIT
// The Thumb instructions a pid probe displaces (d/dpid_thumb.h) against Capstone (Debian's
// libcapstone, a decoder that is not ours, ARMv7-M Thumb), over every 16-bit halfword and
// every second halfword of the three 32-bit first halfwords the table uses (stmdb sp!,
// ldmia sp!, ldr rt, [sp], #imm): whatever dpid_thumb_can_run accepts, Capstone decodes to an
// instruction of the table (push and pop of the registers it allows, sub sp, sp, #imm, ldr
// from the pc, mov between registers other than sp and pc, movs of an immediate or a low
// register, nop, bx lr, mov pc, lr, ldr pc, [sp], #4), and every such instruction is accepted;
// dpid_thumb_is_return exactly for those that load the pc; dpid_thumb_is_movs for the movs.
// Capstone keeps an IT instruction's state for the next ones: its handle is opened anew after
// each.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <capstone/capstone.h>

#include <d/dpid_thumb.h>

static int is_reg(const cs_arm_op *o, arm_reg r)
{
    return o->type == ARM_OP_REG && o->reg == (int)r;
}

// A register list's count and whether it holds r.
static unsigned list_has(const cs_arm *d, unsigned from, arm_reg r)
{
    unsigned has = 0;
    for (unsigned i = from; i < d->op_count; i++)
        has |= is_reg(&d->operands[i], r);
    return has;
}

// What the table lists, as Capstone decoded it (2 or 4 bytes); *ret: it loads the pc.
static int in_table(const cs_insn *x, int *ret)
{
    const cs_arm *d = &x->detail->arm;
    const cs_arm_op *o = d->operands;
    *ret = 0;
    switch (x->id) {
    case ARM_INS_PUSH:              // push {..}, push.w = stmdb sp!, {..} (two or more)
        return !list_has(d, 0, ARM_REG_SP) && !list_has(d, 0, ARM_REG_PC) &&
               (x->size == 2 || d->op_count >= 2);
    case ARM_INS_POP:               // pop {.., pc}; pop.w {.., pc} (two or more, no lr)
        *ret = list_has(d, 0, ARM_REG_PC);
        if (x->size == 4 && d->op_count == 1)   // ldr pc, [sp], #4 as Capstone names it
            return *ret;
        return *ret && !list_has(d, 0, ARM_REG_SP) &&
               (x->size == 2 || (d->op_count >= 2 && !list_has(d, 0, ARM_REG_LR)));
    case ARM_INS_LDR:
        if (x->size == 4) {         // ldr pc, [sp], #4
            *ret = is_reg(&o[0], ARM_REG_PC) && o[1].type == ARM_OP_MEM &&
                   o[1].mem.base == (unsigned)ARM_REG_SP && d->op_count == 3 && o[2].type == ARM_OP_IMM &&
                   o[2].imm == 4 && !o[2].subtracted;
            return *ret;
        }
        return o[1].type == ARM_OP_MEM && o[1].mem.base == (unsigned)ARM_REG_PC;
    case ARM_INS_SUB:
        return x->size == 2 && is_reg(&o[0], ARM_REG_SP) &&
               o[d->op_count - 1].type == ARM_OP_IMM &&
               (d->op_count == 2 || is_reg(&o[1], ARM_REG_SP));
    case ARM_INS_MOV:
        if (x->size != 2 || d->op_count != 2)
            return 0;
        if (is_reg(&o[0], ARM_REG_PC) && is_reg(&o[1], ARM_REG_LR))
            return *ret = 1;
        if (d->update_flags)        // movs rd, #imm8 / movs rd, rm
            return 1;
        return o[1].type == ARM_OP_REG && !is_reg(&o[0], ARM_REG_SP) &&
               !is_reg(&o[0], ARM_REG_PC) && !is_reg(&o[1], ARM_REG_SP) &&
               !is_reg(&o[1], ARM_REG_PC);
    case ARM_INS_NOP:
        return x->size == 2;
    case ARM_INS_BX:                // (bits 2-0 should be zero; refused otherwise)
        return *ret = is_reg(&o[0], ARM_REG_LR) && !(x->bytes[0] & 7u);
    default:
        return 0;
    }
}

static csh open_thumb(void)
{
    csh h;
    assert_int_equal(cs_open(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS, &h), CS_ERR_OK);
    cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
    return h;
}

// One instruction (hw1, hw2): ours against Capstone's. Returns 1 when ours accepts it.
static int check_one(csh *h, uint32_t hw1, uint32_t hw2)
{
    uint8_t p[4] = { (uint8_t)hw1, (uint8_t)(hw1 >> 8), (uint8_t)hw2, (uint8_t)(hw2 >> 8) };
    unsigned len = dpid_thumb_len(hw1);
    bool ours = dpid_thumb_can_run(hw1, hw2);
    cs_insn *x = NULL;
    size_t n = cs_disasm(*h, p, len, 0x1000, 1, &x);
    int ret = 0, theirs = n == 1 && x->size == len && in_table(x, &ret);
    if (ours != theirs)
        fail_msg("%04x %04x: ours %d, Capstone's %s %s (%u bytes)", hw1, hw2, ours,
                 n ? x->mnemonic : "?", n ? x->op_str : "", n ? x->size : 0);
    if (ours && dpid_thumb_is_return(hw1, hw2) != (ret != 0))
        fail_msg("%04x %04x: a return to us %d, Capstone's %s %s", hw1, hw2,
                 dpid_thumb_is_return(hw1, hw2), x->mnemonic, x->op_str);
    if (len == 2 && dpid_thumb_is_movs(hw1) != (n == 1 && x->id == ARM_INS_MOV &&
                                                x->detail->arm.update_flags))
        fail_msg("%04x: movs to us %d, Capstone's %s %s", hw1, dpid_thumb_is_movs(hw1),
                 n ? x->mnemonic : "?", n ? x->op_str : "");
    if (n && x->id == ARM_INS_IT) {
        cs_close(h);
        *h = open_thumb();
    }
    if (n)
        cs_free(x, n);
    return ours;
}

static void test_against_capstone(void **state)
{
    (void)state;
    static const uint32_t wide[] = { 0xe92du, 0xe8bdu, 0xf85du };
    csh h = open_thumb();
    unsigned narrow = 0, movs = 0, w = 0;
    for (uint32_t hw1 = 0; hw1 < 0x10000u; hw1++)
        if (dpid_thumb_len(hw1) == 2) {
            narrow += (unsigned)check_one(&h, hw1, 0);
            movs += dpid_thumb_is_movs(hw1);
        }
    for (unsigned k = 0; k < 3; k++)
        for (uint32_t hw2 = 0; hw2 < 0x10000u; hw2++)
            w += (unsigned)check_one(&h, wide[k], hw2);
    assert_int_equal(movs, 0x800 + 0x40);
    assert_true(narrow > movs && w > 0);
    cs_close(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_capstone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
