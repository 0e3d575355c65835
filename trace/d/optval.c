// SPDX-License-Identifier: MIT
// Option values (d/optval.h): sizes with k/m/g/t suffixes and rates with time units or hz,
// as libdtrace's dt_opt_size and dt_opt_rate read them.
#include <d/optval.h>

#define OPTVAL_MAX (1ull << 62) /* past it a value is refused (no overflow below it) */

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

/* c_integer: the leading C integer of s (strtoull base 0); NULL when s has none or it is
 * larger than OPTVAL_MAX; else where the digits end. */
static const char *c_integer(const char *s, uint64_t *v)
{
    unsigned base = 10;
    const char *p = s;
    *v = 0;
    if (p[0] == '0' && lower(p[1]) == 'x') {
        base = 16, p += 2;
    } else if (p[0] == '0') {
        base = 8;
    }
    const char *digits = p;
    for (;; p++) {
        unsigned d;
        int c = lower(*p);
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else
            break;
        if (d >= base)
            break;
        if (*v > (OPTVAL_MAX - d) / base)
            return 0;
        *v = *v * base + d;
    }
    return p == digits && base != 8 ? 0 : p;
}

static int same_word(const char *a, const char *b)
{
    while (*a && lower(*a) == *b)
        a++, b++;
    return !*a && !*b;
}

int d_optval_int(const char *s, uint64_t *v)
{
    const char *end = c_integer(s, v);
    return end && !*end ? 0 : -1;
}

int d_optval_size(const char *s, uint64_t *bytes)
{
    uint64_t v;
    const char *end = c_integer(s, &v);
    if (!end)
        return -1;
    unsigned shift = 0;
    switch (lower(*end)) {
    case 't': shift += 10; /* fall through */
    case 'g': shift += 10; /* fall through */
    case 'm': shift += 10; /* fall through */
    case 'k': shift += 10; end++; break;
    default: break;
    }
    if (*end || v > (OPTVAL_MAX >> shift))
        return -1;
    *bytes = v << shift;
    return 0;
}

int d_optval_rate(const char *s, uint64_t *ns)
{
    static const struct { const char *unit; uint64_t ns; } units[] = {
        { "", 1 }, { "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
        { "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000ull },
        { "sec", 1000000000ull }, { "m", 60000000000ull }, { "min", 60000000000ull },
        { "h", 3600000000000ull }, { "hour", 3600000000000ull }, { "d", 86400000000000ull },
        { "day", 86400000000000ull },
    };
    uint64_t v;
    const char *end = c_integer(s, &v);
    if (!end || !v)
        return -1;
    if (same_word(end, "hz")) {
        *ns = 1000000000ull / v ? 1000000000ull / v : 1;
        return 0;
    }
    for (unsigned k = 0; k < sizeof(units) / sizeof(units[0]); k++)
        if (same_word(end, units[k].unit)) {
            if (v > UINT64_MAX / units[k].ns)
                return -1;
            *ns = v * units[k].ns;
            return 0;
        }
    return -1;
}
