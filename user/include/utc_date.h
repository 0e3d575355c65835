// SPDX-License-Identifier: MIT
// The date on a board: the host's, read through semihosting (user/lib/utc_date.c), and its text
// in UTC. The tracelogger writes it into a capture's header; the board's dtrace prints it for
// system("date").
#ifndef USER_UTC_DATE_H
#define USER_UTC_DATE_H

#include <stdint.h>

// Seconds since 1970 on the host (semihosting's SYS_TIME); 0 without one.
uint32_t utc_host_seconds(void);
// t as "Www Mmm dd hh:mm:ss UTC yyyy" (the form of strftime's "%a %b %d %H:%M:%S UTC %Y"),
// 28 characters and a NUL in buf, in the same instructions whatever the date.
void utc_date_text(char buf[29], uint32_t t);

#endif
