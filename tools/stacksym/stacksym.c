// SPDX-License-Identifier: MIT
// stacksym: symbolises the stacks dtrace prints (the board's dtrace prints a frame as its
// address, as libdtrace prints a pc it cannot resolve) on the host, from the image's ELF
// files, with elfutils' libdwfl: a frame line "<indent>0x800a4" becomes
// "<indent>stackchain`chain_e+0x12" (libdtrace's module`function+offset), with -x also
// " [stackchain.c:27]". With --folded it prints an aggregation keyed by stacks as folded
// stacks instead ("main;chain_a;chain_e 20"), the input of flamegraph.pl, inferno and
// speedscope. A console line naming a pc ("... pc 0x000a00c4 ...", the kernel's report of a
// fault) gets the function and line appended: "(stackchain`main+0x4 [stackchain.c:16])".
// D's symbolic addresses (func( ), ufunc( ), uaddr( ), %A...: tokens "usym`0xc009a") are
// named as libdtrace names them, and printa( ) rows keyed by one function merged (symaddr.c).
// Other lines pass through unchanged. docs/profiling.md.
#define _GNU_SOURCE
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <dwarf.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stacksym.h"

#define MAX_ELFS   64
#define MAX_FRAMES 128

struct elf_mod {
    Dwfl *dwfl;
    char name[64];
};

static struct elf_mod elfs[MAX_ELFS];
static unsigned nelfs;
static int kernel_elf = -1; // elfs[] index of the kernel image's file
static int with_lines;

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

// add_elf: one Dwfl per file (the kernel image holds the programs' bytes in its .apps
// section, so their address ranges overlap; the programs are searched first).
static int add_elf(const char *path, const char *name)
{
    if (nelfs == MAX_ELFS) {
        fprintf(stderr, "stacksym: more than %d ELF files\n", MAX_ELFS);
        return -1;
    }
    struct elf_mod *e = &elfs[nelfs];
    e->dwfl = dwfl_begin(&callbacks);
    if (!e->dwfl)
        return -1;
    dwfl_report_begin(e->dwfl);
    if (!dwfl_report_elf(e->dwfl, name, path, -1, 0, false)) {
        fprintf(stderr, "stacksym: %s: %s\n", path, dwfl_errmsg(-1));
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

// resolve: pc's module`function+offset (caller frames are looked up at pc - 1, the call
// itself, as gdb does: a call may be a function's last instruction); 0, or -1 if no ELF has it.
static int resolve(uint64_t pc, int caller, char *out, size_t n, char *fn_only, size_t fn_n)
{
    uint64_t look = caller && pc ? pc - 1 : pc;
    for (unsigned i = 0; i < nelfs; i++) {
        Dwfl_Module *m = dwfl_addrmodule(elfs[i].dwfl, look);
        if (!m)
            continue;
        GElf_Off off;
        GElf_Sym sym;
        const char *f = dwfl_module_addrinfo(m, look, &off, &sym, NULL, NULL, NULL);
        if (!f)
            continue;
        uint64_t start = look - off; // the function's start; a Thumb symbol's value has bit 0
        GElf_Addr bias;
        Elf *elf = dwfl_module_getelf(m, &bias);
        GElf_Ehdr eh;
        if (elf && gelf_getehdr(elf, &eh) && eh.e_machine == EM_ARM)
            start &= ~(uint64_t)1u;
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
    return -1;
}

int stacksym_lookup(uint64_t addr, int kernel, char *mod, size_t mod_n, char *fn, size_t fn_n,
                    uint64_t *off)
{
    int held = -1; // the first file whose range holds addr (a program's range runs from
                   // its flash to its RAM, over the others' flash): the one named if no
                   // file has a symbol there
    for (unsigned i = 0; i < nelfs; i++) {
        if (((int)i == kernel_elf) != (kernel != 0))
            continue;
        Dwfl_Module *m = dwfl_addrmodule(elfs[i].dwfl, addr);
        if (!m)
            continue;
        GElf_Off o;
        GElf_Sym sym;
        const char *f = dwfl_module_addrinfo(m, addr, &o, &sym, NULL, NULL, NULL);
        if (held < 0)
            held = (int)i;
        if (!f)
            continue;
        snprintf(mod, mod_n, "%s", elfs[i].name);
        snprintf(fn, fn_n, "%s", f);
        uint64_t start = addr - o; // a Thumb symbol's value has bit 0 (as resolve)
        GElf_Addr bias;
        Elf *elf = dwfl_module_getelf(m, &bias);
        GElf_Ehdr eh;
        if (elf && gelf_getehdr(elf, &eh) && eh.e_machine == EM_ARM)
            start &= ~(uint64_t)1u;
        *off = addr - start;
        return 0;
    }
    if (held < 0)
        return -1;
    snprintf(mod, mod_n, "%s", elfs[held].name);
    snprintf(fn, fn_n, "%s", "");
    *off = 0;
    return 0;
}

// frame_pc: whether line is a frame as the board prints it (spaces, 0x<hex>, newline).
static int frame_pc(const char *line, uint64_t *pc, int *indent)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    if (p == line || p[0] != '0' || p[1] != 'x')
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p + 2, &end, 16);
    if (end == p + 2 || errno || (*end != '\n' && *end != '\0'))
        return 0;
    *pc = v;
    *indent = (int)(p - line);
    return 1;
}

// fault_pc: the address after "pc " in a console line (the kernel's fault reports); 0 if none.
static int fault_pc(const char *line, uint64_t *pc)
{
    const char *p = strstr(line, "pc 0x");
    if (!p || (p > line && p[-1] != ' ' && p[-1] != ','))
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p + 5, &end, 16);
    if (end == p + 5 || errno)
        return 0;
    *pc = v;
    return 1;
}

