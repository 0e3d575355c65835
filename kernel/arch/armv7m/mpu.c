// SPDX-License-Identifier: MIT
// Memory protection, ARMv7-M PMSAv7 (8 regions on the Cortex-M3). The kernel runs
// privileged with the default memory map behind the regions (PRIVDEFENA), so unprivileged
// code reaches only what a region grants:
//   region 0: all code memory, read-only and executable for everyone (programs' code and
//             constants; nothing there is secret, and nobody may write it)
//   region 1: the running process's RAM slot, read-write, never executable
//   region 2: the running process's device window (KAPP_F_IO programs), read-write, device
//   region 3: the trace ring for the process that allocated it (its logger): read-only for
//             it (the kernel keeps writing), never executable; subregions past the ring's end are disabled
//   region 4: the D engine's block for its consumer (kernel/kdtrace.c), the same way
//   region 5: the cycle counter's registers (board_config.h BOARD_CYCLES_MMIO_*), read-only
//             for everyone but the kernel, the same for every process: programs time their
//             user events with board_cycles32() (board_clock.h) without a kernel call
//   region 6: the running thread's stack guard (kernel/kcall.c: the KSTACK_GUARD bytes at the
//             bottom of its stack), no access for it: it overlaps region 1, and the higher
//             region wins. Off for a main thread, whose stack lies at the bottom of region 1
//             (user/module.mk): what lies below it is in no region of the process's. Loaded
//             at every switch to another thread (arch_stack_guard), two stores when it changes.
// Region 7 is off. Kernel RAM and every other process's RAM are reached by nobody but the
// kernel. Slots are powers of two aligned on their size (checked when a program is loaded).
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <armv7m_regs.h>
#include <board_config.h>

#define RASR_ENABLE   1u
#define RASR_SIZE(l2) (((uint32_t)(l2) - 1u) << 1)
#define RASR_AP_RW    (3u << 24)
#define RASR_AP_RO    (6u << 24)   // read-only for everyone
#define RASR_AP_URO   (2u << 24)   // kernel read-write, user read-only
#define RASR_AP_PRIV  (1u << 24)   // kernel read-write, user no access
#define RBAR_VALID    (1u << 4)    // RBAR's region field selects the region (RNR)
#define GUARD_REGION  6u
#define RASR_XN       (1u << 28)
#define RASR_NORMAL   ((1u << 17) | (1u << 16))   // C, B: write-back
#define RASR_DEVICE   ((1u << 18) | (1u << 16))   // S, B: shareable device
#define MPU_ENABLE    1u
#define MPU_PRIVDEF   4u

// The smallest l with 2^l >= size (a count of leading zeros, not a loop: it runs for every
// region at every switch between processes).
static unsigned log2_exact(uint32_t size)
{
    return size <= 1u ? 0u : 32u - (unsigned)__builtin_clz(size - 1u);
}

static void region_set(unsigned n, uint32_t base, uint32_t size, uint32_t attrs)
{
    MPU_RNR = n;
    if (!size) {
        MPU_RASR = 0;
        return;
    }
    MPU_RBAR = base;
    MPU_RASR = attrs | RASR_SIZE(log2_exact(size)) | RASR_ENABLE;
}

// A region is a power of two aligned on its size, in 8 subregions: a mapping of len bytes
// takes the smallest such region and whole subregions of it.
void arch_map_layout(uint32_t len, uint32_t *size, uint32_t *align)
{
    uint32_t region = 1u << log2_exact(len < 256 ? 256 : len);
    uint32_t sub = region / 8;
    *align = region;
    *size = (len + sub - 1) / sub * sub;
}

static void map_set(unsigned n, uint32_t base, uint32_t len)
{
    if (!len) {
        region_set(n, 0, 0, 0);
        return;
    }
    uint32_t region = 1u << log2_exact(len < 256 ? 256 : len);
    uint32_t sub = region / 8, nsub = (len + sub - 1) / sub;
    uint32_t srd = (0xffu << nsub) & 0xffu;
    region_set(n, base, region, RASR_AP_URO | RASR_XN | RASR_NORMAL | srd << 8);
}

// The guard region 6 holds now (0: off); one CPU.
static uint32_t guard_loaded;

// Loads guard g into region 6 if it is not there; true when it changed.
static bool guard_load(uint32_t g)
{
    if (g == guard_loaded)
        return false;
    guard_loaded = g;
    MPU_RBAR = g | RBAR_VALID | GUARD_REGION;
    MPU_RASR = g ? RASR_AP_PRIV | RASR_XN | RASR_NORMAL | RASR_SIZE(log2_exact(KSTACK_GUARD)) |
                   RASR_ENABLE
                 : 0u;
    return true;
}

void arch_stack_guard(const struct thread *t)
{
    if (guard_load(t->stack_guard))
        __asm__ volatile("dsb\n\tisb" ::: "memory");
}

bool arch_mpu_region_ok(uint32_t base, uint32_t size)
{
    return size >= 32 && (size & (size - 1)) == 0 && (base & (size - 1)) == 0;
}

void arch_mpu_switch(const struct proc *p)
{
    if (!p) {
        region_set(1, 0, 0, 0);
        region_set(2, 0, 0, 0);
        region_set(3, 0, 0, 0);
        region_set(4, 0, 0, 0);
        guard_load(0);
        return;
    }
    const struct thread *cur = k_current;
    guard_load(cur && cur->proc == p ? cur->stack_guard : 0u);
    map_set(3, p->map_base, p->map_len);
    map_set(4, p->map2_base, p->map2_len);
    region_set(1, p->ram_base, p->ram_size, RASR_AP_RW | RASR_XN | RASR_NORMAL);
    if (p->app->mmio_size)
        region_set(2, p->app->mmio_base, p->app->mmio_size, RASR_AP_RW | RASR_XN | RASR_DEVICE);
    else
        region_set(2, 0, 0, 0);
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

void arch_mpu_init(void)
{
    if ((MPU_TYPE >> 8 & 0xff) < 8)
        kpanic("MPU with %u regions; 8 needed", (unsigned)(MPU_TYPE >> 8 & 0xff));
    for (unsigned i = 0; i < 8; i++)
        region_set(i, 0, 0, 0);
    guard_loaded = 0;
    region_set(0, CODE_MEM_BASE, CODE_MEM_SIZE, RASR_AP_RO | (1u << 17));
    region_set(5, BOARD_CYCLES_MMIO_BASE, BOARD_CYCLES_MMIO_SIZE,
               RASR_AP_URO | RASR_XN | RASR_DEVICE);
    MPU_CTRL = MPU_ENABLE | MPU_PRIVDEF;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}
