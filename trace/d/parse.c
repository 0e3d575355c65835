// SPDX-License-Identifier: MIT
// The D parser: recursive descent over the tokens of lex.c, building the clause list and
// declarations (dcc_impl.h) that cg.c turns into DIF. Expression precedence is C's, with ^^
// between && and ||. Inside a predicate a '/' followed by '{' ends the predicate.
#include "dcc_impl.h"

static struct dnode *expr(struct dcc *cc);
static struct dnode *assign(struct dcc *cc);
static struct dnode *unary(struct dcc *cc);

static void next(struct dcc *cc) { dcc_lex_next(cc); }

static _Noreturn void syntax(struct dcc *cc)
{
    if (cc->tok == T_EOF)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "syntax error near end of input");
    if (cc->tok == T_IDENT || cc->tok == T_PDESC)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "syntax error near \"%s\"", cc->tokstr);
    if (cc->tok == T_STR)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "syntax error near string literal");
    if (cc->tok == T_INT)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "syntax error near integer constant");
    dcc_error(cc, cc->tokline, "D_SYNTAX", "syntax error near \"%s\"", dcc_tokname(cc->tok));
}

static void expect(struct dcc *cc, int tok)
{
    if (cc->tok != tok)
        syntax(cc);
    next(cc);
}

static struct dnode *node(struct dcc *cc, int kind, int line)
{
    struct dnode *n = dcc_alloc(cc, sizeof(*n));
    n->kind = (uint8_t)kind;
    n->line = line;
    return n;
}

static int is_word(struct dcc *cc, const char *w)
{
    return cc->tok == T_IDENT && strcmp(cc->tokstr, w) == 0;
}

static const char *const type_words[] = {
    "float", "double", "signed", "unsigned", "char", "short", "int", "long", "string", "int8_t", "int16_t",
    "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "pid_t", "id_t",
    "uintptr_t", "intptr_t", "size_t", "ssize_t",
};

static int type_word(const char *s)
{
    for (size_t k = 0; k < sizeof(type_words) / sizeof(type_words[0]); k++)
        if (strcmp(s, type_words[k]) == 0)
            return 1;
    return 0;
}

static struct dname *name_find(struct dcc *cc, const char *s, int kind)
{
    for (struct dname *d = cc->names; d; d = d->next)
        if (d->kind == kind && !strcmp(d->name, s))
            return d;
    return NULL;
}

static struct dname *name_add(struct dcc *cc, const char *s, int kind, int line)
{
    struct dname *d = dcc_alloc(cc, sizeof(*d));
    d->name = s;
    d->kind = kind;
    d->line = line;
    d->next = cc->names;
    cc->names = d;
    return d;
}

/* Does a type name start here: a type word, a typedef name, `enum`, `struct` or `union`? */
static int type_start(struct dcc *cc)
{
    return (cc->tok == T_IDENT || cc->tok == T_PDESC) &&
           (type_word(cc->tokstr) || !strcmp(cc->tokstr, "enum") ||
            !strcmp(cc->tokstr, "struct") || !strcmp(cc->tokstr, "union") ||
            name_find(cc, cc->tokstr, DNAME_TYPEDEF));
}

static int64_t enum_value(struct dcc *cc);
static struct dnode *cond(struct dcc *cc);

/* enum [tag] [{ A [= value], ... }]: declares the enumerators (constants of type int, as in
 * C); the type is int. Names are unique across every enum and typedef (D_DECL_IDRED), and
 * within one enum (D_UNKNOWN, libdtrace's tag for a repeated enumerator). */
