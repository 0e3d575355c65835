// SPDX-License-Identifier: MIT
// Reading an image's fbt table for the host tools (tool_fbt.h): the .fbt section of the ELF
// file, checked by dfbt_open before anything reads it.
#include <kevhost/tool_fbt.h>
#include <kevhost/tool_elf.h>
#include <d/dfbt.h>
#include <d/dprobes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The .fbt section's bytes copied (8-byte aligned, as dfbt_open reads them) into *copy, their
// length in *len; *copy NULL when e has no such section or it cannot be copied.
static void copy_table(Elf *e, void **copy, size_t *len)
{
    GElf_Shdr sh;
    Elf_Scn *scn = tool_elf_section(e, ".fbt", &sh);
    Elf_Data *d = scn ? elf_rawdata(scn, NULL) : NULL;
    *copy = NULL;
    *len = 0;
    if (!d || !d->d_buf)
        return;
    *len = d->d_size;
    *copy = aligned_alloc(8, (*len + 7) & ~(size_t)7);
    if (*copy)
        memcpy(*copy, d->d_buf, *len);
}

int tool_fbt_load(const char *tool, const char *path, int required)
{
    static struct dfbt table;
    int fd;
    Elf *e = tool_elf_open(tool, path, &fd);
    if (!e)
        return -1;
    void *copy;
    size_t len;
    copy_table(e, &copy, &len);
    tool_elf_close(e, fd);
    char err[128];
    if (!copy && !required)     // an image without the provider: no fbt probes, no error
        return 0;
    if (!copy) {
        fprintf(stderr, "%s: %s: no fbt table (an image of a kernel with the fbt provider, "
                "docs/fbt.md)\n", tool, path);
        return -1;
    }
    const struct dfbt_hdr *h = copy;
    if (len >= sizeof(*h) && h->dh_magic == DFBT_MAGIC && h->dh_len <= len)
        len = h->dh_len;   // the section may end in padding
    if (dfbt_open(&table, copy, len, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, err);
        free(copy);
        return -1;
    }
    dprobe_fbt_use(&table);
    return 0;
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
