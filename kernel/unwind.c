// SPDX-License-Identifier: MIT
// The frame-record walker (AArch64's x29 chain, i686's ebp chain), the unwinders' error
// counters and the reader of a kernel stack within bounds. Portable: the architecture supplies
// the first pc and frame pointer and a checked reader. Bounded: a caller's record must lie strictly above its callee's, inside the stack's
// bounds, so a walk takes at most `max` steps and never revisits a record.
#include <kernel/unwind.h>

uint32_t unwind_errors[UNWIND_E_COUNT];

const char *unwind_err_name(unsigned err)
{
    static const char *const names[UNWIND_E_COUNT] = {
        "ok", "unreadable frame", "unaligned frame", "frame loop", "frame out of bounds",
        "no unwind information" };
    return err < UNWIND_E_COUNT ? names[err] : "?";
}

void unwind_count(int err)
{
    if (err > UNWIND_OK && err < UNWIND_E_COUNT)
        unwind_errors[err]++;
}

unsigned unwind_frame_records(const struct unwind_mem *m, unsigned word, uint64_t pc,
                              uint64_t fp, uint64_t *pcs, unsigned max, int *err)
{
    unsigned n = 0;
    int why = UNWIND_OK;
    if (max && pc)
        pcs[n++] = pc;
    while (n < max && fp) {
        if (fp & (word - 1u)) {
            why = UNWIND_E_ALIGN;
            break;
        }
        if (fp < m->lo || fp >= m->hi || m->hi - fp < 2u * word) {
            why = UNWIND_E_BOUNDS;
            break;
        }
        uint64_t rec[2] = { 0, 0 };
        if (word == 8) {
            if (m->read(m->ctx, fp, rec, 16) != 0) {
                why = UNWIND_E_READ;
                break;
            }
        } else {
            uint32_t r32[2];
            if (m->read(m->ctx, fp, r32, 8) != 0) {
                why = UNWIND_E_READ;
                break;
            }
            rec[0] = r32[0];
            rec[1] = r32[1];
        }
        if (rec[1] == 0) // the outermost frame (crt0 clears the link)
            break;
        pcs[n++] = rec[1];
        // the next record must lie above this one; one below it that is otherwise a valid
        // frame pointer (aligned, in the stack) makes a loop; an invalid one is named as such
        // at the loop's top
        if (rec[0] && rec[0] <= fp && rec[0] >= m->lo && !(rec[0] & (word - 1u))) {
            why = UNWIND_E_LOOP;
            break;
        }
        fp = rec[0];
    }
    if (err)
        *err = why;
    return n;
}

int unwind_read_bounded(const void *ctx, uint64_t addr, void *dst, unsigned n)
{
    const struct unwind_mem *m = ctx;
    if (addr < m->lo || addr >= m->hi || m->hi - addr < n)
        return -1;
    __builtin_memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}
