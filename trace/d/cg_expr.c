// SPDX-License-Identifier: MIT
// Expressions: the binary and unary operators (with &&, || and ^^ short-circuit), comparisons,
// ?:, and cg_expr, the dispatch on a node's kind that every construct's code calls. Recursion
// is bounded (256 levels) so that the compiler's stack stays small on a board.
#include "cg_impl.h"

static unsigned unop(struct cg *g, struct dnode *n, struct dtype *t);
static unsigned ternary(struct cg *g, struct dnode *n, struct dtype *t);
__attribute__((noinline)) static unsigned expr_(struct cg *g, struct dnode *n, struct dtype *t);

static unsigned bool_result(struct cg *g, unsigned brop)
{
    /* after a compare: rd = condition ? 1 : 0 */
    unsigned rd = cg_reg_alloc(g);
    unsigned b = cg_emit(g, 0);
    cg_emit(g, DIF_INSTR(DIF_MOV, 0, 0, rd));
    unsigned j = cg_emit(g, 0);
    cg_patch(g, b, brop);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 1), rd));
    cg_patch(g, j, DIF_BA);
    return rd;
}

/* compare: emits the compare of ra and rb (types ta, tb) for operator n->op, frees both and
 * returns the branch opcode taken when the comparison holds. */
unsigned cg_compare(struct cg *g, struct dnode *n, unsigned ra, struct dtype ta,
                    unsigned rb, struct dtype tb)
{
    int op = n->op;
    int str = ta.kind == DIF_TYPE_STR;
    int64_t zero;
    /* a string against NULL: this subset has no null string pointer, the empty string
     * stands for it (what strchr/strstr give when they find nothing, what NULL assigns) */
    if (str && tb.kind == DIF_TYPE_INT && !tb.ptr && cg_const_value(n->b, &zero) && !zero) {
        cg_emit(g, DIF_INSTR_IDX(DIF_SETS, 0, rb));
        tb = T_STRING;
    } else if (tb.kind == DIF_TYPE_STR && ta.kind == DIF_TYPE_INT && cg_const_value(n->a, &zero) &&
               !zero) {
        cg_emit(g, DIF_INSTR_IDX(DIF_SETS, 0, ra));
        ta = T_STRING;
        str = 1;
    }
    if (ta.kind != tb.kind)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                  "\"%s\" %s \"%s\"", str ? "string" : "int", dcc_tokname(op),
                  str ? "int" : "string");
    int uns = !str && !cg_arith(ta, tb).sign;
    cg_emit(g, DIF_INSTR(str ? DIF_SCMP : DIF_CMP, ra, rb, 0));
    cg_reg_free(g, rb);
    cg_reg_free(g, ra);
    switch (op) {
    case T_LT: return uns ? DIF_BLU : DIF_BL;
    case T_GT: return uns ? DIF_BGU : DIF_BG;
    case T_LE: return uns ? DIF_BLEU : DIF_BLE;
    case T_GE: return uns ? DIF_BGEU : DIF_BGE;
    case T_EQ: return DIF_BE;
    default: return DIF_BNE;
    }
}

/* logic_operands: && || ^^ take operands of scalar type (checked once both are compiled,
 * as libdtrace cooks both first) */
static void logic_operands(struct cg *g, struct dnode *n, struct dtype ta, struct dtype tb)
{
    if (!cg_is_scalar(ta) || !cg_is_scalar(tb))
        dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator %s requires operands of scalar "
                  "type", dcc_tokname(n->op));
}

/* logic_andor: a && b or a || b, b evaluated only when a does not decide; 0 or 1 */
static unsigned logic_andor(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct dtype ta, tb;
    int op = n->op;
    unsigned ra = cg_expr(g, n->a, &ta);
    cg_emit(g, DIF_INSTR(DIF_TST, ra, 0, 0));
    unsigned rd = ra; /* the left operand's register holds the result: a chain of
                       * || or && needs two registers, not one per operator */
    cg_emit(g, DIF_INSTR(DIF_MOV, 0, 0, rd));
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, op == T_LOR), rd));
    unsigned b1 = cg_emit(g, 0);
    unsigned rb = cg_expr(g, n->b, &tb);
    logic_operands(g, n, ta, tb);
    cg_emit(g, DIF_INSTR(DIF_TST, rb, 0, 0));
    cg_reg_free(g, rb);
    cg_emit(g, DIF_INSTR(DIF_MOV, 0, 0, rd));
    unsigned b2 = cg_emit(g, 0);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 1), rd));
    cg_patch(g, b2, DIF_BE);
    cg_patch(g, b1, op == T_LOR ? DIF_BNE : DIF_BE);
    *t = T_INT32;
    return rd;
}

