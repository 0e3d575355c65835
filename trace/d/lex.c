// SPDX-License-Identifier: MIT
// The D lexer: turns cc->src into tokens on demand (cc->tok and friends). Also owns compile
// errors (dcc_error) and compiler allocation. Handles comments, cpp line markers
// (# N "file"), #pragma D option (recorded in cc->out->opts) and #pragma ident (ignored).
// Probe descriptions are lexed by a separate entry point (dcc_lex_pdesc) because their
// characters (':', '*', '-') mean something else inside expressions.
#include "dcc_impl.h"
#include <d/optval.h>
#include <stdarg.h>

void *dcc_alloc(struct dcc *cc, size_t n)
{
    void *p = d_alloc(&cc->arena, n);
    if (!p)
        dcc_error(cc, cc->tokline, "D_NOMEM", "out of compiler memory (its %u KB arena: a "
                  "board's DTRACE_CC_ARENA): a smaller program, or compile it on the host "
                  "(tools/dcompile)", (unsigned)(cc->arena.size / 1024u));
    return p;
}

void dcc_stack_check(struct dcc *cc, int line)
{
    if (cc->stack_floor && (uintptr_t)__builtin_frame_address(0) < cc->stack_floor)
        dcc_error(cc, line, "D_SYNTAX", "expression nested too deeply for the compiler's stack "
                  "(%u bytes)", (unsigned)cc->in->stack_room);
}

