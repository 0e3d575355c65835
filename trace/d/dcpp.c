// SPDX-License-Identifier: MIT
// The board's C preprocessor for D scripts (d/dcpp.h). Line by line: comments are blanked
// (a comment's newlines stay, so line numbers hold), directives are obeyed and leave an empty
// line, other lines are macro-expanded when no enclosing conditional is false. Expansion is
// text in, text out: a macro's body is rescanned with that macro disabled, arguments are
// expanded before substitution except after '#', which quotes them.
#include <d/dcpp.h>
#include <stdint.h>
#include "dutil.h"

#define MAXDEPTH 16 /* nested conditionals, and nested expansions */

static int is_id0(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_id(char c) { return is_id0(c) || (c >= '0' && c <= '9'); }
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* word: skips the spaces from s[*i] on, then a run of identifier characters; *i ends where
 * the run starts, the result where it ends (equal: no word) */
static size_t word(const char *s, size_t n, size_t *i)
{
    while (*i < n && is_space(s[*i]))
        (*i)++;
    size_t e = *i;
    while (e < n && is_id(s[e]))
        e++;
    return e;
}

static int fail(struct dcpp *p, const char *msg, const char *arg)
{
    char num[24];
    d_strlcpy(p->err, "line ", sizeof(p->err));
    d_strlcat(p->err, d_utoa(num, (uint64_t)p->line), sizeof(p->err));
    d_strlcat(p->err, ": ", sizeof(p->err));
    d_strlcat(p->err, msg, sizeof(p->err));
    if (arg)
        d_strlcat(p->err, arg, sizeof(p->err));
    return -1;
}

/* ---- text buffers -------------------------------------------------------------------------- */

struct sbuf {
    char *s;
    size_t len, cap;
    int full;
};

static void put(struct sbuf *b, const char *s, size_t n)
{
    if (n > b->cap - b->len) {
        b->full = 1;
        return;
    }
    for (size_t k = 0; k < n; k++)
        b->s[b->len + k] = s[k];
    b->len += n;
}

/* work_buf: a buffer from the working space, released when the line is done */
static int work_buf(struct dcpp *p, struct sbuf *b, size_t cap)
{
    if (cap > sizeof(p->work) - p->work_used)
        return -1;
    b->s = p->work + p->work_used;
    b->len = 0;
    b->cap = cap;
    b->full = 0;
    p->work_used += cap;
    return 0;
}

static const char *pool_dup(struct dcpp *p, const char *s, size_t n)
{
    if (n + 1 > sizeof(p->pool) - p->pool_used)
        return NULL;
    char *d = p->pool + p->pool_used;
    for (size_t k = 0; k < n; k++)
        d[k] = s[k];
    d[n] = 0;
    p->pool_used += n + 1;
    return d;
}

/* ---- macros ------------------------------------------------------------------------------- */

static int find(const struct dcpp *p, const char *s, size_t n)
{
    for (int k = 0; k < p->nmacros; k++)
        if (p->macros[k].name && !strncmp(p->macros[k].name, s, n) && !p->macros[k].name[n])
            return k;
    return -1;
}

/* skip_literal: s[i] opens a string or character literal; the index past its end */
static size_t skip_literal(const char *s, size_t n, size_t i)
{
    char q = s[i++];
    while (i < n && s[i] != q)
        i += s[i] == '\\' && i + 1 < n ? 2 : 1;
    return i < n ? i + 1 : n;
}

static int expand(struct dcpp *p, const char *s, size_t n, struct sbuf *out, uint64_t off,
                  int depth);

/* substitute: macro m's body with its parameters replaced; args[k] (len alen[k]) are the raw
 * arguments, expanded here unless quoted by '#'. */
static int substitute(struct dcpp *p, const struct dcpp_macro *m, const char **args,
                      const size_t *alen, struct sbuf *dst, uint64_t off, int depth)
{
    const char *b = m->body;
    size_t n = strlen(b);
    for (size_t i = 0; i < n;) {
        int quote = 0;
        size_t j = i;
        if (b[j] == '#') {
            j++;
            while (j < n && is_space(b[j]))
                j++;
            quote = 1;
        }
        if (j < n && is_id0(b[j])) {
            size_t e = j;
            while (e < n && is_id(b[e]))
                e++;
            int k = 0;
            for (; k < m->nparams; k++)
                if (!strncmp(m->params[k], b + j, e - j) && !m->params[k][e - j])
                    break;
            if (k < m->nparams) {
                if (quote) {
                    put(dst, "\"", 1);
                    for (size_t c = 0; c < alen[k]; c++) {
                        if (args[k][c] == '"' || args[k][c] == '\\')
                            put(dst, "\\", 1);
                        put(dst, args[k] + c, 1);
                    }
                    put(dst, "\"", 1);
                } else if (expand(p, args[k], alen[k], dst, off, depth + 1) != 0) {
                    return -1;
                }
                i = e;
                continue;
            }
            if (quote)
                return fail(p, "'#' is not followed by a macro parameter in ", m->name);
            put(dst, b + i, e - i);
            i = e;
            continue;
        }
        if (b[i] == '"' || b[i] == '\'') {
            size_t e = skip_literal(b, n, i);
            put(dst, b + i, e - i);
            i = e;
            continue;
        }
        put(dst, b + i, 1);
        i++;
    }
    return 0;
}

/* macro_args: the arguments of a call of m, whose '(' is s[*a], each trimmed of spaces;
 * returns how many, with *a at the closing ')', or -1 (failed) */
static int macro_args(struct dcpp *p, const struct dcpp_macro *m, const char *s, size_t n,
                      size_t *at, const char **args, size_t *alen)
{
    int nargs = 0, level = 0;
    size_t a = *at, start = ++a;
    for (;; a++) {
        if (a >= n)
            return fail(p, "unterminated arguments of macro ", m->name);
        if (s[a] == '"' || s[a] == '\'') {
            a = skip_literal(s, n, a) - 1;
            continue;
        }
        if (s[a] == '(')
            level++;
        else if ((s[a] == ')' && level == 0) || (s[a] == ',' && level == 0)) {
            if (nargs == DCPP_MAXPARAMS)
                return fail(p, "too many arguments to macro ", m->name);
            size_t b0 = start, b1 = a;
            while (b0 < b1 && is_space(s[b0]))
                b0++;
            while (b1 > b0 && is_space(s[b1 - 1]))
                b1--;
            args[nargs] = s + b0;
            alen[nargs++] = b1 - b0;
            start = a + 1;
            if (s[a] == ')')
                break;
        } else if (s[a] == ')') {
            level--;
        }
    }
    *at = a;
    return nargs;
}

/* expand: s with every enabled macro replaced; `off` has a bit set for each macro being
 * expanded (not replaced again inside its own expansion). */
static int expand(struct dcpp *p, const char *s, size_t n, struct sbuf *out, uint64_t off,
                  int depth)
{
    if (depth > MAXDEPTH)
        return fail(p, "macros nest too deeply", NULL);
    for (size_t i = 0; i < n;) {
        if (s[i] == '"' || s[i] == '\'') {
            size_t e = skip_literal(s, n, i);
            put(out, s + i, e - i);
            i = e;
            continue;
        }
        if (s[i] >= '0' && s[i] <= '9') {
            size_t e = i;
            while (e < n && is_id(s[e]))
                e++;
            put(out, s + i, e - i);
            i = e;
            continue;
        }
        if (!is_id0(s[i])) {
            put(out, s + i, 1);
            i++;
            continue;
        }
        size_t e = i;
        while (e < n && is_id(s[e]))
            e++;
        int k = find(p, s + i, e - i);
        if (k < 0 || (off >> k & 1u)) {
            put(out, s + i, e - i);
            i = e;
            continue;
        }
        const struct dcpp_macro *m = &p->macros[k];
        size_t mark = p->work_used;
        struct sbuf body;
        if (m->nparams < 0) { /* an object-like body is rescanned where it is */
            body.s = (char *)m->body;
            body.len = strlen(m->body);
            body.full = 0;
            i = e;
        } else {
            /* the substituted body takes half the space left (the arguments' expansions
             * nest in the other half), then gives back what it did not use */
            if (work_buf(p, &body, (sizeof(p->work) - p->work_used) / 2) != 0 || body.cap < 16)
                return fail(p, "macro expansion too large: ", m->name);
            size_t a = e;
            while (a < n && is_space(s[a]))
                a++;
            if (a >= n || s[a] != '(') { /* a function-like macro's name alone stays */
                p->work_used = mark;
                put(out, s + i, e - i);
                i = e;
                continue;
            }
            const char *args[DCPP_MAXPARAMS];
            size_t alen[DCPP_MAXPARAMS];
            int nargs = macro_args(p, m, s, n, &a, args, alen);
            if (nargs < 0)
                return -1;
            if (m->nparams == 0 && nargs == 1 && alen[0] == 0)
                nargs = 0;
            if (nargs != m->nparams)
                return fail(p, "wrong number of arguments to macro ", m->name);
            if (substitute(p, m, args, alen, &body, off, depth) != 0)
                return -1;
            if (body.full)
                return fail(p, "macro expansion too large: ", m->name);
            p->work_used = mark + body.len;
            i = a + 1;
        }
        int r = expand(p, body.s, body.len, out, off | (uint64_t)1 << k, depth + 1);
        p->work_used = mark;
        if (r != 0)
            return -1;
    }
    return out->full ? fail(p, "line too long after macro expansion", NULL) : 0;
}

/* ---- #if expressions ------------------------------------------------------------------------ */

struct ev {
    struct dcpp *p;
    const char *s;
    size_t i, n;
    int bad;
};

static void ev_space(struct ev *e)
{
    while (e->i < e->n && is_space(e->s[e->i]))
        e->i++;
}

static int ev_op(struct ev *e, const char *op)
{
    ev_space(e);
    size_t k = strlen(op);
    if (e->i + k <= e->n && !strncmp(e->s + e->i, op, k)) {
        /* '<' must not take the first half of '<=', '&' of '&&', and so on */
        char next = e->i + k < e->n ? e->s[e->i + k] : 0;
        if (k == 1 && (next == '=' || next == op[0]) && op[0] != '(' && op[0] != ')')
            return 0;
        e->i += k;
        return 1;
    }
    return 0;
}

static int64_t ev_cond(struct ev *e);

/* #if arithmetic overflows as GCC's and Clang's preprocessors do it: it wraps around in two's
 * complement (they warn), with INT64_MIN / -1 giving INT64_MIN and INT64_MIN % -1 giving 0.
 * Done on uint64_t, so the evaluator has no undefined behaviour whatever the input. */
static int64_t wrap(uint64_t v) { return v <= INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1; }
static int64_t ev_addw(int64_t a, int64_t b) { return wrap((uint64_t)a + (uint64_t)b); }
static int64_t ev_subw(int64_t a, int64_t b) { return wrap((uint64_t)a - (uint64_t)b); }
static int64_t ev_mulw(int64_t a, int64_t b) { return wrap((uint64_t)a * (uint64_t)b); }

static int64_t ev_unary(struct ev *e)
{
    ev_space(e);
    if (ev_op(e, "!"))
        return !ev_unary(e);
    if (ev_op(e, "~"))
        return ~ev_unary(e);
    if (ev_op(e, "-"))
        return ev_subw(0, ev_unary(e));
    if (ev_op(e, "+"))
        return ev_unary(e);
    if (ev_op(e, "(")) {
        int64_t v = ev_cond(e);
        if (!ev_op(e, ")"))
            e->bad = 1;
        return v;
    }
    if (e->i < e->n && e->s[e->i] >= '0' && e->s[e->i] <= '9') {
        uint64_t v = 0, base = 10;
        if (e->s[e->i] == '0' && e->i + 1 < e->n && (e->s[e->i + 1] | 32) == 'x')
            base = 16, e->i += 2;
        else if (e->s[e->i] == '0')
            base = 8;
        for (; e->i < e->n; e->i++) {
            char c = e->s[e->i];
            unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                       : (c | 32) >= 'a' && (c | 32) <= 'f' ? (unsigned)((c | 32) - 'a' + 10) : 99;
            if (d >= base)
                break;
            v = v * base + d;
        }
        while (e->i < e->n && ((e->s[e->i] | 32) == 'u' || (e->s[e->i] | 32) == 'l'))
            e->i++;
        return (int64_t)v;
    }
    if (e->i < e->n && is_id0(e->s[e->i])) { /* a name no macro defines is 0 */
        while (e->i < e->n && is_id(e->s[e->i]))
            e->i++;
        return 0;
    }
    e->bad = 1;
    return 0;
}

static int64_t ev_mul(struct ev *e)
{
    int64_t v = ev_unary(e);
    for (;;) {
        if (ev_op(e, "*")) {
            v = ev_mulw(v, ev_unary(e));
        } else if (ev_op(e, "/") || ev_op(e, "%")) {
            char op = e->s[e->i - 1];
            int64_t r = ev_unary(e);
            if (r == 0) {
                e->bad = 2;
                return 0;
            }
            if (r == -1)
                v = op == '/' ? ev_subw(0, v) : 0;
            else
                v = op == '/' ? v / r : v % r;
        } else {
            return v;
        }
    }
}

static int64_t ev_add(struct ev *e)
{
    int64_t v = ev_mul(e);
    for (;;) {
        if (ev_op(e, "+"))
            v = ev_addw(v, ev_mul(e));
        else if (ev_op(e, "-"))
            v = ev_subw(v, ev_mul(e));
        else
            return v;
    }
}

static int64_t ev_rel(struct ev *e)
{
    int64_t v = ev_add(e);
    for (;;) {
        if (ev_op(e, "<="))
            v = v <= ev_add(e);
        else if (ev_op(e, ">="))
            v = v >= ev_add(e);
        else if (ev_op(e, "<"))
            v = v < ev_add(e);
        else if (ev_op(e, ">"))
            v = v > ev_add(e);
        else if (ev_op(e, "=="))
            v = v == ev_add(e);
        else if (ev_op(e, "!="))
            v = v != ev_add(e);
        else
            return v;
    }
}

static int64_t ev_and(struct ev *e)
{
    int64_t v = ev_rel(e);
    while (ev_op(e, "&&")) {
        int64_t r = ev_rel(e);
        v = v && r;
    }
    return v;
}

static int64_t ev_cond(struct ev *e)
{
    int64_t v = ev_and(e);
    while (ev_op(e, "||")) {
        int64_t r = ev_and(e);
        v = v || r;
    }
    return v;
}

/* eval_if: the value of a #if/#elif expression (text after the directive) */
static int eval_if(struct dcpp *p, const char *s, size_t n, int64_t *v)
{
    size_t mark = p->work_used;
    struct sbuf d, x;
    if (work_buf(p, &d, 1024) != 0 || work_buf(p, &x, 2048) != 0)
        return fail(p, "#if expression too large", NULL);
    /* defined NAME and defined(NAME) first: their names must not be expanded */
    for (size_t i = 0; i < n;) {
        if (n - i >= 7 && !strncmp(s + i, "defined", 7) && (i == 0 || !is_id(s[i - 1])) &&
            (i + 7 == n || !is_id(s[i + 7]))) {
            size_t j = i + 7;
            while (j < n && is_space(s[j]))
                j++;
            int paren = j < n && s[j] == '(';
            if (paren)
                j++;
            while (j < n && is_space(s[j]))
                j++;
            size_t e = j;
            while (e < n && is_id(s[e]))
                e++;
            if (e == j)
                return fail(p, "defined without a macro name", NULL);
            int def = find(p, s + j, e - j) >= 0;
            while (paren && e < n && is_space(s[e]))
                e++;
            if (paren && (e >= n || s[e++] != ')'))
                return fail(p, "missing ')' after defined", NULL);
            put(&d, def ? " 1 " : " 0 ", 3);
            i = e;
            continue;
        }
        put(&d, s + i, 1);
        i++;
    }
    if (d.full || expand(p, d.s, d.len, &x, 0, 0) != 0)
        return d.full ? fail(p, "#if expression too large", NULL) : -1;
    struct ev e = { p, x.s, 0, x.len, 0 };
    *v = ev_cond(&e);
    ev_space(&e);
    p->work_used = mark;
    if (e.bad == 2)
        return fail(p, "division by zero in #if", NULL);
    if (e.bad || e.i != e.n)
        return fail(p, "bad #if expression", NULL);
    return 0;
}

/* ---- directives ------------------------------------------------------------------------------ */

static int define(struct dcpp *p, const char *s, size_t n)
{
    size_t i = 0, e = word(s, n, &i);
    if (e == i || !is_id0(s[i]))
        return fail(p, "#define needs a macro name", NULL);
    int k = find(p, s + i, e - i);
    if (k < 0) {
        if (p->nmacros == DCPP_MAXMACROS)
            return fail(p, "too many macros", NULL);
        k = p->nmacros++;
    }
    struct dcpp_macro *m = &p->macros[k];
    m->name = pool_dup(p, s + i, e - i);
    m->nparams = -1;
    if (e < n && s[e] == '(') {
        m->nparams = 0;
        for (e++;;) {
            while (e < n && is_space(s[e]))
                e++;
            if (e < n && s[e] == ')' && m->nparams == 0)
                break;
            size_t a = e;
            while (e < n && is_id(s[e]))
                e++;
            if (a == e || m->nparams == DCPP_MAXPARAMS)
                return fail(p, "bad parameter list of macro ", m->name ? m->name : "");
            m->params[m->nparams++] = pool_dup(p, s + a, e - a);
            while (e < n && is_space(s[e]))
                e++;
            if (e < n && s[e] == ',') {
                e++;
                continue;
            }
            if (e < n && s[e] == ')')
                break;
            return fail(p, "bad parameter list of macro ", m->name ? m->name : "");
        }
        e++;
    }
    while (e < n && is_space(s[e]))
        e++;
    size_t end = n;
    while (end > e && is_space(s[end - 1]))
        end--;
    m->body = pool_dup(p, s + e, end - e);
    if (!m->name || !m->body)
        return fail(p, "macros too large (more than 4 KB of definitions)", NULL);
    for (int k2 = 0; k2 < m->nparams; k2++)
        if (!m->params[k2])
            return fail(p, "macros too large (more than 4 KB of definitions)", NULL);
    return 0;
}

struct cond {
    int active;          /* the enclosing text is kept */
    int taken;           /* a branch of this #if was kept */
    int seen_else;
};

/* name_arg: the macro named by #ifdef, #ifndef or #undef: its index in *k, -1 if undefined */
static int name_arg(struct dcpp *p, const char *s, size_t n, const char *dir, int *k)
{
    size_t i = 0, e = word(s, n, &i);
    if (e == i)
        return fail(p, dir, " needs a macro name");
    *k = find(p, s + i, e - i);
    return 0;
}

/* directive: a line that starts with '#'; s is the text after it. */
static int directive(struct dcpp *p, const char *s, size_t n, struct cond *stack, int *depth)
{
    size_t i = 0, e = word(s, n, &i);
    const char *w = s + i, *rest = s + e;
    size_t wl = e - i, rl = n - e;
#define IS(x) (wl == sizeof(x) - 1 && !strncmp(w, x, wl))
    struct cond *top = &stack[*depth];
    int live = top->active;
    if (n > 0 && s[0] == '!')
        return 0; /* an interpreter line (#!/usr/sbin/dtrace -s), discarded as libdtrace does */
    if (IS("if") || IS("ifdef") || IS("ifndef")) {
        if (*depth + 1 >= MAXDEPTH)
            return fail(p, "conditionals nest too deeply", NULL);
        int64_t v = 0;
        if (live) {
            int k;
            if (IS("if") ? eval_if(p, rest, rl, &v) != 0
                         : name_arg(p, rest, rl, IS("ifdef") ? "#ifdef" : "#ifndef", &k) != 0)
                return -1;
            if (!IS("if"))
                v = IS("ifdef") ? k >= 0 : k < 0;
        }
        stack[++*depth] = (struct cond){ live && v != 0, live && v != 0, 0 };
        return 0;
    }
    if (IS("elif") || IS("else") || IS("endif")) {
        if (*depth == 0)
            return fail(p, "#", IS("endif") ? "endif without #if" : "else or #elif without #if");
        int outer = stack[*depth - 1].active;
        if (IS("endif")) {
            --*depth;
            return 0;
        }
        if (top->seen_else)
            return fail(p, "#else or #elif after #else", NULL);
        if (IS("else")) {
            top->seen_else = 1;
            top->active = outer && !top->taken;
            top->taken |= top->active;
            return 0;
        }
        int64_t v = 0;
        if (outer && !top->taken && eval_if(p, rest, rl, &v) != 0)
            return -1;
        top->active = outer && !top->taken && v != 0;
        top->taken |= top->active;
        return 0;
    }
    if (!live)
        return 0; /* other directives in skipped text are ignored */
    if (wl == 0)
        return 0; /* the null directive */
    if (IS("define"))
        return define(p, rest, rl);
    if (IS("undef")) {
        int k;
        if (name_arg(p, rest, rl, "#undef", &k) != 0)
            return -1;
        if (k >= 0)
            p->macros[k].name = NULL;
        return 0;
    }
    if (IS("error")) {
        char msg[100];
        size_t a = 0;
        while (a < rl && is_space(rest[a]))
            a++;
        d_strlcpy(msg, rest + a, rl - a + 1 < sizeof(msg) ? rl - a + 1 : sizeof(msg));
        return fail(p, "#error ", msg);
    }
    if (IS("include"))
        return fail(p, "#include is not supported here (no include path on a board)", NULL);
    char name[40];
    d_strlcpy(name, w, wl + 1 < sizeof(name) ? wl + 1 : sizeof(name));
    return fail(p, "unknown directive #", name);
#undef IS
}

/* logical_line: the line of src from *at into p->text, comments blanked and continuations
 * joined; *extra counts the newlines they swallowed, to be emitted after it so that every
 * line keeps its number. A comment left open goes on to the next line (*in_c, *c_line: where
 * it began). Returns the line's length, with *at at its newline, or -1 (failed). */
static long logical_line(struct dcpp *p, const char *src, size_t len, size_t *at, int *in_c,
                         int *c_line, int *extra)
{
    char *t = p->text;
    const size_t tmax = sizeof(p->text) - 1;
    int in_comment = *in_c;
    size_t i = *at, n = 0;
    for (; i < len && (in_comment || src[i] != '\n'); i++) {
        char c = src[i];
        if (in_comment) {
            if (c == '*' && i + 1 < len && src[i + 1] == '/')
                in_comment = 0, i++;
            else if (c == '\n')
                (*extra)++;
            continue;
        }
        if (c == '\\' && i + 1 < len && src[i + 1] == '\n') {
            (*extra)++;
            i++;
            continue;
        }
        if (c == '/' && i + 1 < len && src[i + 1] == '*') {
            in_comment = 1;
            *c_line = p->line;
            i++;
            c = ' ';
        } else if (c == '/' && i + 1 < len && src[i + 1] == '/') {
            while (i + 1 < len && src[i + 1] != '\n')
                i++;
            continue;
        } else if (c == '"' || c == '\'') {
            /* a literal is copied as it is, up to its end or the line's */
            char q = c;
            for (;;) {
                if (n == tmax)
                    return fail(p, "line longer than 1023 characters", NULL);
                t[n++] = src[i];
                if (i + 1 >= len || src[i + 1] == '\n')
                    break;
                i++;
                if (src[i] == q) {
                    t[n++] = src[i];
                    break;
                }
                if (src[i] == '\\' && i + 1 < len && src[i + 1] != '\n') {
                    if (n == tmax)
                        return fail(p, "line longer than 1023 characters", NULL);
                    t[n++] = src[i++];
                }
            }
            if (n > tmax)
                return fail(p, "line longer than 1023 characters", NULL);
            continue;
        }
        if (n == tmax)
            return fail(p, "line longer than 1023 characters", NULL);
        t[n++] = c;
    }
    *at = i;
    *in_c = in_comment;
    return (long)n;
}

int dcpp_run(struct dcpp *p, const char *src, size_t len, char *out, size_t outcap)
{
    p->nmacros = 0;
    p->pool_used = 0;
    p->out = out;
    p->outcap = outcap;
    p->outlen = 0;
    p->line = 0;
    p->err[0] = 0;
    static const char predef[] = "__SUNW_D 1";
    if (define(p, predef, sizeof(predef) - 1) != 0 || define(p, "__sun 1", 7) != 0)
        return -1;
    struct cond stack[MAXDEPTH] = { { 1, 1, 0 } };
    int depth = 0, in_comment = 0, comment_line = 0;
    struct sbuf o = { out, 0, outcap ? outcap - 1 : 0, 0 };
    char *t = p->text;
    for (size_t i = 0; i < len;) {
        p->line++;
        int extra = 0;
        long got = logical_line(p, src, len, &i, &in_comment, &comment_line, &extra);
        if (got < 0)
            return -1;
        size_t n = (size_t)got;
        if (i < len)
            i++; /* the newline */
        t[n] = 0;
        p->work_used = 0;
        size_t k = 0;
        while (k < n && is_space(t[k]))
            k++;
        if (k < n && t[k] == '#') {
            size_t w = k + 1;
            while (w < n && is_space(t[w]))
                w++;
            if (n - w >= 6 && !strncmp(t + w, "pragma", 6) && (n - w == 6 || !is_id(t[w + 6]))) {
                if (stack[depth].active) /* D's own #pragma D option: for the compiler */
                    put(&o, t, n);
            } else if (directive(p, t + k + 1, n - k - 1, stack, &depth) != 0) {
                return -1;
            }
        } else if (stack[depth].active && expand(p, t, n, &o, 0, 0) != 0) {
            return -1;
        }
        put(&o, "\n", 1);
        for (; extra > 0; extra--, p->line++)
            put(&o, "\n", 1);
        if (o.full)
            return fail(p, "the preprocessed script is too large", NULL);
    }
    if (in_comment) {
        p->line = comment_line;
        return fail(p, "unterminated comment", NULL);
    }
    if (depth != 0)
        return fail(p, "#if without #endif", NULL);
    out[o.len] = 0;
    p->outlen = o.len;
    return 0;
}