/* ptr_arith: a pointer plus or minus an integer (in elements), or a difference of pointers
 * (counting elements), of the operands in registers ra and rb */
static unsigned ptr_arith(struct cg *g, struct dnode *n, unsigned ra, struct dtype ta,
                          unsigned rb, struct dtype tb, struct dtype *t)
{
    int op = n->op;
    /* pointer arithmetic: in elements; a difference of pointers counts elements */
    /* as libdtrace: a void * (or function pointer) does no arithmetic */
    if ((ta.ptr == 1 && ta.pkind == DT_NONE) || (tb.ptr == 1 && tb.pkind == DT_NONE))
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                  "void * %s", dcc_tokname(op));
    if (ta.ptr && tb.ptr && op == T_PLUS)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                  "pointer + pointer");
    if (tb.ptr && op == T_MINUS && !ta.ptr)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                  "integer - pointer");
    if (tb.ptr && !ta.ptr) { /* int + ptr */
        unsigned x = ra; ra = rb; rb = x;
        struct dtype y = ta; ta = tb; tb = y;
    }
    unsigned es = cg_elem_size(g, dcc_deref(ta), n->line);
    unsigned rs = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, es), rs));
    if (tb.ptr) {
        cg_emit(g, DIF_INSTR(DIF_SUB, ra, rb, ra));
        cg_emit(g, DIF_INSTR(DIF_SDIV, ra, rs, ra));
        *t = T_INT64;
    } else {
        cg_convert(g, rb, tb, T_INT64);
        cg_emit(g, DIF_INSTR(DIF_MUL, rb, rs, rb));
        cg_emit(g, DIF_INSTR(op == T_PLUS ? DIF_ADD : DIF_SUB, ra, rb, ra));
        *t = ta;
    }
    cg_reg_free(g, rs);
    cg_reg_free(g, rb);
    return ra;
}

unsigned cg_binop(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct dtype ta, tb;
    int op = n->op;
    if (op == T_LAND || op == T_LOR)
        return logic_andor(g, n, t);
    unsigned ra = cg_expr(g, n->a, &ta);
    unsigned rb = cg_expr(g, n->b, &tb);
    if (ta.kind == DT_NONE || tb.kind == DT_NONE)
        dcc_error(g->cc, n->line, "D_OP_VOID", "operator %s requires operands with values",
                  dcc_tokname(op));
    if (op == T_LXOR) {
        logic_operands(g, n, ta, tb);
        cg_emit(g, DIF_INSTR(DIF_TST, ra, 0, 0));
        unsigned x = bool_result(g, DIF_BNE);
        cg_emit(g, DIF_INSTR(DIF_TST, rb, 0, 0));
        unsigned y = bool_result(g, DIF_BNE);
        cg_emit(g, DIF_INSTR(DIF_XOR, x, y, ra));
        cg_reg_free(g, y);
        cg_reg_free(g, x);
        cg_reg_free(g, rb);
        *t = T_INT32;
        return ra;
    }
    if (op >= T_LT && op <= T_NE) {
        *t = T_INT32;
        return bool_result(g, cg_compare(g, n, ra, ta, rb, tb));
    }
    cg_need_int(g, ta, n->line, dcc_tokname(op));
    cg_need_int(g, tb, n->line, dcc_tokname(op));
    if ((op == T_PLUS || op == T_MINUS) && (ta.ptr || tb.ptr))
        return ptr_arith(g, n, ra, ta, rb, tb, t);
    struct dtype rt = cg_arith(ta, tb);
    if (op == T_SHL || op == T_SHR)
        rt = cg_promote(ta);
    unsigned o;
    int64_t cv;
    switch (op) {
    case T_PLUS: o = DIF_ADD; break;
    case T_MINUS: o = DIF_SUB; break;
    case T_STAR: o = DIF_MUL; break;
    case T_SLASH: case T_PERCENT:
        if (cg_const_value(n->b, &cv) && cv == 0)
            dcc_error(g->cc, n->line, "D_DIV_ZERO", "expression contains %s by zero",
                      op == T_SLASH ? "division" : "modulus");
        o = op == T_SLASH ? (rt.sign ? DIF_SDIV : DIF_UDIV) : (rt.sign ? DIF_SREM : DIF_UREM);
        break;
    case T_SHL: o = DIF_SLL; break;
    case T_SHR: o = rt.sign ? DIF_SRA : DIF_SRL; break;
    case T_AMP: o = DIF_AND; break;
    case T_BAR: o = DIF_OR; break;
    case T_CARET: o = DIF_XOR; break;
    default:
        dcc_error(g->cc, n->line, "D_SYNTAX", "unexpected operator");
    }
    /* as libdtrace's dt_cg: the 64-bit result stays as it is; a value narrower than 64 bits
     * is cut to its size where it is recorded, stored in memory or cast */
    cg_emit(g, DIF_INSTR(o, ra, rb, ra));
    cg_reg_free(g, rb);
    *t = rt;
    return ra;
}

