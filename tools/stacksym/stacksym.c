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
#include <kevhost/stacksym.h>
#include <kevhost/symfilter.h>
#include <kevhost/tool_elfsym.h>

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
    int folded = 0, with_lines = 0, c;
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
    static struct symfilter f;
    f.with_lines = with_lines;
    f.folded = folded;
    f.console = 1;
    while (getline(&line, &cap, stdin) > 0)
        symfilter_line(&f, line, stdout);
    symfilter_end(&f, stdout);
    free(line);
    elfsym_end();
    return ferror(stdout) ? 1 : 0;
}