char *dcc_strdup(struct dcc *cc, const char *s, size_t n)
{
    char *d = dcc_alloc(cc, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* dcc_error: formats "[TAG] line N: message" (%s, %d and %c only) and abandons the compile. */
_Noreturn void dcc_error(struct dcc *cc, int line, const char *tag, const char *fmt, ...)
{
    struct dcc_out *o = cc->out;
    char *e = o->err, num[24];
    size_t sz = sizeof(o->err);
    va_list ap;
    e[0] = 0;
    d_strlcpy(o->tag, tag, sizeof(o->tag));
    o->line = line;
    if (cc->in->errtags) {
        d_strlcat(e, "[", sz);
        d_strlcat(e, tag, sz);
        d_strlcat(e, "] ", sz);
    }
    d_strlcat(e, "line ", sz);
    d_strlcat(e, d_utoa(num, (uint64_t)line), sz);
    d_strlcat(e, ": ", sz);
    va_start(ap, fmt);
    for (const char *f = fmt; *f; f++) {
        char c[2] = { *f, 0 };
        if (*f != '%' || !f[1]) {
            d_strlcat(e, c, sz);
            continue;
        }
        f++;
        if (*f == 's') {
            d_strlcat(e, va_arg(ap, const char *), sz);
        } else if (f[0] == '.' && f[1] == '*' && f[2] == 's') { /* %.*s: length, then text */
            int n = va_arg(ap, int);
            const char *t = va_arg(ap, const char *);
            size_t at = strlen(e);
            for (int k = 0; k < n && t[k] && at + 1 < sz; k++)
                e[at++] = t[k];
            e[at] = 0;
            f += 2;
        } else if (*f == 'u') {
            d_strlcat(e, d_utoa(num, va_arg(ap, unsigned)), sz);
        } else if (*f == 'd') {
            int v = va_arg(ap, int);
            if (v < 0)
                d_strlcat(e, "-", sz);
            d_strlcat(e, d_utoa(num, (uint64_t)(v < 0 ? -(int64_t)v : v)), sz);
        } else if (*f == 'c') {
            c[0] = (char)va_arg(ap, int);
            d_strlcat(e, c, sz);
        } else {
            d_strlcat(e, c, sz);
        }
    }
    va_end(ap);
    longjmp(cc->fail, 1);
}

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* directive: handles a line starting with '#' (p at the '#'); leaves p at the newline. */
static int word_case_eq(const char *a, const char *e, const char *w)
{
    for (; a < e && *w; a++, w++)
        if ((*a | 0x20) != (*w | 0x20))
            return 0;
    return a == e && !*w;
}

/* attr_ok: an attribute triple as dtrace_str2attr reads it: up to three '/'-separated names,
 * two stabilities then a dependency class, in any case. */
static int attr_ok(const char *a, const char *e)
{
    static const char *const stab[] = { "Internal", "Private", "Obsolete", "External",
                                        "Unstable", "Evolving", "Stable", "Standard" };
    static const char *const cls[] = { "Unknown", "CPU", "Platform", "Group", "ISA", "Common" };
    for (int part = 0; a < e; part++) {
        const char *q = a;
        while (q < e && *q != '/')
            q++;
        int ok = 0;
        if (part < 2)
            for (size_t k = 0; k < sizeof(stab) / sizeof(stab[0]); k++)
                ok |= word_case_eq(a, q, stab[k]);
        else if (part == 2)
            for (size_t k = 0; k < sizeof(cls) / sizeof(cls[0]); k++)
                ok |= word_case_eq(a, q, cls[k]);
        if (!ok)
            return 0;
        a = q < e ? q + 1 : q;
    }
    return 1;
}

/* pragma_option: #pragma D option's name[=value] from q to eol, into the compiler's output;
 * strsize, zdefs, defaultargs and argref also set the compiler's own. */
static void pragma_option(struct dcc *cc, const char *q, const char *eol)
{
    while (q < eol && is_space(*q))
        q++;
    const char *ns = q;
    while (q < eol && !is_space(*q) && *q != '=')
        q++;
    const char *ne = q, *vs = q, *ve = q;
    if (q < eol && *q == '=') {
        vs = ++q;
        while (q < eol && !is_space(*q))
            q++;
        ve = q;
    }
    while (q < eol && is_space(*q))
        q++;
    struct dcc_out *o = cc->out;
    if (q < eol) /* libdtrace: one name[=value] token and nothing after it */
        dcc_error(cc, cc->line, "D_PRAGMA_MALFORM", "malformed #pragma D option");
    if (ne == ns || (size_t)(ne - ns) >= sizeof(o->opts[0].name) ||
        (size_t)(ve - vs) >= sizeof(o->opts[0].value))
        dcc_error(cc, cc->line, "D_PRAGMA_MALFORM", "malformed #pragma D option");
    if (o->nopts == DCC_MAXOPTS)
        dcc_error(cc, cc->line, "D_PRAGMA_MALFORM", "too many options");
    memcpy(o->opts[o->nopts].name, ns, (size_t)(ne - ns));
    memcpy(o->opts[o->nopts].value, vs, (size_t)(ve - vs));
    o->opts[o->nopts].name[ne - ns] = '\0';
    o->opts[o->nopts].value[ve - vs] = '\0';
    o->opts[o->nopts].line = cc->line;
    if ((size_t)(ne - ns) == 7 && memcmp(ns, "strsize", 7) == 0) {
        /* sizes as every option takes them (2k, 0x100): d/optval.h */
        uint64_t v = 0;
        if (d_optval_size(o->opts[o->nopts].value, &v) != 0 || v < 2 || v > DIF_STRSIZE_MAX)
            dcc_error(cc, cc->line, "D_PRAGMA_OPTSET", "failed to set option "
                      "'strsize' to '%s': Invalid value for specified option "
                      "(2 to 16k)", o->opts[o->nopts].value);
        cc->strsize = (unsigned)v;
    }
    if ((size_t)(ne - ns) == 5 && memcmp(ns, "zdefs", 5) == 0)
        cc->zdefs = 1; /* dtrace -Z: descriptions may match no probe */
    if ((size_t)(ne - ns) == 11 && memcmp(ns, "defaultargs", 11) == 0)
        cc->defaultargs = 1; /* the $N after it may be missing: 0 or "" */
    if ((size_t)(ne - ns) == 6 && memcmp(ns, "argref", 6) == 0)
        cc->argref = 1;
    o->nopts++;
}

/* pragma_attributes: #pragma D attributes N/N/N name from q to eol: stability is not
 * modelled, only checked. */
static void pragma_attributes(struct dcc *cc, const char *q, const char *eol)
{
    while (q < eol && is_space(*q))
        q++;
    const char *a = q;
    while (q < eol && !is_space(*q))
        q++;
    const char *ae = q;
    while (q < eol && is_space(*q))
        q++;
    if (q == eol || a == ae)
        dcc_error(cc, cc->line, "D_PRAGMA_MALFORM", "malformed #pragma D attributes "
                  "<attributes> <ident>");
    if (!attr_ok(a, ae))
        dcc_error(cc, cc->line, "D_PRAGMA_INVAL", "invalid attributes specified by "
                  "#pragma D attributes");
    const char *ns = q;
    while (q < eol && (is_alpha(*q) || is_digit(*q)))
        q++;
    /* an identifier's attributes: libdtrace keeps them until the identifier is
     * defined; cg.c reports one never defined (D_PRAGMA_UNUSED) */
    int provider = q - ns == 8 && !memcmp(ns, "provider", 8);
    if (q > ns && !provider && cc->npragma_ids < DCC_MAXPRAGMA_IDS) {
        cc->pragma_ids[cc->npragma_ids] = dcc_strdup(cc, ns, (size_t)(q - ns));
        cc->pragma_lines[cc->npragma_ids++] = cc->line;
    }
}

static void directive(struct dcc *cc)
{
    const char *q = cc->p + 1, *eol = q;
    while (eol < cc->end && *eol != '\n')
        eol++;
    if (q < eol && *q == '!') { /* an interpreter line, #!/usr/sbin/dtrace -s: discarded on any
                                  * line, as libdtrace's lexer does (a script's header comment
                                  * may come first) */
        cc->p = eol;
        return;
    }
    while (q < eol && is_space(*q))
        q++;
    if (q < eol && is_digit(*q)) { /* cpp line marker: # N "file" */
        int n = 0;
        while (q < eol && is_digit(*q)) {
            if (n < 100000000)
                n = n * 10 + (*q - '0');
            q++;
        }
        cc->line = n - 1; /* the newline ending this directive counts */
    } else if ((size_t)(eol - q) >= 6 && memcmp(q, "pragma", 6) == 0) {
        q += 6;
        while (q < eol && is_space(*q))
            q++;
        if ((size_t)(eol - q) >= 1 && *q == 'D' && q + 1 < eol && is_space(q[1])) {
            q++;
            while (q < eol && is_space(*q))
                q++;
            if ((size_t)(eol - q) >= 6 && memcmp(q, "option", 6) == 0) {
                pragma_option(cc, q + 6, eol);
            } else if ((size_t)(eol - q) >= 5 && memcmp(q, "error", 5) == 0) {
                q += 5;
                while (q < eol && is_space(*q))
                    q++;
                dcc_error(cc, cc->line, "D_PRAGERR", "#pragma error: %.*s", (int)(eol - q), q);
            } else if ((size_t)(eol - q) >= 10 && memcmp(q, "depends_on", 10) == 0) {
                /* only the providers this system has can be depended on */
                q += 10;
                while (q < eol && is_space(*q))
                    q++;
                const char *k = q;
                while (q < eol && !is_space(*q))
                    q++;
                while (q < eol && is_space(*q))
                    q++;
                const char *v = q;
                while (q < eol && !is_space(*q))
                    q++;
                if ((size_t)(q - k) < 8 || memcmp(k, "provider", 8) != 0 || v == q)
                    dcc_error(cc, cc->line, "D_PRAGMA_DEPEND", "program requires %.*s",
                              (int)(q - k), k);
            } else if ((size_t)(eol - q) >= 10 && memcmp(q, "attributes", 10) == 0) {
                pragma_attributes(cc, q + 10, eol);
            } else if (!((size_t)(eol - q) >= 5 && memcmp(q, "ident", 5) == 0) &&
                       !((size_t)(eol - q) >= 7 && memcmp(q, "binding", 7) == 0)) {
                dcc_error(cc, cc->line, "D_PRAGMA_INVAL", "invalid control directive");
            }
        } else if (!((size_t)(eol - q) >= 5 && memcmp(q, "ident", 5) == 0)) {
            /* other pragmas are ignored, as cpp leaves them */
        }
    } else if (q == eol) {
        /* null directive */
    } else {
        dcc_error(cc, cc->line, "D_PRAGMA_INVAL",
                  "invalid control directive (use -C for the C preprocessor)");
    }
    cc->p = eol;
}

/* skip: whitespace, comments and directives at line start. */
static void skip(struct dcc *cc)
{
    int bol = cc->p == cc->src || cc->p[-1] == '\n';
    while (cc->p < cc->end) {
        char c = *cc->p;
        if (c == '\n') {
            cc->line++;
            cc->p++;
            bol = 1;
        } else if (is_space(c)) {
            cc->p++;
        } else if (c == '#' && bol) {
            directive(cc);
        } else if (c == '/' && cc->p + 1 < cc->end && cc->p[1] == '*') {
            int start = cc->line;
            cc->p += 2;
            while (cc->p + 1 < cc->end && !(cc->p[0] == '*' && cc->p[1] == '/')) {
                if (*cc->p == '\n')
                    cc->line++;
                cc->p++;
            }
            if (cc->p + 1 >= cc->end)
                dcc_error(cc, start, "D_SYNTAX", "end-of-file encountered before end of comment");
            cc->p += 2;
            bol = 0;
        } else if (c == '/' && cc->p + 1 < cc->end && cc->p[1] == '/') {
            while (cc->p < cc->end && *cc->p != '\n')
                cc->p++;
        } else {
            break;
        }
    }
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int escape(struct dcc *cc, const char **pp)
{
    const char *p = *pp;
    int v;
    if (p >= cc->end)
        dcc_error(cc, cc->line, "D_SYNTAX", "bad escape sequence");
    switch (*p) {
    case 'n': v = '\n'; p++; break;
    case 't': v = '\t'; p++; break;
    case 'r': v = '\r'; p++; break;
    case 'a': v = '\a'; p++; break;
    case 'b': v = '\b'; p++; break;
    case 'f': v = '\f'; p++; break;
    case 'v': v = '\v'; p++; break;
    case 'x': case 'X': /* \xHH: hex digits, as many as follow (C) */
        v = 0;
        p++;
        while (p < cc->end && hex_digit(*p) >= 0) /* the low byte is the value: keep it */
            v = ((v << 4) | hex_digit(*p++)) & 0xff;
        break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
        v = 0;
        for (int k = 0; k < 3 && p < cc->end && *p >= '0' && *p <= '7'; k++)
            v = v * 8 + (*p++ - '0');
        break;
    default: v = (unsigned char)*p++; break;
    }
    *pp = p;
    return v & 0xff;
}

static void number(struct dcc *cc)
{
    const char *p = cc->p;
    uint64_t v = 0;
    int base = 10, digits = 0;
    if (*p == '0' && p + 1 < cc->end && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (*p == '0') {
        base = 8;
    }
    for (; p < cc->end; p++) {
        int d;
        char c = *p;
        if (is_digit(c))
            d = c - '0';
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break; /* as dt_lex.l's RGX_INT: "0abc" is 0, then the identifier abc */
        if (d >= base)
            dcc_error(cc, cc->line, "D_INT_DIGIT", "invalid digit in integer constant");
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            dcc_error(cc, cc->line, "D_INT_OFLOW", "integer constant is too large");
        v = v * (uint64_t)base + (uint64_t)d;
        digits++;
    }
    if (base == 16 && digits == 0)
        dcc_error(cc, cc->line, "D_SYNTAX", "invalid integer constant");
    int uns = 0, lng = 0;
    while (p < cc->end && (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')) {
        if (*p == 'u' || *p == 'U')
            uns = 1;
        else
            lng = 1;
        p++;
    }
    cc->p = p;
    cc->tok = T_INT;
    cc->tokval = (int64_t)v;
    /* C rules: int if it fits, else (unsigned for non-decimal) int, long, unsigned long. */
    struct dtype t = { .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    if (!lng && !uns && v <= 0x7fffffffu)
        t = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    else if (!lng && (uns || base != 10) && v <= 0xffffffffu)
        t = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 0 };
    else if (!uns && v <= 0x7fffffffffffffffu)
        t = (struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 1 };
    else
        t = (struct dtype){ .kind = DIF_TYPE_INT, .size = 8, .sign = 0 };
    cc->toktype = t;
}

struct optok { const char *s; int tok; };
static const struct optok ops[] = {
    { "<<=", T_SHL_EQ }, { ">>=", T_SHR_EQ }, { "->", T_ARROW }, { "++", T_INC },
    { "--", T_DEC }, { "<<", T_SHL }, { ">>", T_SHR }, { "<=", T_LE }, { ">=", T_GE },
    { "==", T_EQ }, { "!=", T_NE }, { "&&", T_LAND }, { "||", T_LOR }, { "^^", T_LXOR },
    { "+=", T_ADD_EQ }, { "-=", T_SUB_EQ }, { "*=", T_MUL_EQ }, { "/=", T_DIV_EQ },
    { "%=", T_MOD_EQ }, { "&=", T_AND_EQ }, { "^=", T_XOR_EQ }, { "|=", T_OR_EQ },
    { "(", T_LPAR }, { ")", T_RPAR }, { "[", T_LBRACK }, { "]", T_RBRACK }, { "{", T_LBRACE },
    { "}", T_RBRACE }, { ",", T_COMMA }, { ";", T_SEMI }, { ":", T_COLON }, { "?", T_QUEST },
    { ".", T_DOT }, { "@", T_AT }, { "+", T_PLUS }, { "-", T_MINUS }, { "*", T_STAR },
    { "/", T_SLASH }, { "%", T_PERCENT }, { "<", T_LT }, { ">", T_GT }, { "&", T_AMP },
    { "^", T_CARET }, { "|", T_BAR }, { "!", T_NOT }, { "~", T_TILDE }, { "=", T_ASSIGN },
};

/* ---- macro variables and script arguments ($pid, $target, $1, $$1, $0) ---------------- */

static const char *const macro_names[] = { "pid", "ppid", "pgid", "sid", "uid", "gid", "euid",
                                           "egid", "target" };

/* macro_value: $name's value; 0 when the front end defines no such macro variable. */
static int macro_value(const struct dcc *cc, const char *name, size_t n, int64_t *v)
{
    const struct dcc_macros *m = cc->in->macros;
    for (size_t k = 0; m && !m->noids && k < sizeof(macro_names) / sizeof(macro_names[0]); k++)
        if (strlen(macro_names[k]) == n && !memcmp(macro_names[k], name, n)) {
            const int64_t vals[] = { m->pid, m->ppid, m->pgid, m->sid, m->uid, m->gid,
                                     m->euid, m->egid, m->target };
            *v = vals[k];
            return 1;
        }
    return 0;
}

/* arg_text: script argument n's text, now named; one not given is an error (written as tok
 * was) unless defaultargs, which makes it "0" ($n) or "" ($$n), as libdtrace does. */
static const char *arg_text(struct dcc *cc, uint64_t n, int str, const char *tok, size_t toklen)
{
    const struct dcc_macros *m = cc->in->macros;
    if (!m || !m->argv || n >= m->argc) {
        if (!cc->defaultargs)
            dcc_error(cc, cc->line, "D_MACRO_UNDEF", "macro argument %.*s is not defined",
                      (int)toklen, tok);
        return str ? "" : "0";
    }
    if (n < 64)
        cc->argused |= 1ull << n;
    return m->argv[n];
}

/* c_integer: s is all of one C integer, as strtoull(s, &end, 0) reads one to its end (blanks
 * and a sign first); *oflow when it does not fit 64 bits. */
static int c_integer(const char *s, int *oflow)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '+' || *s == '-')
        s++;
    unsigned base = 10, digits = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hex_digit(s[2]) >= 0)
        base = 16, s += 2;
    else if (s[0] == '0')
        base = 8;
    uint64_t v = 0;
    *oflow = 0;
    for (int d; *s && (d = hex_digit(*s)) >= 0 && (unsigned)d < base; s++, digits++) {
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            *oflow = 1;
        v = v * base + (uint64_t)d;
    }
    return digits > 0 && *s == '\0';
}

/* str_token: the string token holding n bytes of s, its escapes read as a string literal's. */
static void str_token(struct dcc *cc, const char *s, size_t n)
{
    const char *save = cc->end, *p = s;
    char *buf = dcc_alloc(cc, n + 1);
    size_t k = 0;
    cc->end = s + n;
    while (p < cc->end)
        buf[k++] = *p == '\\' ? (p++, (char)escape(cc, &p)) : *p++;
    cc->end = save;
    buf[k] = 0;
    cc->tokstr = buf;
    cc->tokval = (int64_t)k;
    cc->tok = T_STR;
}

/* macro: a token starting with '$', as dt_lex.l reads one: $name a macro variable (an int;
 * $$name its decimal text as a string), $N the text of script argument N substituted (an
 * integer, an identifier, or else a string, quotes stripped), $$N always a string. */
static void macro(struct dcc *cc)
{
    const char *tok = cc->p;
    int str = cc->p + 1 < cc->end && cc->p[1] == '$';
    const char *s = cc->p += str ? 2 : 1;
    while (cc->p < cc->end && (is_alpha(*cc->p) || is_digit(*cc->p)))
        cc->p++;
    size_t n = (size_t)(cc->p - s), toklen = (size_t)(cc->p - tok);
    if (n == 0)
        dcc_error(cc, cc->line, "D_SYNTAX", "syntax error near \"$\"");
    if (!is_digit(*s)) {
        int64_t v;
        const struct dcc_macros *m = cc->in->macros;
        if (!str && m && m->pid_at_run && n == 3 && !memcmp(s, "pid", 3)) {
            /* the consumer's pid, read when the program runs: a name no script can write,
             * which the compiler's built-ins give as DIF_B_CONSUMER (cg_var.c) */
            cc->tokstr = dcc_strdup(cc, "$pid", 4);
            cc->tok = T_IDENT;
            return;
        }
        if (!macro_value(cc, s, n, &v))
            dcc_error(cc, cc->line, "D_MACRO_UNDEF", "macro variable %.*s is not defined",
                      (int)toklen, tok);
        if (str) { /* libdtrace: the id as unsigned decimal text */
            char num[24], *e = num + sizeof(num);
            uint64_t u = (uint32_t)v;
            *--e = 0;
            do
                *--e = (char)('0' + u % 10);
            while ((u /= 10) != 0);
            str_token(cc, e, strlen(e));
            return;
        }
        cc->tok = T_INT;
        cc->tokval = v;
        cc->toktype = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
        return;
    }
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            dcc_error(cc, cc->line, "D_SYNTAX", "syntax error near \"%.*s\"", (int)toklen, tok);
        k = k < 100000 ? k * 10 + (uint64_t)(s[i] - '0') : k;
    }
    const char *v = arg_text(cc, k, str, tok, toklen);
    size_t vl = strlen(v);
    int oflow = 0, isint = vl && c_integer(v, &oflow);
    int isident = vl > 0;
    for (size_t i = 0; i < vl && isident; i++)
        isident = is_alpha(v[i]) || is_digit(v[i]) || v[i] == '`';
    if (str || (!isint && !isident)) {
        if (!str && vl >= 2 && v[0] == '"' && v[vl - 1] == '"')
            str_token(cc, v + 1, vl - 2);
        else
            str_token(cc, v, vl);
        return;
    }
    if (is_digit(v[0]) || v[0] == '-' || v[0] == '+') {
        if (oflow)
            dcc_error(cc, cc->line, "D_MACRO_OFLOW", "macro argument %.*s constant %s results "
                      "in integer overflow", (int)toklen, tok, v);
        const char *save_p = cc->p, *save_end = cc->end;
        int neg = v[0] == '-';
        cc->p = v + (v[0] == '-' || v[0] == '+');
        cc->end = v + vl;
        number(cc);
        int rest = cc->p != cc->end;
        cc->p = save_p;
        cc->end = save_end;
        if (rest)
            dcc_error(cc, cc->line, "D_SYNTAX", "syntax error near \"%s\"", v);
        if (neg)
            cc->tokval = -cc->tokval;
        return;
    }
    cc->tokstr = dcc_strdup(cc, v, vl);
    cc->tok = T_IDENT;
}

void dcc_args_check(struct dcc *cc)
{
    const struct dcc_macros *m = cc->in->macros;
    unsigned argc = m && m->argv ? m->argc : 0;
    if (argc > 1 && !cc->argref && (argc - 1 >= 64 || !(cc->argused >> (argc - 1) & 1)))
        dcc_error(cc, cc->line, "D_MACRO_UNUSED", "extraneous argument '%s' ($%u is not "
                  "referenced)", m->argv[argc - 1], argc - 1);
}

const char *dcc_pdesc_expand(struct dcc *cc, const char *desc)
{
    if (!d_strchr(desc, '$'))
        return desc;
    size_t cap = 256, n = 0;
    char *out = dcc_alloc(cc, cap);
    for (const char *p = desc; *p;) {
        const char *piece = p, *tok = p;
        size_t len = 1;
        char num[24];
        if (*p == '$') {
            int str = p[1] == '$';
            const char *s = p + (str ? 2 : 1), *e = s;
            while (is_alpha(*e) || is_digit(*e))
                e++;
            int64_t v;
            if (e > s && is_digit(*s)) {
                uint64_t k = 0;
                for (const char *q = s; q < e; q++)
                    k = k < 100000 ? k * 10 + (uint64_t)(*q - '0') : k;
                piece = arg_text(cc, k, str, tok, (size_t)(e - tok));
                len = strlen(piece);
                p = e;
            } else if (e > s && macro_value(cc, s, (size_t)(e - s), &v)) {
                char *q = num + sizeof(num);
                uint64_t u = (uint64_t)v;
                *--q = 0;
                do
                    *--q = (char)('0' + u % 10);
                while ((u /= 10) != 0);
                piece = q;
                len = strlen(q);
                p = e;
            } else {
                p++;
            }
        } else {
            p++;
        }
        if (n + len + 1 > cap)
            dcc_error(cc, cc->line, "D_PDESC_INVAL", "probe description %s is too long", desc);
        memcpy(out + n, piece, len);
        n += len;
    }
    out[n] = 0;
    return out;
}

/* operator: the longest operator or punctuator at the text (ops: longest first) */
static void operator(struct dcc *cc, char c)
{
    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        size_t n = strlen(ops[k].s);
        if ((size_t)(cc->end - cc->p) >= n && memcmp(cc->p, ops[k].s, n) == 0) {
            cc->p += n;
            cc->tok = ops[k].tok;
            return;
        }
    }
    dcc_error(cc, cc->line, "D_SYNTAX", "syntax error near \"%c\"", c);
}

