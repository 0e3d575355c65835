// SPDX-License-Identifier: MIT
// The printf conversions of the user runtime (user/lib/ufmt.c), for the C libraries whose own
// do not print what C99 programs print: x86-pc's runtime (user/arch/x86/libc/stdio.c), which
// has no other, and newlib-nano (user/lib/printf_newlib.c), whose formatter has no ll, z, j,
// t or hh length, so printf("%" PRIu64, v) printed "lu". Conversions: d i u x X o s c p %,
// flags - + space 0 #, width and precision (also *), lengths hh h l ll z j t. No floating
// point: f F e E g G a A print as written ("%f"), their argument skipped, so that the
// arguments after it still print right.
// Test: test/qemu/test_printf.sh holds every conversion to the host's printf.
#ifndef USER_UFMT_H
#define USER_UFMT_H

#include <stdarg.h>
#include <stddef.h>

// Where the characters go: put() is called once per character, in order.
struct ufmt_sink {
    void (*put)(struct ufmt_sink *s, char c);
};

// Formats fmt with ap into s; returns the characters produced (what printf returns).
size_t ufmt_vformat(struct ufmt_sink *s, const char *fmt, va_list ap);

#endif
