// SPDX-License-Identifier: MIT
// Physical memory allocator for large contiguous blocks (the trace ring needs 32 x 16 KB in
// one piece). A bitmap of fixed-size pages over one region; first fit, with alignment.
// It says no cleanly (NULL) when no run of free pages is long enough. Portable: the region is
// given by the board, the host tests give it an array.
#ifndef KERNEL_PMEM_H
#define KERNEL_PMEM_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#define PMEM_PAGE_SHIFT 12
#define PMEM_PAGE_SIZE  (1u << PMEM_PAGE_SHIFT)
#define PMEM_MAX_PAGES  1024

struct pmem {
    uintptr_t base;
    size_t npages;
    size_t nfree;
    uint32_t used[PMEM_MAX_PAGES / 32];     // bit set: page allocated
    uint16_t run[PMEM_MAX_PAGES];           // at the first page of a block: its page count
};

// The region must be page aligned; pages beyond PMEM_MAX_PAGES are ignored.
void pmem_init(struct pmem *m, uintptr_t base, size_t size);
// size rounded up to pages; align a power of two >= 1 (bytes). NULL when no block fits.
void *pmem_alloc(struct pmem *m, size_t size, size_t align);
// Frees a block returned by pmem_alloc. Returns false (and changes nothing) for an address
// that is not the start of an allocated block.
bool pmem_free(struct pmem *m, void *p);
size_t pmem_free_bytes(const struct pmem *m);
size_t pmem_largest_free(const struct pmem *m);

extern struct pmem k_pmem;

#endif
