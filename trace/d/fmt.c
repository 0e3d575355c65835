// SPDX-License-Identifier: MIT
// printf-style formatting for the D consumer, without stdio: conversions c d i o u x X s p %
// with flags - + space # 0 (and @ for printa), width and precision (either may be *), length
// modifiers accepted and ignored (values carry their own size: a 4-byte value prints as
// 4 bytes under %u/%x/%o, whatever modifier the format names).
#include <d/dcons.h>
#include "dutil.h"

void dfmt_puts(const struct dcons_out *o, const char *s) { o->write(o->arg, s, strlen(s)); }

static void pad(const struct dcons_out *o, char c, int n)
{
    char buf[64];
    memset(buf, c, sizeof(buf));
    while (n > 0) {
        int k = n > 64 ? 64 : n;
        o->write(o->arg, buf, (size_t)k);
        n -= k;
    }
}

static void emit_field(const struct dcons_out *o, const struct dfmt_spec *sp, const char *prefix,
                       const char *digits, int ndig, int zeros)
{
    int plen = (int)strlen(prefix), len = plen + zeros + ndig;
    int w = sp->width > len ? sp->width - len : 0;
    if (!sp->minus && !(sp->zero && sp->prec < 0))
        pad(o, ' ', w);
    o->write(o->arg, prefix, (size_t)plen);
    if (!sp->minus && sp->zero && sp->prec < 0)
        pad(o, '0', w);
    pad(o, '0', zeros);
    o->write(o->arg, digits, (size_t)ndig);
    if (sp->minus)
        pad(o, ' ', w);
}

static uint64_t size_mask(char type)
{
    switch (type) {
    case 'b': case 'B': return 0xffu;
    case 'h': case 'H': return 0xffffu;
    case 'i': case 'I': return 0xffffffffu;
    default: return ~0ull;
    }
}

void dfmt_int(const struct dcons_out *o, const struct dfmt_spec *sp, int64_t v, char type)
{
    char digits[72], prefix[4] = "";
    int n = 0;
    uint64_t m;
    char conv = sp->conv;
    if (conv == 'c') {
        char ch = (char)v;
        struct dfmt_spec s = *sp;
        s.prec = -1;
        s.zero = 0;
        emit_field(o, &s, "", &ch, 1, 0);
        return;
    }
    if (conv == 'd' || conv == 'i') {
        int neg = v < 0;
        m = neg ? 0 - (uint64_t)v : (uint64_t)v;
        if (neg)
            d_strlcpy(prefix, "-", sizeof(prefix));
        else if (sp->plus)
            d_strlcpy(prefix, "+", sizeof(prefix));
        else if (sp->space)
            d_strlcpy(prefix, " ", sizeof(prefix));
    } else {
        m = (uint64_t)v & size_mask(type);
    }
    unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : 10;
    const char *dig = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[72];
    do {
        tmp[n++] = dig[m % base];
        m /= base;
    } while (m);
    if (sp->prec == 0 && v == 0 && conv != 'p')
        n = 0;
    for (int k = 0; k < n; k++)
        digits[k] = tmp[n - 1 - k];
    int zeros = sp->prec > n ? sp->prec - n : 0;
    if (conv == 'p' || (sp->hash && (conv == 'x' || conv == 'X') && v != 0))
        d_strlcpy(prefix, conv == 'X' ? "0X" : "0x", sizeof(prefix));
    if (sp->hash && conv == 'o' && zeros == 0 && (n == 0 || digits[0] != '0'))
        zeros = 1;
    emit_field(o, sp, prefix, digits, n, zeros);
}

void dfmt_str(const struct dcons_out *o, const struct dfmt_spec *sp, const char *s)
{
    int n = (int)strlen(s);
    if (sp->prec >= 0 && sp->prec < n)
        n = sp->prec;
    int w = sp->width > n ? sp->width - n : 0;
    if (!sp->minus)
        pad(o, ' ', w);
    o->write(o->arg, s, (size_t)n);
    if (sp->minus)
        pad(o, ' ', w);
}

void dfmt_printf(const struct dcons_out *o, const char *fmt, const struct dfmt_arg *args,
                 unsigned nargs, dfmt_aggval aggval, void *ctx)
{
    unsigned arg = 0;
    const char *lit = fmt;
    for (const char *f = fmt; *f; f++) {
        if (*f != '%')
            continue;
        if (f > lit)
            o->write(o->arg, lit, (size_t)(f - lit));
        lit = f;
        f++;
        struct dfmt_spec sp = { 0, 0, 0, 0, 0, 0, 0, -1, -1 };
        for (;; f++) {
            if (*f == '-') sp.minus = 1;
            else if (*f == '+') sp.plus = 1;
            else if (*f == ' ') sp.space = 1;
            else if (*f == '#') sp.hash = 1;
            else if (*f == '0') sp.zero = 1;
            else if (*f == '@') sp.at = 1;
            else if (*f == '?') sp.width = 16; /* libdtrace: the width of a 64-bit pointer */
            else break;
        }
        for (int part = 0; part < 2; part++) {
            int *dst = part ? &sp.prec : &sp.width;
            if (*f == '*') {
                int64_t v = arg < nargs ? args[arg++].i : 0;
                if (v < 0 && !part) {
                    sp.minus = 1;
                    v = -v;
                }
                *dst = v < 0 ? -1 : v > 4096 ? 4096 : (int)v;
                f++;
            } else if (*f >= '0' && *f <= '9') {
                int v = 0;
                while (*f >= '0' && *f <= '9') {
                    if (v < 4096)
                        v = v * 10 + (*f - '0');
                    f++;
                }
                *dst = v > 4096 ? 4096 : v;
            } else if (part) {
                *dst = 0;
            }
            while (*f == '@') { /* libdtrace takes %@ anywhere before the conversion */
                sp.at = 1;
                f++;
            }
            if (part == 0 && *f == '.') {
                f++;
                continue;
            }
            break;
        }
        while (*f && d_strchr("hlLjzt", *f))
            f++;
        if (!*f)
            break;
        sp.conv = *f;
        lit = f + 1;
        if (sp.conv == '%' && !sp.at) {
            o->write(o->arg, "%", 1);
            continue;
        }
        if (sp.at) {
            if (!d_strchr("cdiouxXsp", sp.conv)) {
                sp.conv = 'd';
                lit = f;
            }
            if (aggval)
                aggval(ctx, &sp);
            continue;
        }
        if (arg >= nargs)
            continue;
        const struct dfmt_arg *a = &args[arg++];
        if (sp.conv == 's')
            dfmt_str(o, &sp, a->type == 's' ? a->s : "");
        else if (a->type != 's')
            dfmt_int(o, &sp, a->i, a->type);
    }
    dfmt_puts(o, lit);
}
