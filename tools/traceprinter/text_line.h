// SPDX-License-Identifier: MIT
// A line of text built piece by piece into a caller's buffer (traceprinter's columns, the
// kernel-call arguments QNX prints): each piece is appended printf-style and cut where the
// buffer ends, which always holds a NUL-terminated string.
#ifndef TEXT_LINE_H
#define TEXT_LINE_H

#include <stddef.h>

struct text_line {
    char *p;
    size_t n, cap;  // bytes written (p[n] is the NUL), the buffer's size
};

// Appends the formatted piece; past the buffer's end nothing more is written.
void text_add(struct text_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
