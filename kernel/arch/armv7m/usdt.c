// SPDX-License-Identifier: MIT
// USDT sites, ARMv7-M (kernel/kusdt.h, docs/usdt.md). sys/sdt.h writes a Thumb `nop`
// (0xbf00) at each site; a placed probe holds `udf #0xfc` there, which the thread executes as
// an undefined instruction: a UsageFault in thread mode, the thread's fault (kernel_fault),
// which asks kusdt_fault first. The registers are the thread's: r0-r3, r12, lr and pc in the
// frame the hardware pushed on its stack, r4-r11 where kentry saved them. Programs' text is RAM
// on the boards that place probes (mps2's code SSRAM) but read-only through the MPU; a write
// opens region 7 (otherwise off) on the site's 32 bytes alone, for the kernel alone, and
// closes it again. One CPU and no caches on the Cortex-M3: a DSB completes the write and an
// ISB (and the exception return after it) makes instruction fetch see it.
#include <kernel/arch_trace.h>
#include <kernel/arch_upcall.h>
#include <d/dusdt.h>
#include <armv7m_regs.h>
#include <arch_usdt.h>

#define USDT_MPU_REGION 7u
#define RASR_AP_PRW     (1u << 24)
#define RASR_NORMAL     ((1u << 17) | (1u << 16))
#define RASR_SIZE_32    (4u << 1)    // 2^(4+1) bytes
#define UFSR_UNDEFINSTR (1u << 16)
#define HFSR_FORCED     (1u << 30)

unsigned arch_usdt_syntax(void)
{
    return DUSDT_SYNTAX_ARM;
}

void arch_usdt_write(uintptr_t addr, uint32_t insn)
{
    MPU_RNR = USDT_MPU_REGION;
    MPU_RBAR = (uint32_t)addr & ~31u;
    MPU_RASR = RASR_AP_PRW | RASR_NORMAL | RASR_SIZE_32 | 1u;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    *(volatile uint16_t *)addr = (uint16_t)insn;
    __asm__ volatile("dsb" ::: "memory");
    MPU_RNR = USDT_MPU_REGION;
    MPU_RASR = 0;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

static uint32_t *frame(const struct thread *t)
{
    return (uint32_t *)(uintptr_t)t->ctx.psp;
}

bool arch_usdt_trapped(struct thread *t, uint32_t *pc)
{
    if (!(SCB_CFSR & UFSR_UNDEFINSTR) || (SCB_CFSR & 0xffffu))
        return false;       // not (only) an undefined instruction: its frame may be bad
    *pc = frame(t)[6];
    return true;
}

uintptr_t arch_usdt_reg(const struct thread *t, unsigned n)
{
    const uint32_t *f = frame(t);
    if (n < 4)
        return f[n];
    if (n < 12)
        return (&t->ctx.r4)[n - 4];
    switch (n) {
    case 12: return f[4];
    case 13: return t->ctx.psp + 32u + ((f[7] >> 9) & 1u) * 4u;
    case 14: return f[5];
    default: return f[6];
    }
}

void arch_usdt_resume(struct thread *t, uint32_t pc)
{
    frame(t)[6] = pc;
    SCB_CFSR = UFSR_UNDEFINSTR;      // write-one-to-clear: dealt with
    if (SCB_HFSR & HFSR_FORCED)
        SCB_HFSR = HFSR_FORCED;
}
