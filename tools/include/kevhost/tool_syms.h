// SPDX-License-Identifier: MIT
// Which ELF files name a capture's addresses, for every host tool that prints code addresses
// (dtrace -i, kevstat, kevreport, kev2ctf, kev2json, kev2perfetto; docs/symbols.md). The
// capture says what each process ran and the kernel's own image, with their
// GNU build ids (SYSTEM IMAGE, trace/kev_image.h); this finds each file by its id, in order:
// the files given with --elf/--kernel, the build directory the kernel's image was built in and
// build/<board>/ under the current directory, each --symbols DIR (laid out as perf's build-id
// cache, gdb's debug-file-directory, debuginfod's cache, or a directory of ELF files), the
// build-id caches ~/.debug and /usr/lib/debug, then the debuginfod servers of DEBUGINFOD_URLS.
// A file whose id is not the capture's is refused with a message and never used: that
// process's addresses stay raw. Files are found when an address is first named (elfsym's
// lookups ask): then the capture is read once for its IMAGE events (whatever the order its
// CPUs' buffers come in) and every image is looked up, so a tool that names nothing pays
// nothing and says nothing. A capture with no IMAGE events (recorded before they existed)
// uses the files given as they are, unchecked. Single-threaded, process-wide, over
// tool_elfsym.c.
#ifndef TOOL_SYMS_H
#define TOOL_SYMS_H

#include <stdint.h>
#include <stdio.h>
#include <kevhost/tool_opts.h>
#include <trace/kev_decode.h>

// The options every trace reader takes (--symbols DIR, --elf FILE, --kernel FILE,
// --no-symbols): a tool splices syms_opts into its table ({ .also = syms_opts }) and hands
// each id of the SYMS_OPT_ range to syms_take.
enum { SYMS_OPT_SYMBOLS = 0x2000, SYMS_OPT_ELF, SYMS_OPT_KERNEL, SYMS_OPT_NONE };
extern const struct tool_opt syms_opts[];
// syms_take: option id with its value: 1 taken, 0 not one of these, -1 after saying why.
int syms_take(const char *tool, int id, const char *val);

// syms_option: a tool's options --elf FILE, --kernel FILE, --symbols DIR and --no-symbols:
// 1 when argv[*i] was one (*i on its argument), 0 when not, -1 after saying why (bad usage).
int syms_option(const char *tool, int argc, char **argv, int *i);
// syms_usage: the options' help lines, for a tool's --help.
void syms_usage(FILE *f);
// syms_trace: the capture whose addresses tool names: its bytes, which must stay mapped
// until syms_end (read for its IMAGE events at the first lookup).
void syms_trace(const char *tool, const void *data, size_t len);
// syms_active: whether addresses are to be named at all (not --no-symbols).
int syms_active(void);
// syms_files: looks every image up now; the number of ELF files found (0: nothing can be named,
// e.g. a capture without IMAGE events and no --elf given).
unsigned syms_files(void);
// syms_programs: each program the capture ran (its images looked up now, as syms_files does),
// for a tool that reads more than names from their files (dtrace -i: USDT and pid probes):
// fn(arg, module, path, given) once a program, path its file found by build id (NULL: none),
// given 1 when that file was given with --elf. The number of programs (0 under --no-symbols).
unsigned syms_programs(void (*fn)(void *arg, const char *mod, const char *path, int given),
                       void *arg);
// syms_kernel_file: the kernel image's ELF file the capture ran (found by build id as every
// image is, or the --kernel FILE given for it), looked up now; NULL when none is found.
const char *syms_kernel_file(void);
// syms_pc: pc as a frame is named ("stackfault`fault_c+0x4", module`function+offset; a
// caller frame is looked up at its call, pc - 1), or "0x..." when no file names it (or
// --no-symbols); 1 when named. fn, when not NULL, gets the function alone ("" when unnamed).
int syms_pc(uint64_t pc, int caller, char *out, size_t n, char *fn, size_t fn_n);
// syms_function: the function holding pc as every tool names a function (a function call's
// slice, a table's row, an fbt event): its name alone, else "0x..." (no file names it).
void syms_function(uint64_t pc, char *fn, size_t n);
// syms_stack: a recorded stack's frames named (syms_pc), innermost first, joined by sep.
void syms_stack(const uint64_t *pcs, unsigned depth, const char *sep, char *out, size_t n);
// syms_end: forgets everything (the files, the images).
void syms_end(void);
// syms_serial: a number that changes whenever the lookup starts over (syms_trace, syms_end),
// for what is read from the files found (syms_usdt.h) to know when to read them again.
unsigned syms_serial(void);

#endif
