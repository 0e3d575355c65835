// SPDX-License-Identifier: MIT
// Memory protection, x86: one set of PAE page tables identity-maps the first IDMAP_SIZE bytes
// with 4 KB pages, all supervisor-only (page 0 unmapped), and everything outside code memory
// (the kernel image and the program slots) no-execute (NX) when the CPU has it. The running
// process's memory is made user-accessible while it runs, like the ARM port's MPU regions:
//   its RAM slot          read-write, never executable (NX; and beyond the ring-3 code
//                         segment's limit, which real CPUs also enforce but QEMU does not)
//   its flash slot        read-only (code, constants, the .data image)
//   its maps              read-only for it; the kernel keeps writing (CR0.WP is off): the
//                         trace ring (its logger), the D engine's block (its consumer)
//   its device window     I/O ports below 0x10000 through the TSS bitmap; memory otherwise
// Everything else (kernel image and RAM, other processes, the pool, devices, the local APIC's
// page in the 4th GB) is reached by the kernel only. arch_mpu_switch() revokes what the last process had, grants the next and
// flushes the TLB (reloading cr3).
// The running thread's stack guard (kernel/kcall.c: the page at the bottom of its stack) is
// the one page of its RAM slot left supervisor-only: arch_stack_guard moves it at a switch to
// another thread of the same process (two entries, two invlpg). A main thread has none: its
// stack lies at the bottom of the slot (user/module.mk), and the page below is not the
// process's.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <x86.h>
#include <board_config.h>

#define PTE_P  0x1u
#define PTE_RW 0x2u
#define PTE_US 0x4u
#define PTE_PWT 0x8u
#define PTE_PCD 0x10u
#define PTE_PS  0x80u      // a 2 MB page (a directory entry)
#define PTE_NX (1ull << 63)
#define PAGE   4096u
#define IO_WINDOW_END 0x10000u      // device windows below this are I/O port ranges
#define MSR_EFER 0xc0000080u
#define EFER_NXE (1u << 11)
#define CR4_PAE  (1u << 5)

static uint64_t pdpt[4] __attribute__((aligned(32)));
static uint64_t page_dir[512] __attribute__((aligned(4096)));
static uint64_t page_dir_top[512] __attribute__((aligned(4096)));  // the 4th GB: the local APIC
static uint64_t page_tab[IDMAP_SIZE / PAGE] __attribute__((aligned(4096)));
static uint64_t nx;     // PTE_NX when the CPU has it, else 0

// What the current process was given, to take back at the next switch.
struct grant {
    uint32_t base, size;
};
static struct grant granted[5];
static unsigned ngranted;
static uint32_t guard_page;     // the running thread's stack guard, supervisor-only (0: none)

static bool cpu_has_nx(void)
{
    uint32_t a, b, c, d;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0));
    if (a < 0x80000001u)
        return false;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000001u), "c"(0));
    return (d >> 20) & 1u;
}

// The entry of page i for the given permission bits: code memory is executable, the rest not.
static uint64_t pte_of(uint32_t i, uint32_t flags)
{
    uint32_t a = i * PAGE;
    bool code = a >= CODE_MEM_BASE && a - CODE_MEM_BASE < CODE_MEM_SIZE;
    return (uint64_t)a | flags | (code ? 0 : nx);
}

void x86_paging_init(void)
{
    if (cpu_has_nx()) {
        nx = PTE_NX;
        __asm__ volatile("rdmsr\n\t"
                         "orl %1, %%eax\n\t"
                         "wrmsr" :: "c"(MSR_EFER), "i"(EFER_NXE) : "eax", "edx");
    } else {
        kprintf("kernel: this CPU has no NX bit: program RAM stays executable\n");
    }
    for (uint32_t i = 0; i < ARRAY_SIZE(page_tab); i++)
        page_tab[i] = i ? pte_of(i, PTE_P | PTE_RW) : 0;
    // Directory entries allow everything; the page entries decide.
    for (uint32_t i = 0; i < IDMAP_SIZE / (512 * PAGE); i++)
        page_dir[i] = (uint32_t)(uintptr_t)&page_tab[i * 512] | PTE_P | PTE_RW | PTE_US;
    pdpt[0] = (uint32_t)(uintptr_t)page_dir | PTE_P;
    // The local APIC's registers (lapic.c): the 2 MB page holding them, kernel only, uncached.
    page_dir_top[(X86_APIC_BASE >> 21) & 511u] = (X86_APIC_BASE & ~0x1fffffu) | PTE_P | PTE_RW |
                                                  PTE_PS | PTE_PWT | PTE_PCD | nx;
    pdpt[3] = (uint32_t)(uintptr_t)page_dir_top | PTE_P;
    __asm__ volatile("movl %%cr4, %%eax\n\t"
                     "orl %1, %%eax\n\t"
                     "movl %%eax, %%cr4\n\t"
                     "movl %0, %%cr3\n\t"
                     "movl %%cr0, %%eax\n\t"
                     "orl $0x80000000, %%eax\n\t"
                     "movl %%eax, %%cr0"
                     :: "r"(pdpt), "i"(CR4_PAE) : "eax", "memory");
}

