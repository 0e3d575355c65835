// SPDX-License-Identifier: MIT
// The kernel's fbt table (d/dfbt.h) for the host tools that name fbt probes (dtrace, dcompile):
// the option --kernel FILE reads it from an image's ELF file (its .fbt section) and makes it
// the process's table (dprobe_fbt_use). docs/fbt.md.
#ifndef TOOLS_TOOL_FBT_H
#define TOOLS_TOOL_FBT_H

// tool_fbt_kernel: loads the table of the file each --kernel FILE in argv names (the board
// image's ELF file, whose symbols the tools read too), leaving argv as it is; an image without
// an fbt table gives no fbt probes. 0, or -1 after "tool: FILE: reason" (a file that cannot be
// read, or a damaged table).
int tool_fbt_kernel(const char *tool, int argc, char **argv);
// tool_fbt_load: one file; required: a file without a table is an error too.
int tool_fbt_load(const char *tool, const char *path, int required);

#endif
