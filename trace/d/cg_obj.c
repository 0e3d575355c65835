// SPDX-License-Identifier: MIT
// Objects in D memory: struct and union variables, declared arrays, members and what pointers
// point to. An expression that denotes one has an address (cg_addr_of); loads and stores
// convert to and from the object's type (bit-fields masked and merged), structs are copied.
#include "cg_impl.h"

static int index_is_subscript(struct cg *g, const struct dnode *n);

/* cg_mem_sym: the D-memory variable n names (a global or this->), or NULL. */
struct sym *cg_mem_sym(struct cg *g, const struct dnode *n)
{
    struct sym *s = NULL;
    if (n->kind == N_IDENT || n->kind == N_INDEX)
        s = cg_sym_find(g, n->s, DIF_SCOPE_GLOBAL);
    else if (n->kind == N_THIS)
        s = cg_sym_find(g, n->s, DIF_SCOPE_THIS);
    return s && s->mem && s->scope != DIF_SCOPE_ARRAY ? s : NULL;
}

/* assoc_sou: the struct-valued associative array n indexes (a[k] of `struct s a[int]`),
 * or NULL. Its element is an object in D memory: the VM's DIF_LDGA gives its address. */
static struct sym *assoc_sou(struct cg *g, const struct dnode *n)
{
    struct sym *s = n->kind == N_INDEX ? cg_sym_find(g, n->s, DIF_SCOPE_ARRAY) : NULL;
    return s && s->mem && s->scope == DIF_SCOPE_ARRAY ? s : NULL;
}

/* cg_is_obj: does n denote an object in memory (so that it has an address)? */
int cg_is_obj(struct cg *g, const struct dnode *n)
{
    struct xbind *out, *b = n->kind == N_IDENT ? cg_xb_find(g, n->s, &out) : NULL;
    if (b) { /* a translator's parameter */
        struct xbind *save = g->xb;
        g->xb = out;
        int yes = cg_is_obj(g, b->arg);
        g->xb = save;
        return yes;
    }
    if (n->kind == N_CAST && n->type.kind == DT_SOU && !n->type.ptr)
        return cg_is_obj(g, n->a); /* (struct s)e: e itself, if it is one */
    switch (n->kind) {
    case N_MEMBER: case N_DEREF: case N_SUBSCR:
        return 1;
    case N_IDENT: case N_THIS:
        return cg_mem_sym(g, n) != NULL;
    case N_INDEX: {
        struct sym *s = cg_mem_sym(g, n);
        return (s && s->isarr) || index_is_subscript(g, n) || assoc_sou(g, n);
    }
    default:
        return 0;
    }
}

/* index_is_subscript: p[i] on a pointer variable p, which the parser read as an associative
 * array (it cannot tell): a subscript when p is a declared or assigned scalar global. */
static int index_is_subscript(struct cg *g, const struct dnode *n)
{
    if (n->kind != N_INDEX || n->op == 1 || !n->b || n->b->next)
        return 0;
    struct sym *s = cg_sym_find(g, n->s, DIF_SCOPE_GLOBAL);
    return s && s->defined && s->scope == DIF_SCOPE_GLOBAL && !s->mem;
}

/* cg_fix_index: rewrites such an n into the subscript it is. */
void cg_fix_index(struct cg *g, struct dnode *n)
{
    if (!index_is_subscript(g, n))
        return;
    struct dnode *base = dcc_alloc(g->cc, sizeof(*base));
    base->kind = N_IDENT;
    base->line = n->line;
    base->s = n->s;
    n->kind = N_SUBSCR;
    n->a = base;
}

unsigned cg_elem_size(struct cg *g, struct dtype t, int line)
{
    unsigned sz = dcc_type_size(g->cc, t);
    if (!sz)
        dcc_error(g->cc, line, "D_OP_INCOMPLETE", "cannot use an incomplete type as an "
                  "array or pointer element");
    return sz;
}

/* cg_add_const: r += k */
void cg_add_const(struct cg *g, unsigned r, uint64_t k)
{
    if (!k)
        return;
    unsigned rk = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, k), rk));
    cg_emit(g, DIF_INSTR(DIF_ADD, r, rk, r));
    cg_reg_free(g, rk);
}

/* load_obj: turns r, the address of object o, into its value (of type *t): integers and
 * pointers are loaded (bit-fields masked and extended); an array decays to a pointer to its
 * first element; structs, unions and strings stay by reference. */
