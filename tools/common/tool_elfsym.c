// SPDX-License-Identifier: MIT
// Naming code addresses from an image's ELF files with elfutils' libdwfl (tool_elfsym.h): one
// Dwfl per file, searched in the order added (the programs', then the kernel image's).
#define _GNU_SOURCE
#include <kevhost/tool_elfsym.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <gelf.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_ELFS 64

struct elf_mod {
    Dwfl *dwfl;
    char name[64];
};

static struct elf_mod elfs[MAX_ELFS];
static unsigned nelfs;
static int kernel_elf = -1; // elfs[] index of the kernel image's file
static void (*on_lookup)(void);

void elfsym_on_lookup(void (*fn)(void))
{
    on_lookup = fn;
}

static void before_lookup(void)
{
    if (on_lookup)
        on_lookup();
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

static int add_elf(const char *tool, const char *path, const char *name)
{
    if (nelfs == MAX_ELFS) {
        fprintf(stderr, "%s: more than %d ELF files\n", tool, MAX_ELFS);
        return -1;
    }
    struct elf_mod *e = &elfs[nelfs];
    e->dwfl = dwfl_begin(&callbacks);
    if (!e->dwfl)
        return -1;
    dwfl_report_begin(e->dwfl);
    if (!dwfl_report_elf(e->dwfl, name, path, -1, 0, false)) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, dwfl_errmsg(-1));
        dwfl_end(e->dwfl);
        return -1;
    }
    dwfl_report_end(e->dwfl, NULL, NULL);
    snprintf(e->name, sizeof(e->name), "%s", name);
    nelfs++;
    return 0;
}

// module_name: the file's name without its directory and ".elf".
static void module_name(const char *path, char *out, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, n, "%s", b);
    char *dot = strstr(out, ".elf");
    if (dot && dot[4] == '\0')
        *dot = '\0';
}

// The name the function's debugging information gives the function that starts at `start`
// and holds addr (its outermost DW_TAG_subprogram: not an inlined one), or NULL: none, another
// start, or no name of its own. Two ELF symbols at one function's start (picolibc's vfprintf
// and __d_vfprintf) are aliases; gdb and addr2line name it by this one, and so do the tools.
// (A clone or part of a function, f.constprop.0, f.part.1, keeps its ELF name: its debugging
// information names its origin, f, which the tools' frames and gdb's keep apart.)
static const char *dwarf_name_at(Dwfl_Module *m, uint64_t addr, uint64_t start)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(m, addr, &bias), *scopes = NULL;
    if (!cu)
        return NULL;
    int n = dwarf_getscopes(cu, addr - bias, &scopes);
    const char *name = NULL;
    for (int k = n - 1; k >= 0; k--) {
        Dwarf_Addr low;
        if (dwarf_tag(&scopes[k]) != DW_TAG_subprogram)
            continue;
        if (dwarf_lowpc(&scopes[k], &low) == 0 && low + bias == start)
            name = dwarf_diename(&scopes[k]);
        break;
    }
    free(scopes);
    return name;
}

// symbol_at: the function file i has a symbol for at addr, and the function's start (a Thumb
// symbol's value has bit 0, cleared); NULL when the file has no symbol there (*held: the
// file's range holds addr). In an ARM file addr is looked up with bit 0 set: a Thumb
// function's symbol is its start + 1, so its first instruction (a pc a profile sample or
// func( ) can give: an idle loop's) would otherwise fall in the function before it.
static const char *symbol_at(unsigned i, uint64_t addr, uint64_t *start, Dwfl_Module **mod,
                             int *held)
{
    Dwfl_Module *m = dwfl_addrmodule(elfs[i].dwfl, addr);
    *held = m != NULL;
    if (!m)
        return NULL;
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(m, &bias);
    GElf_Ehdr eh;
    int arm = elf && gelf_getehdr(elf, &eh) && eh.e_machine == EM_ARM;
    uint64_t look = arm ? addr | 1u : addr;
    GElf_Off off;
    GElf_Sym sym;
    const char *f = dwfl_module_addrinfo(m, look, &off, &sym, NULL, NULL, NULL);
    if (!f || f[0] == '$')  // none, or an ARM/AArch64 mapping symbol ($a, $t, $d, $x): no
        return NULL;        // function (the kernel image's $d covers its programs' slots)
    *start = look - off;
    if (arm)
        *start &= ~(uint64_t)1u;
    *mod = m;
    const char *d = strchr(f, '.') ? NULL : dwarf_name_at(m, addr, *start);
    return d && *d ? d : f;
}

