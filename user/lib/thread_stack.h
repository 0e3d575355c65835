// SPDX-License-Identifier: MIT
// Thread stacks for ThreadCreate (user/lib/thread_stack.c): which stacks keep a guard, and the
// ones the library allocates when a program gives none.
#ifndef USER_THREAD_STACK_H
#define USER_THREAD_STACK_H

#include <stdbool.h>
#include <stddef.h>

// True for a stack declared with KSTACK (kern.h): its guard at its bottom.
bool thread_stack_guarded(const void *stack);
// A stack of *size bytes (0: THREAD_STACK_DEFAULT) above a guard, from the heap: its base,
// *size its whole size then, *node what thread_stack_created takes; NULL when the heap has
// no room.
void *thread_stack_alloc(size_t *size, void **node);
// After ThreadCreate on an allocated stack: its thread's id, or the call's error (freed).
void thread_stack_created(void *node, int tid);
// Frees the allocated stacks whose threads have ended.
void thread_stack_reap(void);

#endif
