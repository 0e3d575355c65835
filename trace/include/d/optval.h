// SPDX-License-Identifier: MIT
// The values D options take, read as libdtrace reads them (dt_options.c), so that the host's
// dtrace, the compiler's `#pragma D option strsize`, dcompile and the board's dtrace accept
// exactly the same text. Freestanding: no libc number parsing.
#ifndef D_OPTVAL_H
#define D_OPTVAL_H

#include <stdint.h>

/* d_optval_size: a size option (bufsize, aggsize, dynvarsize, specsize, strsize): a C integer
 * (decimal, 0x hex or 0 octal) with an optional k, m, g or t suffix (either case, powers of
 * 1024) and nothing after it. Returns 0 with the byte count, or -1 when malformed, negative or
 * past 2^62 bytes. */
int d_optval_size(const char *s, uint64_t *bytes);

/* d_optval_int: a C integer and nothing else (nspec, cpu). 0, or -1 when malformed. */
int d_optval_int(const char *s, uint64_t *v);

/* d_optval_rate: a rate option (switchrate, aggrate, statusrate, cleanrate): a C integer with
 * an optional unit, case-insensitive: ns nsec us usec ms msec s sec m min h hour d day (a
 * period) or hz (a frequency). A bare number is nanoseconds, as in libdtrace. Returns 0 with
 * the period in ns, or -1 when malformed, zero or out of range. */
int d_optval_rate(const char *s, uint64_t *ns);

#endif