// frame_in: pc named from file i; caller frames are looked up at pc - 1, the call itself, as
// gdb does (a call may be a function's last instruction). 0, or -1 if i has no function there.
static int frame_in(unsigned i, uint64_t pc, int caller, int with_lines, char *out, size_t n,
                    char *fn_only, size_t fn_n)
{
    uint64_t look = caller && pc ? pc - 1 : pc, start;
    Dwfl_Module *m;
    int held;
    const char *f = symbol_at(i, look, &start, &m, &held);
    if (!f)
        return -1;
    if (pc > start)
        snprintf(out, n, "%s`%s+0x%" PRIx64, elfs[i].name, f, pc - start);
    else
        snprintf(out, n, "%s`%s", elfs[i].name, f);
    if (fn_only)
        snprintf(fn_only, fn_n, "%s", f);
    if (with_lines) {
        Dwfl_Line *l = dwfl_module_getsrc(m, look);
        int line = 0;
        const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
        if (src) {
            const char *b = strrchr(src, '/');
            size_t len = strlen(out);
            snprintf(out + len, n - len, " [%s:%d]", b ? b + 1 : src, line);
        }
    }
    return 0;
}

// The files in search order: the programs' in the order added, then the kernel image's.
static int search_order(unsigned k)
{
    if (kernel_elf < 0)
        return (int)k;
    if (k + 1 == nelfs)
        return kernel_elf;
    return (int)k < kernel_elf ? (int)k : (int)k + 1;
}

int elfsym_frame(uint64_t pc, int caller, int with_lines, char *out, size_t n, char *fn_only,
                 size_t fn_n)
{
    before_lookup();
    for (unsigned k = 0; k < nelfs; k++)
        if (frame_in((unsigned)search_order(k), pc, caller, with_lines, out, n, fn_only, fn_n) == 0)
            return 0;
    return -1;
}

int elfsym_frame_in(int idx, uint64_t pc, int caller, int with_lines, char *out, size_t n,
                    char *fn, size_t fn_n)
{
    before_lookup();
    if (idx < 0 || (unsigned)idx >= nelfs)
        return -1;
    return frame_in((unsigned)idx, pc, caller, with_lines, out, n, fn, fn_n);
}

int elfsym_lookup(uint64_t addr, int kernel, char *mod, size_t mod_n, char *fn, size_t fn_n,
                  uint64_t *off)
{
    before_lookup();
    int first = -1; // the first file whose range holds addr (a program's range runs from
                    // its flash to its RAM, over the others' flash): the one named if no
                    // file has a symbol there
    for (unsigned k = 0; k < nelfs; k++) {
        unsigned i = (unsigned)search_order(k);
        if (((int)i == kernel_elf) != (kernel != 0))
            continue;
        Dwfl_Module *m;
        uint64_t start;
        int held;
        const char *f = symbol_at(i, addr, &start, &m, &held);
        if (held && first < 0)
            first = (int)i;
        if (!f)
            continue;
        snprintf(mod, mod_n, "%s", elfs[i].name);
        snprintf(fn, fn_n, "%s", f);
        *off = addr - start;
        return 0;
    }
    if (first < 0)
        return -1;
    snprintf(mod, mod_n, "%s", elfs[first].name);
    snprintf(fn, fn_n, "%s", "");
    *off = 0;
    return 0;
}

static void elf_init(void)
{
    static int init;
    if (!init) {
        elf_version(EV_CURRENT);
        init = 1;
    }
}

