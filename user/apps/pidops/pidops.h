// SPDX-License-Identifier: MIT
// pidops's split: pidops.c (portable) runs the rounds and counts what is wrong; the arch's
// pidops_arch.c (user/arch/<arch>/) holds one function opening with each instruction its
// d/dpid_*.h lists, written in assembly, and calls each once a round with its expected result.
#ifndef PIDOPS_H
#define PIDOPS_H

// pidops.c: one result of one function, against what the instruction must have left.
void pidops_expect(const char *what, unsigned got, unsigned want);

// The arch's file: calls each of its functions once, on the arguments of round i (i from
// 1), and hands each result to pidops_expect; on round 1 it prints one line of what it
// measured.
void pidops_round(int i);

// The arch's file: runs, probed, a displaced instruction the kernel must refuse when the thread
// reaches it (the thread keeps its fault: the kernel kills it). Does not return when probed.
void pidops_bad(void);

#endif
