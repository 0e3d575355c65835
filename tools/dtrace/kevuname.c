// SPDX-License-Identifier: MIT
// dvm_uname (d/duname.h) for the host's dtrace. Over a capture the board's names are in the
// header the tracelogger wrote from the same definitions the board's kernel gives live
// (trace/kev_ident.h), so a uname-like script prints the same line both ways; with no capture
// (BEGIN, tick-N, END run here) they are the host's, as uname(1) prints them. An item the
// header lacks (kevdump writes no NODENAME or MACHINE) reads "", as the engine's own default.
#include "kevuname.h"
#include <d/duname.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <trace/kev_decode.h>

static const struct kev_reader *capture;

void kev_uname_capture(const struct kev_reader *r)
{
    capture = r;
}

/* the header item of each member (d/duname.h's table) */
static const char *const keys[DUN_COUNT] = {
    [DUN_SYSNAME] = "SYSNAME", [DUN_NODENAME] = "NODENAME", [DUN_RELEASE] = "SYS_RELEASE",
    [DUN_VERSION] = "SYS_VERSION", [DUN_MACHINE] = "MACHINE", [DUN_ARCHITECTURE] = "MACHINE",
    [DUN_PLATFORM] = "NODENAME",
};

const char *dvm_uname(unsigned member)
{
    static char value[DUN_COUNT][256];
    static struct utsname host;
    static int have_host;
    if (member >= DUN_COUNT)
        return "";
    if (capture) {
        unsigned n = 0;
        const char *v = kev_attr(capture, keys[member], &n);
        snprintf(value[member], sizeof(value[member]), "%.*s", v ? (int)n : 0, v ? v : "");
        return value[member];
    }
    if (!have_host)
        have_host = uname(&host) == 0 ? 1 : -1;
    if (have_host < 0)
        return "";
    switch (member) {
    case DUN_SYSNAME: return host.sysname;
    case DUN_NODENAME: case DUN_PLATFORM: return host.nodename;
    case DUN_RELEASE: return host.release;
    case DUN_VERSION: return host.version;
    default: return host.machine;
    }
}
