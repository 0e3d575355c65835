// SPDX-License-Identifier: MIT
// Translators and inlines: xlate <T>(e).m compiles the translator's expression for m with its
// parameter bound to e (struct xbind), and an inline array's parameters are bound the same
// way; their definitions are checked where they stand, as libdtrace cooks them.
#include "cg_impl.h"

static unsigned xlate_value(struct cg *g, const struct dxlator *xl, struct dnode *e,
                            const struct dmember *m, const char *name, struct dtype *t,
                            int line);

/* cg_xb_find: the parameter `name` of the innermost group of binds, or NULL; *outside (may be
 * NULL) is the scope its operand compiles in. */
struct xbind *cg_xb_find(struct cg *g, const char *name, struct xbind **outside)
{
    struct xbind *b = g->xb, *hit = NULL;
    for (; b; b = b->outer) {
        if (!hit && !strcmp(b->name, name))
            hit = b;
        if (!b->more)
            break;
    }
    if (outside)
        *outside = b ? b->outer : NULL;
    return hit;
}

/* xlate_compat: a translator member's expression (of type t) must suit the member, as
 * libdtrace's assignment rules: integers from integers, pointers from pointers (or 0),
 * strings from strings; arrays and structs are not translated. */
static void xlate_compat(struct cg *g, const struct dxmember *xm, const struct dmember *m,
                         struct dtype t, struct dnode *e)
{
    int64_t zero;
    int ok = !m->isarr && m->type.kind != DT_SOU && t.kind != DT_NONE && t.kind != DT_SOU &&
             (m->type.kind == DIF_TYPE_STR) == (t.kind == DIF_TYPE_STR);
    if (ok && m->type.kind == DIF_TYPE_INT && !m->type.ptr != !t.ptr &&
        !(m->type.ptr && cg_const_value(e, &zero) && zero == 0))
        ok = 0;
    if (!ok)
        dcc_error(g->cc, xm->line, "D_XLATE_INCOMPAT", "translator member %s definition uses "
                  "incompatible types", xm->name);
}

/* xlator_find: the translator to struct/union `out` from e's type: integers to integers,
 * strings to strings, a struct to the same struct, pointers to the same type. */
static const struct dxlator *xlator_find(struct cg *g, struct dtype out, struct dnode *e)
{
    struct dtype it = cg_type_of(g, e);
    for (const struct dxlator *c = g->cc->xlators; c; c = c->next)
        if (c->dst.sou == out.sou && (c->src.kind == DIF_TYPE_STR) == (it.kind == DIF_TYPE_STR)
            && (c->src.kind != DT_SOU || c->src.sou == it.sou) && it.kind != DT_NONE &&
            !c->src.ptr == !it.ptr && (!it.ptr || (c->src.pkind == it.pkind &&
                                                   c->src.sou == it.sou)))
            return c;
    struct dsou *s = dcc_sou(g->cc, out);
    dcc_error(g->cc, e->line, "D_XLATE_NONE", "No translator to %s %s from the operand's "
              "type", dcc_sou_kind(s), s->tag ? s->tag : "(anon)");
}

/* cg_xlate_member: xlate <T>(e).m or xlate <T *>(e)->m: the translator from e's type to T
 * gives m's expression, compiled with its parameter standing for e, converted to m's type. */
unsigned cg_xlate_member(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct dnode *x = n->a;
    struct dtype out = x->type;
    if (out.kind != DT_SOU && !(out.ptr == 1 && out.pkind == DT_SOU))
        dcc_error(g->cc, n->line, "D_XLATE_SOU", "xlate to a type that is not a struct or "
                  "union");
    /* as libdtrace: the translator first (D_XLATE_NONE), then the operator's operand */
    const struct dxlator *xl = xlator_find(g, out, x->a);
    if (n->op == T_ARROW) {
        if (out.ptr != 1 || out.pkind != DT_SOU)
            dcc_error(g->cc, n->line, "D_OP_PTR", "operator -> requires an operand of pointer "
                      "to struct or union type");
        out = dcc_deref(out);
    } else if (out.ptr || out.kind != DT_SOU) {
        dcc_error(g->cc, n->line, "D_OP_SOU", "operator . requires an operand of struct or "
                  "union type");
    }
    struct dsou *s = dcc_sou(g->cc, out);
    struct dmember *m = dcc_member_find(s, n->s);
    if (!m)
        dcc_error(g->cc, n->line, "D_TYPE_MEMBER", "%s is not a member of %s %s", n->s,
                  dcc_sou_kind(s), s->tag ? s->tag : "(anon)");
    return xlate_value(g, xl, x->a, m, n->s, t, n->line);
}

