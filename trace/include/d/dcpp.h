// SPDX-License-Identifier: MIT
// A small C preprocessor for D scripts on a board (dtrace -C), where there is no cpp(1):
// #define (object-like and function-like, with # stringizing), #undef, #ifdef, #ifndef,
// #if/#elif over integer constants, defined(NAME), macros and C's arithmetic, comparison and
// logical operators, #else, #endif, #error. No #include (a board has no include path).
// Comments go; every line stays on its line, so the compiler's line numbers still match
// the script. Portable freestanding C: all memory is the caller's.
#ifndef D_DCPP_H
#define D_DCPP_H

#include <stddef.h>

#define DCPP_MAXMACROS 64
#define DCPP_MAXPARAMS 8
#define DCPP_POOL      4096 /* bytes of macro names and bodies */

struct dcpp_macro {
    const char *name, *body;
    const char *params[DCPP_MAXPARAMS];
    int nparams;         /* -1: object-like */
};

struct dcpp {
    struct dcpp_macro macros[DCPP_MAXMACROS];
    int nmacros;
    char pool[DCPP_POOL];
    size_t pool_used;
    char *out;           /* the result, NUL-terminated */
    size_t outcap, outlen;
    /* working space: the current logical line and macro expansion (no large stack frames:
     * a board's thread stack is a few kilobytes) */
    char text[1024];
    char work[8192];
    size_t work_used;
    int line;            /* on error: the script line */
    char err[160];       /* on error: "line N: message" */
};

/* dcpp_run: preprocesses src into out (outcap bytes). __SUNW_D (1) and __sun are predefined,
 * as the host's dtrace -C defines them. Returns 0, or -1 with p->err set. */
int dcpp_run(struct dcpp *p, const char *src, size_t len, char *out, size_t outcap);

#endif
