// SPDX-License-Identifier: MIT
// USDT: static probes a program declares (docs/usdt.md). A site is
//     USDT(provider, name, arg...);       // up to 6 integer or pointer arguments
// and D names it provider:program:function:name (provider*:::name, or with -p/-c
// provider$target). Debian's sys/sdt.h (systemtap-sdt-dev) writes it: one no-op instruction at
// the site, and a .note.stapsdt note saying where the site is and where each argument lies
// (a register, a constant, or a word in memory), which readelf -n, gdb's `info probes` and
// this project's dtrace -l and dcompile --elf read. While no D program enables the probe the
// site costs its no-op and nothing else: the arguments are not computed for it, only named
// where the code already has them.
//
// An argument that costs work to compute belongs under an is-enabled check, sys/sdt.h's
// semaphores: a file that has them defines USDT_SEMAPHORES before it includes this header,
// declares each probe it names once at file scope, and guards the costly ones:
//     #define USDT_SEMAPHORES
//     #include <usdt.h>
//     USDT_SEMAPHORE(provider, name);
//     ...  if (USDT_ENABLED(provider, name)) USDT(provider, name, expensive(x));
// The semaphore is a counter among the program's variables whose address the note carries;
// the kernel raises it while a D program enables the probe, so the check is a load and a
// branch. (Every site of such a file names its probe's semaphore: sys/sdt.h's switch is per
// file.)
#ifndef USDT_H
#define USDT_H

#define SDT_USE_VARIADIC 1
#ifndef USDT_SDT_H
#error "USDT_SDT_H: the build names Debian's sys/sdt.h (scripts/setup.sh installs systemtap-sdt-dev)"
#endif
#ifdef USDT_SEMAPHORES
#define _SDT_HAS_SEMAPHORES 1
#endif
#include USDT_SDT_H

#define USDT(provider, name, ...) STAP_PROBEV(provider, name, ##__VA_ARGS__)
#ifdef USDT_SEMAPHORES
#define USDT_SEMAPHORE(provider, name) \
    __attribute__((used)) volatile unsigned short provider##_##name##_semaphore
#define USDT_ENABLED(provider, name) __builtin_expect(provider##_##name##_semaphore != 0, 0)
#endif

#endif
