// SPDX-License-Identifier: MIT
// A capture's USDT firings per probe (kx_usdt.h): a probe is its name and program (the same
// probe may have several sites), an unnamed site its address. Each firing's arguments come
// through the event table and the program's note (syms_usdt_firing); the least and greatest
// are kept signed or unsigned as the note says.
#include <kevhost/kx_usdt.h>
#include <kevhost/syms_usdt.h>
#include <kevhost/tool_grow.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/json_out.h>

struct probe {
    struct syms_usdt name;          // the site's (name.probe "" when no note names it)
    uint64_t site;                  // the first site seen
    uint64_t count, first, last;
    unsigned nargs;                 // the most arguments a firing had
    uint64_t min[SYMS_USDT_ARGS], max[SYMS_USDT_ARGS];
    int is_signed[SYMS_USDT_ARGS];
};

static struct probe *probes;
static unsigned nprobes;
static size_t cap;

// The probe of firing f, added when new; NULL out of memory.
static struct probe *probe_of(const struct syms_usdt_firing *f)
{
    for (unsigned i = 0; i < nprobes; i++) {
        struct probe *p = &probes[i];
        if (f->p ? !strcmp(p->name.probe, f->p->probe) && !strcmp(p->name.module, f->p->module)
                 : !p->name.probe[0] && p->site == f->site)
            return p;
    }
    if (tool_grow(&probes, &cap, nprobes + 1, sizeof(*probes), 16))
        return NULL;
    struct probe *p = &probes[nprobes++];
    memset(p, 0, sizeof(*p));
    if (f->p)
        p->name = *f->p;
    p->site = f->site;
    return p;
}

// Whether a is below b, as argument k of p compares.
static int below(const struct probe *p, unsigned k, uint64_t a, uint64_t b)
{
    return p->is_signed[k] ? (int64_t)a < (int64_t)b : a < b;
}

void kx_usdt_event(const struct kev_reader *r, const struct kev_event *e)
{
    static struct kev_fields fs;
    struct syms_usdt_firing f;
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_USDT)
        return;
    kev_fields_decode(r, e, &fs);
    struct probe *p;
    if (syms_usdt_firing(&fs, &f) != 0 || !(p = probe_of(&f)))
        return;
    if (!p->count++)
        p->first = e->t64;
    p->last = e->t64;
    for (unsigned k = 0; k < f.nargs; k++) {
        if (k >= p->nargs) {
            p->is_signed[k] = syms_usdt_signed(&f, k);
            p->min[k] = p->max[k] = f.arg[k];
            p->nargs = k + 1;
        }
        if (below(p, k, f.arg[k], p->min[k]))
            p->min[k] = f.arg[k];
        if (below(p, k, p->max[k], f.arg[k]))
            p->max[k] = f.arg[k];
    }
}

static void value(const struct probe *p, unsigned k, uint64_t v, char *out, size_t n)
{
    if (p->is_signed[k])
        snprintf(out, n, "%lld", (long long)(int64_t)v);
    else
        snprintf(out, n, "%llu", (unsigned long long)v);
}

static const char *label(const struct probe *p, char *buf, size_t n)
{
    if (p->name.probe[0])
        return p->name.probe;
    snprintf(buf, n, "site 0x%llx", (unsigned long long)p->site);
    return buf;
}

void kx_usdt_print(const struct kx_stats *s, int asked)
{
    if (!nprobes) {
        if (asked)
            printf("== USDT probes ==\n  none recorded: a capture records a program's USDT "
                   "firings while a D program enables them and SYSTEM is traced (docs/usdt.md)\n");
        return;
    }
    printf("== USDT probes ==\n  %-24s %-16s %9s %14s %14s  %s\n", "probe", "program", "count",
           "first us", "last us", "arguments: least..greatest");
    for (unsigned i = 0; i < nprobes; i++) {
        const struct probe *p = &probes[i];
        char lb[64], lo[24], hi[24];
        printf("  %-24s %-16s %9llu %14.3f %14.3f ", label(p, lb, sizeof(lb)),
               p->name.module[0] ? p->name.module : "?", (unsigned long long)p->count,
               kx_seconds(s->r, p->first - s->t_first) * 1e6,
               kx_seconds(s->r, p->last - s->t_first) * 1e6);
        for (unsigned k = 0; k < p->nargs; k++) {
            value(p, k, p->min[k], lo, sizeof(lo));
            value(p, k, p->max[k], hi, sizeof(hi));
            printf(" arg%u %s..%s", k, lo, hi);
        }
        printf("\n");
    }
    int unnamed = 0;
    for (unsigned i = 0; i < nprobes; i++)
        unnamed += !probes[i].name.probe[0];
    if (unnamed)
        printf("  %d sites no ELF file of the capture names (docs/symbols.md: --elf, "
               "--symbols): their arguments unsigned\n", unnamed);
}

void kx_usdt_json_member(const struct kx_stats *s, FILE *f)
{
    fputs(",\n\"usdt\":[", f);
    for (unsigned i = 0; i < nprobes; i++) {
        const struct probe *p = &probes[i];
        char lb[64], lo[24], hi[24];
        fprintf(f, "%s{\"probe\":", i ? "," : "");
        json_str(f, label(p, lb, sizeof(lb)), 0);
        fputs(",\"provider\":", f), json_str(f, p->name.provider, 0);
        fputs(",\"name\":", f), json_str(f, p->name.name, 0);
        fputs(",\"module\":", f), json_str(f, p->name.module, 0);
        fputs(",\"function\":", f), json_str(f, p->name.function, 0);
        fprintf(f, ",\"site\":\"0x%llx\",\"count\":%llu,\"first\":%llu,\"last\":%llu,\"args\":[",
                (unsigned long long)p->site, (unsigned long long)p->count,
                (unsigned long long)(p->first - s->t_first),
                (unsigned long long)(p->last - s->t_first));
        for (unsigned k = 0; k < p->nargs; k++) {
            value(p, k, p->min[k], lo, sizeof(lo));
            value(p, k, p->max[k], hi, sizeof(hi));
            fprintf(f, "%s{\"min\":%s,\"max\":%s}", k ? "," : "", lo, hi);
        }
        fputs("]}", f);
    }
    fputc(']', f);
}
