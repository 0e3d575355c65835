/* SPDX-License-Identifier: MIT */
/* <inttypes.h> for programs linked with newlib (LIBC=newlib; user/module.mk puts this
 * directory first): newlib's, completed. Debian's arm-none-eabi GCC brings its own <stdint.h>,
 * which does not define the __int64_t_defined family newlib's <inttypes.h> tests, so PRId64
 * and the rest of the 64-bit PRI macros were missing unless another header had defined it
 * first (<stdio.h> does), and PRIdLEAST64 and PRIdFAST64 always were. The length each takes
 * follows from the type's range, as GCC gives it. */
#ifndef USER_NEWLIB_INTTYPES_H
#define USER_NEWLIB_INTTYPES_H

#include_next <inttypes.h>

#if __INT64_MAX__ == __LONG_MAX__
#define __UFMT_L64 "l"
#else
#define __UFMT_L64 "ll"
#endif
#if __INT_LEAST64_MAX__ == __LONG_MAX__
#define __UFMT_LL64 "l"
#else
#define __UFMT_LL64 "ll"
#endif
#if __INT_FAST64_MAX__ == __LONG_MAX__
#define __UFMT_LF64 "l"
#else
#define __UFMT_LF64 "ll"
#endif

#ifndef PRId64
#define PRId64 __UFMT_L64 "d"
#define PRIi64 __UFMT_L64 "i"
#define PRIo64 __UFMT_L64 "o"
#define PRIu64 __UFMT_L64 "u"
#define PRIx64 __UFMT_L64 "x"
#define PRIX64 __UFMT_L64 "X"
#endif
#ifndef PRIdLEAST64
#define PRIdLEAST64 __UFMT_LL64 "d"
#define PRIiLEAST64 __UFMT_LL64 "i"
#define PRIoLEAST64 __UFMT_LL64 "o"
#define PRIuLEAST64 __UFMT_LL64 "u"
#define PRIxLEAST64 __UFMT_LL64 "x"
#define PRIXLEAST64 __UFMT_LL64 "X"
#endif
#ifndef PRIdFAST64
#define PRIdFAST64 __UFMT_LF64 "d"
#define PRIiFAST64 __UFMT_LF64 "i"
#define PRIoFAST64 __UFMT_LF64 "o"
#define PRIuFAST64 __UFMT_LF64 "u"
#define PRIxFAST64 __UFMT_LF64 "x"
#define PRIXFAST64 __UFMT_LF64 "X"
#endif

#endif
