// SPDX-License-Identifier: MIT
// Freestanding helpers: string functions and a small printf for the console (d i u x X p s c
// and %%, with l/ll/z sizes, width and zero padding). The kernel links no C library.
#include <kernel/kernel.h>
#include <kernel/board.h>

size_t kstrlcpy(char *dst, const char *src, size_t size)
{
    size_t n = 0;
    while (src[n])
        n++;
    if (size) {
        size_t c = n < size - 1 ? n : size - 1;
        for (size_t i = 0; i < c; i++)
            dst[i] = src[i];
        dst[c] = '\0';
    }
    return n;
}

int kstrncmp(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i])
            return (unsigned char)a[i] - (unsigned char)b[i];
        if (!a[i])
            return 0;
    }
    return 0;
}

void *kmemcpy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s | n) & 3u) == 0) {
        for (size_t i = 0; i < n / 4; i++)
            ((uint32_t *)d)[i] = ((const uint32_t *)s)[i];
        return dst;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *kmemset(void *dst, int c, size_t n)
{
    char *d = dst;
    // Word stores when aligned, as kmemcpy: the kernel clears a whole trace ring with
    // interrupts off when the logger lets it go (ktrace.c free_buffers, 512 KB on x86-pc). Byte
    // by byte that was ~2 M instructions, and x86-pc's 8259 merged the two 1 ms ticks that came
    // meanwhile into one (docs/x86.md, test/qemu/test_period.sh).
    if ((((uintptr_t)d | n) & 3u) == 0) {
        uint32_t w = (uint8_t)c * 0x01010101u;
        for (size_t i = 0; i < n / 4; i++)
            ((uint32_t *)d)[i] = w;
        return dst;
    }
    while (n--)
        *d++ = (char)c;
    return dst;
}

// The standard names, for portable code built into the kernel (the D engine) and for the
// calls gcc itself may emit. Plain loops: none of these is on a hot path. (Host unit tests
// link the host's C library instead.)
#ifndef HOST_TEST
void *memcpy(void *dst, const void *src, size_t n)
{
    return kmemcpy(dst, src, n);
}

void *memset(void *dst, int c, size_t n)
{
    return kmemset(dst, c, n);
}

void *memmove(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] - y[i];
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}
#endif

struct outbuf {
    char *buf;
    size_t size, len;
};

static void out_c(struct outbuf *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void out_num(struct outbuf *o, uint64_t v, unsigned base, bool upper, bool neg,
                    int width, char pad)
{
    char tmp[24];
    int n = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    if (neg)
        tmp[n++] = '-';
    for (int i = n; i < width; i++)
        out_c(o, pad);
    while (n)
        out_c(o, tmp[--n]);
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct outbuf o = { buf, size, 0 };
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            out_c(&o, *fmt);
            continue;
        }
        fmt++;
        char pad = ' ';
        int width = 0, lng = 0;
        if (*fmt == '0') {
            pad = '0';
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        while (*fmt == 'l' || *fmt == 'z') {
            lng++;
            fmt++;
        }
        switch (*fmt) {
        case 'd':
        case 'i': {
            int64_t v = lng >= 2 ? va_arg(ap, long long) : lng ? va_arg(ap, long) : va_arg(ap, int);
            out_num(&o, v < 0 ? (uint64_t)-v : (uint64_t)v, 10, false, v < 0, width, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v = lng >= 2 ? va_arg(ap, unsigned long long)
                       : lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            out_num(&o, v, *fmt == 'u' ? 10 : 16, *fmt == 'X', false, width, pad);
            break;
        }
        case 'p':
            out_c(&o, '0');
            out_c(&o, 'x');
            out_num(&o, (uintptr_t)va_arg(ap, void *), 16, false, false, 8, '0');
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            int n = 0;
            if (!s)
                s = "(null)";
            while (s[n])
                n++;
            for (int i = n; i < width; i++)
                out_c(&o, ' ');
            while (*s)
                out_c(&o, *s++);
            break;
        }
        case 'c':
            out_c(&o, (char)va_arg(ap, int));
            break;
        case '%':
            out_c(&o, '%');
            break;
        default:
            out_c(&o, '%');
            if (*fmt)
                out_c(&o, *fmt);
            else
                fmt--;
            break;
        }
    }
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

void kputs_raw(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        board_console_putc(s[i]);
}

// A line cut at the buffer's end keeps its line break, so that the next line starts its own.
void kprintf(const char *fmt, ...)
{
    char buf[192];
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if ((size_t)n >= sizeof(buf)) {
        n = (int)sizeof(buf) - 1;
        size_t f = strlen(fmt);
        if (f && fmt[f - 1] == '\n')
            buf[n - 1] = '\n';
    }
    kputs_raw(buf, (size_t)n);
}
