// SPDX-License-Identifier: MIT
// Memory protection, AArch64: the MMU with 4 KB pages, identity-mapped (programs are linked
// for their slots, one address space). Two translation tables, both non-global (nG) so that
// switching between them needs no TLB flush (ASID 0 for the kernel's, 1 for the user's):
//   the kernel's  everything EL1 read-write, nothing for EL0; its threads and, for a process
//                 with a map, the kernel run on it
//   the user's    the same, plus the running process's memory open to EL0:
//                   its RAM slot       read-write, execute-never
//                   its flash slot     read-only, executable (code, constants, .data image)
//                   its maps           read-only (the trace ring for its logger, the D
//                                      engine's block for its consumer); AArch64 has no
//                                      "EL1 writes, EL0 reads" encoding, which is why
//                                      the kernel moves to its own table for such a process
//                   its device window  memory pages, or the device timer's pseudo window
//                                      (CNTKCTL_EL1.EL0PTEN: CNTP_* open to EL0 on the
//                                      timer's CPU alone, context.c; elsewhere they trap)
// Programs run on the user table; the kernel runs on the table of whatever it interrupted
// (entry.S), or on its own: see "The kernel on a user table" below. Everything outside code
// memory (the kernel image and the
// program slots) is execute-never at every level; devices are Device-nGnRnE, kernel only.
// RAM beyond PAGEMAP_SIZE is mapped in 2 MB blocks, kernel only; so are the devices, except
// the 2 MB at DEV_PAGES_BASE, which the user table maps with 4 KB pages.
// Level 1 covers 512 GB with 1 GB entries (T0SZ 25); the first MAP_GB of them point to a level-2
// table each, whose 2 MB entries the board's layout decides (board_config.h: RAM, the page-
// mapped part of it, one or two device ranges), so one file serves QEMU's virt (devices in the
// first GB, RAM in the second) and the Raspberry Pi (RAM from 0, devices at its top and above).
// Multiprocessor: user tables per CPU (each CPU runs its own process's threads), invalidated
// with local TLB maintenance only (a CPU's tables are used by that CPU alone); the kernel's
// table is shared and never changes after boot.
// Two user tables per CPU, ASIDs 1 and 2, each remembering what it was opened for: switching
// back to a process one of them still maps is a TTBR0 value and no table write or TLB
// invalidation. A client and its server (or a program and its logger) take turns on a CPU,
// and rewriting their regions' page entries at every switch was most of a message round
// trip between processes (and, for the trace ring's owner, of every traced one).
//
// The kernel on a user table. Writing TTBR0 with another ASID costs QEMU 7.2 its CPU's whole
// soft TLB and jump cache (six writes a message round trip between processes when every entry
// went to the kernel's table and every return back: a fifth of QEMU's time). So a kernel entry
// stays on the table its thread ran on, and the return writes TTBR0 only when it changes. What
// makes that safe, invariant by invariant:
//  (1) Every user table maps all memory and devices as the kernel's does, same addresses and
//      attributes, EL1 read-write, except the regions of the process it was opened for (its
//      key): its RAM and device window stay EL1 read-write (EL0 too), its flash slot and its
//      maps are read-only for EL1 as well. user_table_init builds both kinds of table from the
//      same entries, and only pages_set changes a user table, for a key's regions.
//  (2) The kernel never writes a flash slot (programs are in the image; proc_can_write admits
//      RAM only), but it does write the maps (the trace ring, the D block). So a table whose
//      key has a map is never run on by the kernel: its CPU's entry_root, which entry.S moves
//      to at every entry, is then the kernel's table (struct table_roots, set with the key).
//      entry_root and user_root change together, here, for one table; the key is the
//      process's regions when this CPU switched to it, not the process's now: when another
//      CPU takes a map from the process or frees the memory (ktrace.c free_buffers, kdtrace.c
//      unmap), this CPU's table still has it read-only and its entries still go to the
//      kernel's table until this CPU switches again ((7): the free makes it switch before the
//      memory is reused); a map given meanwhile is not in this CPU's table at all, so the
//      kernel writes it there as anywhere else.
//  (3) A table is rewritten only while no one runs on it: only its own CPU writes it (tables
//      are per CPU, never freed), and arch_mpu_switch first moves the kernel to its own table
//      if the table to rewrite is the one in TTBR0 (a thread's table, or the last one the
//      kernel's threads were left on, below). So within an entry TTBR0 changes only towards
//      the kernel's table, and the table under the kernel keeps its permissions: by (2) it has
//      no map, by (1) everything the kernel touches is read-write there.
//  (4) The kernel's threads (idle, boot, at EL1t) run on whatever table the kernel left
//      (a return to them writes no TTBR0): the kernel's, or a user table without a map, which
//      by (1) maps all they touch. An entry from them stays there or moves as in (2).
//  (5) TLB: a rewritten table's ASID is invalidated (locally) before it is used again; the
//      kernel's table never changes; what the kernel left in the TLB while on a user table is
//      tagged with that table's ASID and goes with it. A table may be stale (opened for a
//      process killed since on another CPU): its permissions then name a dead process's slots,
//      which by (1) and (2) the kernel may write all of but a flash slot (never written) and a
//      map (never run on). A thread at EL0 never runs on a table opened for another process:
//      arch_mpu_switch runs at every switch between processes.
//  (6) An exception the kernel takes while on a user table is a kernel fault, as on its own.
//  (7) A table's entries are a function of its key, and a table is returned to from EL0 only
//      as its CPU's current one, chosen by arch_mpu_switch because its key equalled the
//      process's regions then. So a key naming memory freed since (the trace ring, a D block)
//      is harmful only while its table is some CPU's current one with no switch to come. The
//      free therefore waits (kernel/kunmap.c) until each other CPU whose current table's key
//      opens the memory is waiting for the kernel lock (at EL1: it reads nothing from EL0 any
//      more), and each such CPU switches again as soon as it has the lock, to a table whose key
//      has no map there. A stale table kept as a CPU's other one (where that switch leaves it)
//      is chosen again only for regions equal to its key: a process that maps that very memory
//      at that size by then, e.g. the same process (or the same program started again, same
//      slots) given a new ring at the same address. That table then shows the process its own
//      new ring, as a freshly written one would; another process (other slots) or the kernel
//      (a consumer's block: never run on a table with a map, (2)) never gets it. Its TLB
//      entries carry the table's ASID and go when it is rewritten for another key ((5)).
//  (8) The running thread's stack guard (kernel/kcall.c: the page at the bottom of its stack)
//      is one page of the key's RAM slot given the kernel's entry (EL1 read-write, nothing for
//      EL0) in the table its CPU returns to; a switch to another thread of the process moves it
//      (arch_stack_guard: two entries, their ASID's TLB entries for the two pages). It is the
//      one change made to a table the kernel may run on: EL1's access is the same both ways
//      ((1) holds), only EL0's changes. A table rewritten for a key starts without one; the
//      switch gives it its current thread's. A main thread has none: its stack lies at the
//      bottom of the slot (user/module.mk), and what lies below is not the process's.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <a64.h>
#include <board_config.h>

