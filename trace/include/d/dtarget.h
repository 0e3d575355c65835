// SPDX-License-Identifier: MIT
// $target on a board (dcompile -c NAME, the board's dtrace -T NAME): the process a program
// watches, bound when it starts rather than at compile time. DTrace binds $target at compile
// time to a process it created held; this kernel cannot hold a new program, and the program's
// first events must be traced, so here $target is a global that the first kernel call of the
// first process named NAME sets (to its pid); it reads 0 before that, when that process has
// done nothing a probe sees. It serves expressions and predicates (`/pid == $target/`), not
// constant contexts (array sizes, probe descriptions), which stay D_MACRO_UNDEF.
#ifndef D_DTARGET_H
#define D_DTARGET_H

#include <stddef.h>

/* d_target_text: writes to out (cap bytes) the program src[0..len) with that prelude, a line
 * marker so that errors keep the script's line numbers, and every $target replaced by the
 * global. Returns the length written (out NUL-terminated), or 0 when out is too small or name
 * is not a program name (1-15 characters of [A-Za-z0-9_-]). */
size_t d_target_text(const char *src, size_t len, const char *name, char *out, size_t cap);

#endif