int elfsym_add_as(const char *tool, const char *path, const char *name, int kernel)
{
    elf_init();
    if (kernel && kernel_elf >= 0) {
        fprintf(stderr, "%s: %s: a second kernel image (one is searched)\n", tool, path);
        return -1;
    }
    if (add_elf(tool, path, name) != 0)
        return -1;
    if (kernel)
        kernel_elf = (int)nelfs - 1;
    return (int)nelfs - 1;
}

int elfsym_add(const char *tool, const char *path, int kernel)
{
    char name[64];
    if (kernel)
        snprintf(name, sizeof(name), "kernel");
    else
        module_name(path, name, sizeof(name));
    return elfsym_add_as(tool, path, name, kernel) < 0 ? -1 : 0;
}

int elfsym_build_id(const char *path, uint8_t *id, size_t max)
{
    elf_init();
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int len = -1;
    if (elf && elf_kind(elf) == ELF_K_ELF) {
        const void *p;
        ssize_t l = dwelf_elf_gnu_build_id(elf, &p);
        len = l > 0 && (size_t)l <= max ? (int)l : 0;
        if (len)
            memcpy(id, p, (size_t)len);
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return len;
}

int elfsym_option(const char *tool, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if ((strcmp(a, "--elf") && strcmp(a, "--kernel")) || *i + 1 >= argc)
        return 0;
    ++*i;
    return elfsym_add(tool, argv[*i], a[2] == 'k') == 0 ? 1 : -1;
}

static int first_module(Dwfl_Module *m, void **user, const char *name, Dwarf_Addr start,
                        void *arg)
{
    (void)user, (void)name, (void)start;
    *(Dwfl_Module **)arg = m;
    return DWARF_CB_ABORT;
}

// The first defined symbol `name` of the module's file (module "kernel", NULL or "": the kernel
// image's) whose type is `type` (STT_NOTYPE: any type): 0 with *sym and its module *mp; -1.
static int find_symbol(const char *module, const char *name, int type, GElf_Sym *sym,
                       Dwfl_Module **mp)
{
    int kernel = !module || !*module || !strcmp(module, "kernel");
    for (unsigned i = 0; i < nelfs; i++) {
        if (kernel ? (int)i != kernel_elf : strcmp(elfs[i].name, module) != 0)
            continue;
        Dwfl_Module *m = NULL;
        dwfl_getmodules(elfs[i].dwfl, first_module, &m, 0);
        int n = m ? dwfl_module_getsymtab(m) : -1;
        for (int k = 1; k < n; k++) {
            const char *f = dwfl_module_getsym(m, k, sym, NULL);
            if (f && !strcmp(f, name) && sym->st_shndx != SHN_UNDEF &&
                (type == STT_NOTYPE || GELF_ST_TYPE(sym->st_info) == type)) {
                *mp = m;
                return 0;
            }
        }
    }
    return -1;
}

int elfsym_address(const char *module, const char *name, uint64_t *addr)
{
    GElf_Sym sym;
    Dwfl_Module *m;
    if (find_symbol(module, name, STT_NOTYPE, &sym, &m) < 0)
        return -1;
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(m, &bias);
    GElf_Ehdr eh;
    *addr = sym.st_value;
    if (elf && gelf_getehdr(elf, &eh) && eh.e_machine == EM_ARM &&
        GELF_ST_TYPE(sym.st_info) == STT_FUNC)
        *addr &= ~(uint64_t)1u;
    return 0;
}

int elfsym_object(const char *module, const char *name, uint64_t *addr, uint64_t *size)
{
    GElf_Sym sym;
    Dwfl_Module *m;
    if (find_symbol(module, name, STT_OBJECT, &sym, &m) < 0)
        return -1;
    *addr = sym.st_value;
    *size = sym.st_size;
    return 0;
}

unsigned elfsym_count(void)
{
    return nelfs;
}

void elfsym_end(void)
{
    for (unsigned i = 0; i < nelfs; i++)
        dwfl_end(elfs[i].dwfl);
    nelfs = 0;
    kernel_elf = -1;
}