static void load_obj(struct cg *g, unsigned r, const struct obj *o, struct dtype *t)
{
    if (o->isarr) {
        *t = dcc_ptr_to(o->t);
        return;
    }
    *t = o->t;
    if (o->t.kind != DIF_TYPE_INT)
        return;
    unsigned size = o->t.size, sign = o->t.sign;
    if (o->bits)
        size = o->bits <= 8 ? 1 : o->bits <= 16 ? 2 : o->bits <= 32 ? 4 : 8;
    static const uint8_t lds[9] = { 0, DIF_LDSB, DIF_LDSH, 0, DIF_LDSW, 0, 0, 0, DIF_LDX };
    static const uint8_t ldu[9] = { 0, DIF_LDUB, DIF_LDUH, 0, DIF_LDUW, 0, 0, 0, DIF_LDX };
    cg_emit(g, DIF_INSTR(sign ? lds[size] : ldu[size], r, 0, r));
    if (o->bits && o->bits < 64) { /* the low bits hold the field (its storage unit's start) */
        unsigned rk = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, 64u - o->bits), rk));
        cg_emit(g, DIF_INSTR(DIF_SLL, r, rk, r));
        cg_emit(g, DIF_INSTR(sign ? DIF_SRA : DIF_SRL, r, rk, r));
        cg_reg_free(g, rk);
    }
}

/* cg_store_obj: *ra = rv (of type tv), converted to the object's type. */
void cg_store_obj(struct cg *g, unsigned ra, const struct obj *o, unsigned rv,
                  struct dtype tv, int line)
{
    if (o->isarr)
        dcc_error(g->cc, line, "D_OP_ARRFUN", "operator = may not be applied to operand of "
                  "array type");
    if (o->t.kind == DIF_TYPE_STR && tv.kind == DIF_TYPE_STR && !o->bits) {
        /* a string member: the engine copies it, NUL-padded, into the member's strsize
         * bytes (DIF_S_COPYS, checked as a DIF_ST* of all of them) */
        unsigned rd = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR(DIF_PUSHT, ra, DIF_TYPE_INT, 0));
        cg_emit(g, DIF_INSTR(DIF_PUSHT, rv, DIF_TYPE_STR, 0));
        cg_emit(g, DIF_INSTR_IDX(DIF_CALL, DIF_S_COPYS, rd));
        cg_reg_free(g, rd);
        return;
    }
    if (o->t.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, o->t.kind == DIF_TYPE_STR ? "D_OP_INCOMPAT" : "D_UNSUPPORTED",
                  o->t.kind == DIF_TYPE_STR ? "operands have incompatible types: string member "
                  "assigned a non-string" : "assignment to %s is not supported in this D subset",
                  o->t.kind == DT_FLOAT ? "a floating-point object" : "a whole struct or union");
    if (tv.kind != DIF_TYPE_INT)
        dcc_error(g->cc, line, "D_OP_INCOMPAT", "operands have incompatible types: integer "
                  "object assigned a %s", tv.kind == DIF_TYPE_STR ? "string" : "non-scalar");
    cg_convert(g, rv, tv, o->t);
    static const uint8_t st[9] = { 0, DIF_STB, DIF_STH, 0, DIF_STW, 0, 0, 0, DIF_STX };
    if (o->bits) { /* the field is the low bits of its storage unit: read, merge, write */
        static const uint8_t ldu[9] = { 0, DIF_LDUB, DIF_LDUH, 0, DIF_LDUW, 0, 0, 0, DIF_LDX };
        unsigned size = o->bits <= 8 ? 1 : o->bits <= 16 ? 2 : o->bits <= 32 ? 4 : 8;
        uint64_t mask = o->bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << o->bits) - 1u;
        unsigned rc = cg_reg_alloc(g), rm = cg_reg_alloc(g), rn = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR(ldu[size], ra, 0, rc));
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, ~mask), rm));
        cg_emit(g, DIF_INSTR(DIF_AND, rc, rm, rc));
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, mask), rm));
        cg_emit(g, DIF_INSTR(DIF_AND, rv, rm, rn));
        cg_emit(g, DIF_INSTR(DIF_OR, rc, rn, rc));
        cg_emit(g, DIF_INSTR(st[size], rc, 0, ra));
        cg_reg_free(g, rn);
        cg_reg_free(g, rm);
        cg_reg_free(g, rc);
        return;
    }
    cg_emit(g, DIF_INSTR(st[o->t.size], rv, 0, ra));
}

/* subscript: the address of base[idx]: an element of a declared array (a constant index out
 * of its bounds is D_ARR_BOUNDS; a variable one makes the address 0 when out of bounds, so
 * that the access faults, as a bad address, to ERROR) or of what a pointer points to. */
