// SPDX-License-Identifier: MIT
// tool_elf.h: opening an ELF file and finding its sections by name, with the tools' errors.
#include <kevhost/tool_elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

Elf *tool_elf_open(const char *tool, const char *path, int *fd)
{
    *fd = open(path, O_RDONLY);
    if (*fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
        return NULL;
    }
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(*fd, ELF_C_READ, NULL);
    size_t shstrndx;
    if (!e || elf_getshdrstrndx(e, &shstrndx) != 0) {
        fprintf(stderr, "%s: %s: not an ELF file\n", tool, path);
        tool_elf_close(e, *fd);
        return NULL;
    }
    return e;
}

Elf_Scn *tool_elf_section(Elf *e, const char *name, GElf_Shdr *sh)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(e, &shstrndx) != 0)
        return NULL;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        const char *n;
        if (gelf_getshdr(scn, sh) && (n = elf_strptr(e, shstrndx, sh->sh_name)) && !strcmp(n, name))
            return scn;
    }
    return NULL;
}

void tool_elf_close(Elf *e, int fd)
{
    if (e)
        elf_end(e);
    close(fd);
}
