// SPDX-License-Identifier: MIT
// Console output for the x86 runtime (see docs/x86.md): every call writes its text with one
// DebugWrite kernel call, so lines from different threads do not mix within one call. There
// are no files: a PC has no semihosting, so fopen() fails with ENOSYS.
#ifndef _X86RT_STDIO_H
#define _X86RT_STDIO_H

#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)
#define BUFSIZ 256
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

typedef struct x86rt_file FILE;
extern FILE *const stdout;
extern FILE *const stderr;
extern FILE *const stdin;

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vfprintf(FILE *f, const char *fmt, va_list ap);
int sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int puts(const char *s);
int putchar(int c);
int fputs(const char *s, FILE *f);
int fputc(int c, FILE *f);
int fflush(FILE *f);
int setvbuf(FILE *f, char *buf, int mode, size_t size);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);
FILE *fopen(const char *path, const char *mode);
int fclose(FILE *f);
char *fgets(char *buf, int size, FILE *f);
size_t fread(void *p, size_t size, size_t n, FILE *f);
int remove(const char *path);

#endif