static unsigned subscript(struct cg *g, struct dnode *base, struct dnode *idx, struct obj *o,
                          int line)
{
    struct dtype t, ti;
    struct obj b = { 0 };
    unsigned r;
    uint32_t bound = 0;
    if (base->kind == N_THIS && !cg_mem_sym(g, base) && !cg_sym_find(g, base->s, DIF_SCOPE_THIS))
        dcc_error(g->cc, line, "D_ARR_LOCAL", "local variables may not be used as "
                  "associative arrays: %s", base->s);
    if (cg_is_obj(g, base)) {
        r = cg_addr_of(g, base, &b);
        if (b.isarr) {
            t = dcc_ptr_to(b.t);
            bound = b.nelem;
        } else {
            load_obj(g, r, &b, &t);
        }
    } else {
        r = cg_expr(g, base, &t);
    }
    if (!t.ptr)
        dcc_error(g->cc, line, "D_OP_PTR", "operator [ ] may only be used with an array or "
                  "pointer");
    struct dtype et = dcc_deref(t);
    int64_t cv;
    /* &a[N], one past the end, is an address C and D allow */
    if (bound && cg_const_value(idx, &cv) &&
        (cv < 0 || (uint64_t)cv > bound || ((uint64_t)cv == bound && !g->addrof)))
        dcc_error(g->cc, line, "D_ARR_BOUNDS", "index %d is out of range for array of %d "
                  "elements", (int)cv, (int)bound);
    unsigned ri = cg_expr(g, idx, &ti);
    cg_need_int(g, ti, line, "[ ]");
    cg_convert(g, ri, ti, T_INT64);
    unsigned rs = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, cg_elem_size(g, et, line)), rs));
    cg_emit(g, DIF_INSTR(DIF_MUL, ri, rs, rs));
    cg_emit(g, DIF_INSTR(DIF_ADD, r, rs, r));
    cg_reg_free(g, rs);
    if (bound && !cg_const_value(idx, &cv)) {
        unsigned rb = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, bound), rb));
        cg_emit(g, DIF_INSTR(DIF_CMP, ri, rb, 0));
        cg_reg_free(g, rb);
        unsigned br = cg_emit(g, 0);
        cg_emit(g, DIF_INSTR(DIF_MOV, 0, 0, r));
        cg_patch(g, br, DIF_BLU);
    }
    cg_reg_free(g, ri);
    o->t = et;
    o->isarr = 0;
    o->nelem = 1;
    o->bits = 0;
    return r;
}

/* member_addr: the address of member n (a.m or p->m), in a new register; *o describes it. */
static unsigned member_addr(struct cg *g, struct dnode *n, struct obj *o)
{
    struct dtype t;
    struct obj b = { 0 };
    unsigned r;
    if (n->op == T_DOT) {
        if (!cg_is_obj(g, n->a))
            dcc_error(g->cc, n->line, "D_OP_SOU", "operator . requires an operand of "
                      "struct or union type");
        r = cg_addr_of(g, n->a, &b);
        if (b.isarr || b.t.kind != DT_SOU)
            dcc_error(g->cc, n->line, "D_OP_SOU", "operator . requires an operand of "
                      "struct or union type");
    } else {
        r = cg_expr(g, n->a, &t);
        if (!t.ptr)
            dcc_error(g->cc, n->line, "D_OP_PTR", "operator -> requires an operand of "
                      "pointer type");
        if (t.ptr != 1 || t.pkind != DT_SOU)
            dcc_error(g->cc, n->line, "D_OP_SOU", "operator -> cannot be applied to a "
                      "pointer to a type other than a struct or union");
        b.t = dcc_deref(t);
    }
    struct dsou *s = dcc_sou(g->cc, b.t);
    if (!s->complete)
        dcc_error(g->cc, n->line, "D_OP_INCOMPLETE", "operator %s cannot be applied to "
                  "a forward declaration: no %s definition is available",
                  n->op == T_DOT ? "." : "->", dcc_sou_kind(s));
    struct dmember *m = dcc_member_find(s, n->s);
    if (!m)
        dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "%s is not a member of %s %s", n->s,
                  dcc_sou_kind(s), s->tag ? s->tag : "(anon)");
    cg_add_const(g, r, m->off);
    o->t = m->type;
    o->isarr = m->isarr;
    o->nelem = m->nelem;
    o->bits = m->bits;
    return r;
}

