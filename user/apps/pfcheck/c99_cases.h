// SPDX-License-Identifier: MIT
// The C99 headers a program includes, used as a program uses them: the same code compiled
// into pfcheck (this directory) with the board's C library and into test/qemu/printf_host.c
// with the host's, which prints the truth test/qemu/test_printf.sh compares the board's lines
// with, one "c99 N: <text>" line per case. Only what the C standard fixes is printed: nothing
// whose value differs between a 32-bit board and a 64-bit host (long's width, char's sign,
// errno's numbers, CLOCKS_PER_SEC), and no floating point (x86-pc's runtime has none).
// Run the host's side with TZ=UTC: mktime() reads local time. A line is at most 90
// characters: netduinoplus2's console cuts a process's line at 95 (BOARD_CONSOLE_LINE).
#ifndef C99_CASES_H
#define C99_CASES_H

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// One line: "c99 N: " then the case's text.
#define C99_LINE(n, fmt, ...) printf("c99 %d: " fmt "\n", (n)++, __VA_ARGS__)

static inline int c99_int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

// The members of one character class among 0-127, as 32 hex digits (bit c set when c is
// in it), its count, and its members at EOF and 200 (none in the "C" locale).
static inline void c99_class(int *n, const char *name, int (*is)(int))
{
    uint32_t w[4] = { 0, 0, 0, 0 };
    int count = 0;
    for (int c = 0; c < 128; c++)
        if (is(c)) {
            w[c / 32] |= 1u << (c % 32);
            count++;
        }
    C99_LINE(*n, "%s %d %08" PRIx32 "%08" PRIx32 "%08" PRIx32 "%08" PRIx32 " eof %d 200 %d", name,
             count, w[3], w[2], w[1], w[0], !!is(EOF), !!is(200));
}

static inline void c99_inttypes(int *n)
{
    C99_LINE(*n, "%" PRIu64 " %" PRId64 " %" PRIi64, UINT64_MAX, INT64_MIN, INT64_C(-42));
    C99_LINE(*n, "%" PRIx64 " %" PRIX64 " %" PRIo64, UINT64_C(0x0123456789abcdef),
             UINT64_C(0xfedcba9876543210), UINT64_C(01777777777777777777777));
    C99_LINE(*n, "%" PRId32 " %" PRIu32 " %" PRIx32 " %" PRIX32, INT32_MIN, UINT32_MAX,
             UINT32_C(0xdeadbeef), UINT32_C(0xcafe));
    C99_LINE(*n, "%" PRId16 " %" PRIu16 " %" PRId8 " %" PRIu8 " %" PRIo8, (int16_t)INT16_MIN,
             (uint16_t)UINT16_MAX, (int8_t)INT8_MIN, (uint8_t)UINT8_MAX, (uint8_t)8);
    C99_LINE(*n, "%" PRIdLEAST8 " %" PRIuLEAST16 " %" PRIxLEAST32 " %" PRIdLEAST64,
             (int_least8_t)-7, (uint_least16_t)65000, (uint_least32_t)0xabcdef,
             (int_least64_t)-5000000000);
    C99_LINE(*n, "%" PRIdFAST8 " %" PRIuFAST16 " %" PRIXFAST32 " %" PRIuFAST64,
             (int_fast8_t)-100, (uint_fast16_t)65535, (uint_fast32_t)0xfeed,
             (uint_fast64_t)UINT64_C(10000000000));
    C99_LINE(*n, "%" PRIdMAX " %" PRIuMAX " %" PRIxPTR " %" PRIdPTR, INTMAX_MIN, UINTMAX_MAX,
             (uintptr_t)0x2000abc0u, (intptr_t)-5);
    char *end;
    errno = 0;
    intmax_t im = strtoimax("  -0x7fffffffffffffffz", &end, 0);
    uintmax_t um = strtoumax("18446744073709551615", NULL, 10);
    C99_LINE(*n, "strtoimax %" PRIdMAX " rest %s strtoumax %" PRIuMAX " errno %d", im, end, um,
             errno);
    errno = 0;
    um = strtoumax("18446744073709551616", NULL, 10);
    C99_LINE(*n, "strtoumax overflow %" PRIuMAX " erange %d", um, errno == ERANGE);
    imaxdiv_t q = imaxdiv(INT64_C(-7000000001), 2);
    C99_LINE(*n, "imaxabs %" PRIdMAX " imaxdiv %" PRIdMAX " %" PRIdMAX, imaxabs(INTMAX_MIN + 1),
             q.quot, q.rem);
}

