// SPDX-License-Identifier: MIT
// C99's <assert.h> for the x86 runtime: a false assertion prints
// "assertion "EXPR" failed: file "F", line N, function: FN" on stderr (the console), as
// picolibc and newlib word it, and aborts (exit status 134). NDEBUG turns it off; the file
// may be included again with NDEBUG changed, so there is no include guard.
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
_Noreturn void __assert_func(const char *file, int line, const char *func, const char *expr);
#define assert(e) ((e) ? (void)0 : __assert_func(__FILE__, __LINE__, __func__, #e))
#endif
#ifndef static_assert
#define static_assert _Static_assert
#endif
