// SPDX-License-Identifier: MIT
// The target's memory as a file the host maps (tools/common/kev_mem_file.c): QEMU backs a
// guest's RAM with it (-object memory-backend-file,mem-path=FILE,share=on), so the host reads
// and writes the running guest's memory with no debugger and no halt. The file's byte 0 is the
// guest's address `base`. Reads copy what is there at that moment (a word the guest writes
// meanwhile may be old or new: the probe protocol re-reads what it must, trace/kev_probe.h);
// a 4-byte aligned write is one sequentially consistent store.
#ifndef KEVHOST_KEV_MEM_FILE_H
#define KEVHOST_KEV_MEM_FILE_H

#include <kevhost/kev_probe.h>

struct kev_mem_file {
    uint8_t *mf_map;
    size_t mf_len;
    uint64_t mf_base;
    char mf_err[300];
};
// Maps `path` (its whole length) for guest address `base`: 0, or -1 with mf_err said.
int kev_mem_file_open(struct kev_mem_file *f, const char *path, uint64_t base);
void kev_mem_file_close(struct kev_mem_file *f);
// The kev_mem that reads and writes through it.
struct kev_mem kev_mem_file_ops(struct kev_mem_file *f);

#endif
