// SPDX-License-Identifier: MIT
// Processor set-up, x86: the boot path from Multiboot to kernel_main (copy .data, clear .bss,
// GDT, TSS, IDT), arch_init (paging, the PICs), and the C side of every kernel entry.
// Segments are flat except the ring-3 code segment, whose limit ends at the end of code memory:
// a jump into RAM (a process's data or stack) faults (#GP), which gives programs the "RAM is
// never executable" rule of the ARM port without PAE's NX bit.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <x86.h>
#include <board_config.h>

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern const uint32_t x86_vectors[];

static uint64_t gdt[6] __attribute__((aligned(8)));
static uint64_t idt[256] __attribute__((aligned(8)));
struct x86_tss x86_tss __attribute__((aligned(16)));

static uint64_t seg_desc(uint32_t base, uint32_t limit_pages, uint32_t access)
{
    // 4 KB granularity, 32-bit.
    return (uint64_t)(limit_pages & 0xffffu) | (uint64_t)(base & 0xffffffu) << 16 |
           (uint64_t)access << 40 | (uint64_t)((limit_pages >> 16) & 0xfu) << 48 |
           (uint64_t)0xc << 52 | (uint64_t)(base >> 24) << 56;
}

static uint64_t tss_desc(uint32_t base, uint32_t limit)
{
    return (uint64_t)(limit & 0xffffu) | (uint64_t)(base & 0xffffffu) << 16 |
           (uint64_t)0x89 << 40 | (uint64_t)((limit >> 16) & 0xfu) << 48 |
           (uint64_t)(base >> 24) << 56;
}

static uint64_t gate_desc(uint32_t handler, unsigned dpl)
{
    // 32-bit interrupt gate: IF is cleared on entry, so kernel entries never nest.
    return (uint64_t)(handler & 0xffffu) | (uint64_t)SEL_KCODE << 16 |
           (uint64_t)(0x8eu | dpl << 5) << 40 | (uint64_t)(handler >> 16) << 48;
}

static void load_tables(void)
{
    struct __attribute__((packed)) { uint16_t limit; uint32_t base; } g, i;
    g.limit = sizeof(gdt) - 1;
    g.base = (uint32_t)(uintptr_t)gdt;
    i.limit = sizeof(idt) - 1;
    i.base = (uint32_t)(uintptr_t)idt;
    __asm__ volatile("lgdt %0\n\t"
                     "ljmp %1, $1f\n"
                     "1:\tmovw %w2, %%ax\n\t"
                     "movw %%ax, %%ss\n\t"
                     "movw %w3, %%ax\n\t"
                     "movw %%ax, %%ds\n\t"
                     "movw %%ax, %%es\n\t"
                     "movw %%ax, %%fs\n\t"
                     "movw %%ax, %%gs\n\t"
                     "ltr %w4\n\t"
                     "lidt %5"
                     :: "m"(g), "i"(SEL_KCODE), "r"(SEL_KDATA), "r"(SEL_UDATA), "r"(SEL_TSS),
                        "m"(i) : "eax", "memory");
}

// The Multiboot command line after its first word (the kernel's own name, which QEMU and GRUB
// put there); empty when the loader gave none. A line longer than the buffer is kept not at
// all, never cut: boot_cmdline_over holds its length, the board says so at boot and
// SYS_GET_CMDLINE refuses every caller (board_boot_cmdline_over, kernel/shost.c).
static char boot_cmdline[2048];   // room for a D program given inline (make dtrace)
static size_t boot_cmdline_over;

#define MB_INFO_CMDLINE (1u << 2)   // Multiboot info flags: `cmdline` (offset 16) is valid

static void save_cmdline(uint32_t magic, uint32_t mbi)
{
    if (magic != 0x2badb002u || !mbi || !(((const uint32_t *)(uintptr_t)mbi)[0] & MB_INFO_CMDLINE))
        return;
    const char *c = (const char *)(uintptr_t)((const uint32_t *)(uintptr_t)mbi)[4];
    if (!c)
        return;
    while (*c && *c != ' ')
        c++;
    while (*c == ' ')
        c++;
    size_t n = 0;
    while (c[n])
        n++;
    if (n > X86_BOOT_CMDLINE_MAX) {
        boot_cmdline_over = n;
        return;
    }
    for (size_t i = 0; i <= n; i++)
        boot_cmdline[i] = c[i];
}

// Multiboot modules (QEMU's -initrd FILE,FILE; GRUB's `module FILE`): the host files a
// privileged program may read (kernel/bootfile.h), each named by its command line's first
// word. Kept only where nothing else of the kernel's lives: kernel RAM past the stacks (where
// QEMU puts them, after the image's last byte) or memory past the pool, up to the end of the
// identity map; anything else is counted in boot_files_refused, which the board says at boot.
#define MB_INFO_MODS (1u << 3)      // `mods_count` (offset 20) and `mods_addr` (24) are valid
extern uint32_t __stack_top[];
static unsigned boot_files_refused;

static bool free_memory(uint32_t start, uint32_t end)
{
    uint32_t ram_free = (uint32_t)(uintptr_t)__stack_top;
    return start <= end && ((start >= ram_free && end <= KERNEL_RAM_BASE + KERNEL_RAM_SIZE) ||
                            (start >= POOL_BASE + POOL_SIZE && end <= IDMAP_SIZE));
}

