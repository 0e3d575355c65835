// SPDX-License-Identifier: MIT
// kevtop's output (top_print.c): a frame's head lines and thread lines as text, or the frame
// as one JSON line.
#ifndef KEVTOP_TOP_PRINT_H
#define KEVTOP_TOP_PRINT_H

#include <stdio.h>
#include "top.h"

enum top_sort { TOP_SORT_CPU, TOP_SORT_KCALLS, TOP_SORT_MSGS, TOP_SORT_INTS, TOP_SORT_WAIT,
                TOP_SORT_PRIO, TOP_SORT_NAME };

// The frame's worst wait in a sentence (while the frame's model is valid).
void top_wait_text(const struct top_frame *f, char *buf, size_t n);
void top_sort_rows(struct top_row *rows, unsigned n, enum top_sort key);
// The lines above the threads: "kevtop: T0-T1 s of trace time ...", the loss line, the
// interrupts and the worst wait, the column names. board: the capture's board, or NULL.
void top_print_head(FILE *o, const struct top_frame *f, const char *wait, const char *board);
void top_print_row(FILE *o, const struct top_frame *f, const struct top_row *r);
void top_print_json(FILE *o, const struct top_frame *f, const struct top_row *rows, unsigned n,
                    const char *wait);

#endif
