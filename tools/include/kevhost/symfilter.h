// SPDX-License-Identifier: MIT
// stacksym's rewriting of D's output, a line at a time (symfilter.c), for stacksym's standard
// input and dtrace -i's own output alike: a stack frame printed as its address (a line of
// spaces and 0x<hex>, as libdtrace prints a pc it cannot resolve) becomes
// module`function+0xoffset; D's symbolic-address tokens ("usym`0xc009a") are named as
// libdtrace names them, printa( ) rows keyed by one function merged (symaddr.c); with
// console set, a line naming "pc 0x..." (the kernel's fault report) gets the function and
// line appended. Folded: stack aggregations printed as folded stacks instead. Names come
// from tool_elfsym's files (the caller adds them, or tool_syms finds them by build id).
#ifndef STACKSYM_SYMFILTER_H
#define STACKSYM_SYMFILTER_H

#include <stdio.h>

#define SYMFILTER_MAX_FRAMES 128

struct symfilter {
    int with_lines;     // frames get " [file.c:27]"
    int folded;         // stack aggregations as folded stacks
    int console;        // "pc 0x..." lines are console lines to annotate
    int in_stack;       // the previous line was a frame
    unsigned nframes;   // the current stack's frames (folded), leaf first
    char frames[SYMFILTER_MAX_FRAMES][512];
};

// symfilter_line: one line of input (with or without its newline), rewritten to out.
void symfilter_line(struct symfilter *f, const char *line, FILE *out);
// symfilter_end: what is still held (printa rows being merged) written to out.
void symfilter_end(struct symfilter *f, FILE *out);

#endif