#define PAGE        4096u
#define NPAGES      (PAGEMAP_SIZE / PAGE)
#define BLOCK_2M    0x200000u

#define D_TABLE     0x3ull
#define D_BLOCK     0x1ull
#define D_PAGE      0x3ull
#define ATTR_NORMAL (0ull << 2)     // MAIR index 0: normal, write-back
#define ATTR_DEVICE (1ull << 2)     // MAIR index 1: Device-nGnRnE
#define AP_EL0      (1ull << 6)     // AP[1]: EL0 access
#define AP_RO       (1ull << 7)     // AP[2]: read-only
#define SH_INNER    (3ull << 8)
#define AF          (1ull << 10)
#define NG          (1ull << 11)
#define PXN         (1ull << 53)
#define UXN         (1ull << 54)

#define ASID_SHIFT  48          // user table k of a CPU runs under ASID 1 + k
#define TTBR_BADDR  0x0000fffffffffffeull   // TTBR0_EL1's table address (no ASID, no CnP)
#define USER_TABLES 2

#define CNTKCTL_EL0PCTEN (1u << 0)
#define CNTKCTL_EL0VCTEN (1u << 1)
#define CNTKCTL_EL0PTEN  (1u << 9)

#define MAP_GB      4u          // the first 4 GB (32-bit physical addresses)
#define GB          0x40000000ull
#ifndef DEV2_SIZE
#define DEV2_BASE   0
#define DEV2_SIZE   0           // a second device range (the Pi's local peripherals)
#endif
_Static_assert(RAM_BASE % GB + PAGEMAP_SIZE <= GB, "the page map lies in one GB");

