// SPDX-License-Identifier: MIT
// Reading an image's fbt table for the host tools (tool_fbt.h): the .fbt section of the ELF
// file, checked by dfbt_open before anything reads it.
#include "tool_fbt.h"
#include <d/dfbt.h>
#include <d/dprobes.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tool_fbt_load(const char *tool, const char *path)
{
    static struct dfbt table;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
        return -1;
    }
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    size_t shstrndx;
    void *copy = NULL;
    size_t len = 0;
    if (!e || elf_getshdrstrndx(e, &shstrndx) != 0) {
        fprintf(stderr, "%s: %s: not an ELF file\n", tool, path);
        goto fail;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
            strcmp(name, ".fbt") != 0)
            continue;
        Elf_Data *d = elf_rawdata(scn, NULL);
        if (!d || !d->d_buf)
            break;
        len = d->d_size;
        copy = aligned_alloc(8, (len + 7) & ~(size_t)7);
        if (!copy)
            break;
        memcpy(copy, d->d_buf, len);
        break;
    }
    char err[128];
    if (!copy) {   // an image without the fbt provider: its fbt probes match nothing
        elf_end(e);
        close(fd);
        return 1;
    }
    const struct dfbt_hdr *h = copy;
    if (len >= sizeof(*h) && h->dh_magic == DFBT_MAGIC && h->dh_len <= len)
        len = h->dh_len;   // the section may end in padding
    if (dfbt_open(&table, copy, len, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, err);
        goto fail;
    }
    elf_end(e);
    close(fd);
    dprobe_fbt_use(&table);
    return 0;
fail:
    free(copy);
    if (e)
        elf_end(e);
    close(fd);
    return -1;
}

int tool_fbt_option(const char *tool, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *file = NULL;
        int take = 0;
        if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
            file = argv[i + 1];
            take = 2;
        } else if (!strncmp(argv[i], "--kernel=", 9)) {
            file = argv[i] + 9;
            take = 1;
        } else if (!strcmp(argv[i], "--")) {
            break;
        }
        if (!take)
            continue;
        if (tool_fbt_load(tool, file) < 0)
            return -1;
        i += take - 1;
    }
    return 0;
}
