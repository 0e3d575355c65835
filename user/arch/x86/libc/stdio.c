// SPDX-License-Identifier: MIT
// printf and friends for the x86 runtime. One formatter (fmt_out) writes into a sink: a string
// (snprintf) or a console buffer that goes out through DebugWrite when full and at the end of
// the call (printf). Conversions: d i u x X o s c p %, flags - + space 0 #, width and precision
// (also *), lengths hh h l ll z j t. No floating point (programs are built without it).
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <errno.h>
#include <kern.h>

struct x86rt_file {
    int fd;
};
static struct x86rt_file files[3] = { { 0 }, { 1 }, { 2 } };
FILE *const stdin = &files[0];
FILE *const stdout = &files[1];
FILE *const stderr = &files[2];

struct sink {
    char *buf;
    size_t size;        // capacity of buf (string sinks keep one byte for the NUL)
    size_t used;
    size_t total;       // characters produced, as printf returns
    bool console;
};

static void sink_flush(struct sink *s)
{
    if (s->console && s->used)
        DebugWrite(s->buf, s->used);
    s->used = 0;
}

static void sink_putc(struct sink *s, char c)
{
    s->total++;
    if (s->console) {
        if (s->used == s->size)
            sink_flush(s);
        s->buf[s->used++] = c;
    } else if (s->used + 1 < s->size) {
        s->buf[s->used++] = c;
    }
}

static void sink_pad(struct sink *s, char c, int n)
{
    while (n-- > 0)
        sink_putc(s, c);
}

struct spec {
    bool left, plus, space, zero, alt;
    int width, prec;    // prec -1: none
};

// One integer conversion: digits of v in base, with sign, prefix, precision and width.
static void fmt_int(struct sink *s, const struct spec *sp, uint64_t v, bool neg, unsigned base,
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
    int len = (int)strlen(prefix) + zeros + n;
    int pad = sp->width > len ? sp->width - len : 0;
    if (!sp->left && !(sp->zero && sp->prec < 0))
        sink_pad(s, ' ', pad);
    for (const char *p = prefix; *p; p++)
        sink_putc(s, *p);
    if (!sp->left && sp->zero && sp->prec < 0)
        sink_pad(s, '0', pad);
    sink_pad(s, '0', zeros);
    while (n)
        sink_putc(s, tmp[--n]);
    if (sp->left)
        sink_pad(s, ' ', pad);
}

static void fmt_str(struct sink *s, const struct spec *sp, const char *str)
{
    if (!str)
        str = "(null)";
    int n = (int)(sp->prec >= 0 ? strnlen(str, (size_t)sp->prec) : strlen(str));
    int pad = sp->width > n ? sp->width - n : 0;
    if (!sp->left)
        sink_pad(s, ' ', pad);
    for (int i = 0; i < n; i++)
        sink_putc(s, str[i]);
    if (sp->left)
        sink_pad(s, ' ', pad);
}

static void fmt_out(struct sink *s, const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            sink_putc(s, *fmt);
            continue;
        }
        struct spec sp = { .prec = -1 };
        for (;; fmt++) {
            char f = fmt[1];
            if (f == '-') sp.left = true;
            else if (f == '+') sp.plus = true;
            else if (f == ' ') sp.space = true;
            else if (f == '0') sp.zero = true;
            else if (f == '#') sp.alt = true;
            else break;
        }
        fmt++;
        if (*fmt == '*') {
            sp.width = va_arg(ap, int);
            if (sp.width < 0) {
                sp.left = true;
                sp.width = -sp.width;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                sp.width = sp.width * 10 + (*fmt++ - '0');
        }
        if (*fmt == '.') {
            fmt++;
            sp.prec = 0;
            if (*fmt == '*') {
                sp.prec = va_arg(ap, int);
                fmt++;
            } else {
                while (*fmt >= '0' && *fmt <= '9')
                    sp.prec = sp.prec * 10 + (*fmt++ - '0');
            }
        }
        int lng = 0;    // 0 int, 1 long, 2 long long, -1 short, -2 char
        for (;; fmt++) {
            if (*fmt == 'l') lng = lng == 1 ? 2 : 1;
            else if (*fmt == 'h') lng = lng == -1 ? -2 : -1;
            else if (*fmt == 'z' || *fmt == 't') lng = 1;      // 32-bit size_t, ptrdiff_t
            else if (*fmt == 'j') lng = 2;
            else break;
        }
        char c = *fmt;
        if (!c)
            break;
        switch (c) {
        case 'd':
        case 'i': {
            int64_t v = lng == 2 ? va_arg(ap, long long) : lng == 1 ? va_arg(ap, long)
                                                                  : va_arg(ap, int);
            if (lng == -1) v = (short)v;
            if (lng == -2) v = (signed char)v;
            fmt_int(s, &sp, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, false);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            uint64_t v = lng == 2 ? va_arg(ap, unsigned long long)
                       : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            if (lng == -1) v = (unsigned short)v;
            if (lng == -2) v = (unsigned char)v;
            fmt_int(s, &sp, v, false, c == 'u' ? 10 : c == 'o' ? 8 : 16, c == 'X');
            break;
        }
        case 'p':
            sp.alt = true;
            fmt_int(s, &sp, (uintptr_t)va_arg(ap, void *), false, 16, false);
            break;
        case 's':
            fmt_str(s, &sp, va_arg(ap, const char *));
            break;
        case 'c': {
            char ch[2] = { (char)va_arg(ap, int), 0 };
            sp.prec = -1;
            if (!ch[0]) {       // a NUL character still counts
                sink_pad(s, ' ', sp.left ? 0 : sp.width - 1);
                sink_putc(s, 0);
                sink_pad(s, ' ', sp.left ? sp.width - 1 : 0);
            } else {
                fmt_str(s, &sp, ch);
            }
            break;
        }
        case '%':
            sink_putc(s, '%');
            break;
        default:        // unknown conversion: print it as written
            sink_putc(s, '%');
            sink_putc(s, c);
            break;
        }
    }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct sink s = { .buf = buf, .size = size };
    fmt_out(&s, fmt, ap);
    if (size)
        buf[s.used] = '\0';
    return (int)s.total;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int sprintf(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, (size_t)INT32_MAX, fmt, ap);
    va_end(ap);
    return n;
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
    char buf[BUFSIZ];
    struct sink s = { .buf = buf, .size = sizeof(buf), .console = true };
    if (f == stdin) {
        errno = EBADF;
        return -1;
    }
    fmt_out(&s, fmt, ap);
    sink_flush(&s);
    return (int)s.total;
}

