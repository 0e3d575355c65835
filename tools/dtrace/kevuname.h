// SPDX-License-Identifier: MIT
// The host dtrace's system names for D's `utsname, `architecture and `platform (d/duname.h).
#ifndef DTRACE_KEVUNAME_H
#define DTRACE_KEVUNAME_H

struct kev_reader;

/* kev_uname_capture: over a capture, the names are its header's (SYSNAME, NODENAME,
 * SYS_RELEASE, SYS_VERSION, MACHINE: what the board's kernel gives live); r stays valid while
 * the program runs. NULL: the host's own (uname(2)), as when the host runs a program itself. */
void kev_uname_capture(const struct kev_reader *r);

#endif
