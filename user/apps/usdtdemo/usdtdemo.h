// SPDX-License-Identifier: MIT
// usdtdemo's two files: the is-enabled probe (costly.c) for the loop in usdtdemo.c.
#ifndef USDTDEMO_H
#define USDTDEMO_H

extern volatile unsigned passed_costly;
// demo:::costly with i and a digest of it, when a D program enables it
void costly(unsigned i);

#endif