// count_line: an aggregation's value line after a stack key (spaces, a number).
static int count_line(const char *line, long long *v)
{
    char *end;
    const char *p = line;
    while (*p == ' ')
        p++;
    if (!*p || *p == '\n')
        return 0;
    errno = 0;
    *v = strtoll(p, &end, 10);
    return !errno && end != p && (*end == '\n' || *end == '\0');
}

static void usage(FILE *f)
{
    fprintf(f, "usage: stacksym [-x] [--folded] [-k KERNEL.elf] PROGRAM.elf... < dtrace-output\n"
               "Symbolises the stack frames (lines of an address alone) that the board's dtrace\n"
               "prints, as libdtrace prints them: module`function+0xoffset.\n"
               "  -k FILE     the kernel image's ELF (module \"kernel\"), searched last\n"
               "  -x          add each frame's source file and line: [file.c:27]\n"
               "D's func( ), sym( ), mod( ), ufunc( ), usym( ), umod( ), uaddr( ) and %%a/%%A values\n"
               "are named too, and printa( ) rows keyed by one function merged, as libdtrace does.\n"
               "  --folded    print stack aggregations (@[ustack()] = count()) as folded stacks,\n"
               "              root first: \"main;f;g 12\" (flamegraph.pl, inferno, speedscope)\n"
               "  -h, --help  this text\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "folded", no_argument, NULL, 'f' }, { "help", no_argument, NULL, 'h' }, { 0, 0, 0, 0 } };
    const char *kernel = NULL;
    int folded = 0, c;
    while ((c = getopt_long(argc, argv, "k:xh", longopts, NULL)) != -1) {
        switch (c) {
        case 'k': kernel = optarg; break;
        case 'x': with_lines = 1; break;
        case 'f': folded = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind == argc && !kernel) {
        usage(stderr);
        return 2;
    }
    elf_version(EV_CURRENT);
    for (int i = optind; i < argc; i++) {
        char name[64];
        module_name(argv[i], name, sizeof(name));
        if (add_elf(argv[i], name) != 0)
            return 1;
    }
    if (kernel && add_elf(kernel, "kernel") != 0)
        return 1;
    if (kernel)
        kernel_elf = (int)nelfs - 1;

    char *line = NULL;
    size_t cap = 0;
    static char frames[MAX_FRAMES][512];
    unsigned nframes = 0; // the current stack's frames (--folded), leaf first
    int in_stack = 0;
    while (getline(&line, &cap, stdin) > 0) {
        uint64_t pc;
        int indent;
        const char *merge;
        static char named[4096];
        if (!folded && symaddr_line(line, named, sizeof(named), &merge)) {
            if (!merge || symaddr_row(named, merge) != 0) {
                symaddr_flush(stdout);
                fputs(named, stdout);
            }
            in_stack = 0;
            continue;
        }
        symaddr_flush(stdout); // printa( )'s rows end at the first line not one of them
        if (frame_pc(line, &pc, &indent)) {
            char sym[512], fn[256];
            if (resolve(pc, in_stack, sym, sizeof(sym), fn, sizeof(fn)) != 0) {
                snprintf(sym, sizeof(sym), "0x%" PRIx64, pc);
                snprintf(fn, sizeof(fn), "0x%" PRIx64, pc);
            }
            if (folded) {
                if (nframes < MAX_FRAMES)
                    snprintf(frames[nframes++], sizeof(frames[0]), "%s", with_lines ? sym : fn);
            } else {
                printf("%*s%s\n", indent, "", sym);
            }
            in_stack = 1;
            continue;
        }
        long long v;
        if (folded) {
            if (in_stack && count_line(line, &v)) {
                for (unsigned i = nframes; i-- > 0;)
                    printf("%s%s", frames[i], i ? ";" : "");
                printf(" %lld\n", v);
            }
            nframes = 0;
        } else if (fault_pc(line, &pc)) {
            char sym[512];
            int saved = with_lines;
            with_lines = 1;
            int found = resolve(pc, 0, sym, sizeof(sym), NULL, 0) == 0;
            with_lines = saved;
            size_t len = strlen(line);
            if (len && line[len - 1] == '\n')
                line[--len] = '\0';
            if (found) // "... pc 0xc009a ... (stackchain`main+0x4 [stackchain.c:16])"
                printf("%s (%s)\n", line, sym);
            else
                printf("%s\n", line);
        } else {
            fputs(line, stdout);
        }
        in_stack = 0;
    }
    symaddr_flush(stdout);
    free(line);
    for (unsigned i = 0; i < nelfs; i++)
        dwfl_end(elfs[i].dwfl);
    return ferror(stdout) ? 1 : 0;
}
