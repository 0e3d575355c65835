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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kevhost/stacksym.h>
#include <kevhost/symfilter.h>
#include <kevhost/tool_elfsym.h>
#include <kevhost/tool_opts.h>

enum { OPT_FOLDED = TOOL_OPT_LONG };
static const struct tool_opt opts[] = {
    { 'k', 'k', NULL, "FILE", "the kernel image's ELF (module \"kernel\"), searched last", NULL },
    { 'x', 'x', NULL, NULL, "add each frame's source file and line: [file.c:27]", NULL },
    { OPT_FOLDED, 0, "folded", NULL,
      "print stack aggregations (@[ustack()] = count()) as folded stacks,\n"
      "root first: \"main;f;g 12\" (flamegraph.pl, inferno, speedscope)", NULL },
    { 0 },
};
static const struct tool_cmd cmd = {
    "stacksym", "[-x] [--folded] [-k KERNEL.elf] PROGRAM.elf... < dtrace-output",
    "Symbolises the stack frames (lines of an address alone) that the board's dtrace\n"
    "prints, as libdtrace prints them: module`function+0xoffset.\n"
    "D's func( ), sym( ), mod( ), ufunc( ), usym( ), umod( ), uaddr( ) and %a/%A values\n"
    "are named too, and printa( ) rows keyed by one function merged, as libdtrace does.\n",
    opts, "Exit status: 0 ok, 1 an unreadable ELF file, 2 bad usage.\n",
};

int main(int argc, char **argv)
{
    const char *kernel = NULL;
    int folded = 0, with_lines = 0, c;
    struct tool_args a = { argc, argv, 0, NULL };
    while ((c = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (c) {
        case 'k': kernel = a.val; break;
        case 'x': with_lines = 1; break;
        case OPT_FOLDED: folded = 1; break;
        default: return tool_opts_exit(c);
        }
    }
    if (a.ind == argc && !kernel)
        return tool_usage_error(&cmd, "give the ELF files: PROGRAM.elf... or -k KERNEL.elf");
    for (int i = a.ind; i < argc; i++)
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
