// SPDX-License-Identifier: MIT
// usdtdemo's files: the is-enabled probe (costly.c) for the loop in usdtdemo.c, its run on
// every CPU at once (smp.c) and A64's function openings (shapes.c).
#ifndef USDTDEMO_H
#define USDTDEMO_H

#include <stdint.h>

extern volatile unsigned passed_costly;
// demo:::costly with i and a digest of it, when a D program enables it
void costly(unsigned i);
// step_plain(i, acc): acc + 3i, and a count of its calls (usdtdemo.c)
unsigned step_plain(unsigned i, unsigned acc);
// "usdtdemo smp MS WORD": a thread on each CPU calls step_plain while pid probes are placed
// on it and removed, for at most MS milliseconds; WORD its first word in the ELF file (smp.c)
int smp_run(unsigned ms, uint32_t text_word);
// "usdtdemo shapes": A64's pid-entry instructions, a function each (shapes.c)
int shapes_run(void);

#endif
