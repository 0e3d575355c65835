// SPDX-License-Identifier: MIT
// The profile timer on x86 (kernel/ptimer.h): the local APIC's timer, one-shot, its interrupt
// on vector VEC_PROF, a KENTRY_PROFILE entry (pic_pit.c). The 8259s keep the device lines and
// the tick: they reach the CPU through the APIC's LINT0 as ExtINT (virtual-wire mode), which
// this file sets, so that enabling the APIC changes nothing for them. The APIC's timer counts
// its own clock (QEMU's: 1 GHz; a real chip's bus clock), measured against the TSC at boot, so
// a time of the TSC (board_cycles) becomes a count: ceil((at - now) * apic / tsc). The APIC's
// registers are one 4 KB page at its base address, mapped for the kernel alone (paging.c).
// One CPU. Everything here runs inside the kernel, interrupts off.
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/ptimer.h>
#include <x86.h>

#define MSR_APIC_BASE   0x1bu
#define APIC_BASE_EN    (1u << 11)
#define APIC_EOI        0x0b0u
#define APIC_SVR        0x0f0u
#define APIC_LVT_TIMER  0x320u
#define APIC_LVT_LINT0  0x350u
#define APIC_LVT_LINT1  0x360u
#define APIC_LVT_ERROR  0x370u
#define APIC_TIMER_INIT 0x380u
#define APIC_TIMER_CUR  0x390u
#define APIC_TIMER_DIV  0x3e0u
#define APIC_TPR        0x080u
#define SVR_ENABLE      (1u << 8)
#define LVT_MASKED      (1u << 16)
#define LVT_EXTINT      (7u << 8)
#define LVT_NMI         (4u << 8)
#define DIV_BY_1        0xbu
#define CAL_MS          10u

static bool present;
static uint32_t apic_per_cal, tsc_per_cal;  // counts of each clock in the calibration window
static uint64_t armed_at;   // the TSC time the timer is armed for; 0: stopped

static inline volatile uint32_t *reg(uint32_t off)
{
    return (volatile uint32_t *)(uintptr_t)(X86_APIC_BASE + off);
}

static bool cpu_has_apic(void)
{
    uint32_t a, b, c, d;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1u), "c"(0));
    return (d >> 9) & 1u;
}

// After paging (the APIC's page) and the 8259s: the APIC on, in virtual-wire mode, its timer
// stopped and measured. Without an APIC the profile provider runs from the tick (kprof.c).
void x86_lapic_init(void)
{
    if (!cpu_has_apic())
        return;
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(MSR_APIC_BASE));
    if ((lo & 0xfffff000u) != X86_APIC_BASE || hi) {
        kprintf("kernel: the local APIC is at %x:%x, not %x: no profile timer\n",
                (unsigned)hi, (unsigned)(lo & 0xfffff000u), (unsigned)X86_APIC_BASE);
        return;
    }
    __asm__ volatile("wrmsr" :: "a"(lo | APIC_BASE_EN), "d"(hi), "c"(MSR_APIC_BASE));
    *reg(APIC_SVR) = SVR_ENABLE | VEC_APIC_SPURIOUS;
    *reg(APIC_TPR) = 0;
    *reg(APIC_LVT_LINT0) = LVT_EXTINT;      // the 8259s' INTR, as without the APIC
    *reg(APIC_LVT_LINT1) = LVT_NMI;
    *reg(APIC_LVT_ERROR) = LVT_MASKED;
    *reg(APIC_LVT_TIMER) = LVT_MASKED | VEC_PROF;
    *reg(APIC_TIMER_DIV) = DIV_BY_1;
    // Its rate against the TSC: a count down over CAL_MS of TSC time.
    uint64_t tsc_hz = board_cycles_per_sec();
    *reg(APIC_TIMER_INIT) = 0xffffffffu;
    uint64_t t0 = x86_rdtsc();
    while (x86_rdtsc() - t0 < tsc_hz * CAL_MS / 1000u)
        ;
    uint32_t left = *reg(APIC_TIMER_CUR);
    uint64_t t1 = x86_rdtsc();
    *reg(APIC_TIMER_INIT) = 0;
    apic_per_cal = 0xffffffffu - left;
    tsc_per_cal = (uint32_t)(t1 - t0);
    if (!apic_per_cal || !tsc_per_cal) {
        kprintf("kernel: the local APIC's timer does not count: no profile timer\n");
        return;
    }
    *reg(APIC_LVT_TIMER) = VEC_PROF;        // one-shot, unmasked; armed by ptimer_arm
    present = true;
}

void x86_lapic_eoi(void)
{
    *reg(APIC_EOI) = 0;
}

bool ptimer_present(void)
{
    return present;
}

// True when the timer's time has come, whether or not its interrupt was raised yet: a device
// line taken at the same wake must not go first (pic_pit.c). Cheap while the timer is stopped.
bool x86_lapic_timer_due(void)
{
    return armed_at && x86_rdtsc() >= armed_at;
}

// One CPU: cpu is 0. A count of 0 stops the timer; a time due now or past counts 1.
void ptimer_arm(unsigned cpu, uint64_t at)
{
    (void)cpu;
    if (!present)
        return;
    armed_at = at;
    if (!at) {
        *reg(APIC_TIMER_INIT) = 0;
        return;
    }
    uint64_t now = board_cycles(), d = at > now ? at - now : 0;
    // At most 2^32 TSC cycles ahead (a second or more), so that d * apic_per_cal fits in 64
    // bits: a later time interrupts early, finds nothing due and is armed again (kprof.c).
    if (d > 0xffffffffu)
        d = 0xffffffffu;
    uint64_t n = d ? (d * apic_per_cal + tsc_per_cal - 1u) / tsc_per_cal + 1u : 1u;
    *reg(APIC_TIMER_INIT) = n > 0xffffffffu ? 0xffffffffu : (uint32_t)n;
}
