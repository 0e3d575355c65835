// SPDX-License-Identifier: MIT
// Reading programs' USDT notes and functions for the host tools (tool_usdt.h). A stapsdt note (type 3,
// owner "stapsdt") holds the site's address, the .stapsdt.base address the program was linked
// with, the semaphore's address (0: none), then the provider, the name and the arguments'
// places as NUL-terminated strings. A site's address is corrected by where .stapsdt.base
// really is, as gdb does for a prelinked file (here always the same).
#include "tool_usdt.h"
#include <d/dprobes.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STAPSDT_TYPE 3u

static struct dprobe_usdt sites[DPROBE_USDT_MAX];
static unsigned nsites;
static struct dprobe_pidfn fns[DPROBE_PID_MAX];
static unsigned nfns;

// The functions of symtab a pid probe can name (docs/pid.md): each STT_FUNC symbol with a
// size, the module mod. 0, or -1 after saying there are too many.
static int load_functions(const char *tool, const char *path, Elf *e, const char *mod)
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; d && i < n; i++) {
            GElf_Sym s;
            const char *name;
            if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
                !s.st_size || !(name = elf_strptr(e, sh.sh_link, s.st_name)) || !*name)
                continue;
            if (nfns == DPROBE_PID_MAX) {
                fprintf(stderr, "%s: %s: more than %u functions in all\n", tool, path,
                        DPROBE_PID_MAX);
                return -1;
            }
            fns[nfns].mod = mod;
            fns[nfns].func = strdup(name);
            fns[nfns].addr = (uint32_t)(s.st_value & ~(uint64_t)1);
            nfns++;
        }
    }
    dprobe_pid_use(fns, nfns);
    return 0;
}

// The function of symtab that holds addr (a Thumb function's value without its bit 0).
static char *func_of(Elf *e, uint64_t addr)
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; d && i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC)
                continue;
            uint64_t v = s.st_value & ~(uint64_t)1;
            if (addr >= v && addr < v + s.st_size)
                return strdup(elf_strptr(e, sh.sh_link, s.st_name));
        }
    }
    return strdup("");
}

int tool_usdt_load(const char *tool, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
        return -1;
    }
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    size_t shstrndx;
    int found = 0, rc = 0;
    if (!e || elf_getshdrstrndx(e, &shstrndx) != 0) {
        fprintf(stderr, "%s: %s: not an ELF file\n", tool, path);
        rc = -1;
        goto out;
    }
    const char *slash = strrchr(path, '/');
    char *mod = strdup(slash ? slash + 1 : path);
    size_t ml = strlen(mod);
    if (ml > 4 && !strcmp(mod + ml - 4, ".elf"))
        mod[ml - 4] = '\0';
    if (load_functions(tool, path, e, mod) < 0) {
        rc = -1;
        goto out;
    }
    uint64_t base_now = 0;
    int wide = gelf_getclass(e) == ELFCLASS64;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
            !strcmp(name, ".stapsdt.base"))
            base_now = sh.sh_addr;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
            !(name = elf_strptr(e, shstrndx, sh.sh_name)) || strcmp(name, ".note.stapsdt"))
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        GElf_Nhdr nh;
        size_t off = 0, noff, doff;
        while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
            const char *desc = (const char *)d->d_buf + doff;
            size_t aw = wide ? 8 : 4;
            if (nh.n_type != STAPSDT_TYPE || nh.n_namesz != 8 ||
                memcmp((const char *)d->d_buf + noff, "stapsdt", 8) || nh.n_descsz < 3 * aw + 3)
                continue;
            uint64_t pc = 0, base = 0;
            memcpy(&pc, desc, aw);      // (the host and the targets are little-endian)
            memcpy(&base, desc + aw, aw);
            const char *prov = desc + 3 * aw, *end = desc + nh.n_descsz;
            const char *pname = memchr(prov, 0, (size_t)(end - prov));
            const char *args = pname ? memchr(pname + 1, 0, (size_t)(end - pname - 1)) : NULL;
            if (!args || !memchr(args + 1, 0, (size_t)(end - args - 1))) {
                fprintf(stderr, "%s: %s: a stapsdt note without its strings\n", tool, path);
                rc = -1;
                goto out;
            }
            if (nsites == DPROBE_USDT_MAX) {
                fprintf(stderr, "%s: %s: more than %u USDT sites in all\n", tool, path,
                        DPROBE_USDT_MAX);
                rc = -1;
                goto out;
            }
            if (base_now && base)
                pc += base_now - base;
            struct dprobe_usdt *u = &sites[nsites++];
            u->prov = strdup(prov);
            u->name = strdup(pname + 1);
            u->args = strdup(args + 1);
            u->mod = mod;
            u->func = func_of(e, pc);
            u->addr = (uint32_t)pc;
            found++;
        }
    }
    dprobe_usdt_use(sites, nsites);
    rc = found;
out:
    if (e)
        elf_end(e);
    close(fd);
    return rc;
}

int tool_usdt_option(const char *tool, int *argc, char **argv, int remove)
{
    for (int i = 1; i < *argc; i++) {
        const char *file = NULL;
        int take = 0;
        if (!strcmp(argv[i], "--elf") && i + 1 < *argc) {
            file = argv[i + 1];
            take = 2;
        } else if (!strncmp(argv[i], "--elf=", 6)) {
            file = argv[i] + 6;
            take = 1;
        } else if (!strcmp(argv[i], "--")) {
            break;
        }
        if (!take)
            continue;
        if (tool_usdt_load(tool, file) < 0)
            return -1;
        if (remove) {
            memmove(argv + i, argv + i + take, (size_t)(*argc - i - take + 1) * sizeof(*argv));
            *argc -= take;
            i--;
        } else {
            i += take - 1;
        }
    }
    return 0;
}
