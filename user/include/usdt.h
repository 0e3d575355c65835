// SPDX-License-Identifier: MIT
// USDT: static probes a program declares (docs/usdt.md). A site is
//     USDT(provider, name, arg...);       // up to 6 integer or pointer arguments
// and D names it provider:program:function:name (provider*:::name, or with -p/-c
// provider$target). Debian's sys/sdt.h (systemtap-sdt-dev) writes it: one no-op instruction at
// the site, and a .note.stapsdt note saying where the site is and where each argument lies
// (a register, a constant, or a word in memory), which readelf -n, gdb's `info probes` and
// this project's dtrace -l and dcompile --elf read. While no D program enables the probe the
// site costs its no-op and nothing else: the arguments are not computed for it, only named
// where the code already has them. An argument that costs work to compute belongs under
//     if (USDT_ENABLED(provider, name)) { ... USDT(provider, name, expensive(x)); }
// which the build answers false (no is-enabled semaphore is kept yet: docs/usdt.md).
#ifndef USDT_H
#define USDT_H

#define SDT_USE_VARIADIC 1
#ifndef USDT_SDT_H
#error "USDT_SDT_H: the build names Debian's sys/sdt.h (scripts/setup.sh installs systemtap-sdt-dev)"
#endif
#include USDT_SDT_H

#define USDT(provider, name, ...) STAP_PROBEV(provider, name, ##__VA_ARGS__)
#define USDT_ENABLED(provider, name) 0

#endif
