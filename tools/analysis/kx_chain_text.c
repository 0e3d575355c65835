// SPDX-License-Identifier: MIT
// The wait chains (kx_chain.c) as text: kevstat's "chains" section and the sentences kevstat and
// the deadlock lines print ("relay/client waited 7503.160 us: its send to relay/server, which
// waited 7501.120 us on mutex 1 held by relay/main"). Times are microseconds since boot.
#include <kevhost/kx_chain_text.h>
#include <kevhost/tool_append.h>

#include <stdlib.h>
#include <string.h>

static double us(const struct kx_stats *s, uint64_t cycles)
{
    return kx_seconds(s->r, cycles) * 1e6;
}

const char *kx_chain_thread(const struct kx_stats *s, int th, char *buf, size_t n)
{
    if (th < 0)
        snprintf(buf, n, "a thread not known");
    else
        kx_label(&s->m, th, buf, n);
    return buf;
}

const char *kx_chain_root_name(const struct kx_stats *s, int root, char *buf, size_t n)
{
    unsigned irq = KX_ROOT_IS_INPUT(root) ? KX_ROOT_IRQ(root) : 0;
    if (root >= 0)
        kx_label(&s->m, root, buf, n);
    else if (!KX_ROOT_IS_INPUT(root))
        snprintf(buf, n, "no thread known (a cycle, or a holder unknown)");
    else if (irq == KX_INPUT_OPEN - 1u)
        snprintf(buf, n, "input not come by the end of the trace");
    else if (irq == KX_ROOT_TICK || irq == KX_ROOT_TICK + 1u)
        snprintf(buf, n, "a timer (the tick)");
    else
        snprintf(buf, n, "interrupt %u", irq);
    return buf;
}

const char *kx_link_obj(const struct kx_stats *s, const struct kx_link *l, char *buf, size_t n)
{
    if (l->kind == KX_LINK_SEND || l->kind == KX_LINK_REPLY)
        snprintf(buf, n, "a message");
    else
        kx_wait_obj(s, l->obj, buf, n);
    return buf;
}

const char *kx_link_text(const struct kx_stats *s, const struct kx_link *l, char *buf, size_t n)
{
    char t[80], o[80];
    kx_chain_thread(s, l->to, t, sizeof(t));
    switch (l->kind) {
    case KX_LINK_SEND: case KX_LINK_REPLY:
        if (l->to < 0)
            snprintf(buf, n, "on its send to process %u (not received)", l->pid);
        else
            snprintf(buf, n, "on its send to %s%s", t,
                     l->kind == KX_LINK_SEND ? " (not received)" : "");
        break;
    case KX_LINK_MUTEX:
        snprintf(buf, n, "on %s held by %s", kx_wait_obj(s, l->obj, o, sizeof(o)), t);
        break;
    case KX_LINK_SEM:
        snprintf(buf, n, "on %s %s %s", kx_wait_obj(s, l->obj, o, sizeof(o)),
                 l->given ? "posted by" : "taken by", t);
        break;
    default:
        snprintf(buf, n, "on %s %s %s", kx_wait_obj(s, l->obj, o, sizeof(o)),
                 l->to < 0 ? "(signaller unknown):" : "signalled by", l->to < 0 ? "" : t);
        break;
    }
    return buf;
}

const char *kx_cwait_text(const struct kx_stats *s, const struct kx_cwait *w, uint64_t len,
                          char *buf, size_t n)
{
    const struct kx_wlink *p[KX_CHAIN_MAX];
    unsigned np = kx_cwait_path(w, p, KX_CHAIN_MAX);
    char a[80], l[200];
    size_t at = 0;
    buf[0] = 0;
    tool_append(buf, n, &at, "%s", kx_chain_thread(s, w->th, a, sizeof(a)));
    if (w->prio >= 0) // its priority then, an inherited one included
        tool_append(buf, n, &at, " (prio %d)", w->prio);
    tool_append(buf, n, &at, " waited %.3f us%s", us(s, len), w->t1 ? "" : " (still at the end)");
    for (unsigned i = 0; i < np; i++) {
        kx_link_text(s, &p[i]->l, l, sizeof(l));
        if (!i)
            tool_append(buf, n, &at, ": %s", strncmp(l, "on its ", 7) ? l : l + 3);
        else
            tool_append(buf, n, &at, ", which waited %.3f us %s", us(s, p[i]->t), l);
    }
    tool_append(buf, n, &at, "%s; attributed to ", w->cycle ? " (a deadlock cycle)" : "");
    for (unsigned i = 0; i < w->nroot; i++) {
        tool_append(buf, n, &at, "%s%s %.3f us", i ? ", " : "",
            kx_chain_root_name(s, w->root[i].th, a, sizeof(a)), us(s, w->root[i].t));
        if (w->root[i].wake) // (woken, not yet running: across CPUs the IPI and the answer)
            tool_append(buf, n, &at, " (of it waking %.3f us: its wake-up's latency)",
                us(s, w->root[i].wake));
    }
    if (w->root_other)
        tool_append(buf, n, &at, ", other threads %.3f us", us(s, w->root_other));
    return buf;
}

