// SPDX-License-Identifier: MIT
// Stack unwinding for stack( ) and ustack( ) (docs/profiling.md): the contract between the
// portable kernel and each architecture's unwinder, and the frame-record walker that AArch64
// and i686 share. Every walk runs in the probe context (kernel entered, interrupts off), so it
// is bounded (at most `max` frames, each frame's caller strictly above it on the stack) and
// reads memory only through a checked reader: a corrupt or hostile stack ends the walk early
// with a counted error, never a kernel fault or an endless loop.
#ifndef KERNEL_UNWIND_H
#define KERNEL_UNWIND_H

#include <stdint.h>

struct thread;

// Reads n bytes at addr into dst; 0, or -1 when the memory is not the walk's to read.
typedef int (*unwind_read_fn)(const void *ctx, uint64_t addr, void *dst, unsigned n);

struct unwind_mem {
    unwind_read_fn read;
    const void *ctx;
    uint64_t lo, hi;   // the stack's bounds: a frame outside [lo, hi) ends the walk
};

// Why a walk ended early (every one counted in unwind_errors[]).
enum unwind_err {
    UNWIND_OK = 0,
    UNWIND_E_READ,     // a frame points at memory the walk may not read (unmapped, kernel,
                       // another process)
    UNWIND_E_ALIGN,    // a frame pointer that is not word-aligned
    UNWIND_E_LOOP,     // a caller's frame not above its callee's (a loop of frame records)
    UNWIND_E_BOUNDS,   // a frame outside the stack's bounds
    UNWIND_E_NOINFO,   // no unwind table entry for a pc, or one the unwinder does not know
    UNWIND_E_COUNT
};
extern uint32_t unwind_errors[UNWIND_E_COUNT];
const char *unwind_err_name(unsigned err);

// Frame records (AArch64's x29 chain, i686's ebp chain): a record at fp holds the caller's
// fp, then the return address, each `word` bytes (8 or 4). Writes pc, then each return
// address, to pcs (at most max); returns the count. *err (may be NULL) says why it ended.
unsigned unwind_frame_records(const struct unwind_mem *m, unsigned word, uint64_t pc,
                              uint64_t fp, uint64_t *pcs, unsigned max, int *err);


// The bounded reader: ctx is the struct unwind_mem itself; reads only inside its [lo, hi) (a
// kernel stack). A process's memory is read by the core's checked reader, unwind_read_user
// (kernel/arch_upcall.h; the arch's unwinders' memory's `read`).
int unwind_read_bounded(const void *ctx, uint64_t addr, void *dst, unsigned n);

// Counts an error of a walk (no-op for UNWIND_OK).
void unwind_count(int err);

#endif
