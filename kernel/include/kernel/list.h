// SPDX-License-Identifier: MIT
// Intrusive circular doubly-linked lists. A node that is on no list points at itself, so
// list_unlink() of an unlinked node is harmless and list_linked() can tell.
#ifndef KERNEL_LIST_H
#define KERNEL_LIST_H

#include <stddef.h>

struct list {
    struct list *next, *prev;
};

#define LIST_INIT(name) { &(name), &(name) }
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member) container_of(ptr, type, member)

static inline void list_init(struct list *l) { l->next = l->prev = l; }
static inline int list_empty(const struct list *l) { return l->next == l; }
static inline int list_linked(const struct list *n) { return n->next != n; }

static inline void list_insert_before(struct list *pos, struct list *n)
{
    n->prev = pos->prev;
    n->next = pos;
    pos->prev->next = n;
    pos->prev = n;
}

static inline void list_push_back(struct list *l, struct list *n) { list_insert_before(l, n); }
static inline void list_push_front(struct list *l, struct list *n) { list_insert_before(l->next, n); }

static inline void list_unlink(struct list *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = n;
}

static inline struct list *list_pop_front(struct list *l)
{
    struct list *n = l->next;
    if (n == l)
        return NULL;
    list_unlink(n);
    return n;
}

#define list_for_each(pos, head) for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)
#define list_for_each_safe(pos, tmp, head) \
    for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head); (pos) = (tmp), (tmp) = (pos)->next)

#endif