const char *kx_chain_line(const struct kx_stats *s, const struct kx_chain *c, char *buf, size_t n)
{
    char a[80], o[80];
    size_t at = 0;
    buf[0] = 0;
    tool_append(buf, n, &at, "%s", kx_chain_thread(s, c->th[0], a, sizeof(a)));
    for (unsigned i = 0; i < c->n; i++) {
        const struct kx_link *l = &c->link[i];
        if (l->kind == KX_LINK_SEND || l->kind == KX_LINK_REPLY)
            snprintf(o, sizeof(o), "%s", kx_link_name(l->kind));
        else
            kx_wait_obj(s, l->obj, o, sizeof(o));
        tool_append(buf, n, &at, " -[%s]-> %s", o, c->th[i + 1] >= 0
                                             ? kx_label(&s->m, c->th[i + 1], a, sizeof(a)) : "?");
    }
    if (c->end == KX_END_INPUT)
        tool_append(buf, n, &at, " <- %s", kx_chain_root_name(s, kx_chain_root(c), a, sizeof(a)));
    else if (c->end == KX_END_CYCLE)
        tool_append(buf, n, &at, " (a cycle)");
    else if (c->end == KX_END_CUT)
        tool_append(buf, n, &at, " ... (cut)");
    return buf;
}

int kx_cwaiter_listed(const struct kx_stats *s, int th)
{
    const struct kx_cwaiter *x = s->chains ? s->chains->waiter[th] : NULL;
    return x && x->worst_len >= kx_wait_threshold(s, th);
}

void kx_chain_print(const struct kx_stats *s)
{
    const struct kx_chains *c = s->chains;
    char a[120], b[1024];
    printf("== Wait chains: each wait on another thread followed to its root (a send to its "
           "receiver, a mutex to its owner ..., to a thread waiting on no thread) ==\n");
    if (!c) {
        printf("  (not computed: out of memory)\n");
        return;
    }
    unsigned listed = 0, under = 0;
    for (unsigned i = 0; i < s->m.nth; i++)
        if (c->waiter[i])
            kx_cwaiter_listed(s, (int)i) ? listed++ : under++;
    printf("  %s %8s %12s %12s  %s\n", "waiter                          ", "waits", "total us",
           "worst us", "attributed to (the roots of its chains)");
    for (unsigned i = 0; i < s->m.nth; i++) {
        const struct kx_cwaiter *x = c->waiter[i];
        if (!x || !kx_cwaiter_listed(s, (int)i))
            continue;
        printf("  %-32s %8llu %12.3f %12.3f  ", kx_label(&s->m, (int)i, a, sizeof(a)),
               (unsigned long long)x->count, us(s, x->total), us(s, x->worst_len));
        unsigned k = 0;
        for (size_t j = 0; j < c->npair; j++)
            if (c->pair[j].waiter == (int)i && c->pair[j].t)
                printf("%s%s %.3f us", k++ ? ", " : "",
                       kx_chain_root_name(s, c->pair[j].root, a, sizeof(a)),
                       us(s, c->pair[j].t));
        printf("\n");
    }
    for (unsigned i = 0; i < s->m.nth; i++) {
        const struct kx_cwaiter *x = c->waiter[i];
        if (x && kx_cwaiter_listed(s, (int)i))
            printf("  worst at %.3f us: %s\n", us(s, x->worst.t0),
                   kx_cwait_text(s, &x->worst, x->worst_len, b, sizeof(b)));
    }
    if (under)
        printf("  (%u waiters whose every wait was under their threshold not listed)\n", under);
    if (c->pair_lost || c->oom)
        printf("  (out of memory: %.3f us not attributed, %llu waits not followed)\n",
               us(s, c->pair_lost), (unsigned long long)c->oom);
}

void kx_deadlock_print(const struct kx_stats *s)
{
    const struct kx_chains *c = s->chains;
    char a[120], l[200];
    unsigned n = c ? c->ndl : 0;
    printf("== Deadlocks: %u ==\n", n);
    for (unsigned i = 0; i < n; i++) {
        const struct kx_deadlock *d = &c->dl[i];
        printf("  DEADLOCK at %.3f us: ", us(s, d->t));
        for (unsigned j = 0; j < d->n; j++) {
            struct kx_link k = d->link[j];
            k.to = d->th[(j + 1) % d->n];
            kx_link_text(s, &k, l, sizeof(l));
            printf("%s waits %s", j ? ", which" : kx_label(&s->m, d->th[j], a, sizeof(a)), l);
        }
        if (d->broken_t)
            printf("; broken at %.3f us (a wait ended: a timeout or a kill)\n",
                   us(s, d->broken_t));
        else
            printf("; still blocked at the end of the trace (%.3f us)\n", us(s, s->t_last));
    }
    if (c && c->dl_dropped)
        printf("  (%llu more cycles not kept)\n", (unsigned long long)c->dl_dropped);
}
