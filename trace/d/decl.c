// SPDX-License-Identifier: MIT
// D declarations, as libdtrace parses them (dt_grammar.y, dt_decl.c, dt_node_decl): the
// declaration specifiers (storage class, type words, struct/union/enum, typedef names) with
// libdtrace's checks in its order, C declarators (pointers, arrays, associative-array tuple
// signatures, function prototypes, parenthesized declarators), and what a top-level
// declaration declares: a variable (ddecl for cg_var.c), a typedef, a translator, an inline.
// extern declarations name kernel symbols, of which this system has none: they are checked
// and ignored. Function prototypes are checked as libdtrace checks them, then ignored.
#include "dcc_impl.h"

static void next(struct dcc *cc) { dcc_lex_next(cc); }

/* ---- declaration specifiers ------------------------------------------------------------ */

enum { SK_NONE, SK_INT, SK_FLOAT, SK_TYPEDEF, SK_SOU, SK_ENUM };           /* dd_kind */
enum { DA_SHORT = 1, DA_LONG = 2, DA_LONGLONG = 4, DA_SIGNED = 8, DA_UNSIGNED = 16 };
enum { DC_NONE, DC_AUTO, DC_REGISTER, DC_STATIC, DC_EXTERN, DC_TYPEDEF, DC_SELF, DC_THIS };

struct dspecs {
    int kind;           /* SK_* */
    const char *name;   /* "void", "char", "int", "float", "double" or a typedef name */
    unsigned attr;      /* DA_* */
    int cls;            /* DC_* */
    struct dtype t;     /* SK_TYPEDEF, SK_SOU, SK_ENUM: the type */
};

static const char *const class_words[] = {
    [DC_AUTO] = "auto", [DC_REGISTER] = "register", [DC_STATIC] = "static",
    [DC_EXTERN] = "extern", [DC_TYPEDEF] = "typedef", [DC_SELF] = "self", [DC_THIS] = "this",
};

#define TI(n, sz, sg) { n, { .kind = DIF_TYPE_INT, .size = sz, .sign = sg } }
#define TF(n, sz) { n, { .kind = DT_FLOAT, .size = sz } }
struct named_type { const char *name; struct dtype t; };

/* libdtrace's intrinsic types (dt_open.c, LP64), by the name dt_decl_type builds */
static const struct named_type intrinsics[] = {
    { "void", { .kind = DT_NONE } }, TI("signed", 4, 1), TI("unsigned", 4, 0),
    TI("char", 1, 1), TI("short", 2, 1), TI("int", 4, 1), TI("long", 8, 1),
    TI("long long", 8, 1), TI("signed char", 1, 1), TI("signed short", 2, 1),
    TI("signed int", 4, 1), TI("signed long", 8, 1), TI("signed long long", 8, 1),
    TI("unsigned char", 1, 0), TI("unsigned short", 2, 0), TI("unsigned int", 4, 0),
    TI("unsigned long", 8, 0), TI("unsigned long long", 8, 0), TF("float", 4),
    TF("double", 8), TF("long double", 16),
};

/* the typedefs every D program has (dt_open.c's LP64 table; id_t kept as this D's int) */
static const struct named_type builtin_typedefs[] = {
    TI("int8_t", 1, 1), TI("int16_t", 2, 1), TI("int32_t", 4, 1), TI("int64_t", 8, 1),
    TI("intptr_t", 8, 1), TI("ssize_t", 8, 1), TI("uint8_t", 1, 0), TI("uint16_t", 2, 0),
    TI("uint32_t", 4, 0), TI("uint64_t", 8, 0), TI("uchar_t", 1, 0), TI("ushort_t", 2, 0),
    TI("uint_t", 4, 0), TI("ulong_t", 8, 0), TI("u_longlong_t", 8, 0), TI("ptrdiff_t", 8, 1),
    TI("uintptr_t", 8, 0), TI("size_t", 8, 0), TI("id_t", 4, 1), TI("pid_t", 4, 1),
    { "string", { .kind = DIF_TYPE_STR } },
};

static const struct named_type *named_find(const struct named_type *tab, size_t n,
                                           const char *name)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(tab[k].name, name))
            return &tab[k];
    return NULL;
}
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct named_type *typedef_builtin(const char *s)
{
    return named_find(builtin_typedefs, NELEM(builtin_typedefs), s);
}

static int word_in(const char *s, const char *const *words, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (words[k] && !strcmp(words[k], s))
            return 1;
    return 0;
}

static const char *const spec_words[] = { "void", "char", "short", "int", "long", "float",
    "double", "signed", "unsigned", "const", "volatile", "restrict", "struct", "union", "enum",
    "userland" };

/* dcc_type_start: does a type name start here (a cast, sizeof, a member, a parameter)? */
int dcc_type_start(struct dcc *cc)
{
    return (cc->tok == T_IDENT || cc->tok == T_PDESC) &&
           (word_in(cc->tokstr, spec_words, NELEM(spec_words)) ||
            typedef_builtin(cc->tokstr) || dcc_name_find(cc, cc->tokstr, DNAME_TYPEDEF) ||
            dcc_ctype(cc->tokstr, &(struct dtype){ 0 }));
}

/* dcc_decl_start: does a top-level declaration start here? */
int dcc_decl_start(struct dcc *cc)
{
    return dcc_type_start(cc) || word_in(cc->tokstr, class_words, NELEM(class_words)) ||
           !strcmp(cc->tokstr, "inline") || !strcmp(cc->tokstr, "translator");
}