/* cg_addr_of: the address of the object n denotes, in a new register; *o describes it. */
unsigned cg_addr_of(struct cg *g, struct dnode *n, struct obj *o)
{
    cg_fix_index(g, n);
    struct dtype t;
    unsigned r;
    g->line = n->line;
    struct xbind *xout, *xb = n->kind == N_IDENT ? cg_xb_find(g, n->s, &xout) : NULL;
    if (xb) { /* a translator's parameter */
        struct xbind *save = g->xb;
        g->xb = xout;
        r = cg_addr_of(g, xb->arg, o);
        g->xb = save;
        if (o->isarr || o->t.kind != xb->type.kind || o->t.sou != xb->type.sou)
            dcc_error(g->cc, n->line, "D_XLATE_INCOMPAT", "xlate operand is incompatible "
                      "with the translator's input %s", n->s);
        return r;
    }
    if (n->kind == N_CAST && n->type.kind == DT_SOU && !n->type.ptr) {
        r = cg_addr_of(g, n->a, o); /* a struct cast to its own type, as libdtrace allows */
        if (o->isarr || o->t.kind != DT_SOU || o->t.sou != n->type.sou)
            dcc_error(g->cc, n->line, "D_CAST_INVAL", "invalid cast expression");
        return r;
    }
    switch (n->kind) {
    case N_IDENT: case N_THIS: {
        struct sym *s = cg_mem_sym(g, n);
        if (!s)
            dcc_error(g->cc, n->line, "D_ADDROF_VAR", "cannot take address of dynamic "
                      "variable");
        r = cg_reg_alloc(g);
        cg_emit(g, DIF_INSTR_IDX(n->kind == N_THIS ? DIF_LDTV : DIF_LDGV, cg_sym_id(g, s), r));
        o->t = s->type;
        o->isarr = s->isarr;
        o->nelem = s->isarr ? s->nelem : 1;
        o->bits = 0;
        return r;
    }
    case N_INDEX: {
        struct sym *as = assoc_sou(g, n);
        if (as) { /* the element's address (created zeroed if missing: vm.c var_load) */
            cg_lvalue(g, n, NULL); /* pushes the keys, checks them against the prototype */
            r = cg_reg_alloc(g);
            cg_emit(g, DIF_INSTR_IDX(DIF_LDGA, cg_sym_id(g, as), r));
            o->t = as->type;
            o->isarr = 0;
            o->nelem = 1;
            o->bits = 0;
            return r;
        }
        struct dnode base = { .kind = N_IDENT, .line = n->line, .s = n->s };
        if (n->b->next)
            dcc_error(g->cc, n->line, "D_ARR_BADREF", "too many subscripts for array %s", n->s);
        return subscript(g, &base, n->b, o, n->line);
    }
    case N_SUBSCR:
        return subscript(g, n->a, n->b, o, n->line);
    case N_MEMBER:
        return member_addr(g, n, o);
    case N_DEREF:
        r = cg_expr(g, n->a, &t);
        if (!t.ptr)
            dcc_error(g->cc, n->line, "D_DEREF_NONPTR", "cannot dereference non-pointer type");
        o->t = dcc_deref(t);
        if (o->t.kind == DT_NONE)
            dcc_error(g->cc, n->line, "D_DEREF_VOID", "cannot dereference pointer to void");
        o->isarr = 0;
        o->nelem = 1;
        o->bits = 0;
        return r;
    default:
        dcc_error(g->cc, n->line, "D_ADDROF_LVAL", "cannot take address of a non-lvalue");
    }
}

/* cg_sou_dest: the address of the object an assignment of a struct or union of type t writes
 * (declaring the variable when this is its first assignment). */
unsigned cg_sou_dest(struct cg *g, struct dnode *n, struct dtype t)
{
    struct dnode *l = n->a;
    struct obj o = { 0 };
    unsigned rd;
    if (n->op != T_ASSIGN)
        dcc_error(g->cc, n->line, "D_OP_ARITH", "operator %s requires operands of arithmetic "
                  "type", dcc_tokname(n->op));
    if (!cg_is_obj(g, l) && (l->kind == N_IDENT || l->kind == N_THIS) && !cg_builtin_find(l->s)) {
        int scope = l->kind == N_THIS ? DIF_SCOPE_THIS : DIF_SCOPE_GLOBAL;
        struct sym *s = cg_sym_find(g, l->s, scope);
        if (s && s->defined)
            dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                      "%s%s is not a struct or union", cg_scope_prefix(scope), l->s);
        if (!s)
            s = cg_sym_new(g, l->s, scope, n->line);
        s->scope = (uint8_t)scope;
        s->type = t;
        s->defined = 1;
        s->mem = 1;
    }
    if (!cg_is_obj(g, l))
        dcc_error(g->cc, n->line, l->kind == N_SELF || l->kind == N_INDEX ? "D_UNSUPPORTED"
                  : "D_OP_LVAL", "a struct or union may be assigned only to a global or this-> "
                  "variable or to a member of its type");
    rd = cg_addr_of(g, l, &o);
    if (o.isarr || o.t.kind != DT_SOU || o.t.sou != t.sou)
        dcc_error(g->cc, n->line, "D_OP_INCOMPAT", "operands have incompatible types: "
                  "struct or union assigned to another type");
    return rd;
}

