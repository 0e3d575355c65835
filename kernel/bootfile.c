// SPDX-License-Identifier: MIT
// Files the boot loader handed the kernel, read through the semihosting calls (kernel/bootfile.h).
// The table is written once at boot, before any process runs, and read only after; the opens
// are kernel state touched only in kernel calls (the kernel is not re-entered).
#include <kernel/bootfile.h>
#include <kernel/proc.h>

struct bootfile {
    char name[BOOTFILE_NAME_MAX + 1];
    uint32_t len;
    uintptr_t start;
    uint32_t size;
};

struct bootopen {
    const struct proc *p;     // NULL: free
    uint32_t file, pos;
};

static struct bootfile files[BOOTFILE_MAX];
static unsigned nfiles;
static struct bootopen opens[BOOTFILE_OPENS];

int bootfile_add(const char *name, uint32_t len, uintptr_t start, uint32_t size)
{
    if (nfiles == BOOTFILE_MAX || len == 0 || len > BOOTFILE_NAME_MAX)
        return -1;
    struct bootfile *f = &files[nfiles++];
    for (uint32_t i = 0; i < len; i++)
        f->name[i] = name[i];
    f->name[len] = '\0';
    f->len = len;
    f->start = start;
    f->size = size;
    return 0;
}

unsigned bootfile_count(void)
{
    return nfiles;
}

static struct bootopen *opened(const struct proc *p, uint32_t h)
{
    if (!bootfile_is_handle(h) || opens[h - BOOTFILE_HANDLE0].p != p)
        return NULL;
    return &opens[h - BOOTFILE_HANDLE0];
}

int32_t bootfile_open(const struct proc *p, const volatile char *name, uint32_t len, uint32_t mode)
{
    if (mode > 1)       // semihosting's "r" and "rb": these files are read-only
        return -1;
    for (unsigned f = 0; f < nfiles; f++) {
        uint32_t i = 0;
        if (files[f].len != len)
            continue;
        while (i < len && name[i] == files[f].name[i])
            i++;
        if (i < len)
            continue;
        for (unsigned o = 0; o < BOOTFILE_OPENS; o++)
            if (!opens[o].p) {
                opens[o] = (struct bootopen){ p, f, 0 };
                return (int32_t)(BOOTFILE_HANDLE0 + o);
            }
        return -1;
    }
    return -1;
}

bool bootfile_is_handle(uint32_t h)
{
    return h >= BOOTFILE_HANDLE0 && h < BOOTFILE_HANDLE0 + BOOTFILE_OPENS;
}

int32_t bootfile_read(const struct proc *p, uint32_t h, volatile uint8_t *buf, uint32_t n)
{
    struct bootopen *o = opened(p, h);
    if (!o)
        return -1;
    const struct bootfile *f = &files[o->file];
    uint32_t left = f->size - o->pos, take = n < left ? n : left;
    const uint8_t *src = (const uint8_t *)(f->start + o->pos);
    for (uint32_t i = 0; i < take; i++)
        buf[i] = src[i];
    o->pos += take;
    return (int32_t)(n - take);
}

int32_t bootfile_seek(const struct proc *p, uint32_t h, uint32_t pos)
{
    struct bootopen *o = opened(p, h);
    if (!o || pos > files[o->file].size)
        return -1;
    o->pos = pos;
    return 0;
}

int32_t bootfile_flen(const struct proc *p, uint32_t h)
{
    struct bootopen *o = opened(p, h);
    return o ? (int32_t)files[o->file].size : -1;
}

int32_t bootfile_close(const struct proc *p, uint32_t h)
{
    struct bootopen *o = opened(p, h);
    if (!o)
        return -1;
    o->p = NULL;
    return 0;
}
