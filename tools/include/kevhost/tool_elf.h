// SPDX-License-Identifier: MIT
// An ELF file opened to read its sections by name (tools/common/tool_elf.c, elfutils' libelf):
// the fbt table of a kernel image, the USDT notes of a program. Link with -lelf.
#ifndef KEVHOST_TOOL_ELF_H
#define KEVHOST_TOOL_ELF_H
#include <gelf.h>

// tool_elf_open: the file at path, open for reading (*fd its descriptor, for tool_elf_close);
// NULL after "tool: path: reason" when it cannot be opened or is no ELF file.
Elf *tool_elf_open(const char *tool, const char *path, int *fd);
// tool_elf_section: e's first section named name, its header in *sh; NULL when there is none.
Elf_Scn *tool_elf_section(Elf *e, const char *name, GElf_Shdr *sh);
// tool_elf_close: the file's ELF handle and descriptor released.
void tool_elf_close(Elf *e, int fd);
#endif
