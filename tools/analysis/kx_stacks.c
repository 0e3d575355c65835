// SPDX-License-Identifier: MIT
// A capture's stack samples (kx_stacks.h): distinct stacks in a hash table by their process,
// kind and pcs; samples in time order as the decoder delivers them.
#include <kevhost/kx_stacks.h>
#include <kevhost/tool_grow.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/kx_ids.h>
#include <kevhost/tool_elfsym.h>

void kx_stacks_init(struct kx_stacks *k)
{
    memset(k, 0, sizeof(*k));
}

int kx_stacks_said(const char *tool, const struct kx_stacks *k, int oom)
{
    if (oom)
        fprintf(stderr, "%s: out of memory: stack samples are missing\n", tool);
    if (k->bad)
        fprintf(stderr, "%s: %llu malformed STACK events left out\n", tool,
                (unsigned long long)k->bad);
    return oom != 0;
}

void kx_stacks_free(struct kx_stacks *k)
{
    free(k->stacks);
    free(k->samples);
    memset(k, 0, sizeof(*k));
}

static uint32_t stack_hash(const char *comm, const struct kev_stack *s)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *c = comm; *c; c++)
        h = (h ^ (uint8_t)*c) * 1099511628211ull;
    h = (h ^ s->kind) * 1099511628211ull;
    for (unsigned i = 0; i < s->depth; i++)
        h = (h ^ s->pcs[i]) * 1099511628211ull;
    return (uint32_t)(h ^ h >> 32) & (KX_STACK_HASH - 1);
}

static int same(const struct kx_stack *a, const char *comm, const struct kev_stack *s)
{
    return a->s.kind == s->kind && a->s.depth == s->depth && !strcmp(a->comm, comm) &&
           !memcmp(a->s.pcs, s->pcs, s->depth * sizeof(s->pcs[0]));
}


int kx_stacks_event(struct kx_stacks *k, struct kx_model *m, const struct kev_event *e)
{
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_STACK)
        return 0;
    struct kev_stack s;
    if (kev_stack_decode(e->w, e->nw, &s) != 0) {
        k->bad++;
        return 0;
    }
    if (s.kind == KEV_STACK_FAULT) {
        k->faults++;
        return 0;
    }
    char comm[KEV_NAME_MAX] = "kernel";
    int idx = kx_thread(m, s.pid, s.tid);
    if (s.pid) {
        if (idx != KX_NO_THREAD && m->th[idx].comm[0])
            snprintf(comm, sizeof(comm), "%s", m->th[idx].comm);
        else
            snprintf(comm, sizeof(comm), "pid %u", s.pid);
    }
    uint32_t h = stack_hash(comm, &s);
    int i = k->hash[h] - 1;
    while (i >= 0 && !same(&k->stacks[i], comm, &s))
        i = k->stacks[i].next;
    if (i < 0) {
        if (tool_grow(&k->stacks, &k->capstacks, k->nstacks + 1, sizeof(*k->stacks), 256))
            return -1;
        i = (int)k->nstacks++;
        struct kx_stack *st = &k->stacks[i];
        st->s = s;
        snprintf(st->comm, sizeof(st->comm), "%s", comm);
        st->count = 0;
        st->next = k->hash[h] - 1;
        k->hash[h] = i + 1;
    }
    k->stacks[i].count++;
    if (tool_grow(&k->samples, &k->capsamples, k->nsamples + 1, sizeof(*k->samples), 256))
        return -1;
    k->samples[k->nsamples++] = (struct kx_sample){ e->t64, e->cpu, s.pid, s.tid, kx_lpid(m, idx),
                                                    kx_ltid(m, idx), (unsigned)i };
    return 1;
}

void kx_stacks_frame(const struct kx_stack *st, unsigned i, char *out, size_t n)
{
    char full[512];
    if (elfsym_frame(st->s.pcs[i], i > 0, 0, full, sizeof(full), out, n) != 0)
        snprintf(out, n, "0x%" PRIx64, st->s.pcs[i]);
}

struct folded_line {
    char *text;
    uint64_t count;
};

static int by_text(const void *a, const void *b)
{
    return strcmp(((const struct folded_line *)a)->text, ((const struct folded_line *)b)->text);
}

int kx_stacks_folded(const struct kx_stacks *k, FILE *f)
{
    // stacks that differ only in pcs within the same functions name the same frames: one
    // line each, their counts added (sorted by text, as flamegraph.pl sorts them)
    struct folded_line *lines = calloc(k->nstacks ? k->nstacks : 1, sizeof(*lines));
    if (!lines)
        return -1;
    int rc = 0;
    for (size_t j = 0; j < k->nstacks && !rc; j++) {
        const struct kx_stack *st = &k->stacks[j];
        size_t cap = 64 + (size_t)st->s.depth * 257, len;
        char *t = malloc(cap);
        if (!t) {
            rc = -1;
            break;
        }
        len = (size_t)snprintf(t, cap, "%s", st->comm);
        for (unsigned i = st->s.depth; i-- > 0;) {
            char name[256];
            kx_stacks_frame(st, i, name, sizeof(name));
            len += (size_t)snprintf(t + len, cap - len, ";%s", name);
        }
        lines[j] = (struct folded_line){ t, st->count };
    }
    if (!rc) {
        qsort(lines, k->nstacks, sizeof(*lines), by_text);
        for (size_t j = 0; j < k->nstacks; j++) {
            uint64_t c = lines[j].count;
            while (j + 1 < k->nstacks && !strcmp(lines[j].text, lines[j + 1].text))
                c += lines[++j].count;
            fprintf(f, "%s %" PRIu64 "\n", lines[j].text, c);
        }
    }
    for (size_t j = 0; j < k->nstacks; j++)
        free(lines[j].text);
    free(lines);
    return rc;
}
