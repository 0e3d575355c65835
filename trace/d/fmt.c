// SPDX-License-Identifier: MIT
// printf-style formatting for the D consumer, without stdio: conversions c d i o u x X s p %,
// Y and T (times, in UTC)
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

static int type_size(char type)
{
    switch (type) {
    case 'b': case 'B': return 1;
    case 'h': case 'H': return 2;
    case 'i': case 'I': return 4;
    default: return 8;
    }
}

/* fmt_time: ns since 1970 (UTC: the board has no time zone, and the host prints the same) as
 * libdtrace's %Y ("2003 Sep  3 17:23:41", from ctime) or %T (RFC 822, strftime's
 * "%a, %d %b %G %T %Z": %G is the ISO 8601 week-numbering year). */
static void civil(uint64_t days, uint64_t *y, int *m, int *d)
{
    /* days since 1970-01-01 to a proleptic Gregorian date, in 400-year eras from 0000-03-01;
     * unsigned throughout: 32-bit targets have only the unsigned 64-bit division helpers */
    uint64_t z = days + 719468, era = z / 146097;
    uint32_t doe = (uint32_t)(z - era * 146097);
    uint32_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    uint32_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    uint32_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static char *put_num(char *p, uint64_t m, int width, char padc)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    for (int k = n; k < width; k++)
        *p++ = padc;
    while (n)
        *p++ = tmp[--n];
    return p;
}

static void fmt_time(char *buf, uint64_t ns, int rfc822)
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    static const char wdays[] = "SunMonTueWedThuFriSat";
    uint64_t sec = ns / 1000000000u, days = sec / 86400, y, iy;
    uint32_t rem = (uint32_t)(sec % 86400);
    int m, d, im, id, wday = (int)((days + 4) % 7);
    civil(days, &y, &m, &d);
    char *p = buf;
    if (rfc822) {
        civil(days - (wday + 6) % 7 + 3, &iy, &im, &id); /* the Thursday of its ISO week */
        memcpy(p, wdays + 3 * wday, 3), p += 3;
        *p++ = ',', *p++ = ' ';
        p = put_num(p, (uint64_t)d, 2, '0');
        *p++ = ' ';
        memcpy(p, months + 3 * (m - 1), 3), p += 3;
        *p++ = ' ';
        p = put_num(p, iy, 4, '0');
    } else {
        p = put_num(p, y, 4, '0');
        *p++ = ' ';
        memcpy(p, months + 3 * (m - 1), 3), p += 3;
        *p++ = ' ';
        p = put_num(p, (uint64_t)d, 2, ' ');
    }
    *p++ = ' ';
    p = put_num(p, rem / 3600, 2, '0');
    *p++ = ':';
    p = put_num(p, rem / 60 % 60, 2, '0');
    *p++ = ':';
    p = put_num(p, rem % 60, 2, '0');
    if (rfc822)
        memcpy(p, " UTC", 4), p += 4;
    *p = 0;
}

void dfmt_int(const struct dcons_out *o, const struct dfmt_spec *sp, int64_t v, char type)
{
    char digits[72], prefix[4] = "";
    int n = 0;
    uint64_t m;
    char conv = sp->conv;
    if (conv == 'k' || type == 'k') { /* a stack: libdtrace's dt_print_stack (cstack.c) */
        dcons_stack_print(o, (uint64_t)v);
        return;
    }
    const char *sym = dcons_symaddr_kind(type, conv);
    if (sym) { /* an address the host names, printed as a string (csymaddr.c) */
        char tok[48];
        dcons_symaddr_token(tok, sizeof(tok), sym, NULL, (uint64_t)v);
        dfmt_str(o, sp, tok);
        return;
    }
    if (conv == 'Y' || conv == 'T') { /* a time, printed as a string (%s's width, precision) */
        char buf[48];
        fmt_time(buf, (uint64_t)v, conv == 'T');
        dfmt_str(o, sp, buf);
        return;
    }
    if (conv == 'c') {
        char ch = (char)v;
        struct dfmt_spec s = *sp;
        s.prec = -1;
        s.zero = 0;
        emit_field(o, &s, "", &ch, 1, 0);
        return;
    }
    /* as libdtrace: %i is pfprint_sint (the value sign-extended from its size); %d is too
     * for a signed value, but pfcheck_dint makes it %u for an unsigned one */
    int uns = type >= 'A' && type <= 'Z';
    if (conv == 'd' && uns)
        conv = 'u';
    if (conv == 'd' || conv == 'i') {
        int sz = type_size(type);
        if (sz < 8)
            v = sz == 1 ? (int8_t)v : sz == 2 ? (int16_t)v : (int32_t)v;
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
    /* %p is libdtrace's "x" output format: bare hex, 0x only with # */
    if (sp->hash && (conv == 'x' || conv == 'X' || conv == 'p') && v != 0)
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
        if (sp.prec == 0) /* libdtrace writes a precision into the format only if > 0 */
            sp.prec = -1;
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
            if (!d_strchr("cdiouxXspYT", sp.conv)) {
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
