// SPDX-License-Identifier: MIT
// printf-style formatting for the D consumer, without stdio: conversions c d i o u x X s p %,
// Y and T (times, in UTC), e E f F g G (a float's or double's bits, exactly, as printf(3))
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
    int bytes = d_type_bytes(type);
    return bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1u;
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
    char digits[24];
    int n = (int)kev_put_dec(digits, m);
    for (int k = n; k < width; k++)
        *p++ = padc;
    for (int k = 0; k < n; k++)
        *p++ = digits[k];
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

/* ---- %e %f %g: a float's or double's exact decimal digits, rounded as printf(3) rounds
 * (to nearest, ties to even), in integer arithmetic: the board's consumer has no floating
 * point in its C library, and the host prints what the board prints. value = m * 2^e. */

#define BIG_WORDS 36u          /* 1152 bits: 2^1024 and a double's fraction of 1074 bits */
#define FLT_DIGITS 1200u       /* 309 integer digits, then fraction digits */

struct big { uint32_t w[BIG_WORDS]; };

/* big_mul_add: b = b * f + add; returns the carry out of the top word */
static uint32_t big_mul_add(struct big *b, uint32_t f, uint32_t add)
{
    uint64_t c = add;
    for (unsigned i = 0; i < BIG_WORDS; i++) {
        c += (uint64_t)b->w[i] * f;
        b->w[i] = (uint32_t)c;
        c >>= 32;
    }
    return (uint32_t)c;
}

/* big_divmod: b /= d, returns the remainder */
static uint32_t big_divmod(struct big *b, uint32_t d)
{
    uint64_t r = 0;
    for (unsigned i = BIG_WORDS; i-- > 0;) {
        r = r << 32 | b->w[i];
        b->w[i] = (uint32_t)(r / d);
        r %= d;
    }
    return (uint32_t)r;
}

static int big_zero(const struct big *b)
{
    for (unsigned i = 0; i < BIG_WORDS; i++)
        if (b->w[i])
            return 0;
    return 1;
}

/* float_digits: the decimal digits of m * 2^e into d: the integer part's (no leading zeros;
 * none for 0), *nint of them, then fraction digits until nfrac have been written, or until
 * `sig` digits from the first non-zero one (sig > 0: %e's significant digits), plus one more
 * to round on; *sticky: a non-zero digit lies beyond. Returns the digits written. */
static unsigned float_digits(uint64_t m, int e, char *d, unsigned *nint, unsigned nfrac,
                             unsigned sig, int *sticky)
{
    static struct big b;
    unsigned n = 0, k = e < 0 ? (unsigned)-e : 0;
    memset(&b, 0, sizeof(b));
    /* integer part: m >> k (k < 64), or m << e */
    uint64_t ip = k >= 64 ? 0 : m >> k;
    if (e > 0) {
        b.w[0] = (uint32_t)m;
        b.w[1] = (uint32_t)(m >> 32);
        for (int i = 0; i < e; i++)
            big_mul_add(&b, 2, 0);
    } else {
        b.w[0] = (uint32_t)ip;
        b.w[1] = (uint32_t)(ip >> 32);
    }
    char tmp[320];
    unsigned t = 0;
    while (!big_zero(&b) && t < sizeof(tmp)) {
        uint32_t r = big_divmod(&b, 1000000000u);
        for (int j = 0; j < 9; j++, r /= 10)
            tmp[t++] = (char)('0' + r % 10);
    }
    while (t > 0 && tmp[t - 1] == '0')
        t--;
    while (t > 0)
        d[n++] = tmp[--t];
    *nint = n;
    /* the fraction, (m mod 2^k) / 2^k: each digit the bits above k after times 10 */
    memset(&b, 0, sizeof(b));
    if (k) {
        uint64_t f = k >= 64 ? m : m & ((1ull << k) - 1u);
        b.w[0] = (uint32_t)f;
        b.w[1] = (uint32_t)(f >> 32);
    }
    int seen = n > 0;
    unsigned want = !sig ? nfrac + 1u : seen ? (sig > n ? sig - n : 0) + 1u : FLT_DIGITS, got = 0;
    while (got < want && n < FLT_DIGITS) {
        big_mul_add(&b, 10, 0);
        unsigned digit = (b.w[k / 32] >> (k % 32)) | (k % 32 && k / 32 + 1 < BIG_WORDS
                         ? b.w[k / 32 + 1] << (32 - k % 32) : 0);
        digit &= 15u;
        b.w[k / 32] &= (k % 32) ? (1u << (k % 32)) - 1u : 0u;
        for (unsigned i = k / 32 + 1; i < BIG_WORDS; i++)
            b.w[i] = 0;
        d[n++] = (char)('0' + digit);
        got++;
        if (sig && !seen && digit) { /* %e: sig digits from the first non-zero one */
            seen = 1;
            want = got + sig;
        }
        if (sig && !seen && big_zero(&b)) /* zero: no digit will come */
            break;
    }
    *sticky = !big_zero(&b);
    return n;
}

