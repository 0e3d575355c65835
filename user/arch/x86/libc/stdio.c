// SPDX-License-Identifier: MIT
// printf and friends for the x86 runtime. The conversions are the user runtime's formatter
// (user/lib/ufmt.c, ufmt.h: integers of every length, strings, no floating point); its sink
// here is a string (snprintf) or a console buffer that goes out through DebugWrite when full
// and at the end of the call (printf).
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <errno.h>
#include <kern.h>
#include <ufmt.h>

struct x86rt_file {
    int fd;
};
static struct x86rt_file files[3] = { { 0 }, { 1 }, { 2 } };
FILE *const stdin = &files[0];
FILE *const stdout = &files[1];
FILE *const stderr = &files[2];

struct sink {
    struct ufmt_sink out;   // first: ufmt hands it back
    char *buf;
    size_t size;        // capacity of buf (string sinks keep one byte for the NUL)
    size_t used;
};

static void sink_flush(struct sink *s)
{
    if (s->used)
        DebugWrite(s->buf, s->used);
    s->used = 0;
}

static void console_put(struct ufmt_sink *o, char c)
{
    struct sink *s = (struct sink *)o;
    if (s->used == s->size)
        sink_flush(s);
    s->buf[s->used++] = c;
}

static void string_put(struct ufmt_sink *o, char c)
{
    struct sink *s = (struct sink *)o;
    if (s->used + 1 < s->size)
        s->buf[s->used++] = c;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct sink s = { .out = { string_put }, .buf = buf, .size = size };
    size_t total = ufmt_vformat(&s.out, fmt, ap);
    if (size)
        buf[s.used] = '\0';
    return (int)total;
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
    struct sink s = { .out = { console_put }, .buf = buf, .size = sizeof(buf) };
    if (f == stdin) {
        errno = EBADF;
        return -1;
    }
    size_t total = ufmt_vformat(&s.out, fmt, ap);
    sink_flush(&s);
    return (int)total;
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
