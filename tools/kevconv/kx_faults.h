// SPDX-License-Identifier: MIT
// kevstat's faults section: every SYSTEM FAULT of a capture with the STACK that follows it
// (docs/trace-events.md "Stacks and faults"), printed so that stacksym names them: the pc on
// a "pc 0x..." line, the frames one a line as dtrace prints a stack.
#ifndef KX_FAULTS_H
#define KX_FAULTS_H

#include "../analysis/kx_stats.h"

// Fed every event in time order (kevstat's callback).
void kx_faults_event(const struct kev_event *e);
// The "== Faults ==" section.
void kx_faults_print(const struct kx_stats *s);

#endif