static void save_modules(uint32_t magic, uint32_t mbi)
{
    const uint32_t *info = (const uint32_t *)(uintptr_t)mbi;
    if (magic != 0x2badb002u || !mbi || !(info[0] & MB_INFO_MODS))
        return;
    const uint32_t *mod = (const uint32_t *)(uintptr_t)info[6];
    for (uint32_t i = 0; i < info[5]; i++, mod += 4) {
        const char *name = (const char *)(uintptr_t)mod[2];
        uint32_t len = 0;
        while (name && name[len] && name[len] != ' ')
            len++;
        if (!name || !free_memory(mod[0], mod[1]) ||
            bootfile_add(name, len, mod[0], mod[1] - mod[0]) < 0)
            boot_files_refused++;
    }
}

// How many of the loader's modules were not kept (board_late_init says so).
unsigned x86_boot_files_refused(void)
{
    return boot_files_refused;
}

// The boot command line (board_boot_cmdline on x86-pc), NULL when empty or too long.
const char *x86_boot_cmdline(void)
{
    return boot_cmdline[0] ? boot_cmdline : NULL;
}

// The length of the loader's command line when it was over X86_BOOT_CMDLINE_MAX, else 0.
size_t x86_boot_cmdline_over(void)
{
    return boot_cmdline_over;
}

_Static_assert(sizeof(boot_cmdline) == X86_BOOT_CMDLINE_MAX + 1, "the line and its NUL");

// Entered from reset_handler on the boot stack, interrupts off. The Multiboot info block and
// its command line lie outside the image (the loader puts them past its end), so they are
// still intact after .bss is cleared; the command line is copied before paging.
_Noreturn void x86_boot(uint32_t magic, uint32_t mbi)
{
    uint32_t *s = __data_load, *d = __data_start;
    while (d < __data_end)
        *d++ = *s++;
    for (d = __bss_start; d < __bss_end; d++)
        *d = 0;
    save_cmdline(magic, mbi);
    save_modules(magic, mbi);

    gdt[0] = 0;
    gdt[1] = seg_desc(0, 0xfffff, 0x9a);                             // kernel code
    gdt[2] = seg_desc(0, 0xfffff, 0x92);                             // kernel data
    gdt[3] = seg_desc(0, (CODE_MEM_BASE + CODE_MEM_SIZE) / 4096 - 1, 0xfa);   // user code
    gdt[4] = seg_desc(0, 0xfffff, 0xf2);                             // user data
    gdt[5] = tss_desc((uint32_t)(uintptr_t)&x86_tss, sizeof(x86_tss) - 1);
    x86_tss.esp0 = (uint32_t)(uintptr_t)x86_kstack_top;
    x86_tss.ss0 = SEL_KDATA;
    x86_tss.iomap_base = (uint16_t)__builtin_offsetof(struct x86_tss, iomap);
    kmemset(x86_tss.iomap, 0xff, sizeof(x86_tss.iomap));
    // Ring 3 may raise the kernel call and #BP (a USDT site's int3, docs/usdt.md): with DPL 0
    // a program's int3 would come as a general-protection fault.
    for (const uint32_t *v = x86_vectors; v[1]; v += 2)
        idt[v[0]] = gate_desc(v[1], v[0] == VEC_KCALL || v[0] == VEC_BP ? 3 : 0);
    load_tables();
    if (magic != 0x2badb002u)
        kpanic("not booted by a Multiboot loader (eax %x)", (unsigned)magic);
    kernel_main();
}

void arch_init(void)
{
    x86_paging_init();
    x86_pic_init();
    x86_fpu_init();
    x86_lapic_init();
}

// The C side of every kernel entry (entry.S): the kernel's work for this vector, then any work
// it left (a reschedule request, a software-raised interrupt line), each as an entry of its own,
// as the ARM port's PendSV and pending interrupts would be taken right after the return.
// entry.S calls the untraced or the traced copy through x86_entry_fn, which
// arch_trace_entry_select sets when tracing turns on or off, so that the untraced path tests
// nothing (a test of ktrace_kernel_on cost every entry 3 instructions, the traced null call
// 1.5 an event). The work an entry left is rare and tests ktrace_kernel_on (kernel_entry_now):
// the entry's own call may have started or stopped tracing.

static inline __attribute__((always_inline)) void entry_body(unsigned vector, const bool traced)
{
    unsigned kind = x86_entry_kind(vector);
    if (kind == KENTRY_FAULT && vector == 7 && x86_fpu_trap())
        return;             // #NM: the FPU is handed to this thread, which goes on
    if (traced)
        kernel_entry_traced(kind);
    else
        kernel_entry(kind);
    while (x86_more_work(&kind))
        kernel_entry_now(kind);
    // The thread about to run traps on its first FPU instruction unless the FPU holds its
    // registers already (fpu.c).
    bool fpu_not_ours = k_current != x86_fpu_owner;
    if (fpu_not_ours != x86_fpu_ts)
        x86_fpu_set_ts(fpu_not_ours);
}

void x86_kernel_entry(unsigned vector);
void x86_kernel_entry(unsigned vector)
{
    entry_body(vector, false);
}

void x86_kernel_entry_traced(unsigned vector);
void x86_kernel_entry_traced(unsigned vector)
{
    entry_body(vector, KTRACE_HOOKS);
}

// What entry.S calls (above). Written only here, under the kernel (one CPU; entries never nest).
void (*x86_entry_fn)(unsigned vector) = x86_kernel_entry;

void arch_trace_entry_select(bool traced)
{
    x86_entry_fn = traced ? x86_kernel_entry_traced : x86_kernel_entry;
}
