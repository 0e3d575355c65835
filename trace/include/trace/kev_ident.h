// SPDX-License-Identifier: MIT
// The system's own names, which the tracelogger writes into a capture's header (SYSNAME,
// SYS_RELEASE, SYS_VERSION; NODENAME and MACHINE are the board's BOARD_NAME_STR and
// BOARD_ARCH_STR) and the kernel gives D's `utsname (d/duname.h): one definition, so that a
// script prints live what dtrace -i reads over the capture. The version is the kernel's build
// date, expanded in one kernel file (kernel/kversion.c); the tracelogger asks the kernel for it
// (SysInfo KSYSINFO_BUILD_DATE, as yyyymmdd) rather than taking its own build's date, which a
// build across midnight or a partial rebuild makes another.
#ifndef TRACE_KEV_IDENT_H
#define TRACE_KEV_IDENT_H

#include <stdint.h>

#define KEV_IDENT_SYSNAME "kev-microkernel"
#define KEV_IDENT_RELEASE "0.1"

static const char kev_ident_months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                             "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// kev_ident_date_value("Nov 28 2026") = 20261128: __DATE__'s text as yyyymmdd; 0 if it is not
// one.
static inline uint32_t kev_ident_date_value(const char *d)
{
    unsigned m = 0;
    while (m < 12 && !(d[0] == kev_ident_months[m][0] && d[1] == kev_ident_months[m][1] &&
                       d[2] == kev_ident_months[m][2]))
        m++;
    if (m == 12 || d[3] != ' ')
        return 0;
    uint32_t day = (d[4] == ' ' ? 0 : (uint32_t)(d[4] - '0')) * 10 + (uint32_t)(d[5] - '0');
    uint32_t year = 0;
    for (int i = 7; i < 11; i++)
        year = year * 10 + (uint32_t)(d[i] - '0');
    return year * 10000 + (m + 1) * 100 + day;
}

// The text back, as __DATE__ writes it ("Nov  1 2026"): 12 bytes with the NUL; "unknown" for
// a value that is no date.
static inline void kev_ident_date_text(uint32_t v, char out[12])
{
    uint32_t year = v / 10000, m = v / 100 % 100, day = v % 100;
    if (m < 1 || m > 12 || day < 1 || day > 31 || year > 9999) {
        const char *u = "unknown";
        for (int i = 0; i < 8; i++)
            out[i] = u[i];
        return;
    }
    for (int i = 0; i < 3; i++)
        out[i] = kev_ident_months[m - 1][i];
    out[3] = ' ';
    out[4] = day >= 10 ? (char)('0' + day / 10) : ' ';
    out[5] = (char)('0' + day % 10);
    out[6] = ' ';
    for (int i = 10; i >= 7; i--, year /= 10)
        out[i] = (char)('0' + year % 10);
    out[11] = '\0';
}

#endif
