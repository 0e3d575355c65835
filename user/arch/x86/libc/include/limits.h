// SPDX-License-Identifier: MIT
// <limits.h> for the x86 runtime: GCC's own <limits.h> (first on the include path) defines
// every C99 limit itself, then looks for the C library's with #include_next, which finds
// this one: there is nothing to add (no POSIX limits here), but the file must exist.
#ifndef _X86RT_LIMITS_H
#define _X86RT_LIMITS_H
#endif
