// SPDX-License-Identifier: MIT
// Thread stacks as ThreadCreate takes them (kern.h, docs/applications.md "Thread stacks"): a
// stack the program gives is the thread's whole, unless it was declared with KSTACK, which puts
// it in the section .bss.kstack (between __kstack_start and __kstack_end, which every program
// linker script defines) and asks the kernel for the guard at its bottom (THREAD_GUARDED); with
// no stack, the library allocates one from the heap, a guard below it, and frees it once its
// thread has ended.
//
// The allocated stacks are a list whose node lies in each stack's own guard (bytes its thread
// may not touch, which the other threads may). Any thread pushes a node (a compare-and-swap);
// a reap takes the whole list at once, frees the stacks of threads that have ended (the kernel
// says ESRCH for them: kernel/kcall.c do_set_prio looks the thread up before it reads the
// priority, so a priority of 0 asks without changing anything) and pushes the others back. A
// reap runs at every ThreadCreate with no stack and every ThreadJoin. The heap is the C
// library's malloc, which, as for any of a program's threads, the program keeps to one thread
// at a time.
#include <kern.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "thread_stack.h"

extern char __kstack_start[], __kstack_end[];

struct stack_node {
    struct stack_node *next;
    void *mem;              // what malloc gave
    int tid;                // its thread (pushed once ThreadCreate returned it)
};

static struct stack_node *stacks;     // allocated stacks whose thread may still run on them

static void push(struct stack_node *n)
{
    struct stack_node *head = __atomic_load_n(&stacks, __ATOMIC_ACQUIRE);
    do
        n->next = head;
    while (!__atomic_compare_exchange_n(&stacks, &head, n, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
}

static bool ended(int tid)
{
    return KCALL3(KC_ThreadSetPrio, tid, 0, 0) == -ESRCH;
}

void thread_stack_reap(void)
{
    struct stack_node *n = __atomic_exchange_n(&stacks, NULL, __ATOMIC_ACQ_REL);
    while (n) {
        struct stack_node *next = n->next;
        if (ended(n->tid))
            free(n->mem);
        else
            push(n);
        n = next;
    }
}

bool thread_stack_guarded(const void *stack)
{
    return (const char *)stack >= __kstack_start && (const char *)stack < __kstack_end;
}

void *thread_stack_alloc(size_t *size, void **node)
{
    size_t want = *size ? *size : THREAD_STACK_DEFAULT;
    if (want > 0x1000000u)
        return NULL;
    thread_stack_reap();
    size_t whole = KSTACK_GUARD + ((want + 15u) & ~(size_t)15u);  // the size asked, above the guard
    void *mem = malloc(whole + KSTACK_GUARD - 1u);
    if (!mem)
        return NULL;
    uintptr_t base = ((uintptr_t)mem + KSTACK_GUARD - 1u) & ~(uintptr_t)(KSTACK_GUARD - 1u);
    struct stack_node *n = (struct stack_node *)base;      // in the guard
    n->mem = mem;
    n->tid = 0;
    *node = n;
    *size = whole;
    return (void *)base;
}

void thread_stack_created(void *node, int tid)
{
    struct stack_node *n = node;
    if (tid < 0) {
        free(n->mem);
        return;
    }
    n->tid = tid;
    push(n);
}
