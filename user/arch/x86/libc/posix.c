// SPDX-License-Identifier: MIT
// The few POSIX-style calls programs make, for the x86 runtime: file descriptors (the console
// only), calendar time (seconds since boot), and sys_semihost, which programs written for the
// ARM boards call for their command line: a kernel call, as on ARM; a PC has no semihosting,
// so the kernel answers SYS_GET_CMDLINE with the boot command line and refuses the rest.
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <stdio.h>
#include <errno.h>
#include <kern.h>

int open(const char *path, int flags, ...)
{
    (void)path;
    (void)flags;
    errno = ENOSYS;
    return -1;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    return DebugWrite(buf, n) < 0 ? -1 : (ssize_t)n;
}

ssize_t read(int fd, void *buf, size_t n)
{
    (void)fd;
    (void)buf;
    (void)n;
    errno = EBADF;
    return -1;
}

int close(int fd)
{
    (void)fd;
    errno = EBADF;
    return -1;
}

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
uintptr_t sys_semihost(uintptr_t op, uintptr_t param)
{
    return (uintptr_t)KCALL2(KC_Semihost, op, param);
}

time_t time(time_t *t)
{
    time_t now = (time_t)(ClockTime() / 1000000000u);
    if (t)
        *t = now;
    return now;
}

clock_t clock(void)
{
    return (clock_t)(ClockTime() / 1000u);
}

static int leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

struct tm *gmtime_r(const time_t *t, struct tm *out)
{
    static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    uint64_t s = *t < 0 ? 0 : (uint64_t)*t;
    int64_t days = (int64_t)(s / 86400u);
    int rem = (int)(s % 86400u);
    out->tm_hour = rem / 3600;
    out->tm_min = rem / 60 % 60;
    out->tm_sec = rem % 60;
    out->tm_wday = (int)((days + 4) % 7);       // 1 January 1970 was a Thursday
    int y = 1970;
    while (days >= 365 + leap(y)) {
        days -= 365 + leap(y);
        y++;
    }
    out->tm_year = y - 1900;
    out->tm_yday = (int)days;
    int m = 0;
    while (days >= mdays[m] + (m == 1 && leap(y))) {
        days -= mdays[m] + (m == 1 && leap(y));
        m++;
    }
    out->tm_mon = m;
    out->tm_mday = (int)days + 1;
    out->tm_isdst = 0;
    return out;
}

struct tm *gmtime(const time_t *t)
{
    static struct tm tm;
    return gmtime_r(t, &tm);
}

struct tm *localtime(const time_t *t)
{
    return gmtime(t);
}

// Days from 1 January 1970 to the given date (month 1-12), in the proleptic Gregorian
// calendar: years counted from March, so that the leap day ends a year.
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// tm's fields may be out of range (C99): months carry into years, the rest into seconds; the
// result is read back into tm, normalised, with its weekday and day of the year.
time_t mktime(struct tm *tm)
{
    int64_t mon = tm->tm_mon, year = (int64_t)tm->tm_year + 1900 + mon / 12;
    mon %= 12;
    if (mon < 0) {
        mon += 12;
        year--;
    }
    time_t t = (days_from_civil(year, (int)mon + 1, 1) + tm->tm_mday - 1) * 86400 +
               (int64_t)tm->tm_hour * 3600 + (int64_t)tm->tm_min * 60 + tm->tm_sec;
    gmtime_r(&t, tm);
    return t;
}

// The conversions %a %A %b %B %d %e %F %H %I %j %m %M %p %S %T %w %y %Y %%, in the "C"
// locale; anything else is copied as written.
size_t strftime(char *buf, size_t size, const char *fmt, const struct tm *tm)
{
    static const char *const wd[7] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
                                       "Friday", "Saturday" };
    static const char *const mo[12] = { "January", "February", "March", "April", "May", "June",
                                        "July", "August", "September", "October", "November",
                                        "December" };
    int hour12 = tm->tm_hour % 12 ? tm->tm_hour % 12 : 12;
    size_t n = 0;
    for (; *fmt; fmt++) {
        char part[16];
        if (*fmt != '%' || !fmt[1]) {
            part[0] = *fmt;
            part[1] = '\0';
        } else {
            switch (*++fmt) {
            case 'a': snprintf(part, sizeof(part), "%.3s", wd[tm->tm_wday % 7]); break;
            case 'A': snprintf(part, sizeof(part), "%s", wd[tm->tm_wday % 7]); break;
            case 'b': snprintf(part, sizeof(part), "%.3s", mo[tm->tm_mon % 12]); break;
            case 'B': snprintf(part, sizeof(part), "%s", mo[tm->tm_mon % 12]); break;
            case 'd': snprintf(part, sizeof(part), "%02d", tm->tm_mday); break;
            case 'e': snprintf(part, sizeof(part), "%2d", tm->tm_mday); break;
            case 'F': snprintf(part, sizeof(part), "%d-%02d-%02d", tm->tm_year + 1900,
                               tm->tm_mon + 1, tm->tm_mday); break;
            case 'I': snprintf(part, sizeof(part), "%02d", hour12); break;
            case 'j': snprintf(part, sizeof(part), "%03d", tm->tm_yday + 1); break;
            case 'p': snprintf(part, sizeof(part), "%s", tm->tm_hour < 12 ? "AM" : "PM"); break;
            case 'T': snprintf(part, sizeof(part), "%02d:%02d:%02d", tm->tm_hour, tm->tm_min,
                               tm->tm_sec); break;
            case 'w': snprintf(part, sizeof(part), "%d", tm->tm_wday); break;
            case 'y': snprintf(part, sizeof(part), "%02d", (tm->tm_year + 1900) % 100); break;
            case 'm': snprintf(part, sizeof(part), "%02d", tm->tm_mon + 1); break;
            case 'H': snprintf(part, sizeof(part), "%02d", tm->tm_hour); break;
            case 'M': snprintf(part, sizeof(part), "%02d", tm->tm_min); break;
            case 'S': snprintf(part, sizeof(part), "%02d", tm->tm_sec); break;
            case 'Y': snprintf(part, sizeof(part), "%d", tm->tm_year + 1900); break;
            case '%': snprintf(part, sizeof(part), "%%"); break;
            default: snprintf(part, sizeof(part), "%%%c", *fmt); break;
            }
        }
        for (const char *p = part; *p; p++) {
            if (n + 1 >= size)
                return 0;       // does not fit, as the C standard has it
            buf[n++] = *p;
        }
    }
    if (size)
        buf[n] = '\0';
    return n;
}