static inline void c99_limits(int *n)
{
    C99_LINE(*n, "char_bit %d schar %d %d uchar %d shrt %d %d ushrt %d", CHAR_BIT, SCHAR_MIN,
             SCHAR_MAX, UCHAR_MAX, SHRT_MIN, SHRT_MAX, USHRT_MAX);
    C99_LINE(*n, "int %d %d uint %u", INT_MIN, INT_MAX, UINT_MAX);
    C99_LINE(*n, "llong %lld %lld ullong %llu", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    C99_LINE(*n, "long at least 32 bits %d, ulong %d, char in range %d", LONG_MAX >= 2147483647L,
             ULONG_MAX >= 4294967295UL, CHAR_MIN <= 0 && CHAR_MAX >= 127);
    C99_LINE(*n, "int8 %d %d uint8 %d int16 %d %d uint16 %d", INT8_MIN, INT8_MAX, UINT8_MAX,
             INT16_MIN, INT16_MAX, UINT16_MAX);
    C99_LINE(*n, "int64 %lld %lld uint64 %llu", (long long)INT64_MIN, (long long)INT64_MAX,
             (unsigned long long)UINT64_MAX);
    C99_LINE(*n, "sizes %d %d %d %d", (int)sizeof(int8_t), (int)sizeof(int16_t),
             (int)sizeof(int32_t), (int)sizeof(int64_t));
    C99_LINE(*n, "size_max at least 2^32-1 %d, intptr holds a pointer %d, ptrdiff %d",
             SIZE_MAX >= 4294967295u, sizeof(intptr_t) >= sizeof(void *),
             PTRDIFF_MAX >= 2147483647);
    C99_LINE(*n, "bool %d %d %d %d defined %d", true, false, (int)(bool)7, (int)sizeof(bool),
             __bool_true_false_are_defined);
}

static inline void c99_strings(int *n)
{
    const char *s = "the quick brown fox";
    C99_LINE(*n, "strlen %d strcmp %d %d %d strncmp %d memcmp %d", (int)strlen(s),
             strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strcmp("x", "x"),
             strncmp("abcX", "abcY", 3), memcmp("\x01\xff", "\x01\x01", 2) > 0);
    C99_LINE(*n, "strchr %d strrchr %d strstr %d memchr %d strpbrk %d", (int)(strchr(s, 'q') - s),
             (int)(strrchr(s, 'o') - s), (int)(strstr(s, "brown") - s),
             (int)((const char *)memchr(s, 'k', strlen(s)) - s), (int)(strpbrk(s, "xyz") - s));
    C99_LINE(*n, "strspn %d strcspn %d none %d %d", (int)strspn("aabbcd", "ab"),
             (int)strcspn("hello, world", ",;"), strchr(s, 'Z') == NULL, strstr(s, "cat") == NULL);
    char buf[32];
    volatile size_t cap = 5;    // (truncations on purpose below: no warning for them)
    strcpy(buf, "head");
    strcat(buf, "+tail");
    strncat(buf, "123456", cap - 2);
    C99_LINE(*n, "strcpy strcat strncat %s", buf);
    char pad[8];
    memset(pad, 'x', sizeof(pad));
    strncpy(pad, "ab", 5);
    C99_LINE(*n, "strncpy %d %d %d %d %d %c", pad[0], pad[1], pad[2], pad[4], pad[5] == 'x', pad[7]);
    strcpy(buf, "0123456789");
    memmove(buf + 2, buf, 6);
    memmove(buf, buf + 1, 3);
    C99_LINE(*n, "memmove %s", buf);
    strcpy(buf, "a,b;;c");
    char *t1 = strtok(buf, ",;"), *t2 = strtok(NULL, ",;"), *t3 = strtok(NULL, ",;");
    C99_LINE(*n, "strtok %s %s %s %d", t1, t2, t3, strtok(NULL, ",;") == NULL);
    int w = snprintf(buf, cap, "%s-%d", "abcdef", 42);
    C99_LINE(*n, "snprintf %d [%s]", w, buf);
    w = sprintf(buf, "%05d|%-3s|", -42, "x");
    C99_LINE(*n, "sprintf %d [%s]", w, buf);
}

static inline void c99_stdlib(int *n)
{
    char *end;
    long a = strtol("  0x1fz", &end, 0);
    C99_LINE(*n, "strtol %ld rest %s %ld %ld %ld", a, end, strtol("-077", NULL, 0),
             strtol("+42abc", NULL, 10), strtol("zz", NULL, 36));
    C99_LINE(*n, "strtoul %lu %lu none %d", strtoul("4294967295", NULL, 10),
             strtoul("0b", NULL, 16), strtoul("q", &end, 10) == 0 && strcmp(end, "q") == 0);
    errno = 0;
    long long ll = strtoll("-9223372036854775808", NULL, 10);
    unsigned long long ull = strtoull("0xffffffffffffffff", NULL, 16);
    C99_LINE(*n, "strtoll %lld strtoull %llu errno %d", ll, ull, errno);
    errno = 0;
    ll = strtoll("9223372036854775808", NULL, 10);
    C99_LINE(*n, "strtoll overflow %lld erange %d", ll, errno == ERANGE);
    errno = 0;
    ull = strtoull("99999999999999999999", NULL, 10);
    C99_LINE(*n, "strtoull overflow %llu erange %d", ull, errno == ERANGE);
    C99_LINE(*n, "atoi %d atol %ld atoll %lld abs %d labs %ld llabs %lld", atoi(" -123x"),
             atol("2000000000"), atoll("-9000000000"), abs(-5), labs(-70000L),
             llabs(-8000000000LL));
    div_t d = div(-7, 2);
    ldiv_t ld = ldiv(100000L, -7L);
    lldiv_t lld = lldiv(-10000000000LL, 3);
    C99_LINE(*n, "div %d %d ldiv %ld %ld lldiv %lld %lld", d.quot, d.rem, ld.quot, ld.rem,
             lld.quot, lld.rem);
    int v[] = { 42, -3, 17, 0, 99, -50, 8 };
    qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), c99_int_cmp);
    int key = 17, missing = 5;
    const int *hit = bsearch(&key, v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), c99_int_cmp);
    C99_LINE(*n, "qsort %d %d %d %d %d %d %d bsearch %d %d", v[0], v[1], v[2], v[3], v[4], v[5],
             v[6], hit ? (int)(hit - v) : -1,
             bsearch(&missing, v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), c99_int_cmp) == NULL);
    C99_LINE(*n, "exit codes %d %d", EXIT_SUCCESS, EXIT_FAILURE != 0);
}

