// SPDX-License-Identifier: MIT
// The board's names for D's `utsname, `architecture and `platform (d/duname.h): the ones the
// tracelogger writes into a capture's header (trace/kev_ident.h, kernel/kversion.c, and the
// board's names of its board_user.h, which kernel/module.mk passes as KDT_BOARD_NAME and
// KDT_BOARD_ARCH), so that dtrace -i over the capture reads there what a script printed live.
// Constant data: read in a firing with no lock.
#include <d/duname.h>
#include <kernel/kversion.h>
#include <trace/kev_ident.h>

const char *dvm_uname(unsigned member)
{
    static const char *const names[DUN_COUNT] = {
        [DUN_SYSNAME] = KEV_IDENT_SYSNAME, [DUN_NODENAME] = KDT_BOARD_NAME,
        [DUN_RELEASE] = KEV_IDENT_RELEASE, [DUN_VERSION] = k_version,
        [DUN_MACHINE] = KDT_BOARD_ARCH, [DUN_ARCHITECTURE] = KDT_BOARD_ARCH,
        [DUN_PLATFORM] = KDT_BOARD_NAME,
    };
    return member < DUN_COUNT ? names[member] : "";
}
