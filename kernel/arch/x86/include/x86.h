// SPDX-License-Identifier: MIT
// x86 definitions shared by the arch layer and the PC board: segment selectors, port I/O,
// the trap-frame offsets entry.S uses, and the arch-internal entry points.
#ifndef X86_H
#define X86_H

#define SEL_KCODE 0x08
#define SEL_KDATA 0x10
#define SEL_UCODE 0x1b      // ring 3, limit = end of code memory (RAM is never executable)
#define SEL_UDATA 0x23      // ring 3, flat; the kernel uses it for ds/es/fs/gs too
#define SEL_TSS   0x28

#define VEC_IRQ0   0x20     // the 8259s are remapped to 0x20-0x2f
#define VEC_PROF   0x30     // the local APIC's timer: the profile timer (lapic.c)
#define VEC_KCALL  0x80     // the kernel-call trap gate (DPL 3)
#define VEC_BP     3        // #BP: int3 (DPL 3: USDT sites in programs; fbt in the kernel)
#define VEC_APIC_SPURIOUS 0xff  // the local APIC's spurious vector (no EOI)
#define X86_APIC_BASE 0xfee00000u   // the local APIC's registers (its reset base)

// Offsets in struct arch_context (arch_context.h).
#define X86_CTX_EAX    28
#define X86_CTX_VECTOR 32
#define X86_CTX_CS     44
#define X86_CTX_ESP    52
#define X86_CTX_WORDS  15

#ifndef __ASSEMBLER__
#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline uint64_t x86_rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

struct arch_context;
// The TSS (cpu.c): only esp0/ss0 (the kernel stack for entries from ring 3) and the I/O
// permission bitmap (ports 0-0x3ff; the rest lies past the limit, so is always denied, set
// for the process that runs: paging.c) are used.
#define X86_IOMAP_PORTS 0x400
struct x86_tss {
    uint32_t link, esp0, ss0, unused[22];
    uint16_t trap, iomap_base;
    uint8_t iomap[X86_IOMAP_PORTS / 8 + 1];
} __attribute__((packed));
extern struct x86_tss x86_tss;
// cpu.c
_Noreturn void x86_boot(uint32_t magic, uint32_t mbi);
const char *x86_boot_cmdline(void);
// The longest Multiboot command line the kernel keeps (after the kernel's name); a longer one
// is refused, never cut (cpu.c).
#define X86_BOOT_CMDLINE_MAX 2047
size_t x86_boot_cmdline_over(void);
unsigned x86_boot_files_refused(void);
// entry.S
extern uint8_t x86_kstack_top[];
_Noreturn void x86_start_boot_thread(uint32_t stack_top);
// pic_pit.c: the entry classification and the work left at the end of a kernel entry.
void x86_pic_init(void);
unsigned x86_entry_kind(unsigned vector);
bool x86_more_work(unsigned *kind);
// fault.c
extern uint32_t x86_fault_cr2;
_Noreturn void x86_kernel_fault(const struct arch_context *f);
// paging.c
void x86_paging_init(void);
// lapic.c: the profile timer (kernel/ptimer.h)
void x86_lapic_init(void);
void x86_lapic_eoi(void);
bool x86_lapic_timer_due(void);
// fpu.c: x87/SSE state per thread, switched lazily (CR0.TS and #NM)
struct thread;
extern struct thread *x86_fpu_owner;   // whose registers the FPU holds (NULL: nobody's)
extern bool x86_fpu_ts;                 // CR0.TS as last written
void x86_fpu_init(void);
void x86_fpu_new_thread(struct thread *t);
bool x86_fpu_trap(void);
void x86_fpu_set_ts(bool on);
#endif

#endif
