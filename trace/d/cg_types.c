// SPDX-License-Identifier: MIT
// Types in the code generator: C's integer promotions and usual arithmetic conversions over
// DIF's 64-bit registers (a value narrower than 64 bits is cut to its size where it is
// recorded, stored in memory or cast), the record type letters, and constant folding.
#include "cg_impl.h"

char cg_type_letter(struct dtype t)
{
    if (t.kind == DIF_TYPE_STR)
        return 's';
    static const char s[9] = { 0, 'b', 'h', 0, 'i', 0, 0, 0, 'l' };
    static const char u[9] = { 0, 'B', 'H', 0, 'I', 0, 0, 0, 'L' };
    return t.sign ? s[t.size] : u[t.size];
}

struct dtype cg_promote(struct dtype t)
{
    if (t.size < 4)
        return T_INT32;
    return t;
}

struct dtype cg_arith(struct dtype a, struct dtype b)
{
    a = cg_promote(a);
    b = cg_promote(b);
    if (a.size == b.size)
        return (struct dtype){ .kind = DIF_TYPE_INT, .size = a.size, .sign = (uint8_t)(a.sign && b.sign) };
    return a.size > b.size ? a : b;
}

void cg_need_int(struct cg *g, struct dtype t, int line, const char *op)
{
    if (t.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, "D_OP_INT", "operator %s requires an operand of integral type", op);
}

/* convert: makes reg hold a value of type `to` from type `from` (ints only). */
void cg_convert(struct cg *g, unsigned r, struct dtype from, struct dtype to)
{
    if (to.kind != DIF_TYPE_INT || from.kind != DIF_TYPE_INT || to.size == 8)
        return;
    if (to.size < from.size || to.sign != from.sign || from.size == 8)
        cg_emit(g, DIF_INSTR(to.sign ? DIF_SEXT : DIF_ZEXT, r, to.size, r));
}

int cg_const_value(struct dnode *n, int64_t *v)
{
    int64_t a, b;
    switch (n->kind) {
    case N_INT:
        *v = n->ival;
        return 1;
    case N_UN:
        if (!cg_const_value(n->a, &a))
            return 0;
        *v = n->op == T_MINUS ? (int64_t)(0 - (uint64_t)a) : n->op == T_TILDE ? ~a
             : n->op == T_NOT ? !a : a;
        return 1;
    case N_CAST:
        return cg_const_value(n->a, v);
    case N_BIN:
        if (!cg_const_value(n->a, &a) || !cg_const_value(n->b, &b))
            return 0;
        switch (n->op) {
        case T_PLUS: *v = (int64_t)((uint64_t)a + (uint64_t)b); return 1;
        case T_MINUS: *v = (int64_t)((uint64_t)a - (uint64_t)b); return 1;
        case T_STAR: *v = (int64_t)((uint64_t)a * (uint64_t)b); return 1;
        case T_SLASH: case T_PERCENT:
            if (b == 0 || (b == -1 && a == INT64_MIN))
                return 0;
            *v = n->op == T_SLASH ? a / b : a % b;
            return 1;
        case T_SHL: *v = (int64_t)((uint64_t)a << (b & 63)); return 1;
        case T_SHR: *v = a >> (b & 63); return 1;
        case T_AMP: *v = a & b; return 1;
        case T_BAR: *v = a | b; return 1;
        case T_CARET: *v = a ^ b; return 1;
        default: return 0;
        }
    default:
        return 0;
    }
}

/* cg_is_scalar: an integer or a pointer (libdtrace's dt_node_is_scalar) */
int cg_is_scalar(struct dtype t)
{
    return t.kind == DIF_TYPE_INT;
}
