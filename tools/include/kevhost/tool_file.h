// SPDX-License-Identifier: MIT
// Reading a whole file into memory, for the host tools (traceprinter, the kevconv tools,
// dcompile, dtrace): one careful loop instead of one per tool.
#ifndef TOOLS_TOOL_FILE_H
#define TOOLS_TOOL_FILE_H

#include <stddef.h>
#include <stdint.h>

// tool_read_file: path's bytes in a malloc'd buffer with one NUL byte after them (so text
// can be used as a string), their count in *len. NULL with errno set (from fopen, ENOMEM,
// or EIO for a read error) on failure. Works on pipes and /dev/stdin too.
uint8_t *tool_read_file(const char *path, size_t *len);

#endif
