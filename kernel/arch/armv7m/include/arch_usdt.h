// SPDX-License-Identifier: MIT
// USDT's instructions, ARMv7-M (kernel/kusdt.h, kernel/arch/armv7m/usdt.c): sys/sdt.h's Thumb
// `nop` at a site, and the `udf #0xfc` a placed probe holds there (fbt's is #0xfb). pid probes
// (kernel/kpid.h): their trap `udf #0xfd`, a halfword on a halfword boundary; FUNC events name
// Thumb functions with bit 0 set, as their symbols do; a trap known by its instruction only
// (a UsageFault).
#ifndef ARCH_USDT_H
#define ARCH_USDT_H

#define ARCH_USDT_NOP   0xbf00u
#define ARCH_USDT_TRAP  0xdefcu
#define ARCH_USDT_LEN   2u

#define ARCH_PID_LEN        2u
#define ARCH_PID_ALIGN      2u
#define ARCH_PID_FUNC_BIT   1u
#define ARCH_PID_TRAP_SEEN  0

#endif