/* dt_decl_check's rules, made after each type word */
static void spec_check(struct dcc *cc, const struct dspecs *sp)
{
    if (sp->kind == SK_NONE)
        return;
    if (sp->name && !strcmp(sp->name, "char") && (sp->attr & (DA_SHORT | DA_LONG | DA_LONGLONG)))
        dcc_error(cc, cc->tokline, "D_DECL_CHARATTR", "invalid type declaration: short and "
                  "long may not be used with char type");
    if (sp->name && !strcmp(sp->name, "void") && sp->attr)
        dcc_error(cc, cc->tokline, "D_DECL_VOIDATTR", "invalid type declaration: attributes "
                  "may not be used with void type");
    if (sp->kind != SK_INT && (sp->attr & (DA_SIGNED | DA_UNSIGNED)))
        dcc_error(cc, cc->tokline, "D_DECL_SIGNINT", "invalid type declaration: signed and "
                  "unsigned may only be used with integer type");
    if (sp->kind != SK_INT && sp->kind != SK_FLOAT && (sp->attr & (DA_LONG | DA_LONGLONG)))
        dcc_error(cc, cc->tokline, "D_DECL_LONGINT", "invalid type declaration: long and "
                  "long long may only be used with integer or floating-point type");
}

static void spec_set(struct dcc *cc, struct dspecs *sp, int kind, const char *name)
{
    if (sp->name || sp->kind != SK_NONE)
        dcc_error(cc, cc->tokline, "D_DECL_COMBO", "invalid type combination");
    sp->kind = kind;
    sp->name = name;
    spec_check(cc, sp);
}

/* dt_decl_attr (Apple's, which refuses repeated attributes) */
static void spec_attr(struct dcc *cc, struct dspecs *sp, unsigned a)
{
    static const char *const what[] = { "unsigned", "signed", "short" };
    static const unsigned bit[] = { DA_UNSIGNED, DA_SIGNED, DA_SHORT };
    for (int k = 0; k < 3; k++)
        if ((a & bit[k]) && (sp->attr & bit[k]))
            dcc_error(cc, cc->tokline, "D_DECL_COMBO", "The '%s' attribute must not be used "
                      "more than once in a declaration", what[k]);
    if ((a & DA_LONG) && (sp->attr & DA_LONGLONG))
        dcc_error(cc, cc->tokline, "D_DECL_COMBO", "The 'long' attribute must not be used "
                  "more than twice in a declaration");
    if (a == DA_LONG && (sp->attr & DA_LONG)) {
        sp->attr &= ~(unsigned)DA_LONG;
        a = DA_LONGLONG;
    }
    sp->attr |= a;
    spec_check(cc, sp);
}

static struct dtype parse_enum(struct dcc *cc);
static int64_t enum_value(struct dcc *cc);
static struct dtype parse_sou(struct dcc *cc);

/* specs: declaration specifiers; storage classes only if `classes`. Returns how many words
 * it took. A typedef name after a type is the declarator's identifier (dt_decl_spec). */
static unsigned specs(struct dcc *cc, struct dspecs *sp, int classes)
{
    unsigned n = 0;
    memset(sp, 0, sizeof(*sp));
    for (;; n++) {
        if (cc->tok != T_IDENT && cc->tok != T_PDESC)
            return n;
        const char *w = cc->tokstr;
        int cls = 0;
        for (int k = DC_AUTO; k <= DC_THIS; k++)
            if (!strcmp(w, class_words[k]))
                cls = k;
        if (cls) {
            if (!classes)
                return n;
            if (sp->cls != DC_NONE)
                dcc_error(cc, cc->tokline, "D_DECL_CLASS", "only one storage class allowed "
                          "in a declaration");
            sp->cls = cls;
        } else if (!strcmp(w, "const") || !strcmp(w, "volatile") || !strcmp(w, "restrict") ||
                   !strcmp(w, "userland")) {
            /* qualifiers: nothing in this D */
        } else if (!strcmp(w, "void") || !strcmp(w, "char") || !strcmp(w, "int")) {
            spec_set(cc, sp, SK_INT, w);
        } else if (!strcmp(w, "float") || !strcmp(w, "double")) {
            spec_set(cc, sp, SK_FLOAT, w);
        } else if (!strcmp(w, "short") || !strcmp(w, "long") || !strcmp(w, "signed") ||
                   !strcmp(w, "unsigned")) {
            spec_attr(cc, sp, w[1] == 'h' ? DA_SHORT : w[0] == 'l' ? DA_LONG :
                              w[0] == 's' ? DA_SIGNED : DA_UNSIGNED);
        } else if (!strcmp(w, "struct") || !strcmp(w, "union") || !strcmp(w, "enum")) {
            if (sp->name || sp->kind != SK_NONE)
                dcc_error(cc, cc->tokline, "D_DECL_COMBO", "invalid type combination");
            int kind = w[0] == 'e' ? SK_ENUM : SK_SOU;
            sp->t = kind == SK_ENUM ? parse_enum(cc) : parse_sou(cc);
            sp->kind = kind;
            sp->name = w;
            spec_check(cc, sp);
            continue; /* parse_enum/parse_sou moved past the type */
        } else {
            struct dname *td = dcc_name_find(cc, w, DNAME_TYPEDEF);
            const struct named_type *bt = td ? NULL : typedef_builtin(w);
            struct dtype ct = { 0 };
            if (!td && !bt && !dcc_ctype(w, &ct))
                return n;
            if (sp->name || sp->kind != SK_NONE) {
                if (sp->cls == DC_TYPEDEF)
                    dcc_error(cc, cc->tokline, "D_DECL_IDRED", "identifier redeclared: %s", w);
                return n; /* the name being declared */
            }
            spec_set(cc, sp, SK_TYPEDEF, w);
            sp->t = td ? td->type : bt ? bt->t : ct;
        }
        next(cc);
    }
}

/* spec_type: the type the specifiers name (dt_decl_top, dt_decl_type): integer and floating
 * types by the name libdtrace builds ("unsigned short", "long long"); none known is
 * D_UNKNOWN. No type word at all is int. */
