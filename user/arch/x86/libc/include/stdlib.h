// SPDX-License-Identifier: MIT
// The stdlib functions the programs use (x86 runtime, see docs/x86.md). malloc is a bump
// allocator over the free part of the process's RAM slot; free() only takes back the last block.
#ifndef _X86RT_STDLIB_H
#define _X86RT_STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

_Noreturn void exit(int status);
_Noreturn void _Exit(int status);
_Noreturn void _exit(int status);
_Noreturn void abort(void);
typedef struct {
    int quot, rem;
} div_t;
typedef struct {
    long quot, rem;
} ldiv_t;
typedef struct {
    long long quot, rem;
} lldiv_t;

unsigned long strtoul(const char *s, char **end, int base);
long strtol(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
int abs(int v);
long labs(long v);
long long llabs(long long v);
div_t div(int num, int den);
ldiv_t ldiv(long num, long den);
lldiv_t lldiv(long long num, long long den);
void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *));
void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void free(void *p);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