static uint64_t k_l1[512] __attribute__((aligned(PAGE)));
static uint64_t k_l2[MAP_GB][512] __attribute__((aligned(PAGE)));
static uint64_t k_l3[NPAGES] __attribute__((aligned(PAGE)));

// What a CPU's current process was given, to take back at the next switch.
struct grant {
    uint32_t base, size;
};

// What a switch to a table gives its CPU's struct cpu (user_root, entry_root: one 16-byte
// copy): the table with its ASID, and the table an entry moves to (the kernel's when the table
// has a map, (2) above; 0 to stay on it). Set when the table is (re)written.
struct table_roots {
    uintptr_t user_root, entry_root;
};
_Static_assert(offsetof(struct cpu, entry_root) == offsetof(struct cpu, user_root) +
               offsetof(struct table_roots, entry_root), "struct cpu's roots in table_roots' order");

// What a table was opened for: the process's regions as arch_mpu_switch grants them (RAM,
// flash, the two maps, the device window) and its CNTKCTL_EL1. Equal keys, equal tables.
struct user_key {
    uint32_t base[5], size[5];
    uint64_t cntkctl;
};

// A CPU's user table.
struct user_table {
    uint64_t l1[512] __attribute__((aligned(PAGE)));
    uint64_t l2[MAP_GB][512] __attribute__((aligned(PAGE)));
    uint64_t dev_l3[512] __attribute__((aligned(PAGE)));
    uint64_t l3[NPAGES] __attribute__((aligned(PAGE)));
    struct grant granted[5];
    unsigned ngranted;
    struct user_key key;        // valid when `keyed`
    bool keyed;
    uint32_t guard;             // the stack guard page EL0 may not touch ((8); 0: none)
    struct table_roots roots;
};
static struct user_table utab[KMAX_CPUS][USER_TABLES];
static uint8_t utab_last[KMAX_CPUS];    // the table a CPU switched to last

uint64_t a64_kernel_ttbr;     // (each CPU's user table: its struct cpu's user_root)

static bool in_code(uint64_t a)
{
    return a >= CODE_MEM_BASE && a - CODE_MEM_BASE < CODE_MEM_SIZE;
}

// The kernel's entry for page i of the page map: EL1 read-write, executable in code memory.
static uint64_t kernel_pte(uint32_t i)
{
    uint64_t a = RAM_BASE + (uint64_t)i * PAGE;
    return a | D_PAGE | ATTR_NORMAL | SH_INNER | AF | NG | UXN | (in_code(a) ? 0 : PXN);
}

// The kernel-only entry for device page i of the 2 MB at DEV_PAGES_BASE.
static uint64_t device_pte(uint32_t i)
{
    return (DEV_PAGES_BASE + (uint64_t)i * PAGE) | D_PAGE | ATTR_DEVICE | AF | NG | PXN | UXN;
}

static bool in_dev_pages(uint64_t a)
{
    return a >= DEV_PAGES_BASE && a - DEV_PAGES_BASE < BLOCK_2M;
}

static bool in_range(uint64_t a, uint64_t base, uint64_t size)
{
    return a >= base && a - base < size;
}

// The kernel's level-2 entry for the 2 MB at a, l3 the page map's level-3 table.
static uint64_t block_entry(uint64_t a, const uint64_t *l3)
{
    if (in_range(a, RAM_BASE, PAGEMAP_SIZE))
        return (uint64_t)(uintptr_t)&l3[(a - RAM_BASE) / PAGE] | D_TABLE;
    if (in_range(a, RAM_BASE, RAM_SIZE))
        return a | D_BLOCK | ATTR_NORMAL | SH_INNER | AF | NG | PXN | UXN;
    if (in_range(a, DEV_BASE, DEV_SIZE) || in_range(a, DEV2_BASE, DEV2_SIZE))
        return a | D_BLOCK | ATTR_DEVICE | AF | NG | PXN | UXN;
    return 0;
}

// A CPU's user table starts as the kernel's view with nothing open to EL0; its page map and
// the 2 MB of devices at DEV_PAGES_BASE have level-3 tables of its own.
static void user_table_init(struct user_table *u)
{
    for (uint32_t i = 0; i < NPAGES; i++)
        u->l3[i] = kernel_pte(i);
    for (uint32_t i = 0; i < 512; i++)
        u->dev_l3[i] = device_pte(i);
    for (uint32_t g = 0; g < MAP_GB; g++) {
        for (uint32_t i = 0; i < 512; i++) {
            uint64_t a = g * GB + (uint64_t)i * BLOCK_2M;
            u->l2[g][i] = in_dev_pages(a) ? ((uint64_t)(uintptr_t)u->dev_l3 | D_TABLE)
                                          : block_entry(a, u->l3);
        }
        u->l1[g] = (uint64_t)(uintptr_t)u->l2[g] | D_TABLE;
    }
    u->ngranted = 0;
}

