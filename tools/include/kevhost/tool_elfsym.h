// SPDX-License-Identifier: MIT
// Naming code addresses from an image's ELF files with elfutils' libdwfl, for every host tool
// that prints stacks or symbolic addresses (stacksym, kevstat, kev2perfetto, kevreport;
// docs/profiling.md). The programs' files are searched before the kernel image's (the image
// holds the programs' bytes too, so their ranges overlap). Single-threaded, process-wide.
#ifndef TOOL_ELFSYM_H
#define TOOL_ELFSYM_H
#include <stddef.h>
#include <stdint.h>

// elfsym_add: adds an ELF file, a program's (named by its file name without ".elf") or the
// kernel image's (kernel 1: named "kernel"); 0, or -1 after "tool: path: reason".
int elfsym_add(const char *tool, const char *path, int kernel);
// elfsym_add_as: the same under the module name given; the file's index (elfsym_frame_in),
// or -1 after saying why. The kernel image's file is searched after the programs' whatever
// the order they were added in.
int elfsym_add_as(const char *tool, const char *path, const char *name, int kernel);
// elfsym_build_id: the GNU build id of the ELF file at path into id (at most max bytes): its
// length, 0 when the file has none, -1 when it is no readable ELF file.
int elfsym_build_id(const char *path, uint8_t *id, size_t max);
// elfsym_option: a tool's options --elf FILE (a program's) and --kernel FILE: 1 when argv[*i]
// was one (its file added, *i on the file), 0 when not, -1 after saying why (bad usage).
int elfsym_option(const char *tool, int argc, char **argv, int *i);
// elfsym_count: how many files were added.
unsigned elfsym_count(void);
// elfsym_frame: a stack frame's module`function+0xoffset (with_lines: " [file.c:27]" after),
// and in fn the function alone; a caller frame (a return address) is looked up at pc - 1, the
// call, as gdb does. 0, or -1 if no file has a function there (out untouched).
int elfsym_frame(uint64_t pc, int caller, int with_lines, char *out, size_t n, char *fn,
                 size_t fn_n);
// elfsym_frame_in: the same in file idx alone (elfsym_add_as's index).
int elfsym_frame_in(int idx, uint64_t pc, int caller, int with_lines, char *out, size_t n,
                    char *fn, size_t fn_n);
// elfsym_lookup: the module holding addr among the programs' files (kernel 0) or the
// kernel's (kernel 1), and the function and offset if a symbol holds it (fn "" if not); 0,
// or -1 if no file holds addr.
int elfsym_lookup(uint64_t addr, int kernel, char *mod, size_t mod_n, char *fn, size_t fn_n,
                  uint64_t *off);
// elfsym_address: the address of symbol `name` in the kernel image's file (module "kernel" or
// NULL/"": the kernel's, as D's `name and kernel`name) or a program's (its name); 0, or -1 when
// no such file has it. A Thumb function's address is given without its bit 0.
int elfsym_address(const char *module, const char *name, uint64_t *addr);
// elfsym_object: the same file's data object `name` (STT_OBJECT): its address and size, 0; -1
// when it has none of that name (D's `name as a value).
int elfsym_object(const char *module, const char *name, uint64_t *addr, uint64_t *size);
// elfsym_on_lookup: fn runs before each lookup (elfsym_frame, _frame_in, _lookup): a caller
// that finds files on demand adds them there (tool_syms.c). NULL: none.
void elfsym_on_lookup(void (*fn)(void));
void elfsym_end(void);
#endif