/* expr: code for n into a new register, its type in *t. Recursion is bounded (a long chain
 * like 1+1+...+1 nests on the left) so the compiler's stack stays small on the target. */
unsigned cg_expr(struct cg *g, struct dnode *n, struct dtype *t)
{
    if (++g->depth > 256)
        dcc_error(g->cc, n->line, "D_SYNTAX", "expression nested too deeply");
    dcc_stack_check(g->cc, n->line);
    cg_fix_index(g, n);
    int line = g->line;
    unsigned r;
    g->line = n->line;
    switch (n->kind) {
    case N_BIN: r = cg_binop(g, n, t); break;
    case N_UN: r = unop(g, n, t); break;
    case N_COND: r = ternary(g, n, t); break;
    default: r = expr_(g, n, t); break;
    }
    g->depth--;
    g->line = line; /* an error after it is its parent's, at the parent's line */
    return r;
}

/* unop: code for a unary operator's node n (-, +, !, ~). */
static unsigned unop(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r;
    if (n->op == T_MINUS && n->a->kind == N_INT) { /* a negative literal: one setx */
        r = cg_reg_alloc(g);
        *t = cg_promote(n->a->type);
        uint64_t v = 0 - (uint64_t)n->a->ival;
        if (t->size == 4)
            v = t->sign ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, v), r));
        return r;
    }
    r = cg_expr(g, n->a, t);
    if ((n->op == T_MINUS || n->op == T_PLUS) && (t->kind != DIF_TYPE_INT || t->ptr))
        dcc_error(g->cc, n->line, "D_OP_ARITH", "operator %s requires an operand of "
                  "arithmetic type", dcc_tokname(n->op));
    if (n->op == T_NOT) {
        if (!cg_is_scalar(*t))
            dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator ! requires an operand of "
                      "scalar type");
        cg_emit(g, DIF_INSTR(DIF_TST, r, 0, 0));
        cg_reg_free(g, r);
        *t = T_INT32;
        return bool_result(g, DIF_BE);
    }
    cg_need_int(g, *t, n->line, dcc_tokname(n->op));
    *t = cg_promote(*t);
    if (n->op == T_MINUS)
        cg_emit(g, DIF_INSTR(DIF_SUB, 0, r, r));
    else if (n->op == T_TILDE)
        cg_emit(g, DIF_INSTR(DIF_NOT, r, 0, r));
    return r;
}

/* ternary: code for a ?: node n. */
static unsigned ternary(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r, r2;
    struct dtype t2;
    /* libdtrace's order: the three operands, then the condition's type, then the
     * branches' (an action is no value) */
    /* as libdtrace's dt_cg_ternary_op: the left arm's register is free again before the
     * right arm, whose register is the result (the left arm's move into it is written
     * once that register is known), so a chain of ?: in the right arms costs no more
     * registers than one */
    unsigned rc = cg_expr(g, n->a, &t2);
    struct dtype tc = t2;
    cg_emit(g, DIF_INSTR(DIF_TST, rc, 0, 0));
    cg_reg_free(g, rc);
    unsigned b = cg_emit(g, 0);
    r2 = cg_expr(g, n->b, t);
    unsigned mov = cg_emit(g, 0);
    cg_reg_free(g, r2);
    unsigned j = cg_emit(g, 0);
    cg_patch(g, b, DIF_BE);
    r = cg_expr(g, n->c, &t2);
    g->insns[g->start + mov] = DIF_INSTR(DIF_MOV, r2, 0, r);
    cg_patch(g, j, DIF_BA);
    g->line = n->line;
    if (!cg_is_scalar(tc))
        dcc_error(g->cc, n->line, "D_OP_SCALAR", "operator ?: expression must be of scalar "
                  "type");
    if (cg_is_action_call(n->b) || cg_is_action_call(n->c))
        dcc_error(g->cc, n->line, "D_OP_ACT", "action cannot be used in a conditional "
                  "context");
    if (t->kind != t2.kind)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "?: operands must have compatible types");
    if (t->kind == DIF_TYPE_INT)
        *t = cg_arith(*t, t2);
    return r;
}

