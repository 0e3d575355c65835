// SPDX-License-Identifier: MIT
// What a USDT consumer must not be able to write in a program (docs/usdt.md, "Who may";
// test/qemu/test_usdt_perm.sh), and one real USDT site with a semaphore, linked into usdtpeer
// and pidself: each program reads its own copies and says whether they are still what it was
// built with. The test names these symbols (nm) in changed notes.
#ifndef USDT_BAIT_H
#define USDT_BAIT_H

#include <stdint.h>

// The site unit's instructions (kernel/arch/*/include/arch_usdt.h: sys/sdt.h's no-op and the
// kernel's trap over it), as constants in the program's read-only data.
#if defined(__thumb__)
typedef uint16_t bait_unit_t;
#define BAIT_NOP  0xbf00u
#define BAIT_TRAP 0xdefcu
#elif defined(__aarch64__)
typedef uint32_t bait_unit_t;
#define BAIT_NOP  0xd503201fu
#define BAIT_TRAP 0xd4201f80u
#elif defined(__i386__)
typedef uint8_t bait_unit_t;
#define BAIT_NOP  0x90u
#define BAIT_TRAP 0xccu
#else
#error "usdt_bait.h: no site unit for this architecture"
#endif
#define BAIT_DATA 1000u     // bait_data's value, a .data variable of a semaphore's size

// One look at everything, counted: the number of looks that found something changed so far.
unsigned bait_look(void);
// The bait:::mark site, under its semaphore: passes counted, and those the semaphore let in.
void bait_mark(unsigned i);
// Prints one line, "WHO: pid P WHEN: ...": the constants, the unit inside the wide
// instruction, the wide instruction's result, bait_data, the looks and wrong looks so far,
// bait:::mark's passes (enabled ones), and the unit at each site the program's own loaded notes
// name (read from its text). Returns the wrong looks so far.
unsigned bait_report(const char *who, const char *when);

#endif
