// SPDX-License-Identifier: MIT
// usdtdemo's files: the is-enabled probe (costly.c) for the loop in usdtdemo.c, its run on
// every CPU at once (smp.c) and A64's function openings (shapes.c).
#ifndef USDTDEMO_H
#define USDTDEMO_H

extern volatile unsigned passed_costly;
// demo:::costly with i and a digest of it, when a D program enables it
void costly(unsigned i);
// step_plain(i, acc): acc + 3i, and a count of its calls (usdtdemo.c)
unsigned step_plain(unsigned i, unsigned acc);
// "usdtdemo smp MS": a thread on each CPU calls step_plain for MS milliseconds (smp.c)
int smp_run(unsigned ms);
// "usdtdemo shapes": A64's pid-entry instructions, a function each (shapes.c)
int shapes_run(void);

#endif