/* ident_value: an identifier's value: a translator's parameter, a system name, a kernel
 * variable, one of the names the engine computes (caller, stackdepth...), a built-in
 * variable or constant, curthread, an object or a D variable */
static unsigned ident_value(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r;
    struct xbind *xout, *xbp = cg_xb_find(g, n->s, &xout);
    if (xbp && xbp->type.kind == DT_SOU && !xbp->type.ptr)
        return cg_obj_rvalue(g, n, t); /* a struct parameter: the object the operand is */
    if (xbp) { /* a translator's parameter */
        struct xbind *b = xbp, *save = g->xb;
        g->xb = xout; /* the operand is in the scope of the xlate */
        r = cg_expr(g, b->arg, t);
        g->xb = save;
        if ((t->kind == DIF_TYPE_STR) != (b->type.kind == DIF_TYPE_STR) ||
            t->kind == DT_SOU || t->kind == DT_NONE)
            dcc_error(g->cc, n->line, "D_XLATE_INCOMPAT", "xlate operand is incompatible "
                      "with the translator's input %s", n->s);
        if (b->type.kind == DIF_TYPE_INT)
            cg_convert(g, r, *t, b->type);
        *t = b->type;
        return r;
    }
    if (cg_is_uname(n, NULL)) /* `architecture, `platform: the system's names */
        return cg_uname(g, n, NULL, t);
    if (strchr(n->s, '`')) /* a kernel variable: its value is kernel memory */
        return cg_kernel_variable(g, n, t);
    if (!strcmp(n->s, "zonename") && !cg_sym_find(g, n->s, DIF_SCOPE_GLOBAL)) {
        /* one zone: Solaris names it "global" on a system without zones */
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETS, cg_intern_str(g, "global"), r));
        *t = T_STRING;
        return r;
    }
    if ((!strcmp(n->s, "caller") || !strcmp(n->s, "ucaller")) &&
        !cg_sym_find(g, n->s, DIF_SCOPE_GLOBAL)) { /* the engine's (d/dif.h DIF_S_CALLER) */
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, n->s[0] == 'u'), r));
        cg_emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
        cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_CALLER, r));
        *t = T_UINT64;
        return r;
    }
    if ((!strcmp(n->s, "stackdepth") || !strcmp(n->s, "ustackdepth")) &&
        !cg_sym_find(g, n->s, DIF_SCOPE_GLOBAL)) { /* the engine unwinds (d/dstacks.h) */
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, n->s[0] == 'u'), r));
        cg_emit(g, DIF_INSTR(DIF_PUSHT, r, DIF_TYPE_INT, 0));
        cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_STACKDEPTH, r));
        *t = T_UINT32;
        return r;
    }
    const struct builtin *b = cg_builtin_find(n->s);
    if (b) {
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_BUILTIN, b->id, r));
        *t = b->type;
        return r;
    }
    const struct dcc_procmember *k = dcc_builtin_const(n->s);
    if (k && !cg_sym_find(g, n->s, DIF_SCOPE_GLOBAL)) {
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, k->val), r));
        *t = k->type;
        return r;
    }
    const char *tn;
    if (dcc_procinfo(n->s, &tn) && !cg_sym_find(g, n->s, DIF_SCOPE_GLOBAL))
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "%s is supported only as the operand of "
                  "-> (a %s member)", n->s, tn);
    if (cg_is_curthread(g, n))
        return cg_curthread(g, n, t);
    if (cg_is_obj(g, n))
        return cg_obj_rvalue(g, n, t);
    return cg_load_var(g, n, t, NULL);
}

/* addrof_value: &e: a kernel symbol's address, or an element's or a member's; as libdtrace, a
 * variable (of any type, arrays and structs too) or an aggregation has none */
