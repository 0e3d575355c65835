// SPDX-License-Identifier: MIT
// text_line.h: the one appender of traceprinter's lines.
#include "text_line.h"

#include <stdarg.h>
#include <stdio.h>

void text_add(struct text_line *l, const char *fmt, ...)
{
    if (l->n + 1 >= l->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->p + l->n, l->cap - l->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        l->n = (size_t)k < l->cap - l->n ? l->n + (size_t)k : l->cap - 1;
}
