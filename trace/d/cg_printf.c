// SPDX-License-Identifier: MIT
// printf( )-style format strings checked against the values recorded (printf, printa,
// system): conversions, size prefixes, stacks and floats, with libdtrace's tags.
#include "cg_impl.h"

/* printf_sized_type: the one record type (cg_type_letter) a conversion with a size prefix takes,
 * as libdtrace's dictionary gives those conversions a C type and asks for one of the same
 * encoding (size and signedness: ctf_type_compat): %hd/%hi short, %ho/%hu unsigned short,
 * %ld/%li/%lld/%lli long, %lo/%lu/%llo/%llu unsigned long, %lc/%wc int, %hx short and %lx,
 * %llx long of either sign (the caller compares only their size); 0 for the others. */
static char printf_sized_type(const char *len, unsigned nlen, char conv)
{
    int sign = conv == 'd' || conv == 'i', any = conv == 'x' || conv == 'X';
    if (nlen == 1 && len[0] == 'h' && (sign || any || conv == 'o' || conv == 'u'))
        return sign || any ? 'h' : 'H';
    if ((nlen == 1 || (nlen == 2 && len[1] == 'l')) && len[0] == 'l' &&
        (sign || any || conv == 'o' || conv == 'u'))
        return sign || any ? 'l' : 'L';
    if (nlen == 1 && (len[0] == 'l' || len[0] == 'w') && conv == 'c')
        return 'i';
    return 0;
}

static const char *printf_sized_name(char t)
{
    switch (t) {
    case 'h': return "short";
    case 'H': return "unsigned short";
    case 'l': return "long";
    case 'L': return "unsigned long";
    default: return "int";
    }
}

/* A format's check under way: where its conversions' errors go (the statement's line, its
 * function's name), the mode (0 printf, 1 printa's values, 2 printa's keys), the record's
 * argument the next conversion takes, and the conversion's number. */
struct pfcheck {
    struct cg *g;
    int line, aggmode;
    const char *fn;
    unsigned arg, conv;
};

/* skip_width: past a conversion's flags (*at: the @ of printa's value), width and precision;
 * a * takes an integer argument of the record. */
static const char *skip_width(struct pfcheck *c, const char *f, int *at)
{
    struct cg *g = c->g;
    *at = 0;
    while (*f && d_strchr("-+ #0@?", *f))
        *at |= *f++ == '@';
    for (int part = 0; part < 2; part++) {
        if (*f == '*') {
            if (!c->aggmode && c->arg >= g->nrec)
                dcc_error(g->cc, c->line, "D_PRINTF_DYN_PROTO", "%s( ) prototype mismatch: "
                          "conversion #%d (%%*) is missing a corresponding \"*\" argument",
                          c->fn, (int)c->conv);
            if (!c->aggmode && g->rec[c->arg] == 's')
                dcc_error(g->cc, c->line, "D_PRINTF_DYN_TYPE", "%s( ) * must be an integer "
                          "argument", c->fn);
            c->arg++;
            f++;
        } else {
            while (*f >= '0' && *f <= '9')
                f++;
        }
        while (*f == '@') /* "%8@d": libdtrace takes the @ anywhere before the conversion */
            *at = 1, f++;
        if (part == 0 && *f == '.')
            f++;
        else
            break;
    }
    return f;
}

/* check_value: printf's conversion f (its size prefix len, nlen bytes) against the record's
 * argument it prints: a stack, a value at all, a size prefix's type, a string, a time. */