static unsigned addrof_value(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r;
    struct obj o;
    if (n->a->kind == N_IDENT && strchr(n->a->s, '`')) { /* &`sym: the symbol's address */
        uint64_t addr = cg_kernel_symbol(g, n->a);
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, addr), r));
        *t = dcc_ptr_to((struct dtype){ .kind = DT_NONE });
        return r;
    }
    cg_fix_index(g, n->a);
    /* as libdtrace: a variable (of any type, arrays and structs too) or an aggregation
     * has no address; an element or a member of one has */
    struct sym *ms = n->a->kind == N_INDEX ? cg_mem_sym(g, n->a) : NULL;
    if (n->a->kind == N_IDENT || n->a->kind == N_THIS || n->a->kind == N_SELF ||
        (n->a->kind == N_INDEX && !(ms && ms->isarr)) || n->a->kind == N_AGG)
        dcc_error(g->cc, n->line, "D_ADDROF_VAR", "cannot take address of dynamic "
                  "variable");
    if (!cg_is_obj(g, n->a))
        dcc_error(g->cc, n->line, "D_ADDROF_LVAL", "unacceptable operand for unary & "
                  "operator");
    g->addrof++;
    r = cg_addr_of(g, n->a, &o);
    g->addrof--;
    if (o.bits)
        dcc_error(g->cc, n->line, "D_ADDROF_BITFIELD", "cannot take address of bit-field");
    *t = dcc_ptr_to(o.t);
    return r;
}

/* cast_value: (type)e: a struct to its own type, (void)e, between pointers and integers (the
 * same 64-bit value), or an integer narrowed and extended */
static unsigned cast_value(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r;
    struct dtype t2;
    if (n->type.kind == DT_FLOAT)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "floating-point values are not "
                  "supported in this D subset");
    if (n->type.kind == DT_SOU && !n->type.ptr && cg_is_obj(g, n->a))
        return cg_obj_rvalue(g, n, t);
    if (n->type.kind == DT_SOU)
        dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
    r = cg_expr(g, n->a, &t2);
    if (n->type.kind == DT_NONE && !n->type.ptr) { /* (void)e: evaluated, no value */
        *t = n->type;
        return r;
    }
    if (n->type.ptr) { /* between pointers and integers: the same 64-bit value */
        if (t2.kind != DIF_TYPE_INT)
            dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
        *t = n->type;
        return r;
    }
    if (n->type.kind == DIF_TYPE_STR || t2.kind != DIF_TYPE_INT)
        dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
    if (n->type.size < 8)
        cg_emit(g, DIF_INSTR(n->type.sign ? DIF_SEXT : DIF_ZEXT, r, n->type.size, r));
    *t = n->type;
    return r;
}

/* sizeof_value: sizeof e or sizeof(type), as a constant; e's code is compiled to learn its
 * type, then dropped */
static unsigned sizeof_value(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r;
    struct dtype t2;
    uint64_t sz;
    if (n->a && n->a->kind == N_STR) {
        sz = (uint64_t)n->a->ival + 1; /* a string constant's own bytes, as libdtrace */
    } else if (n->a && cg_is_obj(g, n->a)) {
        struct obj o;
        unsigned save = g->ninsns;
        uint16_t regs = g->regs;
        cg_reg_free(g, cg_addr_of(g, n->a, &o));
        g->ninsns = save;
        g->regs = regs;
        if (o.bits)
            dcc_error(g->cc, n->line, "D_SIZEOF_BITFIELD", "cannot apply sizeof to a "
                      "bit-field");
        sz = (uint64_t)dcc_type_size(g->cc, o.t) * (o.isarr ? o.nelem : 1);
    } else if (n->a) {
        unsigned save = g->ninsns;
        uint16_t regs = g->regs;
        cg_reg_free(g, cg_expr(g, n->a, &t2));
        g->ninsns = save;
        g->regs = regs;
        sz = dcc_type_size(g->cc, t2);
    } else {
        sz = dcc_type_size(g->cc, n->type);
    }
    r = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, sz), r));
    *t = T_UINT64;
    return r;
}

/* var_value: a variable's value (self->x, this->x, a[k]), or what looks like one: kernel
 * memory (`avenrun[0]), the probe's args[k], an object (an array element). */
static unsigned var_value(struct cg *g, struct dnode *n, struct dtype *t)
{
    int64_t argk;
    if (n->kind == N_INDEX && n->s && strchr(n->s, '`')) /* `avenrun[0]: kernel memory */
        return cg_kernel_element(g, n, t);
    if (cg_is_probe_args(g, n, &argk))
        return cg_probe_args(g, n, argk, t);
    if (cg_is_obj(g, n))
        return cg_obj_rvalue(g, n, t);
    return cg_load_var(g, n, t, NULL);
}