static struct dtype spec_type(struct dcc *cc, struct dspecs *sp, int line)
{
    if (sp->kind == SK_NONE) {
        sp->kind = SK_INT;
        spec_check(cc, sp);
    }
    if (sp->kind != SK_INT && sp->kind != SK_FLOAT)
        return sp->t;
    char name[48] = "";
    if (sp->attr & DA_SIGNED) strcat(name, "signed ");
    if (sp->attr & DA_UNSIGNED) strcat(name, "unsigned ");
    if (sp->attr & DA_SHORT) strcat(name, "short ");
    if (sp->attr & DA_LONG) strcat(name, "long ");
    if (sp->attr & DA_LONGLONG) strcat(name, "long long ");
    if (!sp->attr && !sp->name)
        strcat(name, "int");
    if (sp->name && (sp->kind != SK_INT || !(sp->attr & (DA_SHORT | DA_LONG | DA_LONGLONG))))
        strcat(name, sp->name);
    size_t len = strlen(name);
    while (len && name[len - 1] == ' ')
        name[--len] = 0;
    const struct named_type *it = named_find(intrinsics, NELEM(intrinsics), name);
    if (!it)
        dcc_error(cc, line, "D_UNKNOWN", "failed to resolve type %s: Unknown type name", name);
    return it->t;
}

static int is_void(struct dtype t) { return t.kind == DT_NONE && !t.ptr; }

/* ---- declarators -------------------------------------------------------------------------- */

enum { DOP_PTR, DOP_ARR, DOP_FUNC };
struct dop {
    uint8_t kind;
    uint8_t assoc;      /* DOP_ARR with a tuple signature */
    uint32_t nelem;     /* DOP_ARR: 0 for [] */
    char keys[DIF_TUPMAX + 1];
};
#define DECL_MAXOPS 16

/* A declarator: its name (NULL when abstract) and what it makes of the base type, in the
 * order C reads it (`*a[5]`: an array of 5 pointers: ARR, PTR). */
struct declr {
    const char *name;
    int line;
    unsigned nops;
    struct dop ops[DECL_MAXOPS];
    const char *pnames[DIF_TUPMAX];  /* the last tuple signature's parameters (inline arrays) */
    struct dtype ptypes[DIF_TUPMAX];
};

struct dparam {
    struct dtype t;
    const char *name;
    int line;
    uint8_t isvoid, dynamic, varargs;
};
#define DECL_MAXPARAMS 32
enum { DP_VARARGS = 1, DP_VOID = 2 };

static void declarator(struct dcc *cc, struct declr *d, int abstract);

static struct dop *op_add(struct dcc *cc, struct declr *d, int kind)
{
    if (d->nops == DECL_MAXOPS)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "declarator nested too deeply");
    struct dop *o = &d->ops[d->nops++];
    memset(o, 0, sizeof(*o));
    o->kind = (uint8_t)kind;
    return o;
}

static int is_ellipsis(struct dcc *cc)
{
    if (cc->tok != T_DOT || cc->end - cc->p < 2 || cc->p[0] != '.' || cc->p[1] != '.')
        return 0;
    cc->p += 2;
    next(cc);
    return 1;
}

/* dt_decl_prototype: the checks of a function's or an associative array's parameters */
static void prototype(struct dcc *cc, const struct dparam *p, unsigned n, const char *kind,
                      unsigned flags)
{
    unsigned v = 0;
    for (unsigned k = 0; k < n; k++) {
        const char *pn = p[k].name ? p[k].name : "(anonymous)";
        if (p[k].varargs && !(flags & DP_VARARGS))
            dcc_error(cc, p[k].line, "D_DECL_PROTO_VARARGS", "%s prototype may not use a "
                      "variable-length argument list", kind);
        if (p[k].dynamic)
            dcc_error(cc, p[k].line, "D_DECL_PROTO_TYPE", "%s prototype may not use "
                      "parameter of type <DYN>: %s, parameter #%u", kind, pn, k + 1);
        v += p[k].isvoid;
        if (p[k].isvoid && !(flags & DP_VOID))
            dcc_error(cc, p[k].line, "D_DECL_PROTO_TYPE", "%s prototype may not use "
                      "parameter of type void: %s, parameter #%u", kind, pn, k + 1);
        if (p[k].isvoid && p[k].name)
            dcc_error(cc, p[k].line, "D_DECL_PROTO_NAME", "void parameter may not have a "
                      "name: %s", p[k].name);
        for (unsigned j = 0; p[k].name && j < k; j++)
            if (p[j].name && !strcmp(p[j].name, p[k].name))
                dcc_error(cc, p[k].line, "D_DECL_PROTO_FORM", "parameter is already declared "
                          "in %s prototype: %s, parameter #%u", kind, p[k].name, k + 1);
    }
    if (v && n > 1)
        dcc_error(cc, p[0].line, "D_DECL_PROTO_VOID", "void must be sole parameter");
}

/* params: a parameter list up to `close` (eaten): declarations with optional names. */
static unsigned params(struct dcc *cc, struct dparam *p, int close)
{
    unsigned n = 0;
    if (cc->tok == close) {
        next(cc);
        return 0;
    }
    for (;;) {
        if (n == DECL_MAXPARAMS)
            dcc_error(cc, cc->tokline, "D_SYNTAX", "too many parameters");
        struct dparam *q = &p[n++];
        memset(q, 0, sizeof(*q));
        q->line = cc->tokline;
        if (is_ellipsis(cc)) {
            q->varargs = 1;
        } else {
            struct dspecs sp;
            if (!specs(cc, &sp, 1))
                dcc_syntax(cc);
            struct declr d;
            declarator(cc, &d, 1);
            if (sp.cls != DC_NONE && sp.cls != DC_REGISTER)
                dcc_error(cc, q->line, "D_DECL_PARMCLASS", "inappropriate storage class for "
                          "function or associative array parameter");
            struct dtype base = spec_type(cc, &sp, q->line);
            q->name = d.name;
            q->dynamic = d.nops && d.ops[0].kind == DOP_ARR && d.ops[0].assoc;
            q->isvoid = !d.nops && is_void(base);
            q->t = d.nops ? dcc_ptr_to(base) : base; /* its exact type does not matter */
        }
        if (cc->tok == T_COMMA) {
            next(cc);
            continue;
        }
        dcc_expect(cc, close);
        return n;
    }
}

