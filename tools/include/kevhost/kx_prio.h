// SPDX-License-Identifier: MIT
// Why a thread's priority changed: the one rule every tool uses to read a PRIO_CHANGE event
// [who, new | old << 8 | cause << 16] (docs/trace-events.md) and to count "boosted". The kernel
// records the cause (KEV_PRIO_*); the direction comes from the old and new priorities. A
// boost is a rise by mutex priority inheritance only: a server taking its client's priority
// (QNX message inheritance) is counted apart, up and down, and so is the program's own change.
#ifndef TOOLS_KX_PRIO_H
#define TOOLS_KX_PRIO_H

#include <stdint.h>

enum kx_prio_kind {
    KX_PRIO_START,       // the START snapshot, thread creation
    KX_PRIO_OWN,         // the program's own change (ThreadSetPrio, SchedSet)
    KX_PRIO_BOOST,       // raised by mutex priority inheritance (an owner above its own)
    KX_PRIO_BOOST_LESS,  // still inheriting, lowered (its highest waiter left or was lowered)
    KX_PRIO_INH_END,     // inheritance ended: back to its own priority
    KX_PRIO_MSG_UP,      // a server raised to its client's (or a pulse's) priority
    KX_PRIO_MSG_DOWN,    // a server lowered to its client's (or a pulse's) priority
    KX_PRIO_CEILING,     // a priority ceiling
    KX_PRIO_UNKNOWN,     // a cause this reader does not know
    KX_PRIO_NKINDS
};

// The kind of a PRIO_CHANGE from its fields new_prio, old_prio and cause.
enum kx_prio_kind kx_prio_kind(unsigned now, unsigned was, unsigned cause);
// "boost", "message inheritance up", ... (also kevsql's prio_change.kind)
const char *kx_prio_kind_name(enum kx_prio_kind kind);
// The one rule for "boosted": a rise by mutex priority inheritance.
static inline int kx_prio_is_boost(enum kx_prio_kind kind) { return kind == KX_PRIO_BOOST; }

#endif
