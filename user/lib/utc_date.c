// SPDX-License-Identifier: MIT
// The host's date on a board, for the programs that print one (utc_date.h): the
// tracelogger's header, the board's dtrace's system("date").
#include <utc_date.h>
#include <string.h>

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
#define SYS_TIME 0x11

// A date must not move a capture's events: QEMU's exact mode (-icount, sleep=off:
// docs/boards.md) times the guest by the instructions it runs, and the host's date is the one
// input of a boot that differs from run to run. So the date is read with one semihosting call
// (picolibc's time() may convert the host's tick count, in a time that depends on it) and
// written out by arithmetic with no loop or branch on its value: gmtime_r and strftime took a
// different number of instructions for each date, and every later event moved by a few cycles.

uint32_t utc_host_seconds(void)
{
    intptr_t t = (intptr_t)sys_semihost(SYS_TIME, 0);
    return t > 0 ? (uint32_t)t : 0u;
}

static void two_digits(char *p, uint32_t v)
{
    p[0] = (char)('0' + v / 10u);
    p[1] = (char)('0' + v % 10u);
}

// Days to a civil date by the era arithmetic of proleptic Gregorian calendars (400-year eras
// of 146097 days, years from March), branch-free: the month's correction and the year's are
// computed from comparisons as 0/1 by division.
void utc_date_text(char buf[29], uint32_t t)
{
    static const char wday[] = "SunMonTueWedThuFriSat";
    static const char mon[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    uint32_t days = t / 86400u, secs = t % 86400u;
    uint32_t z = days + 719468u;                       // days since 0000-03-01
    uint32_t era = z / 146097u, doe = z - era * 146097u;
    uint32_t yoe = (doe - doe / 1460u + doe / 36524u - doe / 146096u) / 365u;
    uint32_t doy = doe - (365u * yoe + yoe / 4u - yoe / 100u);
    uint32_t mp = (5u * doy + 2u) / 153u;              // 0 = March .. 11 = February
    uint32_t d = doy - (153u * mp + 2u) / 5u + 1u;
    uint32_t jan_feb = (mp + 6u) / 16u;                // 1 for mp 10, 11
    uint32_t m = mp + 3u - 12u * jan_feb;              // 1 .. 12
    uint32_t y = yoe + era * 400u + jan_feb;
    uint32_t wd = (days + 4u) % 7u;                    // 1970-01-01 was a Thursday
    memcpy(buf, "Www Mmm dd hh:mm:ss UTC yyyy", 29);
    memcpy(buf, wday + 3u * wd, 3);
    memcpy(buf + 4, mon + 3u * (m - 1u), 3);
    two_digits(buf + 8, d);
    two_digits(buf + 11, secs / 3600u);
    two_digits(buf + 14, secs / 60u % 60u);
    two_digits(buf + 17, secs % 60u);
    two_digits(buf + 24, y / 100u % 100u);
    two_digits(buf + 26, y % 100u);
}
