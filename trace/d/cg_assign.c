// SPDX-License-Identifier: MIT
// Assignments: `=` and the compound `op=` to variables and objects, and ++/-- of variables,
// with libdtrace's checks and messages (a variable read by op= must have been assigned).
#include "cg_impl.h"

unsigned cg_incdec(struct cg *g, struct dnode *n, struct dtype *t)
{
    cg_fix_index(g, n->a);
    if (cg_is_obj(g, n->a))
        return cg_obj_incdec(g, n, t);
    int post = n->kind == N_POSTINC || n->kind == N_POSTDEC;
    int inc = n->kind == N_POSTINC || n->kind == N_PREINC;
    struct dtype def = T_INT64; /* a new variable under ++ or -- is an int64_t, as libdtrace makes it */
    unsigned r = cg_load_var(g, n->a, t, &def);
    if (!cg_is_scalar(*t))
        dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator %s requires operand of scalar type",
                  inc ? "++" : "--");
    unsigned one = cg_reg_alloc(g);
    uint64_t step = t->ptr ? dcc_type_size(g->cc, dcc_deref(*t)) : 1;
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, step ? step : 1), one));
    unsigned nv = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR(inc ? DIF_ADD : DIF_SUB, r, one, nv));
    cg_store_var(g, n->a, nv, *t);
    if (!post)
        cg_emit(g, DIF_INSTR(DIF_MOV, nv, 0, r));
    cg_reg_free(g, nv);
    cg_reg_free(g, one);
    return r;
}

/* cg_agg_mdim: @a[0][2] (an aggregation indexed twice) is libdtrace's D_AGG_MDIM, found when
 * the left-hand side is cooked, before the right-hand side. */
void cg_agg_mdim(struct cg *g, const struct dnode *n)
{
    if (n->kind == N_SUBSCR && n->a->kind == N_AGG && n->a->b)
        dcc_error(g->cc, n->line, "D_AGG_MDIM", "improper attempt to reference @%s as a "
                  "multi-dimensional array", n->a->s);
}

/* assign_checks: what libdtrace refuses of n's left operand before its value is compiled: a
 * variable op= reads that was never assigned, an aggregation, a void call's value under op=;
 * the left operand's symbol (NULL: it names none). */
static struct sym *assign_checks(struct cg *g, struct dnode *n)
{
    struct dnode *l = n->a;
    if (n->op != T_ASSIGN && (l->kind == N_IDENT || l->kind == N_SELF || l->kind == N_THIS ||
                              l->kind == N_INDEX) &&
        !(l->kind == N_IDENT && (cg_builtin_find(l->s) || cg_xb_find(g, l->s, NULL)))) {
        /* libdtrace (dt_cook_var): x op= e reads x first; a variable never assigned is
         * D_VAR_UNDEF (x++ may create one) */
        int scope = l->kind == N_IDENT ? DIF_SCOPE_GLOBAL : l->kind == N_SELF ? DIF_SCOPE_SELF
                  : l->kind == N_THIS ? DIF_SCOPE_THIS : DIF_SCOPE_ARRAY;
        struct sym *ls = cg_sym_find(g, l->s, scope);
        if (!(ls && ls->defined) && !cg_is_obj(g, l))
            dcc_error(g->cc, n->line, "D_VAR_UNDEF", "%s%s has not yet been assigned a value",
                      cg_scope_prefix(scope), l->s);
    }
    if (n->a->kind == N_AGG)
        dcc_error(g->cc, n->line, "D_AGG_SCALAR", "aggregations may only be assigned an "
                  "aggregating function, in a statement of their own");
    int scope = n->a->kind == N_IDENT ? DIF_SCOPE_GLOBAL : n->a->kind == N_INDEX ?
                DIF_SCOPE_ARRAY : n->a->kind == N_SELF ? DIF_SCOPE_SELF : n->a->kind == N_THIS ?
                DIF_SCOPE_THIS : -1;
    struct sym *ls = scope >= 0 ? cg_sym_find(g, n->a->s, scope) : NULL;
    if (n->op != T_ASSIGN && scope >= 0 && !cg_is_obj(g, n->a) && !cg_is_builtin_name(n->a->s) &&
        (!ls || !ls->defined)) /* libdtrace cooks op='s left operand as a reference first */
        dcc_error(g->cc, n->line, "D_VAR_UNDEF", "%s%s has not yet been declared or assigned",
                  cg_scope_prefix(scope), n->a->s);
    if (n->op != T_ASSIGN && cg_is_void_call(n->b))
        dcc_error(g->cc, n->line, "D_OP_VOID", "operator %s requires operands with values",
                  dcc_tokname(n->op));
    return ls;
}

