// SPDX-License-Identifier: MIT
// A program's USDT probes for the host tools that name them (dtrace, dcompile; docs/usdt.md):
// the option --elf FILE reads FILE's .note.stapsdt (Debian's sys/sdt.h notes, as readelf -n
// and gdb's info probes read them) and adds its sites to the process's table
// (dprobe_usdt_use), and its symbol table's functions to the functions pid probes name
// (dprobe_pid_use, docs/pid.md), the module being the program's name (FILE's name without
// ".elf").
#ifndef TOOLS_TOOL_USDT_H
#define TOOLS_TOOL_USDT_H

// tool_usdt_option: loads the sites of each --elf FILE (and --elf=FILE) in argv; remove 1:
// takes the options out of argv (dcompile), 0: leaves them (dtrace, whose -i names frames
// from them too). 0, or -1 after "tool: FILE: reason".
int tool_usdt_option(const char *tool, int *argc, char **argv, int remove);
// tool_usdt_load: one file's sites; their number, or -1 after saying why.
int tool_usdt_load(const char *tool, const char *path);
// tool_usdt_load_as: the same under the module name given (a file found by build id, whose
// name is not the program's: dtrace -i, tool_syms.h).
int tool_usdt_load_as(const char *tool, const char *path, const char *module);

#endif
