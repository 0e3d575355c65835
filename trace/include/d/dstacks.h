// SPDX-License-Identifier: MIT
// Stacks as D values (stack( ), ustack( ): docs/profiling.md). A stack is recorded, and keys
// aggregations, as one 8-byte id: the engine interns each distinct stack (its kind and pcs)
// once in a table in its own memory, so equal stacks have equal ids (as aggregation keys must)
// and a record stays small. Id 0 is the empty stack. The consumer, which sees the engine's
// memory, turns an id back into its pcs. A full table records 0 and counts a stack drop.
#ifndef D_DSTACKS_H
#define D_DSTACKS_H

#include <d/dvm.h>
#include <stdint.h>

#define DVM_STACK_MAXDEPTH 32u  /* frames one stack keeps (stack(n)/ustack(n) ask fewer); the
                                 * unwind buffers live on small kernel stacks */
#define DVM_STACKTAB_SIZE  16384u /* bytes of the table, when a program uses stacks */
enum { DVM_STACK_KERNEL = 0, DVM_STACK_USER = 1 };

/* dvm_stack_fn: the engine's host writes the stack of the firing's context, pc first, at most
 * max frames; returns the count. kind: DVM_STACK_KERNEL or DVM_STACK_USER. */
typedef unsigned (*dvm_stack_fn)(unsigned kind, uint64_t *pcs, unsigned max);
/* Set once by the engine's host (the kernel's unwinders; a capture replay's stack events);
 * NULL: every stack is empty. A global, as dvm_uread. */
extern dvm_stack_fn dvm_stack;

/* The firing's stack of `kind` cut to nframes, interned: its id (0: empty or no room). */
uint64_t dvm_stack_value(struct dvm_state *st, unsigned kind, unsigned nframes);
/* The firing's stack depth. */
unsigned dvm_stack_depth(unsigned kind);
/* The pcs of id (NULL for 0 or a bad id), their count and kind. */
const uint64_t *dvm_stack_get(const struct dvm_state *st, uint64_t id, unsigned *n,
                              unsigned *kind);

/* dvm_load's part: the table, in the engine's arena, when the program uses stacks; 0, or -1
 * when the arena has no room for it. */
struct d_arena;
int dvm_stacks_layout(struct dvm_state *st, struct d_arena *a);

#endif
