// SPDX-License-Identifier: MIT
// USDT's instructions, AArch64 (kernel/kusdt.h, kernel/arch/aarch64/usdt.c): sys/sdt.h's A64
// `nop` at a site, and the `brk #0xfc` a placed probe holds there (fbt's is #0xfb). And the
// pid probes' (kernel/kpid.c, arch/aarch64/pid.c): their trap `brk #0xfd`, a word on a word;
// a function's address as it is; the trap known by the exception (the brk's comment in
// ESR_EL1).
#ifndef ARCH_USDT_H
#define ARCH_USDT_H

#define ARCH_USDT_BRK_IMM 0xfcu
#define ARCH_USDT_NOP   0xd503201fu
#define ARCH_USDT_TRAP  (0xd4200000u | ARCH_USDT_BRK_IMM << 5)
#define ARCH_USDT_LEN   4u

#define ARCH_PID_BRK_IMM    0xfdu
#define ARCH_PID_LEN        4u
#define ARCH_PID_ALIGN      4u
#define ARCH_PID_FUNC_BIT   0u
#define ARCH_PID_TRAP_SEEN  1

#endif
