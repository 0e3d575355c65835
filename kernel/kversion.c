// SPDX-License-Identifier: MIT
// The kernel's build date, the one place __DATE__ is expanded (kernel/kversion.h): the
// tracelogger reads it through SysInfo and D's `utsname through kdt_uname.c, so a capture's
// header and a live script agree whatever else a partial rebuild compiled on another day.
#include <kernel/kversion.h>

const char k_version[] = __DATE__;