/* member_value: a member's value (a.b, p->b): of args[k], a translated struct, the kernel's
 * utsname, devnames and dev_info, curpsinfo, curlwpsinfo and curcpu, curthread, or any
 * object. */
static unsigned member_value(struct cg *g, struct dnode *n, struct dtype *t)
{
    int64_t argk;
    if (cg_is_probe_args(g, n->a, &argk))
        return cg_probe_args(g, n, argk, t);
    if (n->a->kind == N_XLATE)
        return cg_xlate_member(g, n, t);
    if (n->op == T_DOT && cg_is_uname(n->a, n->s)) /* `utsname.sysname... */
        return cg_uname(g, n->a, n->s, t);
    if (cg_is_devnames(n)) /* `devnamesp[major].dn_name: a driver's name */
        return cg_devname(g, n, t);
    if (cg_is_devinfo_member(g, n)) /* ((struct dev_info *)line)->devi_major... */
        return cg_devinfo_member(g, n, t);
    if (n->op == T_ARROW && n->a->kind == N_IDENT && dcc_procinfo(n->a->s, &(const char *){0})
        && !cg_sym_find(g, n->a->s, DIF_SCOPE_GLOBAL))
        return cg_procinfo_member(g, n, t);
    if (cg_is_curthread(g, n))
        return cg_curthread(g, n, t);
    return cg_obj_rvalue(g, n, t);
}

/* stringof_value: stringof(x), of a string or a scalar. */
static unsigned stringof_value(struct cg *g, struct dnode *n, struct dtype *t)
{
    if (cg_is_void_call(n->a))
        dcc_error(g->cc, n->line, "D_STRINGOF_TYPE", "cannot apply stringof to a value of "
                  "type void");
    unsigned r = cg_expr(g, n->a, t);
    if (t->kind != DIF_TYPE_STR && t->kind != DIF_TYPE_INT)
        dcc_error(g->cc, n->line, "D_STRINGOF_TYPE", "stringof( ) operand must be of "
                  "scalar type");
    *t = T_STRING; /* the VM checks the string's address and bounds when it is used */
    return r;
}

/* expr_: code for any other node (expr). Not inlined into expr: its frame is large (its
 * cases' locals), and a chain of operators recurses through expr, binop, unop and ternary
 * alone. */
__attribute__((noinline)) static unsigned expr_(struct cg *g, struct dnode *n, struct dtype *t)
{
    unsigned r;
    struct dtype t2;
    g->line = n->line;
    switch (n->kind) {
    case N_INT:
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, (uint64_t)n->ival), r));
        *t = n->type;
        return r;
    case N_STR: /* as in DTrace, a literal may exceed strsize: its value is cut to it */
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETS, cg_intern_str(g, n->s), r));
        *t = T_STRING;
        return r;
    case N_IDENT:
        return ident_value(g, n, t);
    case N_SELF: case N_THIS: case N_INDEX:
        return var_value(g, n, t);
    case N_MEMBER:
        return member_value(g, n, t);
    case N_DEREF: case N_SUBSCR:
        cg_agg_mdim(g, n);
        return cg_obj_rvalue(g, n, t);
    case N_XLATE:
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "xlate is supported only as the operand "
                  "of . or -> (a translated member)");
    case N_INLARR:
        return cg_inline_array(g, n, t);
    case N_ADDROF:
        return addrof_value(g, n, t);
    case N_STRINGOF:
        return stringof_value(g, n, t);
    case N_AGG:
        if (!n->b && !cg_is_aggsym(g, n->s))
            dcc_error(g->cc, n->line, "D_IDENT_UNDEF", "failed to resolve @%s: Unknown "
                      "variable name", n->s);
        dcc_error(g->cc, n->line, "D_AGG_SCALAR", "aggregations cannot be used in expressions");
    case N_CALL:
        return cg_call(g, n, t);
    case N_PREINC: case N_PREDEC: case N_POSTINC: case N_POSTDEC:
        return cg_incdec(g, n, t);
    case N_ASSIGN:
        return cg_assignment(g, n, t);
    case N_CAST:
        return cast_value(g, n, t);
    case N_SIZEOF:
        return sizeof_value(g, n, t);
    case N_COMMA:
        cg_reg_free(g, cg_expr(g, n->a, &t2));
        return cg_expr(g, n->b, t);
    default:
        dcc_error(g->cc, n->line, "D_SYNTAX", "unexpected expression");
    }
}
