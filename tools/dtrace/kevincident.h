// SPDX-License-Identifier: MIT
// The D program an incident's .kev holds (kevincident.c, docs/incidents.md): what the board's
// D program had when its trigger fired, for dtrace -i with no program of its own.
#ifndef TOOLS_DTRACE_KEVINCIDENT_H
#define TOOLS_DTRACE_KEVINCIDENT_H

#include <d/dvm.h>
#include <d/dobj_file.h>
#include <stdint.h>

struct kev_dsnap {
    struct dobj_file_hdr hdr;       // its consumer's options (quiet, aggpack, ...)
    uint8_t *obj;                   // the compiled object (hdr.objlen bytes)
    unsigned ncpu;                  // the CPUs its buffers were per
    uint8_t *recs[DVM_MAXCPU];      // each CPU's unread records, as the kernel held them
    uint32_t nrecs[DVM_MAXCPU];
    uint8_t *agg[DVM_MAXCPU];       // each CPU's aggregation entries
    uint32_t nagg[DVM_MAXCPU];
    uint64_t drops[DVM_MAXCPU];     // its principal-buffer drops until then
};

// The snapshot of capture path: 0 and *s filled (malloc'd parts); -1 after saying why (no such
// file, no incident's D program in it, a section that does not hold together).
int kev_dsnap_read(const char *path, struct kev_dsnap *s);
// st loaded with s's program (dvm_load, the options its .dobj header gives, engine memory of
// its own) and each CPU's aggregations restored: 0, or -1 after saying why.
int kev_dsnap_load(const struct kev_dsnap *s, struct dvm_state *st);

#endif