// This CPU's translation regime: the kernel's table, then the MMU on.
static void mmu_start(void)
{
    A64_SYSREG_WRITE(mair_el1, 0x00ffull);          // 0: normal WB RA WA, 1: Device-nGnRnE
    // T0SZ 25 (39-bit), walks inner/outer write-back, inner shareable, 4 KB granule;
    // EPD1: no TTBR1 walks; IPS 32 bits; 8-bit ASIDs from TTBR0.
    A64_SYSREG_WRITE(tcr_el1, 25ull | 1ull << 8 | 1ull << 10 | 3ull << 12 | 1ull << 23);
    A64_SYSREG_WRITE(ttbr0_el1, a64_kernel_ttbr);
    A64_SYSREG_WRITE(cntkctl_el1, CNTKCTL_EL0VCTEN);
    __asm__ volatile("dsb ish\n\ttlbi vmalle1\n\tdsb ish\n\tisb" ::: "memory");
    // M, C, I; SA0 off; DZE, UCT, UCI (EL0 may use DC ZVA and read CTR_EL0: picolibc's string
    // functions do); nTWI, nTWE; the ARMv8.0 RES1 bits.
    uint64_t sctlr = 0x30d00800ull | 1u << 0 | 1u << 2 | 1u << 12 | 1u << 14 | 1u << 15 |
                     1u << 16 | 1u << 18 | 1u << 26;
    A64_SYSREG_WRITE(sctlr_el1, sctlr);
    a64_isb();
}

void a64_mmu_init(void)
{
    for (uint32_t i = 0; i < NPAGES; i++)
        k_l3[i] = kernel_pte(i);
    // The start of RAM may hold QEMU's device tree or the firmware's spin tables: left mapped
    // for the kernel (harmless); nothing of the kernel's lies below CODE_MEM_BASE.
    for (uint32_t g = 0; g < MAP_GB; g++) {
        for (uint32_t i = 0; i < 512; i++)
            k_l2[g][i] = block_entry(g * GB + (uint64_t)i * BLOCK_2M, k_l3);
        k_l1[g] = (uint64_t)(uintptr_t)k_l2[g] | D_TABLE;
    }
    a64_kernel_ttbr = (uint64_t)(uintptr_t)k_l1;
    for (unsigned c = 0; c < KMAX_CPUS; c++) {
        for (unsigned k = 0; k < USER_TABLES; k++) {
            user_table_init(&utab[c][k]);
            utab[c][k].roots.user_root = (uint64_t)(uintptr_t)utab[c][k].l1 |
                                         (uint64_t)(1u + k) << ASID_SHIFT;
            utab[c][k].roots.entry_root = 0;
        }
        k_cpus[c].user_root = utab[c][0].roots.user_root;
        k_cpus[c].entry_root = 0;
    }
    mmu_start();
}

// A secondary CPU (smp.c): the tables exist already.
void a64_mmu_start_secondary(void)
{
    mmu_start();
}

// n entries from e on, mapping consecutive pages from pte on (same attributes): two a store,
// with no per-page work. A process switch rewrites every page of the old and new process's
// regions (its RAM, flash, and the trace ring its logger maps: hundreds of pages), so this
// loop is most of a switch between processes; with per-page attributes worked out each time
// it cost a traced message round trip to the ring's owner 1200 instructions.
static void l3_fill(uint64_t *e, uint32_t n, uint64_t pte)
{
    uint64_t *end = e + n;
    if (n & 1u) {
        *e++ = pte;
        pte += PAGE;
    }
    for (; e < end; e += 2, pte += 2 * PAGE) {
        e[0] = pte;
        e[1] = pte + PAGE;
    }
}

