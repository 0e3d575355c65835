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

/* cg_printf_check: validates fmt against the argument types recorded in g->rec. */
void cg_printf_check(struct cg *g, const char *fmt, int line, const char *fn, int aggmode)
{
    unsigned arg = 0, conv = 0;
    for (const char *f = fmt; *f; f++) {
        if (*f != '%')
            continue;
        f++;
        if (*f == '%')
            continue;
        conv++;
        int at = 0;
        while (*f && d_strchr("-+ #0@?", *f))
            at |= *f++ == '@';
        for (int part = 0; part < 2; part++) {
            if (*f == '*') {
                if (!aggmode && arg >= g->nrec)
                    dcc_error(g->cc, line, "D_PRINTF_DYN_PROTO", "%s( ) prototype mismatch: "
                              "conversion #%d (%%*) is missing a corresponding \"*\" argument",
                              fn, (int)conv);
                if (!aggmode && g->rec[arg] == 's')
                    dcc_error(g->cc, line, "D_PRINTF_DYN_TYPE", "%s( ) * must be an integer "
                              "argument", fn);
                arg++;
                f++;
            } else {
                while (*f >= '0' && *f <= '9')
                    f++;
            }
            while (*f == '@') /* "%8@d": libdtrace takes the @ anywhere before the conversion */
                at = 1, f++;
            if (part == 0 && *f == '.')
                f++;
            else
                break;
        }
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
        /* libdtrace rejects a malformed or unknown conversion as a syntax error */
        if (!*f || !d_strchr("cdiouxXspYTkaAeEfFgG", *f))
            dcc_error(g->cc, line, "D_SYNTAX", "%s( ) format conversion #%d is not "
                      "supported", fn, (int)conv);
        if (aggmode != 1 && arg < g->nrec &&
            (g->rec[arg] == 'f' || g->rec[arg] == 'd') != (d_strchr("eEfFgG", *f) != NULL))
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%c: %s)", fn, (int)arg + 2, (int)conv,
                      *f, d_strchr("eEfFgG", *f) ? "a float or double" : "not a float");
        if (aggmode == 1)
            continue; /* printa: keys are checked once the aggregation is known (mode 2) */
        if (aggmode == 2) { /* printa's keys in g->rec: stacks and strings told apart (a %s
                             * of func( )'s key would print nothing: libdtrace refuses it) */
            if (arg < g->nrec && ((g->rec[arg] == 'k') != (*f == 'k') ||
                                  (g->rec[arg] == 's') != (*f == 's')))
                dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) key #%d is incompatible "
                          "with conversion #%d prototype (%%%c)", fn, (int)arg + 1, (int)conv, *f);
            arg++;
            continue;
        }
        if ((g->rec[arg] == 'k') != (*f == 'k'))
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%c: %s)", fn, (int)arg + 2, (int)conv,
                      *f, *f == 'k' ? "a stack" : "not a stack");
        if (arg >= g->nrec)
            dcc_error(g->cc, line, "D_PRINTF_ARG_PROTO", "%s( ) prototype mismatch: conversion "
                      "#%d (%%%c) is missing a corresponding value argument", fn, (int)conv, *f);
        char want = printf_sized_type(len, nlen, *f);
        if (want && (*f == 'x' || *f == 'X')) /* either sign: compare the sizes */
            want = g->rec[arg] == (want | 0x20) || g->rec[arg] == (want & ~0x20) ? 0 : want;
        if (want && g->rec[arg] != want)
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%.*s%c: %s)", fn, (int)arg + 2,
                      (int)conv, (int)nlen, len, *f, printf_sized_name(want));
        if ((g->rec[arg] == 's') != (*f == 's') ||
            ((*f == 'Y' || *f == 'T') && g->rec[arg] != 'l' && g->rec[arg] != 'L'))
            dcc_error(g->cc, line, "D_PRINTF_ARG_TYPE", "%s( ) argument #%d is incompatible "
                      "with conversion #%d prototype (%%%c%s)", fn, (int)arg + 2, (int)conv, *f,
                      *f == 'Y' || *f == 'T' ? ": a 64-bit integer" : "");
        arg++;
    }
    if (aggmode == 2)
        return;
    if (!aggmode && arg < g->nrec)
        dcc_error(g->cc, line, "D_PRINTF_ARG_EXTRA", "%s( ) prototype mismatch: only %d "
                  "arguments required by this format string", fn, (int)arg);
}
