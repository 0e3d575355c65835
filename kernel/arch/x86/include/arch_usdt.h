// SPDX-License-Identifier: MIT
// USDT's instructions, i386 (kernel/kusdt.h, kernel/arch/x86/usdt.c): sys/sdt.h's 1-byte
// `nop` at a site, and the `int3` a placed probe holds there (fbt's trap too, in the kernel).
// pid probes (kernel/kpid.h) trap with the same int3 over an instruction's first byte, on any
// byte; FUNC events name functions by their plain address; a trap not known from USDT's but
// by its address.
#ifndef ARCH_USDT_H
#define ARCH_USDT_H

#define ARCH_USDT_NOP   0x90u
#define ARCH_USDT_TRAP  0xccu
#define ARCH_USDT_LEN   1u

#define ARCH_PID_LEN        1u
#define ARCH_PID_ALIGN      1u
#define ARCH_PID_FUNC_BIT   0u
#define ARCH_PID_TRAP_SEEN  0

#endif