int vprintf(const char *fmt, va_list ap)
{
    return vfprintf(stdout, fmt, ap);
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}

int fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    if (f == stdin || !size || !n)
        return 0;
    return DebugWrite(p, size * n) < 0 ? 0 : n;
}

int fputs(const char *str, FILE *f)
{
    size_t n = strlen(str);
    return n && fwrite(str, n, 1, f) != 1 ? EOF : 0;
}

int puts(const char *str)
{
    return fprintf(stdout, "%s\n", str) < 0 ? EOF : 0;
}

int fputc(int c, FILE *f)
{
    char ch = (char)c;
    return fwrite(&ch, 1, 1, f) == 1 ? (unsigned char)c : EOF;
}

int putchar(int c)
{
    return fputc(c, stdout);
}

int fflush(FILE *f)
{
    (void)f;
    return 0;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    (void)f;
    (void)buf;
    (void)mode;
    (void)size;
    return 0;
}

// Files: a PC has no host behind the kernel, but the boot loader may hand the kernel host
// files (Multiboot modules: docs/x86.md, "Host files"), which the kernel serves read-only
// through the same semihosting calls as the ARM boards' host (kernel/shost.c). So fopen for
// reading opens one of those; writing fails with ENOSYS.
enum { SH_OPEN = 0x01, SH_CLOSE = 0x02, SH_READ = 0x06, SH_ERRNO = 0x13 };
uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
#define FOPEN_MAX_FILES 4
static struct x86rt_file opened[FOPEN_MAX_FILES];
static bool opened_used[FOPEN_MAX_FILES];

FILE *fopen(const char *path, const char *mode)
{
    if (mode[0] != 'r' || strchr(mode, '+')) {
        errno = ENOSYS;
        return NULL;
    }
    for (int i = 0; i < FOPEN_MAX_FILES; i++)
        if (!opened_used[i]) {
            uint32_t blk[3] = { (uint32_t)(uintptr_t)path, strchr(mode, 'b') ? 1u : 0u,
                                (uint32_t)strlen(path) };
            int h = (int)sys_semihost(SH_OPEN, (uintptr_t)blk);
            if (h < 0) {
                errno = (int)sys_semihost(SH_ERRNO, 0);
                return NULL;
            }
            opened_used[i] = true;
            opened[i].fd = h;
            return &opened[i];
        }
    errno = EAGAIN;
    return NULL;
}

static int file_index(const FILE *f)
{
    for (int i = 0; i < FOPEN_MAX_FILES; i++)
        if (opened_used[i] && f == &opened[i])
            return i;
    return -1;
}

int fclose(FILE *f)
{
    int i = file_index(f);
    if (i < 0)
        return 0;
    uint32_t blk[1] = { (uint32_t)f->fd };
    opened_used[i] = false;
    return sys_semihost(SH_CLOSE, (uintptr_t)blk) == 0 ? 0 : EOF;
}

size_t fread(void *p, size_t size, size_t n, FILE *f)
{
    if (file_index(f) < 0 || !size || !n)
        return 0;
    uint32_t blk[3] = { (uint32_t)f->fd, (uint32_t)(uintptr_t)p, (uint32_t)(size * n) };
    intptr_t left = (intptr_t)sys_semihost(SH_READ, (uintptr_t)blk);
    if (left < 0)
        return 0;
    return (size * n - (size_t)left) / size;
}

char *fgets(char *buf, int size, FILE *f)
{
    int n = 0;
    while (n + 1 < size) {
        char c;
        if (fread(&c, 1, 1, f) != 1)
            break;
        buf[n++] = c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return NULL;
    buf[n] = '\0';
    return buf;
}

int remove(const char *path)
{
    (void)path;
    errno = ENOSYS;
    return -1;
}
