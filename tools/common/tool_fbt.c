// SPDX-License-Identifier: MIT
// Reading an image's fbt table for the host tools (tool_fbt.h): the .fbt section of the ELF
// file, checked by dfbt_open before anything reads it.
#include <kevhost/tool_fbt.h>
#include <d/dfbt.h>
#include <d/dprobes.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tool_fbt_load(const char *tool, const char *path, int required)
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
    if (!copy && !required) {   // an image without the provider: no fbt probes, no error
        elf_end(e);
        close(fd);
        return 0;
    }
    if (!copy) {
        fprintf(stderr, "%s: %s: no fbt table (an image of a kernel with the fbt provider, "
                "docs/fbt.md)\n", tool, path);
        goto fail;
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

int tool_fbt_kernel(const char *tool, int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--kernel") && tool_fbt_load(tool, argv[++i], 0) != 0)
            return -1;
    }
    return 0;
}