/* A positive integral constant (array dimensions and bit-field widths); 0 if it is not one. */
static int64_t posconst(struct dcc *cc)
{
    int64_t v;
    struct dnode *e = dcc_cond(cc);
    if (!dcc_fold_ok(e, &v) || v <= 0)
        return 0;
    return v;
}

/* array_suffix: [N], [] or [tuple signature] after a declarator */
static void array_suffix(struct dcc *cc, struct declr *d)
{
    int line = cc->tokline;
    next(cc);
    struct dop *o = op_add(cc, d, DOP_ARR);
    if (cc->tok == T_RBRACK) {
        o->nelem = 0;
    } else if (dcc_type_start(cc) || (cc->tok == T_DOT) ||
               (cc->tok == T_IDENT && word_in(cc->tokstr, class_words, NELEM(class_words)))) {
        struct dparam p[DECL_MAXPARAMS];
        unsigned n = params(cc, p, T_RBRACK);
        prototype(cc, p, n, "array", 0);
        if (n > DIF_TUPMAX)
            dcc_error(cc, line, "D_DECL_ARRBIG", "too many keys");
        for (unsigned k = 0; k < n; k++) {
            d->pnames[k] = p[k].name;
            d->ptypes[k] = p[k].t;
            /* a struct/union key must be complete: its bytes are the key (else `string
             * names[struct ptt];` would compile, then fail verification) */
            if (!p[k].t.ptr && p[k].t.kind == DT_SOU &&
                (!dcc_sou(cc, p[k].t)->complete || !dcc_type_size(cc, p[k].t)))
                dcc_error(cc, p[k].line, "D_DECL_INCOMPLETE", "associative array key of "
                          "incomplete type %s %s", dcc_sou_kind(dcc_sou(cc, p[k].t)),
                          dcc_sou(cc, p[k].t)->tag ? dcc_sou(cc, p[k].t)->tag : "(anon)");
        }
        for (unsigned k = 0; k < n; k++)
            o->keys[k] = p[k].t.kind == DIF_TYPE_STR && !p[k].t.ptr ? 's'
                       : p[k].t.kind == DT_SOU && !p[k].t.ptr ? (char)(DCC_KEY_SOU + p[k].t.sou) : 'l';
        o->assoc = 1;
        return;
    } else {
        int64_t v = posconst(cc);
        if (!v)
            dcc_error(cc, line, "D_DECL_ARRSUB", "positive integral constant expression or "
                      "tuple signature expected as array declaration subscript");
        if ((uint64_t)v > UINT32_MAX)
            dcc_error(cc, line, "D_DECL_ARRBIG", "array dimension too big");
        o->nelem = (uint32_t)v;
    }
    dcc_expect(cc, T_RBRACK);
}

/* declarator: `*`s, a name or ( declarator ), then [ ] and ( ) suffixes. An abstract one (a
 * type name, a parameter) may leave the name out. */
static void declarator(struct dcc *cc, struct declr *d, int abstract)
{
    unsigned stars = 0;
    if (cc->depth++ > 32)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "declarator nested too deeply");
    d->name = NULL;
    d->line = cc->tokline;
    d->nops = 0;
    while (cc->tok == T_STAR || dcc_is_word(cc, "const") || dcc_is_word(cc, "volatile") ||
           dcc_is_word(cc, "restrict")) {
        stars += cc->tok == T_STAR;
        next(cc);
    }
    struct declr inner = { 0 };
    int nested = 0;
    if ((cc->tok == T_IDENT || cc->tok == T_PDESC) && !(abstract && dcc_type_start(cc))) {
        d->name = cc->tokstr;
        d->line = cc->tokline;
        next(cc);
    } else if (cc->tok == T_LPAR) {
        const char *save = cc->p;
        int sline = cc->line;
        next(cc);
        if (!abstract || cc->tok == T_STAR || cc->tok == T_LPAR ||
            (cc->tok == T_IDENT && !dcc_type_start(cc))) {
            declarator(cc, &inner, abstract);
            dcc_expect(cc, T_RPAR);
            nested = 1;
            d->name = inner.name;
            d->line = inner.line;
        } else {
            cc->p = save;
            cc->line = sline;
            cc->tok = T_LPAR;
        }
    } else if (!abstract) {
        dcc_syntax(cc);
    }
    /* the nested declarator's ops apply first: int (*fp)(void) is a pointer to a function */
    for (unsigned k = 0; nested && k < inner.nops; k++)
        *op_add(cc, d, inner.ops[k].kind) = inner.ops[k];
    if (nested) {
        memcpy(d->pnames, inner.pnames, sizeof(d->pnames));
        memcpy(d->ptypes, inner.ptypes, sizeof(d->ptypes));
    }
    for (;;) {
        if (cc->tok == T_LBRACK) {
            array_suffix(cc, d);
        } else if (cc->tok == T_LPAR) {
            next(cc);
            struct dparam p[DECL_MAXPARAMS];
            unsigned n = params(cc, p, T_RPAR);
            prototype(cc, p, n, "function", DP_VARARGS | DP_VOID);
            op_add(cc, d, DOP_FUNC);
        } else {
            break;
        }
    }
    while (stars--)
        op_add(cc, d, DOP_PTR);
    cc->depth--;
}

