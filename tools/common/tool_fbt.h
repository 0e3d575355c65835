// SPDX-License-Identifier: MIT
// The kernel's fbt table (d/dfbt.h) for the host tools that name fbt probes (dtrace, dcompile):
// the option --kernel FILE reads it from an image's ELF file (its .fbt section) and makes it
// the process's table (dprobe_fbt_use). docs/fbt.md.
#ifndef TOOLS_TOOL_FBT_H
#define TOOLS_TOOL_FBT_H

// tool_fbt_option: takes --kernel FILE (and --kernel=FILE) out of argv (so that getopt never
// sees it) and loads FILE's table; 0, or -1 after "tool: FILE: reason" (exit 1: a file that
// cannot be read or has no table is an error, as a script that cannot be read is).
int tool_fbt_option(const char *tool, int *argc, char **argv);
// tool_fbt_load: the same for one file.
int tool_fbt_load(const char *tool, const char *path);

#endif