/* name: an identifier (dt_lex.l: a name may hold backquotes: `sym, mod`sym) */
static void name(struct dcc *cc)
{
    const char *s = cc->p;
    while (cc->p < cc->end && (is_alpha(*cc->p) || is_digit(*cc->p) || *cc->p == '`'))
        cc->p++;
    cc->tokstr = dcc_strdup(cc, s, (size_t)(cc->p - s));
    cc->tok = T_IDENT;
}

/* string: a string literal, its escapes taken, its length in tokval */
static void string(struct dcc *cc)
{
    const char *p = cc->p + 1;
    char *buf = dcc_alloc(cc, (size_t)(cc->end - p) + 1);
    size_t n = 0;
    while (p < cc->end && *p != '"') {
        if (*p == '\n')
            dcc_error(cc, cc->line, "D_STR_NL", "newline encountered in string literal");
        if (*p == '\\') {
            p++;
            buf[n++] = (char)escape(cc, &p);
        } else {
            buf[n++] = *p++;
        }
    }
    if (p >= cc->end)
        dcc_error(cc, cc->line, "D_SYNTAX", "end-of-file encountered in string literal");
    buf[n] = 0;
    cc->p = p + 1;
    cc->tokstr = buf;
    cc->tokval = (int64_t)n;
    cc->tok = T_STR;
}