static inline void c99_ctype(int *n)
{
    static const struct {
        const char *name;
        int (*is)(int);
    } classes[] = {
        { "isalnum", isalnum }, { "isalpha", isalpha }, { "isblank", isblank },
        { "iscntrl", iscntrl }, { "isdigit", isdigit }, { "isgraph", isgraph },
        { "islower", islower }, { "isprint", isprint }, { "ispunct", ispunct },
        { "isspace", isspace }, { "isupper", isupper }, { "isxdigit", isxdigit },
    };
    for (size_t k = 0; k < sizeof(classes) / sizeof(classes[0]); k++)
        c99_class(n, classes[k].name, classes[k].is);
    char up[24], low[24];
    const char *text = "Hello, World! 123 zZ";
    size_t i = 0;
    for (; text[i]; i++) {
        up[i] = (char)toupper((unsigned char)text[i]);
        low[i] = (char)tolower((unsigned char)text[i]);
    }
    up[i] = low[i] = '\0';
    C99_LINE(*n, "toupper %s tolower %s eof %d %d 200 %d", up, low, toupper(EOF) == EOF,
             tolower(EOF) == EOF, toupper(200));
}

static inline void c99_time(int *n)
{
    char buf[96];
    time_t t = (time_t)1700000000;
    struct tm *tm = gmtime(&t);
    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %a %A %b %B %j", tm);
    C99_LINE(*n, "gmtime strftime %s yday %d wday %d", buf, tm->tm_yday, tm->tm_wday);
    strftime(buf, sizeof(buf), "%y %e %p %I %w %F %T %%", tm);
    C99_LINE(*n, "strftime %s", buf);
    t = (time_t)951782400;        // 29 February 2000, a leap day of a year divisible by 400
    tm = gmtime(&t);
    C99_LINE(*n, "leap day %d-%d-%d", tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday);
    struct tm in = { .tm_year = 124, .tm_mon = 1, .tm_mday = 31, .tm_hour = 25, .tm_min = 61,
                     .tm_sec = 5, .tm_isdst = 0 };
    t = mktime(&in);            // 31 February 2024 25:61:05: normalised to 3 March 02:01:05
    C99_LINE(*n, "mktime %lld %d-%02d-%02d %02d:%02d:%02d yday %d wday %d", (long long)t,
             in.tm_year + 1900, in.tm_mon + 1, in.tm_mday, in.tm_hour, in.tm_min, in.tm_sec,
             in.tm_yday, in.tm_wday);
    C99_LINE(*n, "strftime too small %d", (int)strftime(buf, 4, "%Y-%m", tm));
}

static inline void c99_errno(int *n)
{
    errno = 0;
    long v = strtol("123", NULL, 10);
    int kept = errno;
    errno = 0;
    (void)strtoull("999999999999999999999999", NULL, 10);
    C99_LINE(*n, "errno %ld untouched %d erange %d distinct %d", v, kept == 0, errno == ERANGE,
             EDOM != ERANGE && EILSEQ != ERANGE && EDOM != EILSEQ && EDOM > 0);
}

static inline void c99_assert(int *n)
{
    int two = 1 + 1;
    assert(two == 2);
    static_assert(sizeof(int32_t) == 4, "int32_t is 32 bits");
    C99_LINE(*n, "assert %d", two);
}

// Every case; returns the number of lines printed.
static inline int c99_cases(void)
{
    int n = 0;
    c99_inttypes(&n);
    c99_limits(&n);
    c99_strings(&n);
    c99_stdlib(&n);
    c99_ctype(&n);
    c99_time(&n);
    c99_errno(&n);
    c99_assert(&n);
    return n;
}

#endif