/* round_at: keeps d[0..keep), rounding on d[keep] and what lies beyond (sticky), to nearest
 * with ties to even; returns 1 when a carry ran out of the front (d[0] is then '1'). */
static int round_at(char *d, unsigned keep, unsigned n, int sticky)
{
    if (keep >= n)
        return 0;
    int r = d[keep] - '0';
    for (unsigned i = keep + 1; i < n; i++)
        sticky |= d[i] != '0';
    int odd = keep > 0 && (d[keep - 1] - '0') % 2;
    if (r < 5 || (r == 5 && !sticky && !odd))
        return 0;
    for (unsigned i = keep; i-- > 0;) {
        if (d[i] != '9') {
            d[i]++;
            return 0;
        }
        d[i] = '0';
    }
    memmove(d + 1, d, keep);    /* 9.99 -> 10.0 */
    d[0] = '1';
    return 1;
}

/* float_out: sign, body (the digits, point and exponent), padded as a number */
static void float_out(const struct dcons_out *o, const struct dfmt_spec *sp, int neg,
                      const char *body, int finite)
{
    const char *prefix = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
    int plen = (int)strlen(prefix), blen = (int)strlen(body);
    int w = sp->width > plen + blen ? sp->width - plen - blen : 0;
    int zero = sp->zero && !sp->minus && finite;
    if (!sp->minus && !zero)
        pad(o, ' ', w);
    o->write(o->arg, prefix, (size_t)plen);
    if (zero)
        pad(o, '0', w);
    o->write(o->arg, body, (size_t)blen);
    if (sp->minus)
        pad(o, ' ', w);
}

/* float_split: a float's (type 'f') or a double's bits as sign, mantissa m and binary
 * exponent e (the value is m * 2^e); the biased exponent returned, 0x7ff for inf and nan */
static unsigned float_split(uint64_t bits, char type, int *neg, uint64_t *m, int *e)
{
    unsigned ex;
    if (type == 'f') {
        *neg = (int)(bits >> 31 & 1u);
        ex = (unsigned)(bits >> 23 & 0xffu);
        *m = bits & 0x7fffffu;
        if (ex == 0xff)
            ex = 0x7ff;
        else if (ex)
            *m |= 0x800000u;
        *e = (ex ? (int)ex : 1) - 150;
    } else {
        *neg = (int)(bits >> 63);
        ex = (unsigned)(bits >> 52 & 0x7ffu);
        *m = bits & 0xfffffffffffffull;
        if (ex && ex != 0x7ff)
            *m |= 1ull << 52;
        *e = (ex ? (int)ex : 1) - 1075;
    }
    return ex;
}

/* g_trim: %g's body from `body` to p without trailing zeros, nor a point with nothing after;
 * returns its new end */
static char *g_trim(char *body, char *p)
{
    char *dot = NULL;
    for (char *q = body; q < p && !dot; q++)
        dot = *q == '.' ? q : NULL;
    if (dot) {
        while (p > dot + 1 && p[-1] == '0')
            p--;
        if (p == dot + 1)
            p--;
    }
    return p;
}

