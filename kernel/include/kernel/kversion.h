// SPDX-License-Identifier: MIT
// The kernel's version text (its build date, __DATE__), expanded once (kernel/kversion.c):
// D's `utsname.version and, through SysInfo, the capture header's SYS_VERSION.
#ifndef KERNEL_KVERSION_H
#define KERNEL_KVERSION_H

extern const char k_version[];

#endif
