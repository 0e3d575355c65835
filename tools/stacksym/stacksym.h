// SPDX-License-Identifier: MIT
// stacksym's parts: the ELF lookup (stacksym.c) and the symbolic addresses D prints as
// tokens, "usym`0xc009a" (symaddr.c; trace/d/csymaddr.c makes them).
#ifndef STACKSYM_H
#define STACKSYM_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// stacksym_lookup: the module (program's ELF name, or "kernel") holding addr, among the
// programs' files (kernel 0) or the kernel's (kernel 1), and the function and offset if a
// symbol holds it (fn "" if not); 0, or -1 if no file holds addr.
int stacksym_lookup(uint64_t addr, int kernel, char *mod, size_t mod_n, char *fn, size_t fn_n,
                    uint64_t *off);

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
