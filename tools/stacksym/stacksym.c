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
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stacksym.h"
#include "../common/tool_elfsym.h"

#define MAX_FRAMES 128

static int with_lines;

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
    for (int i = optind; i < argc; i++)
        if (elfsym_add("stacksym", argv[i], 0) != 0)
            return 1;
    if (kernel && elfsym_add("stacksym", kernel, 1) != 0)
        return 1;

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
            if (elfsym_frame(pc, in_stack, with_lines, sym, sizeof(sym), fn, sizeof(fn)) != 0) {
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
            int found = elfsym_frame(pc, 0, 1, sym, sizeof(sym), NULL, 0) == 0;
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
    elfsym_end();
    return ferror(stdout) ? 1 : 0;
}
