// SPDX-License-Identifier: MIT
// A target's memory as the host readers reach it: through a GDB server (gdbr_mem,
// kevhost/gdb_remote.h), a file QEMU shares the guest's RAM through (kev_mem_file_ops), or a
// test's or a fuzzer's bytes. The probe path (kevprobe) and the post-mortem reader (kevdump)
// take it, so that what they believe of the target is tested without one.
#ifndef KEVHOST_KEV_MEM_H
#define KEVHOST_KEV_MEM_H

#include <stddef.h>
#include <stdint.h>

// read and write return 0, or -1 with error() saying why. A 4-byte write at a 4-byte aligned
// address is one store (the probe path's host words).
struct kev_mem {
    int (*read)(void *ctx, uint64_t addr, void *buf, size_t n);
    int (*write)(void *ctx, uint64_t addr, const void *buf, size_t n);
    const char *(*error)(void *ctx);
    void *ctx;
};

#endif
