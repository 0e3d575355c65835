// SPDX-License-Identifier: MIT
// String and memory functions for the x86 runtime: plain byte loops (the programs' needs are
// small; the compiler also calls memcpy/memset for structure copies).
#include <string.h>
#include <stdint.h>
#include <errno.h>

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s || d >= s + n)
        return memcpy(dst, src, n);
    while (n--)
        d[n] = s[n];
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    for (; n; n--, p++)
        if (*p == (unsigned char)c)
            return (void *)(uintptr_t)p;
    return NULL;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

size_t strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (!*a)
            return 0;
    }
    return 0;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)(uintptr_t)s;
        if (!*s)
            return NULL;
    }
}

char *strrchr(const char *s, int c)
{
    const char *last = NULL;
    for (;; s++) {
        if (*s == (char)c)
            last = s;
        if (!*s)
            return (char *)(uintptr_t)last;
    }
}

char *strstr(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncmp(hay, needle, n) == 0)
            return (char *)(uintptr_t)hay;
    return n ? NULL : (char *)(uintptr_t)hay;
}

char *strcpy(char *dst, const char *src)
{
    char *d = dst;
    while ((*d++ = *src++))
        ;
    return dst;
}

char *strncpy(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i]; i++)
        dst[i] = src[i];
    for (; i < n; i++)
        dst[i] = '\0';
    return dst;
}

char *strcat(char *dst, const char *src)
{
    strcpy(dst + strlen(dst), src);
    return dst;
}

char *strncat(char *dst, const char *src, size_t n)
{
    char *d = dst + strlen(dst);
    while (n-- && *src)
        *d++ = *src++;
    *d = '\0';
    return dst;
}

size_t strspn(const char *s, const char *accept)
{
    size_t n = 0;
    while (s[n] && strchr(accept, s[n]))
        n++;
    return n;
}

size_t strcspn(const char *s, const char *reject)
{
    size_t n = 0;
    while (s[n] && !strchr(reject, s[n]))
        n++;
    return n;
}

char *strpbrk(const char *s, const char *accept)
{
    s += strcspn(s, accept);
    return *s ? (char *)(uintptr_t)s : NULL;
}

// Not thread-safe (one saved position per process), like the C library's.
char *strtok(char *s, const char *delim)
{
    static char *next;
    if (!s)
        s = next;
    if (!s)
        return NULL;
    while (*s && strchr(delim, *s))
        s++;
    if (!*s) {
        next = NULL;
        return NULL;
    }
    char *tok = s;
    while (*s && !strchr(delim, *s))
        s++;
    if (*s)
        *s++ = '\0';
    next = s;
    return tok;
}

char *strerror(int err)
{
    switch (err) {
    case 0: return "no error";
    case EPERM: return "operation not permitted";
    case ENOENT: return "no such program or file";
    case ESRCH: return "no such process or object";
    case EINTR: return "interrupted";
    case EIO: return "I/O error";
    case EBADF: return "bad handle";
    case ECHILD: return "no child";
    case EAGAIN: return "out of resources";
    case ENOMEM: return "out of memory";
    case EFAULT: return "bad address";
    case EBUSY: return "busy";
    case EEXIST: return "exists";
    case EINVAL: return "invalid argument";
    case EDEADLK: return "deadlock";
    case ENOSYS: return "not implemented";
    case ETIMEDOUT: return "timed out";
    case ECANCELED: return "canceled";
    default: return "unknown error";
    }
}
