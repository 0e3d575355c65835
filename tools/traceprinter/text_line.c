// SPDX-License-Identifier: MIT
// text_line.h: the one appender of traceprinter's lines.
#include "text_line.h"

#include <kevhost/tool_append.h>

void text_add(struct text_line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_vappend(l->p, l->cap, &l->n, fmt, ap);
    va_end(ap);
}
