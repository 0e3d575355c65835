// SPDX-License-Identifier: MIT
// Calendar time for the x86 runtime. Programs have no calendar clock (the CMOS clock belongs to
// whichever program has the RTC's ports): time() counts seconds since boot, so dates read as
// 1 January 1970 plus the uptime. There is no time zone: local time is UTC. No difftime(): the
// runtime has no floating point.
#ifndef _X86RT_TIME_H
#define _X86RT_TIME_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t time_t;
typedef uint32_t clock_t;
#define CLOCKS_PER_SEC 1000000u     // clock(): microseconds since boot (no CPU-time clock)

struct tm {
    int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};

time_t time(time_t *t);
clock_t clock(void);
struct tm *gmtime_r(const time_t *t, struct tm *out);
struct tm *gmtime(const time_t *t);         // one static struct tm per process
struct tm *localtime(const time_t *t);      // gmtime's
time_t mktime(struct tm *tm);               // tm read as UTC; its fields normalised
size_t strftime(char *buf, size_t size, const char *fmt, const struct tm *tm);

#endif
