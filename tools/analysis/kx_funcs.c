// SPDX-License-Identifier: MIT
// Function calls paired from fbt's and pid's FUNC_ENTER and FUNC_EXIT events (kx_funcs.h): a
// stack of open calls per CPU for the kernel's, per thread for programs', a table of
// functions by address, and where each process's image lies (IMAGE events).
#include <kevhost/kx_funcs.h>
#include <kevhost/kx.h>
#include <kevhost/kx_fields.h>

#include <trace/kev_image.h>

#include <stdlib.h>
#include <string.h>

struct open_call {
    uint64_t fn, t0, id;
    int th;
    int user;
};

struct call_stack {
    struct open_call c[KX_FUNC_DEPTH];
    unsigned n;
};

#define MAX_IMAGES 256u

struct kx_funcs {
    struct call_stack *stack[KEV_MAX_CPUS];        // the kernel's, by CPU
    struct call_stack *tstack[KX_MAX_THREADS + 1u]; // programs', by thread (last: none known)
    struct { uint32_t pid, base; } image[MAX_IMAGES]; // each image's first byte (pid 0: kernel)
    unsigned nimage;
    struct kx_func_stats *fn;
    unsigned nfn, cap;
    int32_t *hash;                                 // function index + 1, 0 empty; 2 * cap slots
    uint64_t dropped;                              // events with no room to count them
    uint64_t unpaired;                             // entries that ended with no return seen
    uint64_t next_id;
};

struct kx_funcs *kx_funcs_new(void)
{
    return calloc(1, sizeof(struct kx_funcs));
}

void kx_funcs_free(struct kx_funcs *f)
{
    if (!f)
        return;
    for (unsigned i = 0; i < KEV_MAX_CPUS; i++)
        free(f->stack[i]);
    for (unsigned i = 0; i <= KX_MAX_THREADS; i++)
        free(f->tstack[i]);
    free(f->fn);
    free(f->hash);
    free(f);
}

static unsigned slot_of(uint64_t fn, unsigned nslots)
{
    return (unsigned)((fn * 0x9e3779b97f4a7c15ull) >> 32) & (nslots - 1u);
}

// The function's entry in the table, added when new; NULL when there is no room.
static struct kx_func_stats *func(struct kx_funcs *f, uint64_t fn)
{
    if (f->cap) {
        for (unsigned h = slot_of(fn, 2u * f->cap); f->hash[h]; h = (h + 1u) & (2u * f->cap - 1u))
            if (f->fn[f->hash[h] - 1].fn == fn)
                return &f->fn[f->hash[h] - 1];
    }
    if (f->nfn == f->cap) { // grow: twice the room, the hash rebuilt
        unsigned cap = f->cap ? 2u * f->cap : 64u;
        struct kx_func_stats *t = realloc(f->fn, cap * sizeof(*t));
        int32_t *h = calloc(2u * cap, sizeof(*h));
        if (!t || !h) {
            if (t)
                f->fn = t;
            free(h);
            return NULL;
        }
        f->fn = t;
        free(f->hash);
        f->hash = h;
        f->cap = cap;
        for (unsigned i = 0; i < f->nfn; i++) {
            unsigned s = slot_of(f->fn[i].fn, 2u * cap);
            while (h[s])
                s = (s + 1u) & (2u * cap - 1u);
            h[s] = (int32_t)i + 1;
        }
    }
    unsigned s = slot_of(fn, 2u * f->cap);
    while (f->hash[s])
        s = (s + 1u) & (2u * f->cap - 1u);
    f->fn[f->nfn] = (struct kx_func_stats){ .fn = fn };
    f->hash[s] = (int32_t)++f->nfn;
    return &f->fn[f->nfn - 1];
}

static struct call_stack *stack_of(struct kx_funcs *f, unsigned cpu)
{
    if (cpu >= KEV_MAX_CPUS)
        return NULL;
    if (!f->stack[cpu])
        f->stack[cpu] = calloc(1, sizeof(struct call_stack));
    return f->stack[cpu];
}

static struct call_stack *thread_stack(struct kx_funcs *f, int th)
{
    unsigned i = th >= 0 && (unsigned)th < KX_MAX_THREADS ? (unsigned)th : KX_MAX_THREADS;
    if (!f->tstack[i])
        f->tstack[i] = calloc(1, sizeof(struct call_stack));
    return f->tstack[i];
}

void kx_funcs_image(struct kx_funcs *f, const struct kev_reader *r, const struct kev_event *e)
{
    struct kev_image im;
    if (!f || kev_image_decode(r, e, &im) != 0)
        return;
    for (unsigned i = 0; i < f->nimage; i++)
        if (f->image[i].pid == im.pid) {
            f->image[i].base = im.base;
            return;
        }
    if (f->nimage < MAX_IMAGES)
        f->image[f->nimage].pid = im.pid, f->image[f->nimage++].base = im.base;
}

