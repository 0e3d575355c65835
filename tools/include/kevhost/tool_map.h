// SPDX-License-Identifier: MIT
// Mapping a trace file instead of copying it (tool_map.c), for the host tools that read one
// front to back: the file's pages are the page cache's, so a tool's own memory stays the same
// whatever the trace's size (traceprinter, the kevconv tools).
#ifndef TOOLS_TOOL_MAP_H
#define TOOLS_TOOL_MAP_H

#include <stddef.h>
#include <stdint.h>

// A regular file is mapped read-only (*mapped = 1, read sequentially); anything else (a pipe,
// /dev/stdin, an empty file) is read into memory by tool_read_file (*mapped = 0). NULL with
// errno set on failure.
uint8_t *tool_map_file(const char *path, size_t *len, int *mapped);
// Undo tool_map_file.
void tool_unmap_file(uint8_t *data, size_t len, int mapped);

#endif