static unsigned xlate_value(struct cg *g, const struct dxlator *xl, struct dnode *e,
                            const struct dmember *m, const char *name, struct dtype *t,
                            int line)
{
    const struct dxmember *xm = xl->members;
    while (xm && strcmp(xm->name, name) != 0)
        xm = xm->next;
    if (!xm)
        dcc_error(g->cc, line, "D_XLATE_NOCONV", "translator does not define conversion "
                  "for member: %s", name);
    struct xbind b = { xl->pname, e, xl->src, g->xb, 0 };
    g->xb = &b;
    unsigned r = cg_expr(g, xm->expr, t);
    g->xb = b.outer;
    xlate_compat(g, xm, m, *t, xm->expr);
    if (m->type.kind == DIF_TYPE_INT) {
        cg_convert(g, r, *t, m->type);
        *t = m->type;
    }
    return r;
}

/* cg_xlate_assign: lhs = xlate <T>(e): the object is zeroed, then each member the translator
 * defines is stored (what libdtrace's translation of a whole struct gives). */
unsigned cg_xlate_assign(struct cg *g, struct dnode *n, struct dtype *t)
{
    struct dnode *x = n->b;
    struct dtype out = x->type;
    if (out.ptr || out.kind != DT_SOU)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "xlate to a pointer is supported only as "
                  "the operand of ->");
    const struct dxlator *xl = xlator_find(g, out, x->a);
    unsigned rd = cg_sou_dest(g, n, out);
    struct dsou *s = dcc_sou(g->cc, out);
    unsigned size = dcc_type_size(g->cc, out), rt = cg_reg_alloc(g);
    if (size > SOU_COPY_MAX)
        dcc_error(g->cc, n->line, "D_UNSUPPORTED", "assignment of a struct or union larger "
                  "than 512 bytes is not supported");
    for (unsigned off = 0; off < size; off++) { /* byte stores: any alignment */
        cg_emit(g, DIF_INSTR(DIF_MOV, rd, 0, rt));
        cg_add_const(g, rt, off);
        cg_emit(g, DIF_INSTR(DIF_STB, 0, 0, rt));
    }
    for (int pass = 0; pass < 2; pass++) {
        for (const struct dmember *m = pass ? s->anon : s->members; m; m = m->next) {
            const struct dxmember *xm = xl->members;
            while (m->name && xm && strcmp(xm->name, m->name) != 0)
                xm = xm->next;
            if (!m->name || !xm)
                continue;
            struct dtype tv;
            unsigned rv = xlate_value(g, xl, x->a, m, m->name, &tv, n->line);
            cg_emit(g, DIF_INSTR(DIF_MOV, rd, 0, rt));
            cg_add_const(g, rt, m->off);
            struct obj o = { m->type, m->nelem, m->isarr, m->bits };
            cg_store_obj(g, rt, &o, rv, tv, xm->line);
            cg_reg_free(g, rv);
        }
    }
    cg_reg_free(g, rt);
    *t = out;
    return rd;
}

/* cg_inline_array: name[args] of `inline type name[type p, ...] = expr`: expr with each p
 * bound to its argument (compiled where the name is used), converted to the type. */
unsigned cg_inline_array(struct cg *g, struct dnode *n, struct dtype *t)
{
    const struct dname *d = dcc_name_find(g->cc, n->s, DNAME_INLINE);
    unsigned argc = cg_count_list(n->b);
    if (argc != d->nparams)
        dcc_error(g->cc, n->line, "D_PROTO_LEN", "%s[ ] prototype mismatch: %u arg%s passed, "
                  "%u expected", n->s, argc, argc == 1 ? "" : "s", d->nparams);
    struct xbind b[DIF_TUPMAX];
    struct dnode *a = n->b;
    for (unsigned k = 0; k < argc; k++, a = a->next) {
        struct dtype at = cg_type_of(g, a);
        if ((at.kind == DIF_TYPE_STR) != (d->ptypes[k].kind == DIF_TYPE_STR) ||
            at.kind == DT_NONE)
            dcc_error(g->cc, a->line, "D_PROTO_ARG", "%s[ ] argument #%u is incompatible with "
                      "prototype", n->s, k + 1);
        b[k] = (struct xbind){ d->pnames[k], a, d->ptypes[k], k ? &b[k - 1] : g->xb, k != 0 };
    }
    struct xbind *save = g->xb;
    if (argc)
        g->xb = &b[argc - 1];
    unsigned r = cg_expr(g, d->expr, t);
    g->xb = save;
    return r;
}