/* compound_value: x op= e's value, x op e (e's register r given back first): both integers;
 * a variable x not yet defined is defined by reading it (that code dropped). */
static unsigned compound_value(struct cg *g, struct dnode *n, unsigned r, struct dtype *t)
{
    static const uint8_t map[] = { [T_ADD_EQ - T_ASSIGN] = T_PLUS, [T_SUB_EQ - T_ASSIGN] = T_MINUS,
        [T_MUL_EQ - T_ASSIGN] = T_STAR, [T_DIV_EQ - T_ASSIGN] = T_SLASH,
        [T_MOD_EQ - T_ASSIGN] = T_PERCENT, [T_SHL_EQ - T_ASSIGN] = T_SHL,
        [T_SHR_EQ - T_ASSIGN] = T_SHR, [T_AND_EQ - T_ASSIGN] = T_AMP,
        [T_XOR_EQ - T_ASSIGN] = T_CARET, [T_OR_EQ - T_ASSIGN] = T_BAR };
    struct dnode tmp = { .kind = N_BIN, .op = map[n->op - T_ASSIGN], .line = n->line,
                         .a = n->a, .b = n->b };
    cg_reg_free(g, r);
    struct dtype lt = T_INT32;
    if (!cg_is_obj(g, n->a) && (n->a->kind != N_IDENT || !cg_builtin_find(n->a->s))) {
        struct dtype def = T_INT32;
        unsigned save = g->ninsns;
        uint16_t regs = g->regs;
        cg_reg_free(g, cg_load_var(g, n->a, &lt, &def)); /* defines it; code discarded */
        g->ninsns = save;
        g->regs = regs;
    } else {
        lt = cg_type_of(g, n->a);
    }
    if (t->kind != DIF_TYPE_INT || lt.kind != DIF_TYPE_INT)
        dcc_error(g->cc, n->line, n->op == T_ADD_EQ || n->op == T_SUB_EQ ? "D_OP_INCOMPAT"
                  : n->op == T_MUL_EQ || n->op == T_DIV_EQ ? "D_OP_ARITH" : "D_OP_INT",
                  "operator %s: operands have incompatible types", dcc_tokname(n->op));
    return cg_binop(g, &tmp, t);
}

unsigned cg_assignment(struct cg *g, struct dnode *n, struct dtype *t)
{
    cg_agg_mdim(g, n->a);
    cg_fix_index(g, n->a);
    if (n->b->kind == N_XLATE)
        return cg_xlate_assign(g, n, t);
    struct sym *ls = assign_checks(g, n);
    unsigned r = cg_expr(g, n->b, t);
    if (t->kind == DT_NONE)
        dcc_error(g->cc, n->line, "D_OP_VOID", "cannot assign a value-less expression");
    if ((n->op == T_ADD_EQ || n->op == T_SUB_EQ) && ls && ls->defined && !cg_is_obj(g, n->a) &&
        (t->ptr || ls->type.ptr) && (!ls->type.ptr || (ls->type.ptr == 1 && ls->type.pkind == DT_NONE)))
        dcc_error(g->cc, n->line, "D_OP_VFPTR", "operator %s requires left-hand scalar operand "
                  "of known size", dcc_tokname(n->op));
    int64_t zero;
    if (n->op == T_ASSIGN && t->kind == DIF_TYPE_INT && cg_const_value(n->b, &zero) && !zero &&
        cg_is_string_var(g, n->a)) { /* NULL to a string: the empty string (see compare) */
        cg_emit(g, DIF_INSTR_IDX(DIF_SETS, 0, r));
        *t = T_STRING;
    }
    if (t->kind == DT_SOU) /* r holds its address */
        return cg_sou_assign(g, n, r, *t);
    if (n->op != T_ASSIGN)
        r = compound_value(g, n, r, t);
    if (cg_is_obj(g, n->a)) {
        struct obj o;
        unsigned ra = cg_addr_of(g, n->a, &o);
        cg_store_obj(g, ra, &o, r, *t, n->line);
        cg_reg_free(g, ra);
        *t = o.t;
        return r;
    }
    int64_t cv;
    if (t->kind == DIF_TYPE_INT && !t->ptr && cg_const_value(n->b, &cv) && cv == 0 &&
        cg_is_string_var(g, n->a)) { /* s = NULL: the empty string, as NULL compares above */
        cg_emit(g, DIF_INSTR_IDX(DIF_SETS, 0, r));
        *t = T_STRING;
    }
    cg_store_var(g, n->a, r, *t);
    return r;
}
