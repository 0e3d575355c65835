// SPDX-License-Identifier: MIT
// The host tools' appender of text to a fixed buffer, printf-style: each piece is cut where the
// buffer ends, never overrun, and the buffer always holds a NUL-terminated string. Inline here,
// so that every source list that holds a user (the tools', the unit tests', the fuzzers') needs
// nothing more.
#ifndef KEVHOST_TOOL_APPEND_H
#define KEVHOST_TOOL_APPEND_H

#include <stdarg.h>
#include <stdio.h>

// tool_vappend(b, n, &at, fmt, ap): fmt's text written at b + at (b holds n bytes, b[at] its
// NUL), at moved past what fit; once the buffer is full (at + 1 >= n) nothing more is written.
static inline void tool_vappend(char *b, size_t n, size_t *at, const char *fmt, va_list ap)
{
    if (*at + 1 >= n)
        return;
    int k = vsnprintf(b + *at, n - *at, fmt, ap);
    if (k > 0)
        *at += (size_t)k < n - *at ? (size_t)k : n - *at - 1;
}

static inline void tool_append(char *b, size_t n, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline void tool_append(char *b, size_t n, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_vappend(b, n, at, fmt, ap);
    va_end(ap);
}

#endif