// Whether fn is a function of process pid's program: at or above its image's first byte and
// below the next image's (a program's or the kernel's) above it.
static int in_program(const struct kx_funcs *f, uint32_t pid, uint64_t fn)
{
    uint64_t base = UINT64_MAX, next = UINT64_MAX;
    for (unsigned i = 0; i < f->nimage; i++)
        if (pid && f->image[i].pid == pid)
            base = f->image[i].base;
    if (base == UINT64_MAX || fn < base)
        return 0;
    for (unsigned i = 0; i < f->nimage; i++)
        if (f->image[i].base > base && f->image[i].base < next)
            next = f->image[i].base;
    return fn < next;
}

// The open calls from the stack's entry `from` up end with no return recorded: counted, and
// each a row without an end (t1 0), so a call made in one still has its parent among the rows.
static void end_unpaired(struct kx_funcs *f, struct call_stack *st, unsigned cpu, unsigned from,
                         const struct kx_sink *k)
{
    for (unsigned j = st->n; j-- > from;) {
        f->unpaired++;
        if (k && k->func) {
            struct kx_func_row r = {
                .id = st->c[j].id, .parent = j ? st->c[j - 1].id : 0, .t0 = st->c[j].t0,
                .th = st->c[j].th, .cpu = cpu, .fn = st->c[j].fn, .depth = j,
                .user = st->c[j].user,
            };
            k->func(k->user, &r);
        }
    }
    st->n = from;
}

void kx_funcs_event(struct kx_funcs *f, const struct kev_event *e, int th, uint32_t pid,
                    const struct kx_sink *k)
{
    if (e->cls != KEV_C_SYSTEM || e->nw < 2 ||
        (e->ev != KEV_SYS_FUNC_ENTER && e->ev != KEV_SYS_FUNC_EXIT))
        return;
    const struct kx_fields *kf = kx_fields();
    unsigned x = e->ev == KEV_SYS_FUNC_EXIT;
    uint64_t fn = kev_field(e, kf->func_fn[x]);
    struct kx_func_stats *s = func(f, fn);
    int user = in_program(f, pid, fn);
    struct call_stack *st = user ? thread_stack(f, th) : stack_of(f, e->cpu);
    if (!s || !st) {
        f->dropped++;
        return;
    }
    if (e->ev == KEV_SYS_FUNC_ENTER) {
        s->entries++;
        // A kernel function already open on this CPU was left without a recorded return
        // (its :return not enabled): kernel functions do not call themselves, so that call
        // and the ones above it have ended. (A program's may: no such rule there.)
        for (unsigned j = 0; !user && j < st->n; j++)
            if (st->c[j].fn == fn) {
                end_unpaired(f, st, e->cpu, j, k);
                break;
            }
        if (st->n == KX_FUNC_DEPTH) // the outermost open call gives way: all end unrecorded
            end_unpaired(f, st, e->cpu, 0, k);
        st->c[st->n++] = (struct open_call){ fn, e->t64, ++f->next_id, th, user };
        return;
    }
    s->returns++;
    unsigned i = st->n;
    while (i > 0 && st->c[i - 1].fn != fn)
        i--;
    if (i == 0) // not entered on this CPU's stack: counted, not timed
        return;
    end_unpaired(f, st, e->cpu, i, k); // the calls above it ended without a recorded return
    uint64_t t0 = st->c[i - 1].t0, d = e->t64 - t0;
    int th_in = st->c[i - 1].th;
    uint64_t id = st->c[i - 1].id, parent = i > 1 ? st->c[i - 2].id : 0;
    st->n = i - 1; // the call and any left open above it end here
    s->timed++;
    s->total += d;
    if (d > s->max)
        s->max = d;
    if (k && k->func) {
        uint64_t value = 0;
        kev_field_read(e, kf->fexit_value, &value);
        struct kx_func_row r = {
            .id = id, .parent = parent, .t0 = t0, .t1 = e->t64, .th = th_in, .cpu = e->cpu, .fn = fn, .call_site = kev_field(e, kf->func_site[x]),
            .ret_off = kev_field(e, kf->fexit_offset),
            .value = value,
            .depth = st->n, .user = user,
        };
        k->func(k->user, &r);
    }
}

void kx_funcs_finish(struct kx_funcs *f, const struct kx_sink *k)
{
    for (unsigned cpu = 0; f && cpu < KEV_MAX_CPUS; cpu++)
        if (f->stack[cpu])
            end_unpaired(f, f->stack[cpu], cpu, 0, k);
    for (unsigned i = 0; f && i <= KX_MAX_THREADS; i++)
        if (f->tstack[i])
            end_unpaired(f, f->tstack[i], 0, 0, k);
}

const struct kx_func_stats *kx_funcs_table(const struct kx_funcs *f, unsigned *n)
{
    *n = f ? f->nfn : 0;
    return f ? f->fn : NULL;
}

uint64_t kx_funcs_dropped(const struct kx_funcs *f)
{
    return f ? f->dropped : 0;
}

uint64_t kx_funcs_unpaired(const struct kx_funcs *f)
{
    return f ? f->unpaired : 0;
}