/* cg_sou_assign: lhs = a struct or union value (its address in rsrc): copies its bytes into a
 * member or variable of the same type; a global or this-> variable not yet declared becomes
 * one, in D memory, as in DTrace. */
unsigned cg_sou_assign(struct cg *g, struct dnode *n, unsigned rsrc, struct dtype t)
{
    unsigned rd = cg_sou_dest(g, n, t);
    unsigned size = dcc_type_size(g->cc, t), chunk = dcc_type_align(g->cc, t);
    if (size > SOU_COPY_MAX)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "assignment of a struct or union larger "
                  "than 512 bytes is not supported");
    if (chunk > 8)
        chunk = 8;
    static const uint8_t ld[9] = { 0, DIF_LDUB, DIF_LDUH, 0, DIF_LDUW, 0, 0, 0, DIF_LDX };
    static const uint8_t st[9] = { 0, DIF_STB, DIF_STH, 0, DIF_STW, 0, 0, 0, DIF_STX };
    unsigned rv = cg_reg_alloc(g), rs = cg_reg_alloc(g), rt = cg_reg_alloc(g);
    for (unsigned off = 0; off < size;) {
        unsigned c = chunk;
        while (c > size - off)
            c >>= 1;
        cg_emit(g, DIF_INSTR(DIF_MOV, rsrc, 0, rs));
        cg_add_const(g, rs, off);
        cg_emit(g, DIF_INSTR(ld[c], rs, 0, rv));
        cg_emit(g, DIF_INSTR(DIF_MOV, rd, 0, rt));
        cg_add_const(g, rt, off);
        cg_emit(g, DIF_INSTR(st[c], rv, 0, rt));
        off += c;
    }
    cg_reg_free(g, rt);
    cg_reg_free(g, rs);
    cg_reg_free(g, rv);
    cg_reg_free(g, rd);
    return rsrc;
}

unsigned cg_obj_rvalue(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct obj o;
    unsigned r = cg_addr_of(g, n, &o);
    if (o.t.kind == DT_FLOAT && !o.isarr && n == g->float_node && o.t.size != 16) {
        cg_emit(g, DIF_INSTR(o.t.size == 4 ? DIF_LDUW : DIF_LDX, r, 0, r)); /* its bits */
        *t = o.t;
        return r;
    }
    if (o.t.kind == DT_FLOAT && !o.isarr)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "floating-point values are not supported "
                  "in this D subset%s", n == g->float_node ? " (a long double: its layout is "
                  "each target's own)" : " (printf( ) prints a float or double as such)");
    load_obj(g, r, &o, t);
    return r;
}

/* cg_obj_incdec: ++ and -- on an object (a pointer steps by its element's size). */
unsigned cg_obj_incdec(struct cg *g, struct dnode *n, struct dtype *t)
{
    int post = n->kind == N_POSTINC || n->kind == N_POSTDEC;
    int inc = n->kind == N_POSTINC || n->kind == N_PREINC;
    struct obj o;
    unsigned ra = cg_addr_of(g, n->a, &o);
    unsigned r = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR(DIF_MOV, ra, 0, r));
    load_obj(g, r, &o, t);
    cg_need_int(g, *t, n->line, inc ? "++" : "--");
    unsigned one = cg_reg_alloc(g);
    uint64_t step = t->ptr ? cg_elem_size(g, dcc_deref(*t), n->line) : 1;
    cg_emit(g, DIF_INSTR_IDX(DIF_SETX, cg_intern_int(g, step), one));
    unsigned nv = cg_reg_alloc(g);
    cg_emit(g, DIF_INSTR(inc ? DIF_ADD : DIF_SUB, r, one, nv));
    cg_store_obj(g, ra, &o, nv, *t, n->line);
    if (!post)
        cg_emit(g, DIF_INSTR(DIF_MOV, nv, 0, r));
    cg_reg_free(g, nv);
    cg_reg_free(g, one);
    cg_emit(g, DIF_INSTR(DIF_MOV, r, 0, ra));
    cg_reg_free(g, r);
    return ra;
}
