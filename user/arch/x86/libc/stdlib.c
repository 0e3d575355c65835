// SPDX-License-Identifier: MIT
// exit, abort and assert's failure, number parsing, a bump allocator, qsort and bsearch for
// the x86 runtime.
#include <stdlib.h>
#include <assert.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <errno.h>
#include <kern.h>

int errno;

_Noreturn void exit(int status)
{
    ProcExit(status);
}

_Noreturn void _Exit(int status)
{
    ProcExit(status);
}

_Noreturn void _exit(int status)
{
    ProcExit(status);
}

_Noreturn void abort(void)
{
    ProcExit(134);
}

_Noreturn void __assert_func(const char *file, int line, const char *func, const char *expr)
{
    fprintf(stderr, "assertion \"%s\" failed: file \"%s\", line %d, function: %s\n", expr, file,
            line, func);
    abort();
}

static int digit_of(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

// The common part of the strto* family: skips space, reads a sign and the base prefix, then
// the digits. *neg says whether '-' was seen, *over whether the magnitude passed 64 bits.
static unsigned long long parse_ull(const char *s, char **end, int base, bool *neg, bool *over)
{
    const char *p = s;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        p++;
    *neg = false;
    *over = false;
    if (*p == '+' || *p == '-')
        *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        digit_of(p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    unsigned long long v = 0;
    bool any = false;
    if (base < 2 || base > 36) {
        errno = EINVAL;
        p = s;
    }
    for (; base >= 2 && base <= 36 && digit_of(*p) < base; p++) {
        unsigned d = (unsigned)digit_of(*p);
        if (v > (ULLONG_MAX - d) / (unsigned)base)
            *over = true;
        v = v * (unsigned)base + d;
        any = true;
    }
    if (end)
        *end = (char *)(uintptr_t)(any ? p : s);
    return v;
}

// An unsigned conversion: a magnitude over max is ERANGE and max; '-' negates in the type.
static unsigned long long to_unsigned(const char *s, char **end, int base,
                                      unsigned long long max)
{
    bool neg, over;
    unsigned long long v = parse_ull(s, end, base, &neg, &over);
    if (over || v > max) {
        errno = ERANGE;
        return max;
    }
    return neg ? (0 - v) & max : v;
}

// A signed conversion within [-max - 1, max]: outside is ERANGE and the bound on its side.
static long long to_signed(const char *s, char **end, int base, long long max)
{
    bool neg, over;
    unsigned long long v = parse_ull(s, end, base, &neg, &over);
    unsigned long long lim = neg ? (unsigned long long)max + 1 : (unsigned long long)max;
    if (over || v > lim) {
        errno = ERANGE;
        return neg ? -max - 1 : max;
    }
    return neg ? (long long)(0 - v) : (long long)v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
    return (unsigned long)to_unsigned(s, end, base, ULONG_MAX);
}

unsigned long long strtoull(const char *s, char **end, int base)
{
    return to_unsigned(s, end, base, ULLONG_MAX);
}

uintmax_t strtoumax(const char *s, char **end, int base)
{
    return to_unsigned(s, end, base, UINTMAX_MAX);
}

long strtol(const char *s, char **end, int base)
{
    return (long)to_signed(s, end, base, LONG_MAX);
}

long long strtoll(const char *s, char **end, int base)
{
    return to_signed(s, end, base, LLONG_MAX);
}

intmax_t strtoimax(const char *s, char **end, int base)
{
    return to_signed(s, end, base, INTMAX_MAX);
}

int atoi(const char *s)
{
    return (int)strtol(s, NULL, 10);
}

long atol(const char *s)
{
    return strtol(s, NULL, 10);
}

long long atoll(const char *s)
{
    return strtoll(s, NULL, 10);
}

int abs(int v)
{
    return v < 0 ? -v : v;
}

long labs(long v)
{
    return v < 0 ? -v : v;
}

long long llabs(long long v)
{
    return v < 0 ? -v : v;
}

intmax_t imaxabs(intmax_t v)
{
    return v < 0 ? -v : v;
}

// Division truncates towards zero in C99, so the quotient and remainder are C's own.
div_t div(int num, int den)
{
    return (div_t){ num / den, num % den };
}

ldiv_t ldiv(long num, long den)
{
    return (ldiv_t){ num / den, num % den };
}

lldiv_t lldiv(long long num, long long den)
{
    return (lldiv_t){ num / den, num % den };
}

imaxdiv_t imaxdiv(intmax_t num, intmax_t den)
{
    return (imaxdiv_t){ num / den, num % den };
}

// The heap: from the end of .bss to the bottom of the main stack (app.ld). Threads of a
// process share it; the kernel preempts them, so a program that allocates from two threads
// must lock around it itself (none does).
extern char __heap_start[], __heap_end[];
static char *heap_next, *heap_last;

void *malloc(size_t size)
{
    if (!heap_next)
        heap_next = __heap_start;
    size = (size + 7u) & ~7u;
    if (size > (size_t)(__heap_end - heap_next)) {
        errno = ENOMEM;
        return NULL;
    }
    heap_last = heap_next;
    heap_next += size;
    return heap_last;
}

void *calloc(size_t n, size_t size)
{
    if (size && n > ~(size_t)0 / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = malloc(n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void free(void *p)
{
    if (p && p == heap_last) {
        heap_next = heap_last;
        heap_last = NULL;
    }
}

static void swap_bytes(char *a, char *b, size_t n)
{
    while (n--) {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    }
}

// Insertion sort: the programs sort a few dozen items at most.
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    char *b = base;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--)
            swap_bytes(b + (j - 1) * size, b + j * size, size);
}

void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *))
{
    const char *b = base;
    while (n) {
        const char *mid = b + n / 2 * size;
        int c = cmp(key, mid);
        if (c == 0)
            return (void *)(uintptr_t)mid;
        if (c > 0) {
            b = mid + size;
            n -= n / 2 + 1;
        } else {
            n /= 2;
        }
    }
    return NULL;
}