// Page-map entries [first, end) as the kernel's, or opened to EL0 with flags; in pieces that
// lie wholly inside or outside code memory (the kernel's PXN differs there).
static void ram_pages_set(struct user_table *u, uint32_t first, uint32_t end, bool open,
                          uint64_t flags)
{
    const uint32_t cs = CODE_MEM_BASE <= RAM_BASE ? 0 : (uint32_t)((CODE_MEM_BASE - RAM_BASE) / PAGE);
    const uint32_t ce = cs + CODE_MEM_SIZE / PAGE;
    const uint32_t cut[4] = { first, cs, ce, end };
    for (unsigned k = 0; k < 3; k++) {
        uint32_t a = cut[k] > first ? cut[k] : first, b = cut[k + 1] < end ? cut[k + 1] : end;
        if (a >= b)
            continue;
        uint64_t pte = open ? ((kernel_pte(a) & ~(UXN | PXN)) | flags) : kernel_pte(a);
        l3_fill(&u->l3[a], b - a, pte);
    }
}

static void pages_set(struct user_table *u, uint32_t base, uint32_t size, bool open,
                      uint64_t flags)
{
    if (in_dev_pages(base)) {
        uint32_t first = (base - DEV_PAGES_BASE) / PAGE;
        uint32_t end = (base - DEV_PAGES_BASE + size + PAGE - 1) / PAGE;
        if (end > 512)
            end = 512;
        if (first < end)
            l3_fill(&u->dev_l3[first], end - first,
                    open ? ((device_pte(first) & ~(UXN | PXN)) | flags) : device_pte(first));
        return;
    }
    if (!in_range(base, RAM_BASE, PAGEMAP_SIZE))
        return;
    uint32_t first = (base - RAM_BASE) / PAGE, end = (base - RAM_BASE + size + PAGE - 1) / PAGE;
    ram_pages_set(u, first, end < NPAGES ? end : NPAGES, open, flags);
}

static void grant(struct user_table *u, uint32_t base, uint32_t size, uint64_t flags)
{
    if (!size || u->ngranted == ARRAY_SIZE(u->granted))
        return;
    pages_set(u, base, size, true, flags);
    u->granted[u->ngranted].base = base;
    u->granted[u->ngranted].size = size;
    u->ngranted++;
}

// RAM slots, maps and memory device windows: whole pages inside the page map; or the device
// timer's pseudo window.
bool arch_mpu_region_ok(uint32_t base, uint32_t size)
{
    if (base == SYSREG_WINDOW_BASE && size == SYSREG_WINDOW_SIZE)
        return true;
    if (in_dev_pages(base))
        return size && !(base % PAGE) && !(size % PAGE) && base + size > base &&
               base + size <= DEV_PAGES_BASE + BLOCK_2M;
    return size && !(base % PAGE) && !(size % PAGE) && in_range(base, RAM_BASE, PAGEMAP_SIZE) &&
           base + size > base && base + size <= RAM_BASE + PAGEMAP_SIZE;
}

void arch_map_layout(uint32_t len, uint32_t *size, uint32_t *align)
{
    *align = PAGE;
    *size = (len + PAGE - 1) / PAGE * PAGE;
}

#if KMAX_CPUS > 1
// Called by another CPU under the exclusive lock (kernel/kunmap.c): no CPU rewrites its tables
// or switches then (arch_mpu_switch runs under a lock, exclusive or shared), so `cpu`'s last
// table and its key are what its threads return to. The key, not the pages: the memory is
// gone from the process by now, and the key is what the table still opens ((2), (7) above).
bool arch_mpu_cpu_maps(unsigned cpu, uint32_t base, uint32_t size)
{
    const struct user_table *u = &utab[cpu][utab_last[cpu]];
    if (!u->keyed)
        return false;
    for (unsigned i = 0; i < 5; i++)
        if (u->key.size[i] && base < u->key.base[i] + u->key.size[i] &&
            u->key.base[i] < base + size)
            return true;
    return false;
}
#endif

// Moves table k of this CPU's stack guard to page g (0: none), inside the RAM slot its key
// opens ((8) above): the old guard's page opened to EL0 again, g's given the kernel's entry,
// and the two pages' TLB entries under the table's ASID dropped. A RAM slot's page opened to
// EL0 is the kernel's entry with AP_EL0 (grant(): execute-never both ways, slots lie outside
// code memory), so each is one bit.
static void guard_move(struct user_table *u, unsigned k, uint32_t g)
{
    _Static_assert(KSTACK_GUARD == PAGE, "a stack guard is one page");
    _Static_assert(APP_RAM_BASE >= CODE_MEM_BASE + CODE_MEM_SIZE, "RAM slots outside code memory");
    if (g == u->guard)
        return;
    uint64_t asid = (uint64_t)(1u + k) << ASID_SHIFT;
    if (u->guard)
        u->l3[(u->guard - RAM_BASE) / PAGE] |= AP_EL0;
    if (g)
        u->l3[(g - RAM_BASE) / PAGE] &= ~AP_EL0;
    __asm__ volatile("dsb ishst" ::: "memory");     // the entries written before the walks
    if (u->guard)
        __asm__ volatile("tlbi vale1, %0" :: "r"(asid | u->guard / PAGE) : "memory");
    if (g)
        __asm__ volatile("tlbi vale1, %0" :: "r"(asid | g / PAGE) : "memory");
    __asm__ volatile("dsb ish\n\tisb" ::: "memory");
    u->guard = g;
}