/* What a declarator declares: a function, an associative array (keys), an array of nelem
 * elements (multi-dimensional arrays flattened), or an object of type t. `odd`: a type this
 * D cannot hold (a pointer to an array, an array of functions). */
struct dres {
    struct dtype t;
    uint8_t isfunc, isarr, assoc, arrnull, odd;
    uint32_t nelem;
    char keys[DIF_TUPMAX + 1];
};

static void resolve(struct dcc *cc, struct dtype base, const struct declr *d, struct dres *r)
{
    memset(r, 0, sizeof(*r));
    unsigned k = 0;
    if (d->nops && d->ops[0].kind == DOP_FUNC) {
        r->isfunc = 1;
        return;
    }
    if (d->nops && d->ops[0].kind == DOP_ARR && d->ops[0].assoc) {
        r->assoc = 1;
        memcpy(r->keys, d->ops[0].keys, sizeof(r->keys));
        k = 1;
        if (k < d->nops && d->ops[k].kind == DOP_ARR)
            dcc_error(cc, d->line, "D_DECL_DYNOBJ", "cannot declare array of associative "
                      "arrays");
    } else {
        uint64_t n = 1;
        for (; k < d->nops && d->ops[k].kind == DOP_ARR; k++) {
            if (d->ops[k].assoc)
                dcc_error(cc, d->line, "D_DECL_DYNOBJ", "cannot declare array of "
                          "associative arrays");
            if (!d->ops[k].nelem)
                r->arrnull = 1;
            n *= d->ops[k].nelem;
            if (n > UINT32_MAX)
                dcc_error(cc, d->line, "D_DECL_ARRBIG", "array dimension too big");
            r->isarr = 1;
        }
        r->nelem = (uint32_t)n;
        if (r->isarr && is_void(base) && k == d->nops)
            dcc_error(cc, d->line, "D_DECL_VOIDOBJ", "cannot declare array of void");
    }
    struct dtype t = base;
    int fn = 0;
    for (unsigned j = d->nops; j-- > k;) {
        const struct dop *o = &d->ops[j];
        if (o->kind == DOP_PTR) {
            if (fn) { /* a pointer to a function: an address, as a void * */
                t = dcc_ptr_to((struct dtype){ .kind = DT_NONE });
                fn = 0;
            } else {
                if (t.ptr == 255)
                    dcc_syntax(cc);
                t = dcc_ptr_to(t);
            }
        } else if (o->kind == DOP_FUNC) {
            fn = 1;
        } else {
            r->odd = 1;
        }
    }
    if (fn)
        r->odd = 1;
    r->t = t;
}

/* dcc_parse_type: a type name (casts, sizeof, offsetof, xlate): specifiers and an abstract
 * declarator. */
struct dtype dcc_parse_type(struct dcc *cc)
{
    int line = cc->tokline;
    struct dspecs sp;
    if (!specs(cc, &sp, 0))
        dcc_syntax(cc);
    struct declr d;
    declarator(cc, &d, 1);
    if (d.name)
        dcc_syntax(cc);
    struct dtype base = spec_type(cc, &sp, line);
    struct dres r;
    resolve(cc, base, &d, &r);
    if (r.isfunc || r.isarr || r.assoc || r.odd)
        dcc_error(cc, line, "D_UNSUPPORTED", "array and function type names are not "
                  "supported in this D subset");
    return r.t;
}

/* member_type: the specifiers of a struct or union member (no storage class). */
static struct dtype member_base(struct dcc *cc)
{
    int line = cc->tokline;
    struct dspecs sp;
    if (!specs(cc, &sp, 0))
        dcc_syntax(cc);
    return spec_type(cc, &sp, line);
}

/* stars: the '*'s of a simple declarator, added to t. */
static struct dtype stars(struct dcc *cc, struct dtype t)
{
    while (cc->tok == T_STAR) {
        if (t.ptr == 255)
            dcc_syntax(cc);
        t = dcc_ptr_to(t);
        next(cc);
    }
    return t;
}

/* ---- enums, structs and unions, translators (dt_decl_enum, dt_decl_sou, dt_xlator) --------- */

/* tag_opt: the tag after `enum`, `struct` or `union` (the keyword read), NULL if none; one
 * with neither a tag nor a body `{` is a syntax error. */
static const char *tag_opt(struct dcc *cc)
{
    const char *tag = NULL;
    if (cc->tok == T_IDENT) {
        tag = cc->tokstr;
        next(cc);
    }
    if (cc->tok != T_LBRACE && !tag)
        dcc_syntax(cc);
    return tag;
}

/* enum [tag] [{ A [= value], ... }]: declares the enumerators (constants of type int, as in
 * C); the type is int. Names are unique across every enum and typedef (D_DECL_IDRED), and
 * within one enum (D_UNKNOWN, libdtrace's tag for a repeated enumerator). */
