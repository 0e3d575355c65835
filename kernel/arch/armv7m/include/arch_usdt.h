// SPDX-License-Identifier: MIT
// USDT's instructions, ARMv7-M (kernel/kusdt.h, kernel/arch/armv7m/usdt.c): sys/sdt.h's Thumb
// `nop` at a site, and the `udf #0xfc` a placed probe holds there (fbt's is #0xfb). And the
// pid probes' (kernel/kpid.c, arch/armv7m/pid.c): their trap `udf #0xfd`, a halfword on a
// halfword; a function's address in FUNC events with its Thumb bit; the AAPCS's arguments,
// r0-r3 then the stack (sp r13, lr r14); a trap known by its instruction only (UsageFault).
#ifndef ARCH_USDT_H
#define ARCH_USDT_H

#define ARCH_USDT_NOP   0xbf00u
#define ARCH_USDT_TRAP  0xdefcu
#define ARCH_USDT_LEN   2u

#define ARCH_PID_LEN        2u
#define ARCH_PID_ALIGN      2u
#define ARCH_PID_FUNC_BIT   1u
#define ARCH_PID_REG_ARGS   4u
#define ARCH_PID_SP         13u
#define ARCH_PID_LR         14u
#define ARCH_PID_TRAP_SEEN  0

#endif
