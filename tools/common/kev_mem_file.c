// SPDX-License-Identifier: MIT
// The target's memory through a file the host maps (kevhost/kev_mem_file.h): QEMU's guest RAM
// shared with the host. Every address is checked against the file's range: a block that names
// memory outside it is refused with a sentence, never read past the mapping.
#include <kevhost/kev_mem_file.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int kev_mem_file_open(struct kev_mem_file *f, const char *path, uint64_t base)
{
    memset(f, 0, sizeof(*f));
    f->mf_base = base;
    int fd = open(path, O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0) {
        snprintf(f->mf_err, sizeof(f->mf_err), "%s: %s", path,
                 fd < 0 || errno ? strerror(errno) : "empty (QEMU has not made it yet)");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(f->mf_err, sizeof(f->mf_err), "mapping %s: %s", path, strerror(errno));
        return -1;
    }
    f->mf_map = m;
    f->mf_len = (size_t)st.st_size;
    return 0;
}

void kev_mem_file_close(struct kev_mem_file *f)
{
    if (f->mf_map)
        munmap(f->mf_map, f->mf_len);
    f->mf_map = NULL;
}

// The mapping's bytes for [addr, addr + n), or NULL (said) when they are not all in the file.
static uint8_t *at(struct kev_mem_file *f, uint64_t addr, size_t n)
{
    if (addr < f->mf_base || addr - f->mf_base > f->mf_len || n > f->mf_len - (addr - f->mf_base)) {
        snprintf(f->mf_err, sizeof(f->mf_err), "0x%llx..0x%llx is not in the shared RAM "
                 "(0x%llx..0x%llx): the block names memory the host cannot reach",
                 (unsigned long long)addr, (unsigned long long)(addr + n),
                 (unsigned long long)f->mf_base, (unsigned long long)(f->mf_base + f->mf_len));
        return NULL;
    }
    return f->mf_map + (addr - f->mf_base);
}

static int file_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
    uint8_t *p = at(ctx, addr, n);
    if (!p)
        return -1;
    // (ordered after the host's last store, before what the caller reads next: the claim's
    // re-read, trace/kev_probe.h)
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    memcpy(buf, p, n);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return 0;
}

static int file_write(void *ctx, uint64_t addr, const void *buf, size_t n)
{
    uint8_t *p = at(ctx, addr, n);
    if (!p)
        return -1;
    if (n == 4 && !((uintptr_t)p & 3u)) {
        uint32_t v;
        memcpy(&v, buf, 4);
        __atomic_store_n((uint32_t *)(void *)p, v, __ATOMIC_SEQ_CST);
    } else {
        memcpy(p, buf, n);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    return 0;
}

static const char *file_error(void *ctx)
{
    return ((struct kev_mem_file *)ctx)->mf_err;
}

struct kev_mem kev_mem_file_ops(struct kev_mem_file *f)
{
    struct kev_mem m = { file_read, file_write, file_error, f };
    return m;
}
