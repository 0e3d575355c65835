// SPDX-License-Identifier: MIT
// The bait of usdt_bait.h: constants equal to the site unit's no-op and trap, a wide
// instruction with a unit inside it equal to the no-op (Thumb: ldr.w r11, [rN, #3840] is
// f8dN bf00; i386: movl $0x90, %eax is b8 90 00 00 00; A64 has none: its instructions are
// one aligned unit each), a .data variable, and the bait:::mark site with its semaphore.
#define USDT_SEMAPHORES
#include <usdt.h>
#include "usdt_bait.h"
#include <d/dusdt_note.h>
#include <kern.h>
#include <stdio.h>

USDT_SEMAPHORE(bait, mark);

// (const, not const volatile, which gcc puts in .data: read through volatile loads instead)
__attribute__((used)) const bait_unit_t bait_nop = BAIT_NOP;
__attribute__((used)) const bait_unit_t bait_trap = BAIT_TRAP;
#define LOOK(x) (*(const volatile bait_unit_t *)&(x))
__attribute__((used)) volatile unsigned short bait_data = BAIT_DATA;
__attribute__((used)) static const uint32_t wide_word = 0x5a5a1234u;     // what wide( ) loads
static unsigned looks, wrong, marks, marks_enabled;

extern char __usdt_notes[], __usdt_notes_end[];     // (the linker scripts)

#if defined(__thumb__)
extern const uint16_t bait_wide_unit[];
#define WIDE_RESULT wide_word
// ldr.w r11, [rN, #3840] with rN + 3840 = &wide_word; bait_wide_unit: its second halfword
__attribute__((noinline)) static uint32_t wide(void)
{
    uint32_t v;
    __asm__ volatile(".global bait_wide_unit\n"
                     "ldr.w r11, [%1, #3840]\n"
                     ".set bait_wide_unit, . - 2\n"
                     "mov %0, r11"
                     : "=r"(v) : "r"((uintptr_t)&wide_word - 3840u) : "r11", "memory");
    return v;
}
#elif defined(__i386__)
extern const uint8_t bait_wide_unit[];
#define WIDE_RESULT 0x90u
// movl $0x90, %eax; bait_wide_unit: its second byte, the immediate's first
__attribute__((noinline)) static uint32_t wide(void)
{
    uint32_t v;
    __asm__ volatile(".global bait_wide_unit\n"
                     "movl $0x90, %%eax\n"
                     ".set bait_wide_unit, . - 4\n"
                     "movl %%eax, %0"
                     : "=r"(v) : : "eax");
    return v;
}
#else
#define WIDE_RESULT wide_word
__attribute__((noinline)) static uint32_t wide(void)
{
    return *(const volatile uint32_t *)&wide_word;
}
#endif

unsigned bait_look(void)
{
    looks++;
    if (LOOK(bait_nop) != BAIT_NOP || LOOK(bait_trap) != BAIT_TRAP || bait_data != BAIT_DATA ||
        wide() != WIDE_RESULT)
        wrong++;
    return wrong;
}

void bait_mark(unsigned i)
{
    marks++;
    if (USDT_ENABLED(bait, mark)) {
        marks_enabled++;
        USDT(bait, mark, i);
    }
}

// The units at the program's own sites, from its loaded notes, appended to line.
static void sites(char *line, size_t size)
{
    const uint8_t *notes = (const uint8_t *)__usdt_notes;
    uint32_t n = (uint32_t)(__usdt_notes_end - __usdt_notes), off = 0;
    struct dusdt_note note;
    size_t at = 0;
    while (at < size && dusdt_note_next(notes, n, sizeof(uintptr_t), &off, &note) > 0) {
        bait_unit_t u = *(const volatile bait_unit_t *)(uintptr_t)note.pc;
        at += (size_t)snprintf(line + at, size - at, ", site %s:%s %x", note.prov, note.name,
                               (unsigned)u);
    }
}

unsigned bait_report(const char *who, const char *when)
{
    static char at_sites[96];
    bait_look();
    at_sites[0] = 0;
    sites(at_sites, sizeof(at_sites));
#if defined(__thumb__) || defined(__i386__)
    unsigned unit = bait_wide_unit[0];
#else
    unsigned unit = 0;
#endif
    printf("%s: pid %d %s: nop-constant %x, trap-constant %x, wide unit %x result %x, data %u, "
           "looks %u wrong %u, marks %u enabled %u%s\n", who, ProcSelf(), when,
           (unsigned)LOOK(bait_nop), (unsigned)LOOK(bait_trap), unit, (unsigned)wide(),
           (unsigned)bait_data, looks, wrong, marks, marks_enabled, at_sites);
    return wrong;
}
