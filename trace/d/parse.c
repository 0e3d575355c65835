// SPDX-License-Identifier: MIT
// The D parser: recursive descent over the tokens of lex.c, building the clause list and
// declarations (dcc_impl.h) that cg*.c turn into DIF. Expression precedence is C's, with ^^
// between && and ||. Inside a predicate a '/' followed by '{' ends the predicate.
#include "dcc_impl.h"

static struct dnode *expr(struct dcc *cc);
static struct dnode *unary(struct dcc *cc);

static void next(struct dcc *cc) { dcc_lex_next(cc); }

_Noreturn void dcc_syntax(struct dcc *cc)
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

void dcc_expect(struct dcc *cc, int tok)
{
    if (cc->tok != tok)
        dcc_syntax(cc);
    next(cc);
}

static struct dnode *node(struct dcc *cc, int kind, int line)
{
    struct dnode *n = dcc_alloc(cc, sizeof(*n));
    n->kind = (uint8_t)kind;
    n->line = line;
    return n;
}

int dcc_is_word(struct dcc *cc, const char *w)
{
    return cc->tok == T_IDENT && strcmp(cc->tokstr, w) == 0;
}

struct dname *dcc_name_find(struct dcc *cc, const char *s, int kind)
{
    for (struct dname *d = cc->names; d; d = d->next)
        if (d->kind == kind && !strcmp(d->name, s))
            return d;
    return NULL;
}

struct dname *dcc_name_add(struct dcc *cc, const char *s, int kind, int line)
{
    struct dname *d = dcc_alloc(cc, sizeof(*d));
    d->name = s;
    d->kind = kind;
    d->line = line;
    d->next = cc->names;
    cc->names = d;
    return d;
}


/* fold_ok: the value of an integer constant expression of literals, enumerators, integer
 * inlines, sizeof and offsetof (which the parser turns into literals); 0 if n is not one. */