/* character: a character constant: up to 8 characters, the first most significant */
static void character(struct dcc *cc)
{
    const char *p = cc->p + 1;
    uint64_t v = 0;
    unsigned n = 0;
    if (p < cc->end && *p == '\'')
        dcc_error(cc, cc->line, "D_CHR_NULL", "empty character constant");
    while (p < cc->end && *p != '\'' && *p != '\n') {
        int ch = *p == '\\' ? (p++, escape(cc, &p)) : (unsigned char)*p++;
        v = v << 8 | (uint64_t)ch;
        n++;
    }
    if (p >= cc->end || *p != '\'')
        dcc_error(cc, cc->line, "D_CHR_NL", "newline encountered in character constant");
    if (n > 8)
        dcc_error(cc, cc->line, "D_CHR_OFLOW", "character constant is too long");
    cc->p = p + 1;
    cc->tok = T_INT;
    /* an int, as in C (sizeof 4); one character keeps char's sign, more are packed as
     * libdtrace does, a long when the value does not fit an int */
    cc->tokval = n == 1 ? (int8_t)v : (int64_t)v;
    cc->toktype = (struct dtype){ .kind = DIF_TYPE_INT, .size = 4, .sign = 1 };
    if (n > 1 && v > INT32_MAX)
        cc->toktype.size = 8;
}

