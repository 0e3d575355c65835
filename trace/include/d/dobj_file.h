// SPDX-License-Identifier: MIT
// A compiled D program as a file, for running it on a target: a fixed header with the
// program's resolved options, then the DIF object. Written by the host (tools/dcompile), read
// by the target's dtrace program (user/apps/dtrace), which hands the object to the kernel.
// Little-endian, like the targets.
#ifndef D_DOBJ_FILE_H
#define D_DOBJ_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DOBJ_MAGIC   0x4f54444bu    // "KDTO"
#define DOBJ_VERSION 2u

struct dobj_file_hdr {
    uint32_t magic, version;
    uint32_t objlen;            // bytes of DIF object after this header
    uint32_t bufsize, aggsize, dynvarsize, specsize, nspec;
    uint32_t bufpolicy;         // d/dvm.h enum dvm_bufpolicy
    uint32_t bufresize_manual;
    uint32_t switchrate_ms;
    uint32_t quiet;
    uint32_t cpu_only;          // -x cpu=N: N + 1; 0: every CPU
    uint32_t encoding;          // -x encoding: d/dcons.h DCONS_ENC_*; 0: unset (ascii)
    uint32_t aggpack;           // -x aggpack: quantize/lquantize printed packed (d/dcons.h)
    uint32_t destructive;       // -x destructive / -w: system( ), freopen( ) allowed
    uint32_t prio;              // -x prio=N: the board's consumer's priority while the program
                                // runs (0: DOBJ_CONSUMER_PRIO)
    uint32_t pad;               // (0: the object after the header stays 8-byte aligned)
};

_Static_assert(sizeof(struct dobj_file_hdr) == 72, "dobj header layout");

// The board's consumer reads its buffers below the programs' default priority (10: user/
// module.mk's APP_DEFAULT_PRIO), as a DTrace consumer is an ordinary process: a program's
// real-time work runs first and the buffers it fills meanwhile drop, counted
// (docs/dtrace-target.md, "What watching costs").
#define DOBJ_CONSUMER_PRIO 9u
#define DOBJ_PRIO_MAX      255u

// Whether the n bytes at h are such a file: this header and the whole object after it.
static inline bool dobj_file_ok(const struct dobj_file_hdr *h, size_t n)
{
    return n >= sizeof(*h) && h->magic == DOBJ_MAGIC && h->version == DOBJ_VERSION &&
           h->objlen <= n - sizeof(*h);
}

#endif
