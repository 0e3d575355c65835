// SPDX-License-Identifier: MIT
// The system's own names, which the tracelogger writes into a capture's header (SYSNAME,
// SYS_RELEASE, SYS_VERSION; NODENAME and MACHINE are the board's BOARD_NAME_STR and
// BOARD_ARCH_STR) and the kernel gives D's `utsname (d/duname.h): one definition, so that a
// script prints live what dtrace -i reads over the capture. The version is the build's date,
// as each file is compiled (the kernel and the tracelogger are built by the same make).
#ifndef TRACE_KEV_IDENT_H
#define TRACE_KEV_IDENT_H

#define KEV_IDENT_SYSNAME "kev-microkernel"
#define KEV_IDENT_RELEASE "0.1"
#define KEV_IDENT_VERSION __DATE__

#endif