static struct dtype parse_enum(struct dcc *cc)
{
    int line = cc->tokline;
    next(cc); /* enum */
    const char *tag = NULL;
    if (cc->tok == T_IDENT) {
        tag = cc->tokstr;
        next(cc);
    }
    if (cc->tok != T_LBRACE) {
        if (!tag)
            syntax(cc);
        if (!name_find(cc, tag, DNAME_ENUMTAG))
            dcc_error(cc, line, "D_DECL_INCOMPLETE", "declaration of incomplete type enum %s",
                      tag);
        return (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    }
    if (tag) {
        if (name_find(cc, tag, DNAME_ENUMTAG))
            dcc_error(cc, line, "D_DECL_TYPERED", "type redeclared: enum %s", tag);
        name_add(cc, tag, DNAME_ENUMTAG, line);
    }
    unsigned group = ++cc->nenums;
    int64_t v = 0;
    next(cc);
    while (cc->tok != T_RBRACE) {
        if (cc->tok != T_IDENT)
            syntax(cc);
        const char *n = cc->tokstr;
        int nline = cc->tokline;
        struct dname *old = name_find(cc, n, DNAME_ENUMERATOR);
        if (old && old->group == group)
            dcc_error(cc, nline, "D_UNKNOWN", "failed to define %s: enumerator redeclared", n);
        if (old || name_find(cc, n, DNAME_TYPEDEF) || name_find(cc, n, DNAME_INLINE))
            dcc_error(cc, nline, "D_DECL_IDRED", "identifier redeclared: %s", n);
        next(cc);
        if (cc->tok == T_ASSIGN) {
            next(cc);
            v = enum_value(cc);
        }
        if (v < INT32_MIN || v > INT32_MAX)
            dcc_error(cc, nline, "D_DECL_ENCONST", "enumerator '%s' must be assigned an "
                      "integral constant expression", n);
        struct dname *d = name_add(cc, n, DNAME_ENUMERATOR, nline);
        d->val = v++;
        d->group = group;
        d->type = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
        if (cc->tok == T_COMMA) {
            next(cc);
            continue;
        }
        if (cc->tok != T_RBRACE)
            syntax(cc);
    }
    next(cc);
    return (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
}

/* fold_ok: the value of an integer constant expression of literals, enumerators, sizeof and
 * offsetof (which the parser turns into literals); 0 if n is not one. */
static int fold_ok(const struct dnode *n, int64_t *v)
{
    int64_t a, b;
    switch (n->kind) {
    case N_INT: *v = n->ival; return 1;
    case N_CAST:
        if (n->type.kind != DIF_TYPE_INT || n->type.ptr || !fold_ok(n->a, v))
            return 0;
        if (n->type.size < 8) { /* as the VM's SEXT/ZEXT would */
            unsigned sh = 64u - 8u * n->type.size;
            *v = n->type.sign ? (int64_t)((uint64_t)*v << sh) >> sh
                              : (int64_t)(((uint64_t)*v << sh) >> sh);
        }
        return 1;
    case N_UN:
        if (!fold_ok(n->a, &a))
            return 0;
        if (n->op == T_MINUS) { *v = (int64_t)(0 - (uint64_t)a); return 1; }
        if (n->op == T_PLUS) { *v = a; return 1; }
        if (n->op == T_TILDE) { *v = ~a; return 1; }
        if (n->op == T_NOT) { *v = !a; return 1; }
        return 0;
    case N_BIN: {
        if (!fold_ok(n->a, &a) || !fold_ok(n->b, &b))
            return 0;
        int64_t r;
        switch (n->op) {
        case T_PLUS: r = (int64_t)((uint64_t)a + (uint64_t)b); break;
        case T_MINUS: r = (int64_t)((uint64_t)a - (uint64_t)b); break;
        case T_STAR: r = (int64_t)((uint64_t)a * (uint64_t)b); break;
        case T_SHL: r = (int64_t)((uint64_t)a << (b & 63)); break;
        case T_SHR: r = a >> (b & 63); break;
        case T_AMP: r = a & b; break;
        case T_BAR: r = a | b; break;
        case T_CARET: r = a ^ b; break;
        case T_SLASH: case T_PERCENT:
            if (b == 0 || (a == INT64_MIN && b == -1))
                return 0;
            r = n->op == T_SLASH ? a / b : a % b;
            break;
        default: return 0;
        }
        *v = r;
        return 1;
    }
    default: return 0;
    }
}

/* An enumerator's value: an integer constant expression of literals and enumerators. */
static int64_t fold(struct dcc *cc, const struct dnode *n)
{
    int64_t v;
    if (fold_ok(n, &v))
        return v;
    dcc_error(cc, n->line, "D_DECL_ENCONST", "enumerator must be assigned an integral constant "
              "expression");
}

static int64_t enum_value(struct dcc *cc)
{
    return fold(cc, cond(cc));
}

static struct dtype parse_sou(struct dcc *cc);

/* parse_base: a type name made of the words above, a typedef name, an enum, a struct or a
 * union (without the '*'s of a declarator). */
static struct dtype parse_base(struct dcc *cc)
{
    if (cc->tok == T_IDENT || cc->tok == T_PDESC) {
        if (!strcmp(cc->tokstr, "enum"))
            return parse_enum(cc);
        if (!strcmp(cc->tokstr, "struct") || !strcmp(cc->tokstr, "union"))
            return parse_sou(cc);
        struct dname *td = name_find(cc, cc->tokstr, DNAME_TYPEDEF);
        if (td) {
            next(cc);
            return td->type;
        }
    }
    int sign = -1, size = 0, longs = 0, words = 0;
    struct dtype t = { .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    while (cc->tok == T_IDENT && type_word(cc->tokstr)) {
        const char *w = cc->tokstr;
        words++;
        if (!strcmp(w, "signed")) sign = 1;
        else if (!strcmp(w, "unsigned")) sign = 0;
        else if (!strcmp(w, "char")) size = 1;
        else if (!strcmp(w, "short")) size = 2;
        else if (!strcmp(w, "int")) { if (!size) size = 4; }
        else if (!strcmp(w, "long")) { longs++; size = 8; }
        else if (!strcmp(w, "string")) { next(cc); return (struct dtype){ .kind = DIF_TYPE_STR, .size = 0, .sign = 0 }; }
        else if (!strcmp(w, "float") || !strcmp(w, "double")) {
            if (sign >= 0 || (size && !longs) || longs > 1 || (longs && w[0] == 'f'))
                dcc_error(cc, cc->tokline, "D_DECL_COMBO", "invalid type combination");
            next(cc);
            return (struct dtype){ .kind = DT_FLOAT, .size = (uint8_t)(w[0] == 'f' ? 4 : longs ? 16 : 8) };
        }
        else if (w[0] == 'u' && w[1] == 'i') { sign = 0; size = (w[4] == '8') ? 1 : (w[4] == '1') ? 2 : (w[4] == '3') ? 4 : 8; if (!strcmp(w, "uintptr_t")) size = 8; }
        else if (w[0] == 'i' && w[1] == 'n' && w[2] == 't') { sign = 1; size = (w[3] == '8') ? 1 : (w[3] == '1') ? 2 : (w[3] == '3') ? 4 : 8; }
        else if (!strcmp(w, "pid_t") || !strcmp(w, "id_t")) { sign = 1; size = 4; }
        else if (!strcmp(w, "size_t")) { sign = 0; size = 8; }
        else if (!strcmp(w, "ssize_t")) { sign = 1; size = 8; }
        next(cc);
    }
    if (!words || longs > 2)
        syntax(cc);
    t.size = (uint8_t)(size ? size : 4);
    t.sign = (uint8_t)(sign < 0 ? 1 : sign);
    return t;
}

/* stars: the '*'s of a declarator, added to t. */
static struct dtype stars(struct dcc *cc, struct dtype t)
{
    while (cc->tok == T_STAR) {
        if (t.ptr == 255)
            syntax(cc);
        t = dcc_ptr_to(t);
        next(cc);
    }
    return t;
}

/* parse_type: a type name (casts, sizeof, offsetof, typedef, inline): a base type and '*'s. */
static struct dtype parse_type(struct dcc *cc)
{
    return stars(cc, parse_base(cc));
}

/* A positive integral constant (array dimensions and bit-field widths); 0 if it is not one. */
static int64_t posconst(struct dcc *cc)
{
    int64_t v;
    struct dnode *e = cond(cc);
    if (!fold_ok(e, &v) || v <= 0)
        return 0;
    return v;
}

/* struct|union [tag] [{ members }]: a reference to a tag (incomplete until it is defined) or
 * a definition. Members: a type, then declarators `*name[N][M] : bits` separated by commas.
 * The checks run in libdtrace's order (dt_decl_member) so that the same tags come out. */
static struct dtype parse_sou(struct dcc *cc)
{
    int is_union = cc->tokstr[0] == 'u', line = cc->tokline;
    next(cc);
    const char *tag = NULL;
    if (cc->tok == T_IDENT) {
        tag = cc->tokstr;
        next(cc);
    }
    if (cc->tok != T_LBRACE) {
        if (!tag)
            syntax(cc);
        return dcc_sou_get(cc, tag, is_union, line);
    }
    struct dtype t = dcc_sou_get(cc, tag, is_union, line);
    struct dsou *s = dcc_sou(cc, t);
    if (s->complete)
        dcc_error(cc, line, "D_DECL_TYPERED", "type redeclared: %s %s", dcc_sou_kind(s), tag);
    next(cc);
    while (cc->tok != T_RBRACE) {
        if (cc->tok == T_SEMI) {
            next(cc);
            continue;
        }
        int mline = cc->tokline;
        if (!type_start(cc))
            syntax(cc);
        struct dtype base = parse_base(cc);
        for (;;) {
            struct dtype mt = stars(cc, base);
            const char *name = NULL;
            if (cc->tok == T_IDENT) {
                name = cc->tokstr;
                mline = cc->tokline;
                next(cc);
            }
            if (cc->tok == T_LPAR) /* a function: it has no size */
                dcc_error(cc, mline, "D_DECL_VOIDOBJ", "cannot have void member: %s",
                          name ? name : "(anon)");
            uint64_t nelem = 1;
            int isarr = 0;
            while (cc->tok == T_LBRACK) {
                next(cc);
                isarr = 1;
                if (cc->tok == T_RBRACK) {
                    nelem = 0;
                } else {
                    int64_t v = posconst(cc);
                    if (!v)
                        dcc_error(cc, mline, "D_DECL_ARRSUB", "positive integral constant "
                                  "expression or tuple signature expected as array "
                                  "declaration subscript");
                    if ((uint64_t)v > UINT32_MAX)
                        dcc_error(cc, mline, "D_DECL_ARRBIG", "array dimension too big");
                    nelem *= (uint64_t)v;
                    if (nelem > UINT32_MAX)
                        dcc_error(cc, mline, "D_DECL_ARRBIG", "array dimension too big");
                }
                expect(cc, T_RBRACK);
            }
            int hasbits = cc->tok == T_COLON;
            struct dnode *width = NULL;
            if (hasbits) {
                next(cc);
                width = cond(cc);
            }
            if (!name && !hasbits)
                dcc_error(cc, mline, "D_DECL_MNAME", "member declaration requires a name");
            const char *idname = name ? name : "(anon)";
            if (!mt.ptr && mt.kind == DT_SOU &&
                (dcc_sou(cc, mt) == s || !dcc_sou(cc, mt)->complete ||
                 !dcc_type_size(cc, mt)))
                dcc_error(cc, mline, "D_DECL_INCOMPLETE", "incomplete struct/union/enum %s %s: "
                          "%s", dcc_sou_kind(dcc_sou(cc, mt)),
                          dcc_sou(cc, mt)->tag ? dcc_sou(cc, mt)->tag : "(anon)", idname);
            unsigned bits = 0;
            int skip = 0;
            if (hasbits) {
                int64_t v;
                int isconst = fold_ok(width, &v);
                if (!name && isconst && v == 0) {
                    skip = 1; /* `int : 0`: no more packing, which this layout never does */
                } else {
                    if (!isconst || v <= 0)
                        dcc_error(cc, mline, "D_DECL_BFCONST", "positive integral constant "
                                  "expression expected as bit-field size");
                    if (mt.kind != DIF_TYPE_INT || mt.ptr || isarr)
                        dcc_error(cc, mline, "D_DECL_BFTYPE", "invalid type for bit-field: %s",
                                  idname);
                    if (v > 8 * mt.size)
                        dcc_error(cc, mline, "D_DECL_BFSIZE", "bit-field too big for type: %s",
                                  idname);
                    bits = (unsigned)v;
                }
            }
            if (!skip) {
                dcc_member_add(cc, s, name, mt, (uint32_t)nelem, bits, mline);
                s->last->isarr = (uint8_t)isarr;
            }
            if (cc->tok == T_COMMA) {
                next(cc);
                continue;
            }
            expect(cc, T_SEMI);
            break;
        }
    }
    next(cc);
    s->complete = 1;
    return t;
}

static struct dnode *arglist(struct dcc *cc, int close)
{
    struct dnode *head = NULL, **tail = &head;
    if (cc->tok == close) {
        next(cc);
        return NULL;
    }
    for (;;) {
        struct dnode *a = assign(cc);
        *tail = a;
        tail = &a->next;
        if (cc->tok == T_COMMA) {
            next(cc);
            continue;
        }
        expect(cc, close);
        return head;
    }
}

static struct dnode *primary(struct dcc *cc)
{
    int line = cc->tokline;
    struct dnode *n;
    switch (cc->tok) {
    case T_INT:
        n = node(cc, N_INT, line);
        n->ival = cc->tokval;
        n->type = cc->toktype;
        next(cc);
        return n;
    case T_STR:
        n = node(cc, N_STR, line);
        n->s = cc->tokstr;
        n->ival = cc->tokval;
        next(cc);
        return n;
    case T_LPAR:
        next(cc);
        n = expr(cc);
        expect(cc, T_RPAR);
        return n;
    case T_AT:
        next(cc);
        n = node(cc, N_AGG, line);
        n->s = "";
        if (cc->tok == T_IDENT) {
            n->s = cc->tokstr;
            next(cc);
        }
        if (cc->tok == T_LBRACK) {
            next(cc);
            n->b = arglist(cc, T_RBRACK);
            if (!n->b)
                syntax(cc);
        }
        return n;
    case T_IDENT:
        if (!strcmp(cc->tokstr, "self") || !strcmp(cc->tokstr, "this")) {
            n = node(cc, cc->tokstr[0] == 's' ? N_SELF : N_THIS, line);
            next(cc);
            expect(cc, T_ARROW);
            if (cc->tok != T_IDENT)
                syntax(cc);
            n->s = cc->tokstr;
            next(cc);
            return n;
        }
        if (!strcmp(cc->tokstr, "sizeof")) {
            n = node(cc, N_SIZEOF, line);
            next(cc);
            if (cc->tok != T_LPAR) { /* sizeof expr */
                n->a = unary(cc);
                return n;
            }
            const char *save = cc->p;
            int sline = cc->line;
            next(cc);
            if (type_start(cc)) { /* a type's size is a constant, as in libdtrace */
                struct dtype t = parse_type(cc);
                expect(cc, T_RPAR);
                unsigned sz = dcc_type_size(cc, t);
                if (!sz)
                    dcc_error(cc, line, "D_SIZEOF_TYPE", "cannot apply sizeof to an operand "
                              "of unknown size");
                n->kind = N_INT;
                n->ival = sz;
                n->type = (struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 0 }; /* size_t */
                return n;
            }
            cc->p = save; /* sizeof (expr) ...: the parentheses belong to the operand */
            cc->line = sline;
            cc->tok = T_LPAR;
            n->a = unary(cc);
            return n;
        }
        if (!strcmp(cc->tokstr, "xlate")) {
            n = node(cc, N_XLATE, line);
            next(cc);
            expect(cc, T_LT);
            n->type = parse_type(cc);
            expect(cc, T_GT);
            expect(cc, T_LPAR);
            n->a = expr(cc);
            expect(cc, T_RPAR);
            return n;
        }
        if (!strcmp(cc->tokstr, "offsetof")) {
            next(cc);
            expect(cc, T_LPAR);
            struct dtype t = parse_type(cc);
            expect(cc, T_COMMA);
            if (cc->tok != T_IDENT)
                syntax(cc);
            const char *mname = cc->tokstr;
            next(cc);
            expect(cc, T_RPAR);
            if (t.kind != DT_SOU || t.ptr)
                dcc_error(cc, line, "D_OFFSETOF_TYPE", "offsetof operand must be a struct or "
                          "union type");
            struct dmember *m = dcc_member_find(dcc_sou(cc, t), mname);
            if (!m)
                dcc_error(cc, line, "D_UNKNOWN", "failed to determine offset of %s: Member "
                          "name not found", mname);
            if (m->bits)
                dcc_error(cc, line, "D_OFFSETOF_BITFIELD", "cannot take offset of a "
                          "bit-field: %s", mname);
            n = node(cc, N_INT, line);
            n->ival = m->off;
            n->type = (struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 0 };
            return n;
        }
        {   /* names the parser resolves: enumerators, inlines, NULL */
            struct dname *d = name_find(cc, cc->tokstr, DNAME_ENUMERATOR);
            struct dname *in = d ? NULL : name_find(cc, cc->tokstr, DNAME_INLINE);
            if (d || !strcmp(cc->tokstr, "NULL")) {
                n = node(cc, N_INT, line);
                n->ival = d ? d->val : 0;
                n->type = d ? d->type : (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 }; /* NULL: int 0 */
                next(cc);
                return n;
            }
            if (in) { /* a fresh top node: lists link through `next` */
                next(cc);
                n = node(cc, N_INT, line);
                *n = *in->expr;
                n->next = NULL;
                return n;
            }
        }
        n = node(cc, N_IDENT, line);
        n->s = cc->tokstr;
        next(cc);
        if (cc->tok == T_LPAR) {
            next(cc);
            n->kind = N_CALL;
            n->b = arglist(cc, T_RPAR);
        } else if (cc->tok == T_LBRACK) {
            next(cc);
            n->kind = N_INDEX;
            n->b = arglist(cc, T_RBRACK);
            if (!n->b)
                syntax(cc);
        }
        return n;
    default:
        syntax(cc);
    }
}

static struct dnode *postfix(struct dcc *cc)
{
    struct dnode *n = primary(cc);
    for (;;) {
        struct dnode *p;
        if (cc->tok == T_INC || cc->tok == T_DEC) {
            p = node(cc, cc->tok == T_INC ? N_POSTINC : N_POSTDEC, cc->tokline);
            next(cc);
        } else if (cc->tok == T_DOT || cc->tok == T_ARROW) {
            p = node(cc, N_MEMBER, cc->tokline);
            p->op = (uint8_t)cc->tok;
            next(cc);
            if (cc->tok != T_IDENT)
                syntax(cc);
            p->s = cc->tokstr;
            next(cc);
        } else if (cc->tok == T_LBRACK) {
            p = node(cc, N_SUBSCR, cc->tokline);
            next(cc);
            p->b = expr(cc);
            expect(cc, T_RBRACK);
        } else if (cc->tok == T_LPAR) { /* a call of something not a name: tick-1( ) */
            dcc_error(cc, cc->tokline, "D_FUNC_IDENT", "function designator is not of "
                      "function type");
        } else {
            return n;
        }
        p->a = n;
        n = p;
    }
}

#define MAX_DEPTH 128

static struct dnode *unary_(struct dcc *cc);

/* unary: every recursion of the expression grammar passes here; bound it (small stacks). */
static struct dnode *unary(struct dcc *cc)
{
    if (++cc->depth > MAX_DEPTH)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "expression nested too deeply");
    struct dnode *n = unary_(cc);
    cc->depth--;
    return n;
}

static struct dnode *unary_(struct dcc *cc)
{
    int line = cc->tokline, tok = cc->tok;
    struct dnode *n;
    switch (tok) {
    case T_MINUS: case T_PLUS: case T_NOT: case T_TILDE:
        next(cc);
        n = node(cc, N_UN, line);
        n->op = (uint8_t)tok;
        n->a = unary(cc);
        return n;
    case T_INC: case T_DEC:
        next(cc);
        n = node(cc, tok == T_INC ? N_PREINC : N_PREDEC, line);
        n->a = unary(cc);
        return n;
    case T_STAR: case T_AMP:
        next(cc);
        n = node(cc, tok == T_STAR ? N_DEREF : N_ADDROF, line);
        n->a = unary(cc);
        return n;
    case T_IDENT:
        if (!strcmp(cc->tokstr, "stringof")) {
            next(cc);
            n = node(cc, N_STRINGOF, line);
            n->a = unary(cc);
            return n;
        }
        return postfix(cc);
    case T_LPAR: {
        /* a cast if a type name follows */
        const char *save = cc->p;
        int sline = cc->line;
        next(cc);
        if (type_start(cc)) {
            n = node(cc, N_CAST, line);
            n->type = parse_type(cc);
            expect(cc, T_RPAR);
            n->a = unary(cc);
            return n;
        }
        cc->p = save;
        cc->line = sline;
        cc->tok = T_LPAR;
        return postfix(cc);
    }
    default:
        return postfix(cc);
    }
}

/* Binary precedence levels, loosest first. */
static const int levels[][5] = {
    { T_LOR }, { T_LXOR }, { T_LAND }, { T_BAR }, { T_CARET }, { T_AMP }, { T_EQ, T_NE },
    { T_LT, T_GT, T_LE, T_GE }, { T_SHL, T_SHR }, { T_PLUS, T_MINUS },
    { T_STAR, T_SLASH, T_PERCENT },
};
#define NLEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

/* pred_end: in a predicate, is the '/' just lexed the closing one (next non-blank is '{')? */
static int pred_end(struct dcc *cc)
{
    const char *p = cc->p;
    while (p < cc->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p >= cc->end || *p == '{';
}

static struct dnode *binary(struct dcc *cc, int level)
{
    if (level == NLEVELS)
        return unary(cc);
    struct dnode *l = binary(cc, level + 1);
    for (;;) {
        int hit = 0;
        for (int k = 0; k < 5 && levels[level][k]; k++)
            if (cc->tok == levels[level][k])
                hit = 1;
        if (!hit || (cc->tok == T_SLASH && cc->in_pred && pred_end(cc)))
            return l;
        struct dnode *n = node(cc, N_BIN, cc->tokline);
        n->op = (uint8_t)cc->tok;
        next(cc);
        n->a = l;
        n->b = binary(cc, level + 1);
        l = n;
    }
}

static struct dnode *cond(struct dcc *cc)
{
    struct dnode *c = binary(cc, 0);
    if (cc->tok != T_QUEST)
        return c;
    struct dnode *n = node(cc, N_COND, cc->tokline);
    next(cc);
    n->a = c;
    n->b = expr(cc);
    expect(cc, T_COLON);
    n->c = cond(cc);
    return n;
}

static struct dnode *assign(struct dcc *cc)
{
    struct dnode *l = cond(cc);
    if (cc->tok >= T_ASSIGN && cc->tok <= T_OR_EQ) {
        struct dnode *n = node(cc, N_ASSIGN, cc->tokline);
        n->op = (uint8_t)cc->tok;
        next(cc);
        n->a = l;
        n->b = assign(cc);
        return n;
    }
    return l;
}

static struct dnode *expr(struct dcc *cc)
{
    struct dnode *l = assign(cc);
    while (cc->tok == T_COMMA) {
        struct dnode *n = node(cc, N_COMMA, cc->tokline);
        next(cc);
        n->a = l;
        n->b = assign(cc);
        l = n;
    }
    return l;
}

static int same_type(struct dtype a, struct dtype b)
{
    return a.kind == b.kind && a.size == b.size && a.sign == b.sign && a.ptr == b.ptr &&
           a.sou == b.sou && a.pkind == b.pkind && a.psize == b.psize && a.psign == b.psign;
}

/* translator T < S p > { m = expr; ... }: T must be a struct or union, each m one of its
 * members, once; a second translator for the same pair is D_XLATE_REDECL. xlate expands the
 * member's expression where it is used, p standing for xlate's operand (cg.c). */
static void translator(struct dcc *cc)
{
    int line = cc->tokline;
    next(cc);
    struct dxlator *x = dcc_alloc(cc, sizeof(*x));
    x->dst = parse_type(cc);
    expect(cc, T_LT);
    x->src = stars(cc, parse_base(cc));
    if (cc->tok != T_IDENT)
        syntax(cc);
    x->pname = cc->tokstr;
    next(cc);
    expect(cc, T_GT);
    if (x->dst.kind != DT_SOU || x->dst.ptr)
        dcc_error(cc, line, "D_XLATE_SOU", "translator output type must be a struct or union");
    if (!dcc_sou(cc, x->dst)->complete)
        dcc_error(cc, line, "D_XLATE_SOU", "incomplete struct/union/enum %s %s",
                  dcc_sou_kind(dcc_sou(cc, x->dst)), dcc_sou(cc, x->dst)->tag);
    for (struct dxlator *o = cc->xlators; o; o = o->next)
        if (same_type(o->dst, x->dst) && same_type(o->src, x->src))
            dcc_error(cc, line, "D_XLATE_REDECL", "translator has already been declared");
    expect(cc, T_LBRACE);
    struct dxmember **tail = &x->members;
    while (cc->tok != T_RBRACE) {
        if (cc->tok != T_IDENT)
            syntax(cc);
        struct dxmember *m = dcc_alloc(cc, sizeof(*m));
        m->name = cc->tokstr;
        m->line = cc->tokline;
        if (!dcc_member_find(dcc_sou(cc, x->dst), m->name))
            dcc_error(cc, m->line, "D_XLATE_MEMB", "translator member %s is not a member of "
                      "%s %s", m->name, dcc_sou_kind(dcc_sou(cc, x->dst)),
                      dcc_sou(cc, x->dst)->tag ? dcc_sou(cc, x->dst)->tag : "(anon)");
        for (struct dxmember *o = x->members; o; o = o->next)
            if (!strcmp(o->name, m->name))
                dcc_error(cc, m->line, "D_XLATE_MEMB", "translator member %s is defined "
                          "twice", m->name);
        next(cc);
        expect(cc, T_ASSIGN);
        m->expr = assign(cc);
        expect(cc, T_SEMI);
        *tail = m;
        tail = &m->next;
    }
    next(cc);
    if (cc->tok != T_SEMI)
        syntax(cc);
    x->next = cc->xlators;
    cc->xlators = x;
}

static void declaration(struct dcc *cc)
{
    uint8_t scope = DIF_SCOPE_GLOBAL;
    int line = cc->tokline;
    if (is_word(cc, "self") || is_word(cc, "this")) {
        scope = cc->tokstr[0] == 's' ? DIF_SCOPE_SELF : DIF_SCOPE_THIS;
        next(cc);
    }
    if (scope == DIF_SCOPE_GLOBAL && is_word(cc, "typedef")) {
        next(cc);
        struct dtype t = parse_type(cc);
        if (cc->tok != T_IDENT)
            syntax(cc);
        if (name_find(cc, cc->tokstr, DNAME_TYPEDEF) || name_find(cc, cc->tokstr, DNAME_ENUMERATOR))
            dcc_error(cc, cc->tokline, "D_DECL_IDRED", "identifier redeclared: %s", cc->tokstr);
        name_add(cc, cc->tokstr, DNAME_TYPEDEF, cc->tokline)->type = t;
        next(cc);
        if (cc->tok != T_SEMI)
            syntax(cc);
        return;
    }
    if (scope == DIF_SCOPE_GLOBAL && is_word(cc, "translator")) {
        translator(cc);
        return;
    }
    if (scope == DIF_SCOPE_GLOBAL && is_word(cc, "inline")) {
        next(cc);
        struct dtype t = parse_type(cc);
        if (cc->tok != T_IDENT)
            syntax(cc);
        const char *name = cc->tokstr;
        int nline = cc->tokline;
        if (name_find(cc, name, DNAME_INLINE) || name_find(cc, name, DNAME_ENUMERATOR) ||
            name_find(cc, name, DNAME_TYPEDEF))
            dcc_error(cc, nline, "D_DECL_IDRED", "identifier redeclared: %s", name);
        next(cc);
        if (cc->tok == T_LBRACK)
            dcc_error(cc, nline, "D_UNSUPPORTED", "inline arrays are not supported in this "
                      "D subset");
        expect(cc, T_ASSIGN);
        struct dnode *e = assign(cc);
        struct dname *d = name_add(cc, name, DNAME_INLINE, nline);
        d->type = t;
        if (t.kind == DIF_TYPE_STR) {
            d->expr = e;
        } else { /* the value converted to the declared type, as C would */
            d->expr = node(cc, N_CAST, nline);
            d->expr->type = t;
            d->expr->a = e;
        }
        if (cc->tok != T_SEMI)
            syntax(cc);
        return;
    }
    /* a type, then declarators; an enum, struct or union definition may stand alone */
    int defines = is_word(cc, "enum") || is_word(cc, "struct") || is_word(cc, "union");
    struct dtype base = parse_base(cc);
    if (defines && cc->tok == T_SEMI)
        return;
    for (;;) {
        struct dtype t = stars(cc, base);
        if (cc->tok != T_IDENT)
            syntax(cc);
        struct ddecl *d = dcc_alloc(cc, sizeof(*d));
        d->line = cc->tokline;
        d->name = cc->tokstr;
        d->scope = scope;
        d->type = t;
        next(cc);
        while (cc->tok == T_LBRACK) { /* a declared array of fixed size: int a[5] */
            next(cc);
            if (d->isarr)
                dcc_error(cc, d->line, "D_UNSUPPORTED", "declared arrays of arrays are not "
                          "supported");
            if (cc->tok == T_RBRACK)
                dcc_error(cc, d->line, "D_DECL_ARRNULL", "array declaration requires array "
                          "dimension or tuple signature: %s", d->name);
            if (type_start(cc))
                dcc_error(cc, line, "D_UNSUPPORTED", "declarations of associative arrays are "
                          "not supported; use the array without declaring it");
            int64_t v = posconst(cc);
            if (!v)
                dcc_error(cc, d->line, "D_DECL_ARRSUB", "positive integral constant "
                          "expression or tuple signature expected as array declaration "
                          "subscript");
            uint64_t nel = (uint64_t)(d->isarr ? d->nelem : 1) * (uint64_t)v;
            if ((uint64_t)v > UINT32_MAX || nel > UINT32_MAX)
                dcc_error(cc, d->line, "D_DECL_ARRBIG", "array dimension too big");
            d->isarr = 1;
            d->nelem = (uint32_t)nel;
            expect(cc, T_RBRACK);
        }
        *cc->decl_tail = d;
        cc->decl_tail = &d->next;
        if (cc->tok == T_COMMA) {
            next(cc);
            continue;
        }
        if (cc->tok != T_SEMI)
            syntax(cc);
        return;
    }
}

static struct dnode *statements(struct dcc *cc);

/* if (cond) stmt-or-block [else stmt-or-block]: an N_IF node; the clause holding it is split
 * into clauses after parsing (split_clause). */
static struct dnode *if_statement(struct dcc *cc);

/* A single statement (with its ';' when one follows) or a { block } (closing brace eaten). */
static struct dnode *body(struct dcc *cc)
{
    if (cc->tok == T_LBRACE) {
        struct dnode *l = statements(cc);
        expect(cc, T_RBRACE);
        return l;
    }
    if (is_word(cc, "if"))
        return if_statement(cc);
    if (cc->tok == T_SEMI) {
        next(cc);
        return NULL;
    }
    struct dnode *s = expr(cc);
    if (cc->tok == T_SEMI)
        next(cc);
    else if (cc->tok != T_RBRACE)
        syntax(cc);
    return s;
}

static struct dnode *if_statement(struct dcc *cc)
{
    struct dnode *n = node(cc, N_IF, cc->tokline);
    if (++cc->depth > 64)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "if statements nested too deeply");
    next(cc);
    expect(cc, T_LPAR);
    n->a = expr(cc);
    expect(cc, T_RPAR);
    n->b = body(cc);
    if (is_word(cc, "else")) {
        next(cc);
        n->c = body(cc);
    }
    cc->depth--;
    return n;
}

static struct dnode *statements(struct dcc *cc)
{
    struct dnode *head = NULL, **tail = &head;
    expect(cc, T_LBRACE);
    while (cc->tok != T_RBRACE) {
        if (cc->tok == T_SEMI) {
            next(cc);
            continue;
        }
        if (cc->tok == T_EOF)
            syntax(cc);
        if (is_word(cc, "if")) {
            struct dnode *s = if_statement(cc);
            *tail = s;
            tail = &s->next;
            continue;
        }
        struct dnode *s = expr(cc);
        *tail = s;
        tail = &s->next;
        if (cc->tok == T_SEMI)
            next(cc);
        else if (cc->tok != T_RBRACE)
            syntax(cc);
    }
    return head;
}

/* ---- if/else: one clause becomes several, in order, as libdtrace's other ports do ----------
 * P { A; if (C) { T } else { E }; B } runs as
 *   { this->%okN = 0 }                       (no predicate: this-> values outlive a firing)
 *   P { A; this->%okN = 1; this->%ifN = !!(C) }
 *   /this->%okN && this->%ifN/ { T }   /this->%okN && !this->%ifN/ { E }   /this->%okN/ { B }
 * so that P and C are each evaluated once, where they stood. Without P, %okN is left out.
 * T, E and B are split the same way when they hold ifs. */
static struct dnode *hidden(struct dcc *cc, const char *what, unsigned id, int line)
{
    struct dnode *n = node(cc, N_THIS, line);
    char name[24], digits[12];
    size_t k = 0, d = 0;
    name[k++] = '%'; /* no D name can be it */
    while (*what)
        name[k++] = *what++;
    do
        digits[d++] = (char)('0' + id % 10u);
    while ((id /= 10u) != 0);
    while (d)
        name[k++] = digits[--d];
    n->s = dcc_strdup(cc, name, k);
    return n;
}

static struct dnode *mk(struct dcc *cc, int kind, int op, struct dnode *a, struct dnode *b,
                        int line)
{
    struct dnode *n = node(cc, kind, line);
    n->op = (uint8_t)op;
    n->a = a;
    n->b = b;
    return n;
}

static struct dnode *set_hidden(struct dcc *cc, const char *what, unsigned id, struct dnode *v,
                                int line)
{
    return mk(cc, N_ASSIGN, T_ASSIGN, hidden(cc, what, id, line), v, line);
}

static struct dnode *int_node(struct dcc *cc, int64_t v, int line)
{
    struct dnode *n = node(cc, N_INT, line);
    n->ival = v;
    n->type = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    return n;
}

static int has_if(const struct dnode *s)
{
    for (; s; s = s->next)
        if (s->kind == N_IF)
            return 1;
    return 0;
}

static void add_clause(struct dcc *cc, const struct dclause *proto, struct dnode *pred,
                       struct dnode *stmts)
{
    struct dclause *c = dcc_alloc(cc, sizeof(*c));
    c->line = proto->line;
    c->ndesc = proto->ndesc;
    c->desc = proto->desc;
    c->pred = pred;
    c->stmts = stmts;
    *cc->clause_tail = c;
    cc->clause_tail = &c->next;
}

/* Emits `stmts` under predicate `pred` (side-effect free when `again`: it may be evaluated
 * more than once), splitting at each if. */
static void split(struct dcc *cc, const struct dclause *proto, struct dnode *pred,
                  struct dnode *stmts)
{
    struct dnode *seg = NULL, **tail = &seg;
    for (struct dnode *s = stmts, *nx; s; s = nx) {
        nx = s->next;
        s->next = NULL;
        if (s->kind != N_IF) {
            *tail = s;
            tail = &s->next;
            continue;
        }
        unsigned id = ++cc->nifs;
        int line = s->line;
        struct dnode *isset = mk(cc, N_UN, T_NOT, mk(cc, N_UN, T_NOT, s->a, NULL, line), NULL,
                                 line);
        *tail = set_hidden(cc, "if", id, isset, line);
        add_clause(cc, proto, pred, seg);
        struct dnode *yes = hidden(cc, "if", id, line);
        struct dnode *no = mk(cc, N_UN, T_NOT, hidden(cc, "if", id, line), NULL, line);
        split(cc, proto, pred ? mk(cc, N_BIN, T_LAND, pred, yes, line) : yes, s->b);
        if (s->c)
            split(cc, proto, pred ? mk(cc, N_BIN, T_LAND, pred, no, line) : no, s->c);
        seg = NULL;
        tail = &seg;
    }
    if (seg || !stmts)
        add_clause(cc, proto, pred, seg);
}

/* A parsed clause holding if statements, replaced by the clauses that run it. */
static void split_clause(struct dcc *cc, struct dclause *c)
{
    struct dnode *pred = c->pred;
    if (pred) { /* P once, then a flag the rest of the clause tests */
        unsigned id = ++cc->nifs;
        int line = c->line;
        add_clause(cc, c, NULL, set_hidden(cc, "ok", id, int_node(cc, 0, line), line));
        struct dnode *ok = set_hidden(cc, "ok", id, int_node(cc, 1, line), line);
        ok->next = c->stmts;
        struct dnode *first = NULL, **tail = &first, *s = ok;
        /* the statements before the first if stay under P, with the flag set first */
        while (s && s->kind != N_IF) {
            *tail = s;
            tail = &s->next;
            s = s->next;
        }
        *tail = NULL;
        add_clause(cc, c, pred, first);
        split(cc, c, hidden(cc, "ok", id, line), s);
        return;
    }
    split(cc, c, NULL, c->stmts);
}

static void clause(struct dcc *cc)
{
    struct dclause *c = dcc_alloc(cc, sizeof(*c));
    const char *descs[64];
    c->line = cc->tokline;
    for (;;) {
        if (cc->tok != T_PDESC)
            syntax(cc);
        if (c->ndesc == 64)
            dcc_error(cc, cc->tokline, "D_SYNTAX", "too many probe descriptions");
        descs[c->ndesc++] = cc->tokstr;
        next(cc);
        if (cc->tok != T_COMMA)
            break;
        dcc_lex_pdesc(cc);
    }
    c->desc = dcc_alloc(cc, c->ndesc * sizeof(char *));
    memcpy(c->desc, descs, c->ndesc * sizeof(char *));
    if (cc->tok == T_SLASH) {
        cc->in_pred = 1;
        next(cc);
        c->pred = expr(cc);
        cc->in_pred = 0;
        expect(cc, T_SLASH);
    }
    if (cc->tok == T_EOF && !c->pred) {
        /* a bare description (dtrace -n BEGIN): records just the probe */
    } else {
        c->stmts = statements(cc);
        if (cc->tok != T_RBRACE)
            syntax(cc);
    }
    if (has_if(c->stmts)) {
        split_clause(cc, c);
        return;
    }
    *cc->clause_tail = c;
    cc->clause_tail = &c->next;
}

void dcc_parse(struct dcc *cc)
{
    cc->clause_tail = &cc->clauses;
    cc->decl_tail = &cc->decls;
    for (;;) {
        dcc_lex_pdesc(cc);
        if (cc->tok == T_EOF)
            return;
        if (cc->tok == T_SEMI)
            continue;
        if (cc->tok == T_PDESC && (type_start(cc) || !strcmp(cc->tokstr, "self") ||
                                   !strcmp(cc->tokstr, "this") ||
                                   !strcmp(cc->tokstr, "inline") ||
                                   !strcmp(cc->tokstr, "translator") ||
                                   !strcmp(cc->tokstr, "typedef"))) {
            cc->p -= strlen(cc->tokstr);
            next(cc);
            declaration(cc);
            continue;
        }
        clause(cc);
    }
}