static void fmt_float(const struct dcons_out *o, const struct dfmt_spec *sp, uint64_t bits,
                      char type)
{
    static char d[FLT_DIGITS + 2], body[FLT_DIGITS + 16];
    char conv = sp->conv, lower = (char)(conv | 0x20);
    int up = conv == 'E' || conv == 'F' || conv == 'G';
    int neg, e;
    uint64_t m;
    if (float_split(bits, type, &neg, &m, &e) == 0x7ff) { /* as glibc: inf, nan (INF, NAN) */
        float_out(o, sp, neg, m ? (up ? "NAN" : "nan") : up ? "INF" : "inf", 0);
        return;
    }
    int prec = sp->prec < 0 ? 6 : sp->prec > 1100 ? 1100 : sp->prec;
    unsigned nint, n;
    int sticky;
    char *p = body;
    if (lower == 'g' && prec == 0)
        prec = 1;
    int x = 0; /* the decimal exponent of the first significant digit */
    int use_e = lower == 'e';
    if (lower != 'f') { /* the digits %e would print, and their exponent */
        unsigned sig = (unsigned)(lower == 'g' ? prec : prec + 1);
        n = float_digits(m, e, d, &nint, 0, sig, &sticky);
        unsigned first = 0;
        while (first < n && d[first] == '0')
            first++;
        if (first == n) { /* zero */
            x = 0;
            memset(d, '0', sig);
        } else {
            x = nint ? (int)nint - 1 : -(int)(first - nint) - 1;
            memmove(d, d + first, n - first);
            if (round_at(d, sig, n - first, sticky))
                x++;
        }
        if (lower == 'g') { /* %f when -4 <= x < P: P - 1 - x decimals; else %e, P - 1 */
            use_e = x < -4 || x >= prec;
            prec = use_e ? prec - 1 : prec - 1 - x;
        }
        if (use_e) {
            *p++ = d[0];
            if (prec > 0 || sp->hash)
                *p++ = '.';
            if (prec > 0) { /* always >= 0 here (%g's prec is at least 1): said for the compiler */
                memcpy(p, d + 1, (size_t)prec);
                p += prec;
            }
        }
    }
    if (!use_e) { /* %f (and %g's) with prec decimals */
        n = float_digits(m, e, d + 1, &nint, (unsigned)prec, 0, &sticky);
        d[0] = '0';   /* room for a carry out of the front */
        if (round_at(d, 1 + nint + (unsigned)prec, n + 1, sticky) || d[0] != '0')
            nint++;
        else
            memmove(d, d + 1, nint + (unsigned)prec);
        if (!nint)
            *p++ = '0';
        memcpy(p, d, nint);
        p += nint;
        if (prec > 0 || sp->hash)
            *p++ = '.';
        memcpy(p, d + nint, (size_t)prec);
        p += prec;
    }
    if (lower == 'g' && !sp->hash)
        p = g_trim(body, p);
    if (use_e) {
        *p++ = up ? 'E' : 'e';
        *p++ = x < 0 ? '-' : '+';
        unsigned ax = (unsigned)(x < 0 ? -x : x);
        if (ax >= 100)
            *p++ = (char)('0' + ax / 100);
        *p++ = (char)('0' + ax / 10 % 10);
        *p++ = (char)('0' + ax % 10);
    }
    *p = 0;
    float_out(o, sp, neg, body, 1);
}

void dfmt_int(const struct dcons_out *o, const struct dfmt_spec *sp, int64_t v, char type)
{
    char digits[72], prefix[4] = "";
    int n = 0;
    uint64_t m;
    char conv = sp->conv;
    if (type == 'f' || type == 'd') { /* a float's or a double's bits: %e %f %g */
        fmt_float(o, sp, (uint64_t)v, type);
        return;
    }
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
        int sz = d_type_bytes(type);
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

/* spec_flags: a conversion's flags at f into sp (? the width of a 64-bit pointer, as
 * libdtrace's); where they end. */
static const char *spec_flags(const char *f, struct dfmt_spec *sp)
{
    for (;; f++) {
        if (*f == '-') sp->minus = 1;
        else if (*f == '+') sp->plus = 1;
        else if (*f == ' ') sp->space = 1;
        else if (*f == '#') sp->hash = 1;
        else if (*f == '0') sp->zero = 1;
        else if (*f == '@') sp->at = 1;
        else if (*f == '?') sp->width = 16; /* libdtrace: the width of a 64-bit pointer */
        else return f;
    }
}

/* spec_width: a conversion's width and precision at f into sp, each at most 4096; a * takes
 * the next argument (*arg), a negative width meaning -; where they end. */
static const char *spec_width(const char *f, struct dfmt_spec *sp, const struct dfmt_arg *args,
                              unsigned nargs, unsigned *arg)
{
    for (int part = 0; part < 2; part++) {
        int *dst = part ? &sp->prec : &sp->width;
        if (*f == '*') {
            int64_t v = *arg < nargs ? args[(*arg)++].i : 0;
            if (v < 0 && !part) {
                sp->minus = 1;
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
            sp->at = 1;
            f++;
        }
        if (part == 0 && *f == '.') {
            f++;
            continue;
        }
        break;
    }
    if (sp->prec == 0) /* libdtrace writes a precision into the format only if > 0 */
        sp->prec = -1;
    return f;
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
        struct dfmt_spec sp = { 0, 0, 0, 0, 0, 0, 0, -1, -1 };
        f = spec_flags(f + 1, &sp);
        f = spec_width(f, &sp, args, nargs, &arg);
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