static struct dtype parse_enum(struct dcc *cc)
{
    int line = cc->tokline;
    next(cc); /* enum */
    const char *tag = tag_opt(cc);
    if (cc->tok != T_LBRACE) {
        if (!dcc_name_find(cc, tag, DNAME_ENUMTAG))
            dcc_error(cc, line, "D_DECL_INCOMPLETE", "declaration of incomplete type enum %s",
                      tag);
        return (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    }
    if (tag) {
        if (dcc_name_find(cc, tag, DNAME_ENUMTAG))
            dcc_error(cc, line, "D_DECL_TYPERED", "type redeclared: enum %s", tag);
        dcc_name_add(cc, tag, DNAME_ENUMTAG, line);
    }
    unsigned group = ++cc->nenums;
    int64_t v = 0;
    next(cc);
    while (cc->tok != T_RBRACE) {
        if (cc->tok != T_IDENT)
            dcc_syntax(cc);
        const char *n = cc->tokstr;
        int nline = cc->tokline;
        struct dname *old = dcc_name_find(cc, n, DNAME_ENUMERATOR);
        if (old && old->group == group)
            dcc_error(cc, nline, "D_UNKNOWN", "failed to define %s: enumerator redeclared", n);
        if (old || dcc_name_find(cc, n, DNAME_TYPEDEF) || dcc_name_find(cc, n, DNAME_INLINE))
            dcc_error(cc, nline, "D_DECL_IDRED", "identifier redeclared: %s", n);
        next(cc);
        if (cc->tok == T_ASSIGN) {
            next(cc);
            v = enum_value(cc);
        }
        if (v < INT32_MIN || v > INT32_MAX)
            dcc_error(cc, nline, "D_DECL_ENOFLOW", "enumerator '%s' value overflows INT_MAX "
                      "(%d)", n, (int)INT32_MAX);
        struct dname *d = dcc_name_add(cc, n, DNAME_ENUMERATOR, nline);
        d->val = v++;
        d->group = group;
        d->type = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
        if (cc->tok == T_COMMA) {
            next(cc);
            continue;
        }
        if (cc->tok != T_RBRACE)
            dcc_syntax(cc);
    }
    next(cc);
    return (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
}

/* An enumerator's value: an integer constant expression of literals and enumerators. */
static int64_t enum_fold(struct dcc *cc, const struct dnode *n)
{
    int64_t v;
    if (dcc_fold_ok(n, &v))
        return v;
    dcc_error(cc, n->line, "D_DECL_ENCONST", "enumerator must be assigned an integral constant "
              "expression");
}

static int64_t enum_value(struct dcc *cc)
{
    return enum_fold(cc, dcc_cond(cc));
}

/* struct|union [tag] [{ members }]: a reference to a tag (incomplete until it is defined) or
 * a definition. Members: a type, then declarators `*name[N][M] : bits` separated by commas.
 * The checks run in libdtrace's order (dt_decl_member) so that the same tags come out. */
/* anon_member: an unnamed struct or union member; its members are found by name in s too
 * (s->anon, copies at their offsets in s). */
static void anon_member(struct dcc *cc, struct dsou *s, struct dtype mt, int line)
{
    dcc_member_add(cc, s, NULL, mt, 1, 0, line);
    uint32_t base = s->last->off;
    const struct dsou *in = dcc_sou(cc, mt);
    for (int pass = 0; pass < 2; pass++) {
        for (const struct dmember *m = pass ? in->anon : in->members; m; m = m->next) {
            if (!m->name)
                continue;
            if (dcc_member_find(s, m->name))
                dcc_error(cc, line, "D_UNKNOWN", "failed to define member '%s': Duplicate "
                          "member or variable name", m->name);
            struct dmember *c = dcc_alloc(cc, sizeof(*c));
            *c = *m;
            c->off += base;
            c->next = s->anon;
            s->anon = c;
        }
    }
}

/* member_dims: a member's array dimensions ([2][3], or [] for 0 elements), if any: their
 * product, with *isarr set when there is one */
static uint64_t member_dims(struct dcc *cc, int mline, int *isarr)
{
    uint64_t nelem = 1;
    while (cc->tok == T_LBRACK) {
        next(cc);
        *isarr = 1;
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
        dcc_expect(cc, T_RBRACK);
    }
    return nelem;
}

/* member_bits: a bit-field's width (the expression width): a positive constant no wider than
 * its integer type; *skip for C's `int : 0` (no more packing, which this layout never does),
 * which adds no member. */
static unsigned member_bits(struct dcc *cc, struct dnode *width, const char *name,
                            struct dtype mt, int isarr, int mline, int *skip)
{
    const char *idname = name ? name : "(anon)";
    int64_t v;
    int isconst = dcc_fold_ok(width, &v);
    if (!name && isconst && v == 0) {
        *skip = 1;
        return 0;
    }
    if (!isconst || v <= 0)
        dcc_error(cc, mline, "D_DECL_BFCONST", "positive integral constant "
                  "expression expected as bit-field size");
    if (mt.kind != DIF_TYPE_INT || mt.ptr || isarr)
        dcc_error(cc, mline, "D_DECL_BFTYPE", "invalid type for bit-field: %s", idname);
    if (v > 8 * mt.size)
        dcc_error(cc, mline, "D_DECL_BFSIZE", "bit-field too big for type: %s", idname);
    return (unsigned)v;
}

/* sou_member: one declarator of a member declaration of s (its type base), the member added
 * (an unnamed struct or union inside: its members, C11's); *mline the line of the member named
 * last. 1 when another declarator follows (after a comma), 0 at the declaration's end. */
static int sou_member(struct dcc *cc, struct dsou *s, struct dtype base, int *mline)
{
    struct dtype mt = stars(cc, base);
    const char *name = NULL;
    if (cc->tok == T_IDENT) {
        name = cc->tokstr;
        *mline = cc->tokline;
        next(cc);
    }
    if (cc->tok == T_LPAR) /* a function: it has no size */
        dcc_error(cc, *mline, "D_DECL_VOIDOBJ", "cannot have void member: %s",
                  name ? name : "(anon)");
    int isarr = 0;
    uint64_t nelem = member_dims(cc, *mline, &isarr);
    int hasbits = cc->tok == T_COLON;
    struct dnode *width = NULL;
    if (hasbits) {
        next(cc);
        width = dcc_cond(cc);
    }
    if (!name && !hasbits && mt.kind == DT_SOU && !mt.ptr && !isarr &&
        !dcc_sou(cc, mt)->tag && dcc_sou(cc, mt)->complete) {
        anon_member(cc, s, mt, *mline); /* struct { int a; } inside: C11's members */
        dcc_expect(cc, T_SEMI);
        return 0;
    }
    if (!name && !hasbits)
        dcc_error(cc, *mline, "D_DECL_MNAME", "member declaration requires a name");
    const char *idname = name ? name : "(anon)";
    if (!mt.ptr && mt.kind == DT_SOU &&
        (dcc_sou(cc, mt) == s || !dcc_sou(cc, mt)->complete ||
         !dcc_type_size(cc, mt)))
        dcc_error(cc, *mline, "D_DECL_INCOMPLETE", "incomplete struct/union/enum %s %s: "
                  "%s", dcc_sou_kind(dcc_sou(cc, mt)),
                  dcc_sou(cc, mt)->tag ? dcc_sou(cc, mt)->tag : "(anon)", idname);
    int skip = 0;
    unsigned bits = hasbits ? member_bits(cc, width, name, mt, isarr, *mline, &skip) : 0;
    if (!skip) {
        dcc_member_add(cc, s, name, mt, (uint32_t)nelem, bits, *mline);
        s->last->isarr = (uint8_t)isarr;
    }
    if (cc->tok == T_COMMA) {
        next(cc);
        return 1;
    }
    dcc_expect(cc, T_SEMI);
    return 0;
}

static struct dtype parse_sou(struct dcc *cc)
{
    int is_union = cc->tokstr[0] == 'u', line = cc->tokline;
    next(cc);
    const char *tag = tag_opt(cc);
    if (cc->tok != T_LBRACE)
        return dcc_sou_get(cc, tag, is_union, line);
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
        if (!dcc_type_start(cc))
            dcc_syntax(cc);
        struct dtype base = member_base(cc);
        while (sou_member(cc, s, base, &mline))
            ;
    }
    next(cc);
    s->complete = 1;
    return t;
}

static int same_type(struct dtype a, struct dtype b)
{
    return a.kind == b.kind && a.size == b.size && a.sign == b.sign && a.ptr == b.ptr &&
           a.sou == b.sou && a.pkind == b.pkind && a.psize == b.psize && a.psign == b.psign;
}

/* translator T < S p > { m = expr; ... }: T must be a struct or union, each m one of its
 * members, once; a second translator for the same pair is D_XLATE_REDECL. xlate expands the
 * member's expression where it is used, p standing for xlate's operand (cg_xlate.c). */
static void translator(struct dcc *cc)
{
    int line = cc->tokline;
    next(cc);
    struct dxlator *x = dcc_alloc(cc, sizeof(*x));
    x->dst = stars(cc, member_base(cc));
    dcc_expect(cc, T_LT);
    x->src = stars(cc, member_base(cc));
    if (cc->tok != T_IDENT)
        dcc_syntax(cc);
    x->pname = cc->tokstr;
    next(cc);
    dcc_expect(cc, T_GT);
    if (x->dst.kind != DT_SOU || x->dst.ptr)
        dcc_error(cc, line, "D_XLATE_SOU", "translator output type must be a struct or union");
    if (!dcc_sou(cc, x->dst)->complete)
        dcc_error(cc, line, "D_XLATE_SOU", "incomplete struct/union/enum %s %s",
                  dcc_sou_kind(dcc_sou(cc, x->dst)), dcc_sou(cc, x->dst)->tag);
    for (struct dxlator *o = cc->xlators; o; o = o->next)
        if (same_type(o->dst, x->dst) && same_type(o->src, x->src))
            dcc_error(cc, line, "D_XLATE_REDECL", "translator has already been declared");
    dcc_expect(cc, T_LBRACE);
    struct dxmember **tail = &x->members;
    while (cc->tok != T_RBRACE) {
        if (cc->tok != T_IDENT)
            dcc_syntax(cc);
        struct dxmember *m = dcc_alloc(cc, sizeof(*m));
        m->name = cc->tokstr;
        m->line = cc->tokline;
        if (!dcc_member_find(dcc_sou(cc, x->dst), m->name))
            dcc_error(cc, m->line, "D_XLATE_MEMB", "translator member %s is not a member of "
                      "%s %s", m->name, dcc_sou_kind(dcc_sou(cc, x->dst)),
                      dcc_sou(cc, x->dst)->tag ? dcc_sou(cc, x->dst)->tag : "(anon)");
        next(cc);
        dcc_expect(cc, T_ASSIGN);
        m->expr = dcc_assign(cc);
        dcc_expect(cc, T_SEMI);
        *tail = m;
        tail = &m->next;
    }
    next(cc);
    if (cc->tok != T_SEMI)
        dcc_syntax(cc);
    x->next = cc->xlators;
    cc->xlators = x;
}


/* inline type name = expr; (dt_node_inline): the expression, converted to the declared
 * type, is what the name stands for wherever it is used. */
static void inline_decl(struct dcc *cc)
{
    int line = cc->tokline;
    next(cc);
    struct dspecs sp;
    specs(cc, &sp, 1);
    struct declr d;
    declarator(cc, &d, 1);
    if (sp.cls != DC_NONE)
        dcc_error(cc, line, "D_DECL_BADCLASS", "specified storage class not appropriate for "
                  "inline declaration");
    if (!d.name)
        dcc_error(cc, line, "D_DECL_USELESS", "inline declaration requires a name");
    struct dtype t = spec_type(cc, &sp, line);
    struct dres r;
    resolve(cc, t, &d, &r);
    const char *name = d.name;
    int nline = d.line;
    if (dcc_name_find(cc, name, DNAME_INLINE) || dcc_name_find(cc, name, DNAME_ENUMERATOR) ||
        dcc_name_find(cc, name, DNAME_TYPEDEF))
        dcc_error(cc, nline, "D_DECL_IDRED", "identifier redeclared: %s", name);
    if (r.isarr)
        dcc_error(cc, nline, "D_DECL_ARRNULL", "inline declaration cannot be of scalar "
                  "array type: %s", name);
    for (unsigned k = 0; r.assoc && k < strlen(d.ops[0].keys); k++)
        if (!d.pnames[k])
            dcc_error(cc, nline, "D_DECL_PROTO_NAME", "inline array %s: parameter #%u "
                      "requires a name", name, k + 1);
    if (r.isfunc || r.odd)
        dcc_error(cc, nline, "D_UNSUPPORTED", "inline functions are not supported in this "
                  "D subset");
    t = r.t;
    dcc_expect(cc, T_ASSIGN);
    struct dnode *e = dcc_assign(cc);
    struct dname *dn = dcc_name_add(cc, name, DNAME_INLINE, nline);
    dn->type = t;
    if (r.assoc) { /* an inline array: its parameters are bound where it is used */
        dn->nparams = (unsigned)strlen(d.ops[0].keys);
        memcpy(dn->pnames, d.pnames, sizeof(dn->pnames));
        memcpy(dn->ptypes, d.ptypes, sizeof(dn->ptypes));
    }
    dn->seq = cc->ndecls++;
    *cc->inline_tail = dn; /* cg_xlate.c checks the definition where it stands */
    cc->inline_tail = &dn->inl_next;
    if (t.kind == DIF_TYPE_STR || (t.kind == DT_SOU && !t.ptr)) {
        dn->expr = e;
    } else { /* the value converted to the declared type, as C would */
        dn->expr = dcc_alloc(cc, sizeof(*dn->expr));
        dn->expr->kind = N_CAST;
        dn->expr->line = nline;
        dn->expr->type = t;
        dn->expr->a = e;
    }
    if (cc->tok != T_SEMI)
        dcc_syntax(cc);
}

/* one declarator of a top-level declaration, as dt_node_decl handles it */
static void declare_one(struct dcc *cc, struct dspecs *sp, const struct declr *d, int line)
{
    struct dtype base = spec_type(cc, sp, line);
    struct dres r;
    resolve(cc, base, d, &r);
    int cls = sp->cls;
    if (r.isfunc && (cls == DC_NONE || cls == DC_STATIC))
        cls = DC_EXTERN; /* a function prototype declares an extern */
    switch (cls) {
    case DC_AUTO: case DC_REGISTER: case DC_STATIC:
        dcc_error(cc, line, "D_DECL_BADCLASS", "specified storage class not appropriate in D");
    case DC_EXTERN:
        return; /* a kernel symbol: this system's kernel exports none to D */
    case DC_TYPEDEF:
        if (dcc_name_find(cc, d->name, DNAME_TYPEDEF) || typedef_builtin(d->name) ||
            dcc_name_find(cc, d->name, DNAME_ENUMERATOR))
            dcc_error(cc, d->line, "D_DECL_IDRED", "identifier redeclared: %s", d->name);
        if (r.isfunc || r.isarr || r.assoc || r.odd)
            dcc_error(cc, d->line, "D_UNSUPPORTED", "typedefs of array and function types "
                      "are not supported in this D subset: %s", d->name);
        dcc_name_add(cc, d->name, DNAME_TYPEDEF, d->line)->type = r.t;
        return;
    default:
        break;
    }
    if (r.arrnull)
        dcc_error(cc, d->line, "D_DECL_ARRNULL", "array declaration requires array dimension "
                  "or tuple signature: %s", d->name);
    if (dcc_name_find(cc, d->name, DNAME_TYPEDEF) || typedef_builtin(d->name))
        dcc_error(cc, d->line, "D_DECL_IDRED", "typedef identifier redeclared: %s", d->name);
    if (r.assoc && cls == DC_THIS)
        dcc_error(cc, d->line, "D_DECL_LOCASSC", "associative arrays may not be declared as "
                  "local variables: %s", d->name);
    if (is_void(r.t) && !r.isarr)
        dcc_error(cc, d->line, "D_DECL_VOIDOBJ", "cannot have void object: %s", d->name);
    if (r.odd)
        dcc_error(cc, d->line, "D_UNSUPPORTED", "variables of this type are not supported in "
                  "this D subset: %s", d->name);
    if (r.isarr && d->nops > 1 && d->ops[1].kind == DOP_ARR && !r.assoc)
        dcc_error(cc, d->line, "D_UNSUPPORTED", "declared arrays of arrays are not "
                  "supported");
    struct ddecl *v = dcc_alloc(cc, sizeof(*v));
    v->line = d->line;
    v->name = d->name;
    v->scope = cls == DC_SELF ? DIF_SCOPE_SELF : cls == DC_THIS ? DIF_SCOPE_THIS
                                                                : DIF_SCOPE_GLOBAL;
    v->type = r.t;
    v->isarr = r.isarr;
    v->nelem = r.nelem;
    v->assoc = r.assoc;
    v->seq = cc->ndecls++;
    memcpy(v->keys, r.keys, sizeof(v->keys));
    *cc->decl_tail = v;
    cc->decl_tail = &v->next;
}

/* dcc_declaration: a top-level declaration (the current token starts it). */
void dcc_declaration(struct dcc *cc)
{
    int line = cc->tokline;
    if (dcc_is_word(cc, "translator")) {
        translator(cc);
        return;
    }
    if (dcc_is_word(cc, "inline")) {
        inline_decl(cc);
        return;
    }
    struct dspecs sp;
    specs(cc, &sp, 1);
    if (cc->tok == T_SEMI) { /* no declarator: a struct, union or enum type, or useless */
        spec_type(cc, &sp, line);
        if (sp.kind != SK_SOU && sp.kind != SK_ENUM)
            dcc_error(cc, line, "D_DECL_USELESS", "useless declaration");
        return;
    }
    for (;;) {
        struct declr d;
        declarator(cc, &d, 0);
        declare_one(cc, &sp, &d, line);
        if (cc->tok == T_COMMA) {
            next(cc);
            continue;
        }
        if (cc->tok != T_SEMI)
            dcc_syntax(cc);
        return;
    }
}
