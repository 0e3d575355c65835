// SPDX-License-Identifier: MIT
// The system's names as D reads them: Solaris's `utsname (struct utsname: sysname, nodename,
// release, version, machine), `architecture and `platform, which uname-like scripts print.
// The engine asks its host (DIF_S_UNAME): the kernel gives the board's own names (kernel/
// kdt_uname.c), the names the tracelogger writes into a capture's header (tracelogger/
// kevhead.c, from the same trace/kev_ident.h); dtrace -i gives that header's items, so that a
// script prints the same strings live and over the capture; the host's dtrace without a
// capture gives the host's uname(2).
//
//   D                  header item     the board's value
//   `utsname.sysname   SYSNAME         "kev-microkernel"
//   `utsname.nodename  NODENAME        the board's name (BOARD_NAME_STR: "mps2-an385")
//   `utsname.release   SYS_RELEASE     the release ("0.1")
//   `utsname.version   SYS_VERSION     the build's date
//   `utsname.machine   MACHINE         QNX's name of the processor (BOARD_ARCH_STR: "armv7m")
//   `architecture      MACHINE         (Solaris: the instruction set, uname -p)
//   `platform          NODENAME        (Solaris: the hardware platform, uname -i)
#ifndef D_DUNAME_H
#define D_DUNAME_H

enum dvm_uname_member {
    DUN_SYSNAME = 0, DUN_NODENAME, DUN_RELEASE, DUN_VERSION, DUN_MACHINE, DUN_ARCHITECTURE,
    DUN_PLATFORM, DUN_COUNT
};

// dvm_uname: the name of kind member (NUL-terminated), "" when the host has none. Called in a
// firing (no lock, no fault). The engine's own is weak and gives "".
const char *dvm_uname(unsigned member);

#endif
