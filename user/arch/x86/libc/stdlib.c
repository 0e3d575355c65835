// SPDX-License-Identifier: MIT
// exit, number parsing, a bump allocator and qsort for the x86 runtime.
#include <stdlib.h>
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

static int digit_of(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

// The common part of strtoul/strtol: skips space, reads a sign and the base prefix, then the
// digits; *neg says whether '-' was seen. Saturates at ULONG_MAX with ERANGE.
static unsigned long parse_ul(const char *s, char **end, int base, bool *neg)
{
    const char *p = s;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        p++;
    *neg = false;
    if (*p == '+' || *p == '-')
        *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        digit_of(p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    unsigned long v = 0;
    bool any = false, over = false;
    for (; digit_of(*p) < base; p++) {
        unsigned d = (unsigned)digit_of(*p);
        if (v > (~0ul - d) / (unsigned)base)
            over = true;
        v = v * (unsigned)base + d;
        any = true;
    }
    if (end)
        *end = (char *)(uintptr_t)(any ? p : s);
    if (over) {
        errno = ERANGE;
        return ~0ul;
    }
    return v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
    bool neg;
    unsigned long v = parse_ul(s, end, base, &neg);
    return neg ? -v : v;
}

long strtol(const char *s, char **end, int base)
{
    bool neg;
    unsigned long v = parse_ul(s, end, base, &neg);
    if (!neg && v > 0x7ffffffful) {
        errno = ERANGE;
        return 0x7fffffffl;
    }
    if (neg && v > 0x80000000ul) {
        errno = ERANGE;
        return -0x7fffffffl - 1;
    }
    return neg ? -(long)v : (long)v;
}

int atoi(const char *s)
{
    return (int)strtol(s, NULL, 10);
}

int abs(int v)
{
    return v < 0 ? -v : v;
}

long labs(long v)
{
    return v < 0 ? -v : v;
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
