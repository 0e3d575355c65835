// SPDX-License-Identifier: MIT
// System control space registers of ARMv7-M used by the arch layer.
#ifndef ARMV7M_REGS_H
#define ARMV7M_REGS_H

#include <stdint.h>

#define REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define REG8(a)  (*(volatile uint8_t *)(uintptr_t)(a))

#define SCB_ICSR   REG32(0xE000ED04u)
#define SCB_VTOR   REG32(0xE000ED08u)
#define SCB_CCR    REG32(0xE000ED14u)
#define SCB_SHPR1  REG32(0xE000ED18u)
#define SCB_SHPR2  REG32(0xE000ED1Cu)
#define SCB_SHPR3  REG32(0xE000ED20u)
#define SCB_SHCSR  REG32(0xE000ED24u)
#define SCB_CFSR   REG32(0xE000ED28u)
#define SCB_HFSR   REG32(0xE000ED2Cu)
#define SCB_MMFAR  REG32(0xE000ED34u)
#define SCB_BFAR   REG32(0xE000ED38u)
#define SCB_DFSR   REG32(0xE000ED30u)
#define SCB_DEMCR  REG32(0xE000EDFCu)

#define SYST_CSR   REG32(0xE000E010u)
#define SYST_RVR   REG32(0xE000E014u)
#define SYST_CVR   REG32(0xE000E018u)
// The clock SysTick counts (the core clock, CSR.CLKSOURCE = 1), from each ARMv7-M board: not
// always the cycle counter's (netduinoplus2 in QEMU: a 168 MHz core, TIM2 at 166.67 MHz).
uint32_t board_systick_hz(void);

#define NVIC_ISER(n) REG32(0xE000E100u + 4u * (n))
#define NVIC_ICER(n) REG32(0xE000E180u + 4u * (n))
#define NVIC_ISPR(n) REG32(0xE000E200u + 4u * (n))
#define NVIC_ICPR(n) REG32(0xE000E280u + 4u * (n))
#define NVIC_IPR(n)  REG8(0xE000E400u + (n))

#define MPU_TYPE   REG32(0xE000ED90u)
#define MPU_CTRL   REG32(0xE000ED94u)
#define MPU_RNR    REG32(0xE000ED98u)
#define MPU_RBAR   REG32(0xE000ED9Cu)
#define MPU_RASR   REG32(0xE000EDA0u)

#define ICSR_PENDSVSET (1u << 28)
#define CCR_DIV_0_TRP  (1u << 4)
#define SHCSR_SVCALLPENDED (1u << 15)
#define SHCSR_MEMFAULTENA (1u << 16)
#define SHCSR_BUSFAULTENA (1u << 17)
#define SHCSR_USGFAULTENA (1u << 18)
#define DEMCR_MON_EN      (1u << 16)   // the DebugMonitor exception takes bkpt
#define DFSR_BKPT         (1u << 1)

// Exception priorities: faults above the kernel, everything that enters the kernel at one
// level so that kernel entries never nest.
#define PRIO_FAULT  0x00u
#define PRIO_KERNEL 0x80u
// The kernel's level split by PRIGROUP 6 (AIRCR): bit 7 the group (which preempts), bits 6-0
// the subpriority (which of several pending at one group is taken first, never a preemption).
// Every kernel entry is at PRIO_KERNEL_REST but the profile timer's, at PRIO_KERNEL: see
// arch_init.
#define PRIO_KERNEL_REST (PRIO_KERNEL | 0x40u)
#define SCB_AIRCR  REG32(0xE000ED0Cu)
#define AIRCR_VECTKEY    (0x05FAu << 16)
#define AIRCR_PRIGROUP(n) ((uint32_t)(n) << 8)

// Arch-internal entry points.
void arch_mpu_init(void);

#endif
