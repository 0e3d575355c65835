// SPDX-License-Identifier: MIT
// The user runtime's printf conversions (ufmt.h): one formatter that writes characters into a
// sink, for x86-pc's runtime and for newlib-nano's printf family. Integers are converted as
// 64-bit values whatever their length, so ll, j and 64-bit arguments print whole.
#include <ufmt.h>
#include <stdbool.h>
#include <stdint.h>

// A double passed through "..." occupies what a 64-bit integer does on the 32-bit ABIs this
// runs on (ARM's AAPCS, i386's cdecl), which is how an unsupported %f skips its argument.
_Static_assert(sizeof(void *) == 4, "ufmt skips a double as a 64-bit integer: 32-bit ABIs only");

struct out {
    struct ufmt_sink *sink;
    size_t total;
};

static void put(struct out *o, char c)
{
    o->total++;
    o->sink->put(o->sink, c);
}

static void pad(struct out *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

static size_t length_of(const char *s, int max)
{
    size_t n = 0;
    while ((max < 0 || n < (size_t)max) && s[n])
        n++;
    return n;
}

struct spec {
    bool left, plus, space, zero, alt;
    int width, prec;    // prec -1: none
};

// One integer conversion: digits of v in base, with sign, prefix, precision and width.
static void fmt_int(struct out *o, const struct spec *sp, uint64_t v, bool neg, unsigned base,
                    bool upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[24];
    int n = 0;
    while (v) {
        tmp[n++] = digits[v % base];
        v /= base;
    }
    if (sp->prec < 0 && n == 0)
        tmp[n++] = '0';
    int zeros = sp->prec > n ? sp->prec - n : 0;
    if (base == 8 && sp->alt && zeros == 0 && (n == 0 || tmp[n - 1] != '0'))
        zeros = 1;
    const char *prefix = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
    if (base == 16 && sp->alt && n)
        prefix = upper ? "0X" : "0x";
    int len = (int)length_of(prefix, -1) + zeros + n;
    int room = sp->width > len ? sp->width - len : 0;
    if (!sp->left && !(sp->zero && sp->prec < 0))
        pad(o, ' ', room);
    for (const char *p = prefix; *p; p++)
        put(o, *p);
    if (!sp->left && sp->zero && sp->prec < 0)
        pad(o, '0', room);
    pad(o, '0', zeros);
    while (n)
        put(o, tmp[--n]);
    if (sp->left)
        pad(o, ' ', room);
}

static void fmt_str(struct out *o, const struct spec *sp, const char *str)
{
    if (!str)
        str = "(null)";
    int n = (int)length_of(str, sp->prec);
    int room = sp->width > n ? sp->width - n : 0;
    if (!sp->left)
        pad(o, ' ', room);
    for (int i = 0; i < n; i++)
        put(o, str[i]);
    if (sp->left)
        pad(o, ' ', room);
}

// Flags, width and precision after a '%'; returns where the length modifier starts.
static const char *parse_spec(const char *fmt, struct spec *sp, va_list *ap)
{
    for (;; fmt++) {
        if (*fmt == '-') sp->left = true;
        else if (*fmt == '+') sp->plus = true;
        else if (*fmt == ' ') sp->space = true;
        else if (*fmt == '0') sp->zero = true;
        else if (*fmt == '#') sp->alt = true;
        else break;
    }
    if (*fmt == '*') {
        sp->width = va_arg(*ap, int);
        if (sp->width < 0) {
            sp->left = true;
            sp->width = -sp->width;
        }
        fmt++;
    } else {
        while (*fmt >= '0' && *fmt <= '9')
            sp->width = sp->width * 10 + (*fmt++ - '0');
    }
    if (*fmt == '.') {
        fmt++;
        sp->prec = 0;
        if (*fmt == '*') {
            sp->prec = va_arg(*ap, int);
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                sp->prec = sp->prec * 10 + (*fmt++ - '0');
        }
    }
    return fmt;
}

enum { LEN_CHAR = -2, LEN_SHORT = -1, LEN_INT = 0, LEN_LONG = 1, LEN_LLONG = 2 };

// The length modifier: its kind, and *fmt moved past it. size_t and ptrdiff_t are long's
// width on these ABIs, intmax_t long long's.
static int parse_length(const char **fmt)
{
    int lng = LEN_INT;
    for (;; (*fmt)++) {
        char c = **fmt;
        if (c == 'l') lng = lng == LEN_LONG ? LEN_LLONG : LEN_LONG;
        else if (c == 'h') lng = lng == LEN_SHORT ? LEN_CHAR : LEN_SHORT;
        else if (c == 'z' || c == 't') lng = LEN_LONG;
        else if (c == 'j') lng = LEN_LLONG;
        else return lng;
    }
}

static int64_t signed_arg(int lng, va_list *ap)
{
    int64_t v = lng == LEN_LLONG ? va_arg(*ap, long long)
              : lng == LEN_LONG ? va_arg(*ap, long) : va_arg(*ap, int);
    if (lng == LEN_SHORT)
        v = (short)v;
    if (lng == LEN_CHAR)
        v = (signed char)v;
    return v;
}

static uint64_t unsigned_arg(int lng, va_list *ap)
{
    uint64_t v = lng == LEN_LLONG ? va_arg(*ap, unsigned long long)
               : lng == LEN_LONG ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned);
    if (lng == LEN_SHORT)
        v = (unsigned short)v;
    if (lng == LEN_CHAR)
        v = (unsigned char)v;
    return v;
}

// One conversion c with its spec and length; returns false for an unknown conversion.
static bool convert(struct out *o, char c, struct spec *sp, int lng, va_list *ap)
{
    switch (c) {
    case 'd':
    case 'i': {
        int64_t v = signed_arg(lng, ap);
        fmt_int(o, sp, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, false);
        return true;
    }
    case 'u': case 'x': case 'X': case 'o':
        fmt_int(o, sp, unsigned_arg(lng, ap), false, c == 'u' ? 10 : c == 'o' ? 8 : 16,
                c == 'X');
        return true;
    case 'p':
        sp->alt = true;
        fmt_int(o, sp, (uintptr_t)va_arg(*ap, void *), false, 16, false);
        return true;
    case 's':
        fmt_str(o, sp, va_arg(*ap, const char *));
        return true;
    case 'c': {
        char ch[2] = { (char)va_arg(*ap, int), 0 };
        sp->prec = -1;
        if (!ch[0]) {       // a NUL character still counts
            pad(o, ' ', sp->left ? 0 : sp->width - 1);
            put(o, 0);
            pad(o, ' ', sp->left ? sp->width - 1 : 0);
        } else {
            fmt_str(o, sp, ch);
        }
        return true;
    }
    case '%':
        put(o, '%');
        return true;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        (void)va_arg(*ap, uint64_t);    // no floating point: the double skipped (see above)
        return false;
    default:
        return false;
    }
}

size_t ufmt_vformat(struct ufmt_sink *sink, const char *fmt, va_list ap)
{
    struct out o = { sink, 0 };
    va_list args;
    va_copy(args, ap);
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(&o, *fmt);
            continue;
        }
        const char *start = fmt;
        struct spec sp = { .prec = -1 };
        fmt = parse_spec(fmt + 1, &sp, &args);
        int lng = parse_length(&fmt);
        if (!*fmt)
            break;
        if (!convert(&o, *fmt, &sp, lng, &args))     // unknown: printed as written
            for (const char *p = start; p <= fmt; p++)
                put(&o, *p);
    }
    va_end(args);
    return o.total;
}
