// SPDX-License-Identifier: MIT
// Names from a capture made safe to print (kev_text.h). A traced process names itself and
// its threads as it likes (ThreadName, its image name); the host tools print those names on
// the user's terminal, where an escape sequence in a name would clear the screen, retitle the
// window or hide lines. The decoder passes every name it keeps through here (kev_decode.c),
// so every tool that prints a name prints this form.
#include <trace/kev_text.h>

static const char hex[] = "0123456789abcdef";

// RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
size_t kev_utf8_len(const uint8_t *s, size_t len)
{
    if (len == 0)
        return 0;
    uint8_t b = s[0];
    size_t k;
    uint8_t lo = 0x80, hi = 0xbf;   // the bounds of the second byte
    if (b >= 0xc2 && b <= 0xdf)
        k = 2;
    else if (b >= 0xe0 && b <= 0xef)
        k = 3, lo = b == 0xe0 ? 0xa0 : 0x80, hi = b == 0xed ? 0x9f : 0xbf;
    else if (b >= 0xf0 && b <= 0xf4)
        k = 4, lo = b == 0xf0 ? 0x90 : 0x80, hi = b == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (k > len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < k; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return k;
}

// Appends the k bytes of t to dst if they fit with the final NUL; 0 when they do not.
static int put(char *dst, size_t n, size_t *o, const char *t, size_t k)
{
    if (*o + k + 1 > n)
        return 0;
    for (size_t i = 0; i < k; i++)
        dst[(*o)++] = t[i];
    return 1;
}

static int put_hex(char *dst, size_t n, size_t *o, uint8_t b)
{
    char e[4] = { '\\', 'x', hex[b >> 4], hex[b & 15] };
    return put(dst, n, o, e, 4);
}

size_t kev_text_safe(char *dst, size_t n, const uint8_t *src, size_t len)
{
    size_t o = 0, i = 0;
    if (n == 0)
        return 0;
    while (i < len && src[i]) {
        uint8_t b = src[i];
        int fit;
        size_t k = 1;
        if ((b >= 0x20 && b < 0x7f) || b == '\t') {
            fit = put(dst, n, &o, (const char *)&src[i], 1);
        } else if (b == '\r') {
            fit = put(dst, n, &o, "\\r", 2);
        } else if (b == 0x1b) {
            fit = put(dst, n, &o, "\\e", 2);
        } else if (b < 0x80) {
            fit = put_hex(dst, n, &o, b);            // other C0 controls, DEL
        } else if ((k = kev_utf8_len(src + i, len - i)) == 0) {
            k = 1;
            fit = put_hex(dst, n, &o, b);            // not UTF-8: a lone byte
        } else if (b == 0xc2 && src[i + 1] < 0xa0) {
            size_t o0 = o;                           // C1 control: both bytes, or none
            fit = put_hex(dst, n, &o, b) && put_hex(dst, n, &o, src[i + 1]);
            if (!fit)
                o = o0;
        } else {
            fit = put(dst, n, &o, (const char *)&src[i], k);
        }
        if (!fit)
            break;
        i += k;
    }
    dst[o] = 0;
    return o;
}
