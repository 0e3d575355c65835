// SPDX-License-Identifier: MIT
// errno for the x86 runtime: the values are the kernel's (uapi/kerrno.h, newlib's numbering).
// One errno per process, shared by its threads (as with picolibc on the ARM boards).
#ifndef _X86RT_ERRNO_H
#define _X86RT_ERRNO_H

#include <uapi/kerrno.h>

#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef E2BIG
#define E2BIG 7         // a boot command line longer than the caller's buffer (kargs)
#endif
#ifndef EDOM
#define EDOM 33         // C99's three: EDOM, EILSEQ, ERANGE
#endif
#ifndef EILSEQ
#define EILSEQ 138
#endif

extern int errno;

#endif
