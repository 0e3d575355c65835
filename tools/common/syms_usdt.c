// SPDX-License-Identifier: MIT
// USDT sites named from the notes of the programs a capture ran (syms_usdt.h): at the first
// lookup after the symbol lookup started (syms_serial), each program's ELF file found by build
// id (syms_programs) is opened, its .note.stapsdt read note by note as the kernel reads it
// (dusdt_note_next), each site's address corrected by where .stapsdt.base lies (as gdb and
// tool_usdt.c do), its function named as frames are (syms_pc), and the table sorted by
// address for the lookups. Memory: one entry per site of the capture's programs.
#include <kevhost/syms_usdt.h>
#include <kevhost/tool_syms.h>
#include <kevhost/tool_elf.h>
#include <kevhost/tool_grow.h>
#include <d/dusdt_note.h>
#include <trace/kev_text.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct syms_usdt *sites;
static unsigned nsites;
static size_t capsites;
static unsigned read_serial;        // the lookup's serial the table was read for (0: none yet)

// Each argument's size from the note's places ("-4@r0 4@[sp, #8]"): SIZE@ starts each,
// blanks part them (none inside brackets or parentheses); the count.
static unsigned arg_sizes(const char *s, int8_t *size)
{
    unsigned n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        char *at;
        long v = strtol(s, &at, 10);
        if (n < SYMS_USDT_ARGS)
            size[n] = *at == '@' && v >= -8 && v <= 8 ? (int8_t)v : 0;
        n++;
        for (int depth = 0; *s && (depth || (*s != ' ' && *s != '\t')); s++)
            depth += (*s == '[' || *s == '(') - (*s == ']' || *s == ')');
    }
    return n;
}

static struct syms_usdt *add_site(void)
{
    if (tool_grow(&sites, &capsites, nsites + 1, sizeof(*sites), 32))
        return NULL;
    struct syms_usdt *u = &sites[nsites++];
    memset(u, 0, sizeof(*u));
    return u;
}

// One program's sites (mod its module name, path its file); a file without notes has none.
static void read_program(void *arg, const char *mod, const char *path, int given)
{
    (void)arg, (void)given;
    int fd = path ? open(path, O_RDONLY) : -1;
    if (fd < 0)
        return;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    GElf_Shdr sh, bh;
    Elf_Scn *scn = e ? tool_elf_section(e, ".note.stapsdt", &sh) : NULL;
    Elf_Data *d = scn && sh.sh_type == SHT_NOTE ? elf_getdata(scn, NULL) : NULL;
    uint64_t base_now = e && tool_elf_section(e, ".stapsdt.base", &bh) ? bh.sh_addr : 0;
    unsigned width = e && gelf_getclass(e) == ELFCLASS64 ? 8 : 4;
    struct dusdt_note nt;
    uint32_t off = 0;
    while (d && d->d_buf && d->d_size <= UINT32_MAX &&
           dusdt_note_next(d->d_buf, (uint32_t)d->d_size, width, &off, &nt) > 0) {
        struct syms_usdt *u = add_site();
        if (!u)
            break;
        u->site = nt.pc + (base_now && nt.base ? base_now - nt.base : 0);
        // (the file's bytes, printed as names are: no control sequence reaches a terminal)
        kev_text_safe(u->provider, sizeof(u->provider), (const uint8_t *)nt.prov, strlen(nt.prov));
        kev_text_safe(u->name, sizeof(u->name), (const uint8_t *)nt.name, strlen(nt.name));
        snprintf(u->probe, sizeof(u->probe), "%s:%s", u->provider, u->name);
        snprintf(u->module, sizeof(u->module), "%s", mod);
        u->nargs = arg_sizes(nt.args, u->size);
    }
    if (e)
        elf_end(e);
    close(fd);
}

static int by_site(const void *a, const void *b)
{
    const struct syms_usdt *x = a, *y = b;
    return x->site < y->site ? -1 : x->site > y->site;
}

// The table, read again when the lookup started over since it was read.
static void read_sites(void)
{
    unsigned serial = syms_serial();
    if (read_serial == serial)
        return;
    read_serial = serial;
    nsites = 0;
    elf_version(EV_CURRENT);
    syms_programs(read_program, NULL);
    if (nsites)         // (qsort's array may not be NULL, even of 0 sites)
        qsort(sites, nsites, sizeof(*sites), by_site);
    for (unsigned i = 0; i < nsites; i++) {
        char at[256];
        syms_pc(sites[i].site, 0, at, sizeof(at), sites[i].function, sizeof(sites[i].function));
    }
}

const struct syms_usdt *syms_usdt(uint64_t site)
{
    if (!syms_active())
        return NULL;
    read_sites();
    struct syms_usdt key = { .site = site };
    return nsites ? bsearch(&key, sites, nsites, sizeof(*sites), by_site) : NULL;
}

int syms_usdt_firing(const struct kev_fields *fs, struct syms_usdt_firing *f)
{
    uint64_t site;
    if (!fs->desc || fs->desc->cls != KEV_C_SYSTEM || fs->desc->lo != KEV_SYS_USDT ||
        !kev_field_num(kev_field_get(fs, "site"), &site))
        return -1;
    const struct kev_field *args = kev_field_get(fs, "args");
    memset(f, 0, sizeof(*f));
    f->site = site;
    f->p = syms_usdt(site);
    f->nargs = args && args->arr ? (args->n < SYMS_USDT_ARGS ? args->n : SYMS_USDT_ARGS) : 0;
    for (unsigned k = 0; k < f->nargs; k++)
        f->arg[k] = syms_usdt_value(f->p, k, args->arr[k]);
    return 0;
}

uint64_t syms_usdt_value(const struct syms_usdt *p, unsigned k, uint64_t v)
{
    int size = p && k < p->nargs && k < SYMS_USDT_ARGS ? p->size[k] : 0;
    unsigned bits = 8u * (unsigned)(size < 0 ? -size : size);
    if (!bits || bits >= 64)    // (the kernel extends as the note says: this keeps to it)
        return v;
    return size < 0 ? (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits))
                    : v << (64 - bits) >> (64 - bits);
}

int syms_usdt_signed(const struct syms_usdt_firing *f, unsigned k)
{
    return f->p && k < f->p->nargs && k < SYMS_USDT_ARGS && f->p->size[k] < 0;
}

void syms_usdt_arg_text(const struct syms_usdt_firing *f, unsigned k, char *out, size_t n)
{
    if (syms_usdt_signed(f, k))
        snprintf(out, n, "%lld", (long long)(int64_t)f->arg[k]);
    else
        snprintf(out, n, "%llu", (unsigned long long)f->arg[k]);
}

void syms_usdt_text(const struct syms_usdt_firing *f, char *out, size_t n)
{
    size_t k = 0;
    if (f->p)
        k = (size_t)snprintf(out, n, "%s (%s) site:0x%08llx", f->p->probe, f->p->module,
                             (unsigned long long)f->site);
    else
        k = (size_t)snprintf(out, n, "site:0x%08llx", (unsigned long long)f->site);
    for (unsigned i = 0; i < f->nargs && k < n; i++) {
        char v[24];
        syms_usdt_arg_text(f, i, v, sizeof(v));
        k += (size_t)snprintf(out + k, n - k, " arg%u:%s", i, v);
    }
}
