// SPDX-License-Identifier: MIT
// (placeholder: filled in with the board)
#include "fbtgen.h"
#include <string.h>

static int dec(const uint8_t *p, size_t avail, uint64_t pc, struct insn *in)
{
    (void)p; (void)avail; (void)pc;
    memset(in, 0, sizeof(*in));
    in->cls = I_BAD;
    return -1;
}

static int slot(const uint8_t *p, const struct insn *in, uint64_t pc, uint64_t s, fbt_read_fn read,
                uint8_t out[DFBT_SLOT_BYTES], const char **why)
{
    (void)p; (void)in; (void)pc; (void)s; (void)read; (void)out;
    *why = "no decoder";
    return -1;
}

const struct fbt_isa fbt_a64 = { .arch = 0, .trap_len = 1, .insn_align = 1, .decode = dec, .slot = slot };