static void pages_set(uint32_t base, uint32_t size, uint32_t flags)
{
    uint32_t first = base / PAGE, end = (base + size + PAGE - 1) / PAGE;
    for (uint32_t i = first; i < end && i < ARRAY_SIZE(page_tab); i++)
        if (i)
            page_tab[i] = pte_of(i, flags);
}

static void grant(uint32_t base, uint32_t size, uint32_t flags)
{
    if (!size || ngranted == ARRAY_SIZE(granted))
        return;
    pages_set(base, size, PTE_P | PTE_US | flags);
    granted[ngranted].base = base;
    granted[ngranted].size = size;
    ngranted++;
}

// Moves the stack guard to page g (0: none) within the running process's RAM slot: the old
// guard's page is the process's again, g's the kernel's alone.
static void guard_move(uint32_t g)
{
    _Static_assert(KSTACK_GUARD == PAGE, "a stack guard is one page");
    if (g == guard_page)
        return;
    if (guard_page) {                   // (a granted RAM page is the kernel's with PTE_US)
        page_tab[guard_page / PAGE] |= PTE_US;
        __asm__ volatile("invlpg (%0)" :: "r"(guard_page) : "memory");
    }
    if (g) {
        page_tab[g / PAGE] &= ~(uint64_t)PTE_US;
        __asm__ volatile("invlpg (%0)" :: "r"(g) : "memory");
    }
    guard_page = g;
}

void arch_stack_guard(const struct thread *t)
{
    guard_move(t->stack_guard);
}

// RAM slots, maps and memory device windows: whole pages inside the identity map. Below
// IO_WINDOW_END a window is a range of I/O ports (the TSS bitmap covers ports 0-0x3ff).
bool arch_mpu_region_ok(uint32_t base, uint32_t size)
{
    if (size && base + size <= IO_WINDOW_END && base + size > base)
        return base + size <= 0x400;
    return size && !(base % PAGE) && !(size % PAGE) && base >= PAGE &&
           base + size > base && base + size <= IDMAP_SIZE;
}

void arch_map_layout(uint32_t len, uint32_t *size, uint32_t *align)
{
    *align = PAGE;
    *size = (len + PAGE - 1) / PAGE * PAGE;
}

// Grants ring 3 the I/O ports [port, port+count) (count 0: none), revoking every other.
static void set_iomap(uint32_t port, uint32_t count)
{
    kmemset(x86_tss.iomap, 0xff, sizeof(x86_tss.iomap));
    for (uint32_t p = port; p < port + count && p < X86_IOMAP_PORTS; p++)
        x86_tss.iomap[p / 8] &= (uint8_t)~(1u << (p % 8));
}

void arch_mpu_switch(const struct proc *p)
{
    for (unsigned i = 0; i < ngranted; i++)
        pages_set(granted[i].base, granted[i].size, PTE_P | PTE_RW);
    ngranted = 0;
    guard_page = 0;             // (its page went back to the kernel with the RAM slot)
    set_iomap(0, 0);
    if (p) {
        grant(p->ram_base, p->ram_size, PTE_RW);
        const struct thread *cur = k_current;
        if (cur && cur->proc == p && cur->stack_guard) {
            page_tab[cur->stack_guard / PAGE] &= ~(uint64_t)PTE_US;
            guard_page = cur->stack_guard;      // (the cr3 reload below flushes the TLB)
        }
        grant(p->flash_base, p->flash_size, 0);
        grant(p->map_base, p->map_len, 0);
        grant(p->map2_base, p->map2_len, 0);
        uint32_t mb = p->app->mmio_base, ms = p->app->mmio_size;
        if (ms && mb + ms <= IO_WINDOW_END)
            set_iomap(mb, ms);
        else
            grant(mb, ms, PTE_RW);
    }
    __asm__ volatile("movl %%cr3, %%eax\n\tmovl %%eax, %%cr3" ::: "eax", "memory");
}
