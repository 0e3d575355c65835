// SPDX-License-Identifier: MIT
// Boards whose loader hands the kernel no files (kernel/bootfile.h): the ARM boards read host
// files through semihosting itself. Nothing is ever open.
#include <kernel/bootfile.h>

int bootfile_add(const char *name, uint32_t len, uintptr_t start, uint32_t size)
{
    (void)name;
    (void)len;
    (void)start;
    (void)size;
    return -1;
}

unsigned bootfile_count(void)
{
    return 0;
}

int32_t bootfile_open(const struct proc *p, const volatile char *name, uint32_t len, uint32_t mode)
{
    (void)p;
    (void)name;
    (void)len;
    (void)mode;
    return -1;
}

bool bootfile_is_handle(uint32_t h)
{
    (void)h;
    return false;
}

int32_t bootfile_read(const struct proc *p, uint32_t h, volatile uint8_t *buf, uint32_t n)
{
    (void)p;
    (void)h;
    (void)buf;
    (void)n;
    return -1;
}

int32_t bootfile_seek(const struct proc *p, uint32_t h, uint32_t pos)
{
    (void)p;
    (void)h;
    (void)pos;
    return -1;
}

int32_t bootfile_flen(const struct proc *p, uint32_t h)
{
    (void)p;
    (void)h;
    return -1;
}

int32_t bootfile_close(const struct proc *p, uint32_t h)
{
    (void)p;
    (void)h;
    return -1;
}