static void check_value(struct pfcheck *c, const char *f, const char *len, unsigned nlen)
{
    struct cg *g = c->g;
    unsigned arg = c->arg;
    int conv = (int)c->conv, line = c->line;
    const char *fn = c->fn;
    if ((g->rec[arg] == 'k') != (*f == 'k'))
        dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                  "with conversion #%d prototype (%%%c: %s)", fn, (int)arg + 2, conv,
                  *f, *f == 'k' ? "a stack" : "not a stack");
    if (arg >= g->nrec)
        dcc_error(g->cc, line, "D_PRINTF_ARG_PROTO", "%s( ) prototype mismatch: conversion "
                  "#%d (%%%c) is missing a corresponding value argument", fn, conv, *f);
    char want = printf_sized_type(len, nlen, *f);
    if (want && (*f == 'x' || *f == 'X')) /* either sign: compare the sizes */
        want = g->rec[arg] == (want | 0x20) || g->rec[arg] == (want & ~0x20) ? 0 : want;
    if (want && g->rec[arg] != want)
        dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                  "with conversion #%d prototype (%%%.*s%c: %s)", fn, (int)arg + 2,
                  conv, (int)nlen, len, *f, printf_sized_name(want));
    if ((g->rec[arg] == 's') != (*f == 's') ||
        ((*f == 'Y' || *f == 'T') && g->rec[arg] != 'l' && g->rec[arg] != 'L'))
        dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                  "with conversion #%d prototype (%%%c%s)", fn, (int)arg + 2, conv, *f,
                  *f == 'Y' || *f == 'T' ? ": a 64-bit integer" : "");
}

/* check_conversion: conversion f (after its width, its size prefix len, nlen bytes) against
 * the record: a known conversion, a float for a float, then by the mode printa's keys or
 * printf's values; the argument it takes counted. */
static void check_conversion(struct pfcheck *c, const char *f, const char *len, unsigned nlen)
{
    struct cg *g = c->g;
    /* libdtrace rejects a malformed or unknown conversion as a syntax error */
    if (!*f || !d_strchr("cdiouxXspYTkaAeEfFgG", *f))
        dcc_error(g->cc, c->line, "D_SYNTAX", "%s( ) format conversion #%d is not "
                  "supported", c->fn, (int)c->conv);
    if (c->aggmode != 1 && c->arg < g->nrec &&
        (g->rec[c->arg] == 'f' || g->rec[c->arg] == 'd') != (d_strchr("eEfFgG", *f) != NULL))
        dcc_error(g->cc, c->line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                  "with conversion #%d prototype (%%%c: %s)", c->fn, (int)c->arg + 2,
                  (int)c->conv, *f, d_strchr("eEfFgG", *f) ? "a float or double" : "not a float");
    if (c->aggmode == 1)
        return; /* printa: keys are checked once the aggregation is known (mode 2) */
    if (c->aggmode == 2) { /* printa's keys in g->rec: stacks and strings told apart (a %s
                            * of func( )'s key would print nothing: libdtrace refuses it) */
        if (c->arg < g->nrec && ((g->rec[c->arg] == 'k') != (*f == 'k') ||
                                 (g->rec[c->arg] == 's') != (*f == 's')))
            dcc_error(g->cc, c->line, "D_PRINTF_ARG_TYPE", "%s( ) key #%d is incompatible "
                      "with conversion #%d prototype (%%%c)", c->fn, (int)c->arg + 1,
                      (int)c->conv, *f);
        c->arg++;
        return;
    }
    check_value(c, f, len, nlen);
    c->arg++;
}

/* cg_printf_check: validates fmt against the argument types recorded in g->rec. */
void cg_printf_check(struct cg *g, const char *fmt, int line, const char *fn, int aggmode)
{
    struct pfcheck c = { g, line, aggmode, fn, 0, 0 };
    for (const char *f = fmt; *f; f++) {
        if (*f != '%')
            continue;
        f++;
        if (*f == '%')
            continue;
        c.conv++;
        int at;
        f = skip_width(&c, f, &at);
        const char *len = f;
        while (*f && d_strchr("hlLjzt", *f))
            f++;
        unsigned nlen = (unsigned)(f - len);
        if (at) {
            if (!aggmode)
                dcc_error(g->cc, line, "D_PRINTF_AGG_CONV", "%%@ is only valid in printa( )");
            if (!*f || !d_strchr("cdiouxXspYT", *f))
                f--;
            continue;
        }
        check_conversion(&c, f, len, nlen);
    }
    if (aggmode == 2)
        return;
    if (!aggmode && c.arg < g->nrec)
        dcc_error(g->cc, line, "D_PRINTF_ARG_EXTRA", "%s( ) prototype mismatch: only %d "
                  "arguments required by this format string", fn, (int)c.arg);
}
