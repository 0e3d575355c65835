// SPDX-License-Identifier: MIT
// Writing the kernel's text for fbt, ARMv7-M (kernel/kfbt.h, docs/fbt.md). The kernel's code
// memory is RAM on the boards that place probes (mps2's code SSRAM) but the MPU's region 0
// makes it read-only for everyone, the kernel included; while probes are placed or removed,
// region 7 (otherwise off) opens the kernel's image read-write for the kernel alone, still
// executable, and closes again. One CPU and no caches on the Cortex-M3: a DSB completes the
// writes and an ISB makes the instructions after it fetched anew; the exception return that
// ends the consumer's kernel call is another. A site's trap is one halfword, written with
// one halfword store (a site's first halfword is always halfword aligned).
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <arch_fbt.h>
#include <armv7m_regs.h>
#include <board_config.h>

#define FBT_MPU_REGION 7u
#define RASR_AP_PRW    (1u << 24)   // privileged read-write, unprivileged none
#define RASR_NORMAL    ((1u << 17) | (1u << 16))

_Static_assert((KERNEL_FLASH_SIZE & (KERNEL_FLASH_SIZE - 1u)) == 0 &&
                   (KERNEL_FLASH_BASE & (KERNEL_FLASH_SIZE - 1u)) == 0,
               "the kernel's image is one MPU region (a power of two, aligned on its size)");

unsigned arch_fbt_trap_insn(uint8_t out[4])
{
    out[0] = (uint8_t)ARMV7M_FBT_UDF;
    out[1] = (uint8_t)(ARMV7M_FBT_UDF >> 8);
    return 2;
}

void arch_fbt_patch_begin(void)
{
    MPU_RNR = FBT_MPU_REGION;
    MPU_RBAR = KERNEL_FLASH_BASE;
    MPU_RASR = RASR_AP_PRW | RASR_NORMAL | (uint32_t)(__builtin_ctz(KERNEL_FLASH_SIZE) - 1) << 1 |
               1u;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

void arch_fbt_write(uintptr_t addr, const void *bytes, unsigned len)
{
    const uint8_t *b = bytes;
    for (unsigned i = 0; i + 1 < len; i += 2)
        *(volatile uint16_t *)(addr + i) = (uint16_t)(b[i] | b[i + 1] << 8);
}

void arch_fbt_patch_end(void)
{
    __asm__ volatile("dsb" ::: "memory");
    MPU_RNR = FBT_MPU_REGION;
    MPU_RASR = 0;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}
