// SPDX-License-Identifier: MIT
// The kernel's fbt table (d/dfbt.h) for the host tools that name fbt probes (dtrace, dcompile):
// the option --kernel FILE reads it from an image's ELF file (its .fbt section) and makes it
// the process's table (dprobe_fbt_use). docs/fbt.md.
#ifndef TOOLS_TOOL_FBT_H
#define TOOLS_TOOL_FBT_H

// tool_fbt_option: loads the table of each --kernel FILE (and --kernel=FILE) in argv, which it
// leaves as it is (the option also names the image's symbols: the caller takes it out before
// getopt); 0, or -1 after "tool: FILE: reason" (exit 1: a file that cannot be read is an error,
// as a script that cannot be read is). An image without a table (a kernel without the fbt
// provider) is no error: its fbt probes then match nothing.
int tool_fbt_option(const char *tool, int argc, char **argv);
// tool_fbt_load: the same for one file: 0 loaded, 1 the file has no table, -1 an error.
int tool_fbt_load(const char *tool, const char *path);

#endif