void dcc_lex_next(struct dcc *cc)
{
    skip(cc);
    cc->tokline = cc->line;
    if (cc->p >= cc->end) {
        cc->tok = T_EOF;
        return;
    }
    char c = *cc->p;
    if (is_alpha(c) || c == '`')
        name(cc);
    else if (is_digit(c))
        number(cc);
    else if (c == '$')
        macro(cc);
    else if (c == '"')
        string(cc);
    else if (c == '\'')
        character(cc);
    else
        operator(cc, c);
}

/* dcc_lex_pdesc: lexes one probe description (cc->tokstr), or sets another token if the input
 * does not start one. Descriptions end at whitespace, ',', '/' or '{'. */
void dcc_lex_pdesc(struct dcc *cc)
{
    skip(cc);
    cc->tokline = cc->line;
    const char *s = cc->p;
    while (cc->p < cc->end) {
        char c = *cc->p;
        if (is_alpha(c) || is_digit(c) || d_strchr(":*?[]!-.+`$", c) != NULL)
            cc->p++;
        else
            break;
    }
    if (cc->p == s) {
        dcc_lex_next(cc);
        return;
    }
    cc->tokstr = (char *)dcc_pdesc_expand(cc, dcc_strdup(cc, s, (size_t)(cc->p - s)));
    cc->tok = T_PDESC;
}

const char *dcc_tokname(int tok)
{
    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
        if (ops[k].tok == tok)
            return ops[k].s;
    switch (tok) {
    case T_EOF: return "end of input";
    case T_INT: return "integer constant";
    case T_STR: return "string";
    case T_IDENT: return "identifier";
    default: return "probe description";
    }
}