/* cg_xlator_check: a translator's member expressions, compiled (and dropped) where it is
 * declared with its parameter standing for a value of the input type, as libdtrace cooks
 * them: unknown members and types are reported there, and D_XLATE_INCOMPAT. */
void cg_xlator_check(struct cg *g, const struct dxlator *xl, int line)
{
    struct dnode zero = { .kind = N_INT, .line = line, .type = T_INT32 };
    struct dnode cast = { .kind = N_CAST, .line = line, .type = xl->src, .a = &zero };
    struct dnode deref = { .kind = N_DEREF, .line = line, .a = &cast };
    struct dnode str = { .kind = N_STR, .line = line, .s = "" };
    struct dnode *arg = &cast;
    if (xl->src.kind == DIF_TYPE_STR && !xl->src.ptr) {
        arg = &str;
    } else if (xl->src.kind == DT_SOU && !xl->src.ptr) {
        cast.type = dcc_ptr_to(xl->src);
        arg = &deref;
    }
    for (const struct dxmember *xm = xl->members; xm; xm = xm->next) {
        const struct dmember *m = dcc_member_find(dcc_sou(g->cc, xl->dst), xm->name);
        struct xbind b = { xl->pname, arg, xl->src, NULL, 0 };
        g->xb = &b;
        struct dtype t = cg_type_of(g, xm->expr);
        g->xb = NULL;
        xlate_compat(g, xm, m, t, xm->expr);
    }
}

/* cg_inline_check: an inline's definition, checked where it stands as libdtrace cooks it (its
 * expression is compiled again wherever the name is used): a name D already has is
 * D_DECL_IDRED, an expression of another kind than the declared type D_OP_INCOMPAT. */
void cg_inline_check(struct cg *g, struct dname *d)
{
    if (cg_builtin_find(d->name) || cg_is_subr(d->name) || cg_is_action(d->name) ||
        cg_sym_find(g, d->name, DIF_SCOPE_GLOBAL))
        dcc_error(g->cc, d->line, "D_DECL_IDRED", "identifier redefined: %s", d->name);
    struct dnode *e = d->expr->kind == N_CAST && d->type.kind != DIF_TYPE_STR &&
                      d->type.kind != DT_SOU ? d->expr->a : d->expr;
    struct dnode zeros[DIF_TUPMAX], strs[DIF_TUPMAX];
    struct xbind b[DIF_TUPMAX]; /* an inline array's parameters stand for values of their types */
    for (unsigned k = 0; k < d->nparams; k++) {
        zeros[k] = (struct dnode){ .kind = N_CAST, .line = d->line, .type = d->ptypes[k],
                                   .a = &strs[k] };
        strs[k] = (struct dnode){ .kind = N_INT, .line = d->line, .type = T_INT32 };
        if (d->ptypes[k].kind == DIF_TYPE_STR)
            zeros[k] = (struct dnode){ .kind = N_STR, .line = d->line, .s = "" };
        b[k] = (struct xbind){ d->pnames[k], &zeros[k], d->ptypes[k], k ? &b[k - 1] : NULL,
                               k != 0 };
    }
    if (d->nparams)
        g->xb = &b[d->nparams - 1];
    struct dtype t;
    if (e->kind == N_XLATE && !e->type.ptr) { /* a struct inline: a translation */
        xlator_find(g, e->type, e->a);
        t = e->type;
    } else {
        t = cg_type_of(g, e);
    }
    g->xb = NULL;
    int str = d->type.kind == DIF_TYPE_STR && !d->type.ptr;
    int ok = str ? t.kind == DIF_TYPE_STR && !t.ptr
           : d->type.kind == DT_SOU && !d->type.ptr ? t.kind == DT_SOU && !t.ptr && t.sou == d->type.sou
           : t.kind == DIF_TYPE_INT;
    if (!ok)
        dcc_error(g->cc, d->line, "D_OP_INCOMPAT", "inline %s definition uses incompatible "
                  "types", d->name);
}
