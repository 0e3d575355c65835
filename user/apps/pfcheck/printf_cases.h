// SPDX-License-Identifier: MIT
// The printf conversions every board must print as the host's C library does: compiled into
// pfcheck (this directory) for the board and into test/qemu/printf_host.c for the host, which
// prints the truth the test (test/qemu/test_printf.sh) compares the board's lines with. Each
// case is (format, value); values are typed so that both sides pass the same bits.
#ifndef PRINTF_CASES_H
#define PRINTF_CASES_H

#include <stddef.h>
#include <stdint.h>

// Integers: 64-bit ones in every width and base, size_t, char and short, a pointer.
#define PRINTF_INT_CASES(X) \
    X("%llu", 18446744073709551615ull) \
    X("%lld", -9223372036854775807ll - 1) \
    X("%llx", 0x123456789abcdef0ull) \
    X("%#llX", 0xfedcba9876543210ull) \
    X("%llo", 01234567012345670123ull) \
    X("[%24llu]", 4294967296ull) \
    X("[%-22lld]", -4294967297ll) \
    X("[%020lld]", -1234567890123ll) \
    X("%+lld", 9000000000ll) \
    X("%lu", 4000000000ul) \
    X("%ld", -2000000000l) \
    X("%zu", (size_t)4000000000u) \
    X("%zx", (size_t)0xdeadbeefu) \
    X("%p", (void *)(uintptr_t)0x2000abc0u) \
    X("%hhu", (unsigned char)200) \
    X("%hd", (short)-31000) \
    X("[%8.5d]", 42) \
    X("[%-6x]", 0xabcu) \
    X("%u", 4294967295u) \
    X("%d", -2147483647 - 1) \
    X("[%5s|%-5s|%.2s]", "ab", "cd", "efgh") \
    X("%c%c%%", 'o', 'k')

// Floating point, on the boards whose C library prints it (picolibc's full variant).
#define PRINTF_FLOAT_CASES(X) \
    X("%f", 3.14159265358979) \
    X("%.3f", -2.0005) \
    X("[%12.4f]", 1234.56789) \
    X("%e", 6.02214076e23) \
    X("%.2e", -1.5e-7) \
    X("%g", 0.0001) \
    X("%g", 123456789.0) \
    X("%.10g", 1.0 / 3.0) \
    X("%f", 1e15) \
    X("%.0f", 2.5) \
    X("%a", 1.0)

#endif