int dcc_fold_ok(const struct dnode *n, int64_t *v)
{
    int64_t a, b;
    switch (n->kind) {
    case N_INT: *v = n->ival; return 1;
    case N_CAST:
        if (n->type.kind != DIF_TYPE_INT || n->type.ptr || !dcc_fold_ok(n->a, v))
            return 0;
        if (n->type.size < 8) { /* as the VM's SEXT/ZEXT would */
            unsigned sh = 64u - 8u * n->type.size;
            *v = n->type.sign ? (int64_t)((uint64_t)*v << sh) >> sh
                              : (int64_t)(((uint64_t)*v << sh) >> sh);
        }
        return 1;
    case N_UN:
        if (!dcc_fold_ok(n->a, &a))
            return 0;
        if (n->op == T_MINUS) { *v = (int64_t)(0 - (uint64_t)a); return 1; }
        if (n->op == T_PLUS) { *v = a; return 1; }
        if (n->op == T_TILDE) { *v = ~a; return 1; }
        if (n->op == T_NOT) { *v = !a; return 1; }
        return 0;
    case N_BIN: {
        if (!dcc_fold_ok(n->a, &a) || !dcc_fold_ok(n->b, &b))
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
        case T_LAND: r = a && b; break;
        case T_LOR: r = a || b; break;
        case T_LXOR: r = !a != !b; break;
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

static struct dnode *arglist(struct dcc *cc, int close)
{
    struct dnode *head = NULL, **tail = &head;
    if (cc->tok == close) {
        next(cc);
        return NULL;
    }
    for (;;) {
        struct dnode *a = dcc_assign(cc);
        *tail = a;
        tail = &a->next;
        if (cc->tok == T_COMMA) {
            next(cc);
            continue;
        }
        dcc_expect(cc, close);
        return head;
    }
}

/* sizeof_expr: sizeof expr, sizeof (expr) or sizeof (type): a type's size is a constant, as
 * in libdtrace */
static struct dnode *sizeof_expr(struct dcc *cc, int line)
{
    struct dnode *n;
    n = node(cc, N_SIZEOF, line);
    next(cc);
    if (cc->tok != T_LPAR) { /* sizeof expr */
        n->a = unary(cc);
        return n;
    }
    const char *save = cc->p;
    int sline = cc->line;
    next(cc);
    if (dcc_type_start(cc)) { /* a type's size is a constant, as in libdtrace */
        struct dtype t = dcc_parse_type(cc);
        dcc_expect(cc, T_RPAR);
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

/* offsetof_expr: offsetof(type, member): a constant */
static struct dnode *offsetof_expr(struct dcc *cc, int line)
{
    struct dnode *n;
    next(cc);
    dcc_expect(cc, T_LPAR);
    struct dtype t = dcc_parse_type(cc);
    dcc_expect(cc, T_COMMA);
    if (cc->tok != T_IDENT)
        dcc_syntax(cc);
    const char *mname = cc->tokstr;
    next(cc);
    dcc_expect(cc, T_RPAR);
    if (t.kind != DT_SOU || t.ptr || !dcc_sou(cc, t)->complete)
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

/* named_value: a name the parser resolves (an enumerator, an inline, NULL) as its node, the
 * name taken; NULL for any other name */
static struct dnode *named_value(struct dcc *cc, int line)
{
    struct dnode *n;
    struct dname *d = dcc_name_find(cc, cc->tokstr, DNAME_ENUMERATOR);
    struct dname *in = d ? NULL : dcc_name_find(cc, cc->tokstr, DNAME_INLINE);
    if (d || !strcmp(cc->tokstr, "NULL")) {
        n = node(cc, N_INT, line);
        n->ival = d ? d->val : 0;
        n->type = d ? d->type : (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 }; /* NULL: int 0 */
        next(cc);
        return n;
    }
    if (in && in->nparams) { /* an inline array: name[args] */
        n = node(cc, N_INLARR, line);
        n->s = cc->tokstr;
        next(cc);
        dcc_expect(cc, T_LBRACK);
        n->b = arglist(cc, T_RBRACK);
        return n;
    }
    if (in) { /* a fresh top node: lists link through `next` */
        next(cc);
        n = node(cc, N_INT, line);
        *n = *in->expr;
        n->next = NULL;
        return n;
    }
    return NULL;
}

/* literal: an integer constant (its value and type) or a string (its text, its length in
 * ival), from the token. */
static struct dnode *literal(struct dcc *cc, int line)
{
    struct dnode *n = node(cc, cc->tok == T_INT ? N_INT : N_STR, line);
    n->ival = cc->tokval;
    if (cc->tok == T_INT)
        n->type = cc->toktype;
    else
        n->s = cc->tokstr;
    next(cc);
    return n;
}

/* aggregation: @name, @ alone, or either with its keys [k, ...] */
static struct dnode *aggregation(struct dcc *cc, int line)
{
    next(cc);
    struct dnode *n = node(cc, N_AGG, line);
    n->s = "";
    if (cc->tok == T_IDENT) {
        n->s = cc->tokstr;
        next(cc);
    }
    if (cc->tok == T_LBRACK) {
        next(cc);
        n->b = arglist(cc, T_RBRACK);
        if (!n->b)
            dcc_syntax(cc);
    }
    return n;
}

/* xlate_expr: xlate < type > ( expr ) */
static struct dnode *xlate_expr(struct dcc *cc, int line)
{
    struct dnode *n = node(cc, N_XLATE, line);
    next(cc);
    dcc_expect(cc, T_LT);
    n->type = dcc_parse_type(cc);
    dcc_expect(cc, T_GT);
    dcc_expect(cc, T_LPAR);
    n->a = expr(cc);
    dcc_expect(cc, T_RPAR);
    return n;
}

/* identifier: what a name starts: self->x and this->x, sizeof, xlate, offsetof, a name the
 * parser resolves, a call f(...), an associative array's element a[...], or a variable. */
static struct dnode *identifier(struct dcc *cc, int line)
{
    struct dnode *n;
    if (!strcmp(cc->tokstr, "self") || !strcmp(cc->tokstr, "this")) {
        n = node(cc, cc->tokstr[0] == 's' ? N_SELF : N_THIS, line);
        next(cc);
        dcc_expect(cc, T_ARROW);
        if (cc->tok != T_IDENT)
            dcc_syntax(cc);
        n->s = cc->tokstr;
        next(cc);
        return n;
    }
    if (!strcmp(cc->tokstr, "sizeof"))
        return sizeof_expr(cc, line);
    if (!strcmp(cc->tokstr, "xlate"))
        return xlate_expr(cc, line);
    if (!strcmp(cc->tokstr, "offsetof"))
        return offsetof_expr(cc, line);
    if ((n = named_value(cc, line)) != NULL)
        return n;
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
            dcc_syntax(cc);
    }
    return n;
}

static struct dnode *primary(struct dcc *cc)
{
    int line = cc->tokline;
    struct dnode *n;
    switch (cc->tok) {
    case T_INT: case T_STR:
        return literal(cc, line);
    case T_LPAR:
        next(cc);
        n = expr(cc);
        dcc_expect(cc, T_RPAR);
        return n;
    case T_AT:
        return aggregation(cc, line);
    case T_IDENT:
        return identifier(cc, line);
    default:
        dcc_syntax(cc);
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
                dcc_syntax(cc);
            p->s = cc->tokstr;
            next(cc);
        } else if (cc->tok == T_LBRACK && n->kind == N_SELF) {
            /* self->a[keys]: a thread-local associative array, named so that no global
             * can be it (cg_var.c adds the thread's id as the first key) */
            size_t len = strlen(n->s);
            char *name = dcc_alloc(cc, len + 7);
            memcpy(name, "self->", 6);
            memcpy(name + 6, n->s, len + 1);
            n->kind = N_INDEX;
            n->op = 1;
            n->s = name;
            next(cc);
            n->b = arglist(cc, T_RBRACK);
            if (!n->b)
                dcc_syntax(cc);
            continue;
        } else if (cc->tok == T_LBRACK) {
            p = node(cc, N_SUBSCR, cc->tokline);
            next(cc);
            p->b = expr(cc);
            dcc_expect(cc, T_RBRACK);
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
    dcc_stack_check(cc, cc->tokline);
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
        if (dcc_type_start(cc)) {
            n = node(cc, N_CAST, line);
            n->type = dcc_parse_type(cc);
            dcc_expect(cc, T_RPAR);
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

/* bin_level: the precedence level (index in levels[]) of the binary operator just lexed; -1
 * for any other token, and for the '/' that closes a predicate. */
static int bin_level(struct dcc *cc)
{
    for (int level = 0; level < NLEVELS; level++)
        for (int k = 0; k < 5 && levels[level][k]; k++)
            if (cc->tok == levels[level][k])
                return cc->tok == T_SLASH && cc->in_pred && pred_end(cc) ? -1 : level;
    return -1;
}

/* binary: an operand and the binary operators that follow it at `level` or tighter, each
 * left-associative (precedence climbing): a right operand recurses once, at one level above its
 * operator's, so a parenthesis costs one frame here rather than one per level (the board's
 * compiler stack, dcc_in's stack_room). */
static struct dnode *binary(struct dcc *cc, int level)
{
    struct dnode *l = unary(cc);
    for (;;) {
        int op_level = bin_level(cc);
        if (op_level < level)
            return l;
        struct dnode *n = node(cc, N_BIN, cc->tokline);
        n->op = (uint8_t)cc->tok;
        next(cc);
        n->a = l;
        n->b = binary(cc, op_level + 1);
        l = n;
    }
}

struct dnode *dcc_cond(struct dcc *cc)
{
    struct dnode *c = binary(cc, 0);
    if (cc->tok != T_QUEST)
        return c;
    struct dnode *n = node(cc, N_COND, cc->tokline);
    next(cc);
    n->a = c;
    n->b = expr(cc);
    dcc_expect(cc, T_COLON);
    n->c = dcc_cond(cc);
    return n;
}

struct dnode *dcc_assign(struct dcc *cc)
{
    struct dnode *l = dcc_cond(cc);
    if (cc->tok >= T_ASSIGN && cc->tok <= T_OR_EQ) {
        struct dnode *n = node(cc, N_ASSIGN, cc->tokline);
        n->op = (uint8_t)cc->tok;
        next(cc);
        n->a = l;
        n->b = dcc_assign(cc);
        return n;
    }
    return l;
}

static struct dnode *expr(struct dcc *cc)
{
    struct dnode *l = dcc_assign(cc);
    while (cc->tok == T_COMMA) {
        struct dnode *n = node(cc, N_COMMA, cc->tokline);
        next(cc);
        n->a = l;
        n->b = dcc_assign(cc);
        l = n;
    }
    return l;
}

static struct dnode *statements(struct dcc *cc);

/* ---- ?: as a statement, with actions for operands ---------------------------------------
 * `OPT_x ? printf(...) : 1;` and `OPT_x ? @c[probefunc] = count() : 1;`, the idioms of
 * scripts written for Solaris 10 (whose DTrace accepted actions, aggregations and subroutines
 * with side effects as ?: operands; illumos refuses them, D_OP_ACT): a ?: whose value is
 * dropped and one of whose arms calls something or aggregates runs as `if (OPT_x) ...; else
 * 1;` (split like any if, below), each arm's statements only when its arm is chosen. A ?:
 * used for its value keeps DTrace's rule (cg_expr.c: D_OP_ACT). */
static int calls_in(const struct dnode *n)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case N_CALL: return 1;
    case N_ASSIGN: return n->a && n->a->kind == N_AGG;
    case N_COND: return calls_in(n->b) || calls_in(n->c);
    case N_COMMA: return calls_in(n->a) || calls_in(n->b);
    default: return 0;
    }
}

static struct dnode *cond_statement(struct dcc *cc, struct dnode *s);

/* An arm's statements: a comma list one by one, an integer constant none (its value would be
 * dropped), a ?: with calls an if of its own. */
static struct dnode *arm_statements(struct dcc *cc, struct dnode *n)
{
    if (!n || n->kind == N_INT)
        return NULL;
    if (n->kind == N_COMMA) {
        struct dnode *a = arm_statements(cc, n->a), *b = arm_statements(cc, n->b);
        if (!a)
            return b;
        struct dnode *t = a;
        while (t->next)
            t = t->next;
        t->next = b;
        return a;
    }
    return cond_statement(cc, n);
}

/* A ?: statement whose condition is an integer constant (the Toolkit's `inline int OPT_x = 0;`
 * and `OPT_x && ! OPT_y`) is its chosen arm's statements alone, the other never compiled, as
 * libdtrace's parser folds it (dt_node_op3): dapptrace's `OPT_counts && OPT_liball ?
 * @Counts[probemod, probefunc] = count() : 1;` beside `OPT_counts && ! OPT_liball ?
 * @Counts[probefunc] = count() : 1;` gives @Counts one key signature. */
static struct dnode *cond_statement(struct dcc *cc, struct dnode *s)
{
    int64_t v;
    if (s->kind != N_COND || !calls_in(s))
        return s;
    if (dcc_fold_ok(s->a, &v))
        return arm_statements(cc, v ? s->b : s->c);
    if (++cc->depth > 64)
        dcc_error(cc, s->line, "D_SYNTAX", "?: statements nested too deeply");
    struct dnode *n = node(cc, N_IF, s->line);
    n->a = s->a;
    n->b = arm_statements(cc, s->b);
    n->c = arm_statements(cc, s->c);
    cc->depth--;
    return n;
}

/* if (cond) stmt-or-block [else stmt-or-block]: an N_IF node; the clause holding it is split
 * into clauses after parsing (split_clause). */
static struct dnode *if_statement(struct dcc *cc);

/* A single statement (with its ';' when one follows) or a { block } (closing brace eaten). */
static struct dnode *body(struct dcc *cc)
{
    if (cc->tok == T_LBRACE) {
        struct dnode *l = statements(cc);
        dcc_expect(cc, T_RBRACE);
        return l;
    }
    if (dcc_is_word(cc, "if"))
        return if_statement(cc);
    if (cc->tok == T_SEMI) {
        next(cc);
        return NULL;
    }
    struct dnode *s = cond_statement(cc, expr(cc));
    if (cc->tok == T_SEMI)
        next(cc);
    else if (cc->tok != T_RBRACE)
        dcc_syntax(cc);
    return s;
}

static struct dnode *if_statement(struct dcc *cc)
{
    struct dnode *n = node(cc, N_IF, cc->tokline);
    if (++cc->depth > 64)
        dcc_error(cc, cc->tokline, "D_SYNTAX", "if statements nested too deeply");
    next(cc);
    dcc_expect(cc, T_LPAR);
    n->a = expr(cc);
    dcc_expect(cc, T_RPAR);
    n->b = body(cc);
    if (dcc_is_word(cc, "else")) {
        next(cc);
        n->c = body(cc);
    }
    cc->depth--;
    return n;
}

static struct dnode *statements(struct dcc *cc)
{
    struct dnode *head = NULL, **tail = &head;
    dcc_expect(cc, T_LBRACE);
    while (cc->tok != T_RBRACE) {
        if (cc->tok == T_SEMI) {
            next(cc);
            continue;
        }
        if (cc->tok == T_EOF)
            dcc_syntax(cc);
        if (dcc_is_word(cc, "if")) {
            struct dnode *s = if_statement(cc);
            *tail = s;
            tail = &s->next;
            continue;
        }
        *tail = cond_statement(cc, expr(cc)); /* none, one or a list (a folded ?:) */
        while (*tail)
            tail = &(*tail)->next;
        if (cc->tok == T_SEMI)
            next(cc);
        else if (cc->tok != T_RBRACE)
            dcc_syntax(cc);
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
            dcc_syntax(cc);
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
        dcc_expect(cc, T_SLASH);
    }
    if (cc->tok == T_EOF && !c->pred) {
        /* a bare description (dtrace -n BEGIN): records just the probe */
    } else {
        c->stmts = statements(cc);
        if (cc->tok != T_RBRACE)
            dcc_syntax(cc);
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
    cc->inline_tail = &cc->inlines;
    for (;;) {
        dcc_lex_pdesc(cc);
        if (cc->tok == T_EOF)
            return;
        if (cc->tok == T_SEMI)
            continue;
        if (cc->tok == T_PDESC && dcc_decl_start(cc)) {
            cc->p -= strlen(cc->tokstr);
            next(cc);
            dcc_declaration(cc);
            continue;
        }
        clause(cc);
    }
}
