// SPDX-License-Identifier: MIT
// stacksym's symbolic addresses: what D prints as tokens, "usym`0xc009a" (symaddr.c; trace/d/csymaddr.c makes them).
#ifndef STACKSYM_H
#define STACKSYM_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// symaddr_line: line with its tokens named (out); 1 if it had one, and *merge the
// aggregating function a printa row's key carried ("count", "sum", "min", "max") or NULL.
int symaddr_line(const char *line, char *out, size_t n, const char **merge);

// symaddr_rows: printa rows whose keys were named, merged as libdtrace merges rows keyed by
// one symbol or module (count and sum add, min and max keep theirs), printed sorted by value
// as printa sorts them. symaddr_row keeps a row (0, or -1 if it is not "keys value"), and
// symaddr_flush prints the kept rows.
int symaddr_row(const char *line, const char *merge);
void symaddr_flush(FILE *f);
#endif
