// SPDX-License-Identifier: MIT
// An ARM GICv2 (QEMU virt's default, the GIC-400 of the Raspberry Pi 4) as the interrupt
// controller of a64_intc.h. The kernel's lines 0-15 are the core's PPIs (GIC ids 16-31: the
// timers, banked per CPU), 16 .. BOARD_HW_NIRQ-1 the SPIs from 0 (GIC ids 32..), all routed to
// CPU 0; SGI 0 is the reschedule IPI. An interrupt is acknowledged at once: a line handed to a
// process is masked by the kernel until its driver unmasks it, so an early end of interrupt
// cannot storm. GICD_BASE and GICC_BASE come from board_config.h.
#include <kernel/kernel.h>
#include <board_config.h>
#include <a64_intc.h>

#define GICD(off)   (*(volatile uint32_t *)(uintptr_t)(GICD_BASE + (off)))
#define GICC(off)   (*(volatile uint32_t *)(uintptr_t)(GICC_BASE + (off)))
#define GICD_CTLR        0x000
#define GICD_ISENABLER   0x100
#define GICD_ICENABLER   0x180
#define GICD_IPRIORITYR  0x400
#define GICD_ITARGETSR   0x800
#define GICD_SGIR        0xf00
#define GICC_CTLR        0x000
#define GICC_PMR         0x004
#define GICC_IAR         0x00c
#define GICC_EOIR        0x010
#define GICC_HPPIR       0x018
#define GIC_SPURIOUS     1020u
#define GIC_NIDS         64u
#define SGI_RESCHED      0u

static int line_to_id(unsigned line)
{
    if (line < 16)
        return (int)(16 + line);
    if (line < BOARD_HW_NIRQ)
        return (int)(32 + line - 16);
    return -1;
}

static int id_to_line(unsigned id)
{
    if (id >= 16 && id < 32)
        return (int)(id - 16);
    if (id >= 32 && id < 32 + BOARD_HW_NIRQ - 16)
        return (int)(id - 32 + 16);
    return -1;
}

static void id_enable(unsigned id, bool on)
{
    GICD((on ? GICD_ISENABLER : GICD_ICENABLER) + 4 * (id / 32)) = 1u << (id % 32);
}

// This CPU's interface and banked SGI/PPI registers: priorities, the reschedule IPI.
void intc_cpu_init(void)
{
    GICD(GICD_ICENABLER) = 0xffffffffu;
    for (unsigned id = 0; id < 32; id += 4)
        GICD(GICD_IPRIORITYR + id) = 0xa0a0a0a0u;
    GICC(GICC_PMR) = 0xf0;
    GICC(GICC_CTLR) = 1;
    id_enable(SGI_RESCHED, true);
}

void intc_init(void)
{
    GICD(GICD_CTLR) = 0;
    for (unsigned id = 0; id < GIC_NIDS; id += 32)
        GICD(GICD_ICENABLER + id / 8) = 0xffffffffu;
    for (unsigned id = 0; id < GIC_NIDS; id += 4)
        GICD(GICD_IPRIORITYR + id) = 0xa0a0a0a0u;
    for (unsigned id = 32; id < GIC_NIDS; id += 4)
        GICD(GICD_ITARGETSR + id) = 0x01010101u;    // SPIs to CPU 0
    GICD(GICD_CTLR) = 1;
    intc_cpu_init();
}

// What interrupt id `id` is to the kernel: a line, INTC_IPI or INTC_NONE.
static int id_answer(unsigned id)
{
    if (id >= GIC_SPURIOUS)
        return INTC_NONE;
    if (id < 16)
        return INTC_IPI;
    int line = id_to_line(id);
    return line < 0 ? INTC_NONE : line;
}

int intc_ack(void)
{
    uint32_t iar = GICC(GICC_IAR);
    unsigned id = iar & 0x3ffu;
    if (id < GIC_SPURIOUS)
        GICC(GICC_EOIR) = iar;
    return id_answer(id);
}

// (The CPU interface is banked: this CPU's own, safe to read and acknowledge on the shared side.)
int intc_peek(void)
{
    return id_answer(GICC(GICC_HPPIR) & 0x3ffu);
}

void intc_enable(unsigned line, bool on)
{
    int id = line_to_id(line);
    if (id >= 0)
        id_enable((unsigned)id, on);
}

void intc_send_ipi(unsigned cpu)
{
    __asm__ volatile("dsb ish" ::: "memory");
    GICD(GICD_SGIR) = (1u << (16 + cpu)) | SGI_RESCHED;
}