void arch_stack_guard(const struct thread *t)
{
    unsigned c = cpu_id(), k = utab_last[c];
    guard_move(&utab[c][k], k, t->stack_guard);
}

static bool key_equal(const struct user_key *a, const struct user_key *b)
{
    for (unsigned i = 0; i < 5; i++)
        if (a->base[i] != b->base[i] || a->size[i] != b->size[i])
            return false;
    return a->cntkctl == b->cntkctl;
}

// Runs in the kernel, on this CPU (its user tables are its own). A table whose key matches is
// used as it is; otherwise the one not used last is rewritten for p and its ASID's TLB entries
// dropped, the kernel first moving off it if it runs on it ((3) above).
void arch_mpu_switch(const struct proc *p)
{
    unsigned c = cpu_id();
    struct user_key key = { .cntkctl = CNTKCTL_EL0VCTEN };
    if (p) {
        key.base[0] = p->ram_base, key.size[0] = p->ram_size;
        key.base[1] = p->flash_base, key.size[1] = p->flash_size;
        key.base[2] = p->map_base, key.size[2] = p->map_len;
        key.base[3] = p->map2_base, key.size[3] = p->map2_len;
        uint32_t mb = p->app->mmio_base, ms = p->app->mmio_size;
        if (mb == SYSREG_WINDOW_BASE && ms == SYSREG_WINDOW_SIZE)    // the device timer: on
            key.cntkctl |= CNTKCTL_EL0PCTEN |                          // its CPU (context.c)
                           (c == A64_DEVTIMER_CPU ? CNTKCTL_EL0PTEN : 0u);
        else
            key.base[4] = mb, key.size[4] = ms;
    }
    unsigned k = utab_last[c];
    struct user_table *u = &utab[c][k];
    if (!(u->keyed && key_equal(&u->key, &key))) {
        k ^= 1u;
        u = &utab[c][k];
        if (!(u->keyed && key_equal(&u->key, &key))) {
            // The kernel may be running on this very table: an entry from a kernel thread
            // left on it, or a second switch in one entry ((3), (4) above). Onto its own
            // first: the rewrite may make a map read-only for EL1 under it.
            if ((A64_SYSREG_READ(ttbr0_el1) & TTBR_BADDR) == (uint64_t)(uintptr_t)u->l1) {
                A64_SYSREG_WRITE(ttbr0_el1, a64_kernel_ttbr);
                a64_isb();
            }
            for (unsigned i = 0; i < u->ngranted; i++)
                pages_set(u, u->granted[i].base, u->granted[i].size, false, 0);
            u->ngranted = 0;
            static const uint64_t flags[5] = {
                AP_EL0 | UXN | PXN, AP_EL0 | AP_RO | PXN, AP_EL0 | AP_RO | UXN | PXN,
                AP_EL0 | AP_RO | UXN | PXN, AP_EL0 | UXN | PXN,
            };
            for (unsigned i = 0; i < 5; i++)
                grant(u, key.base[i], key.size[i], flags[i]);
            u->key = key;
            u->keyed = true;
            u->guard = 0;
            u->roots.entry_root = key.size[2] || key.size[3] ? a64_kernel_ttbr : 0;
            __asm__ volatile("dsb ishst\n\ttlbi aside1, %0\n\tdsb ish\n\tisb"
                             :: "r"((uint64_t)(1u + k) << ASID_SHIFT) : "memory");
        }
        utab_last[c] = (uint8_t)k;
    }
    const struct thread *cur = k_current;
    guard_move(u, k, p && cur && cur->proc == p ? cur->stack_guard : 0u);
    // Both together ((2) above), as one copy (struct cpu: entry_root follows user_root).
    __builtin_memcpy(&k_cpus[c].user_root, &u->roots, sizeof(u->roots));
    A64_SYSREG_WRITE(cntkctl_el1, key.cntkctl);
}
