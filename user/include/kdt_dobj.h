// SPDX-License-Identifier: MIT
// A compiled D program file (d/dobj_file.h) as the kernel's load request (uapi/kdtrace.h,
// KDT_LOAD): its object, just after the header, and the options the host resolved into it. One
// place for every program that loads such a file (the target's dtrace, pidself).
#ifndef KDT_DOBJ_H
#define KDT_DOBJ_H

#include <stdint.h>
#include <d/dobj_file.h>
#include <uapi/kdtrace.h>

// why: where the kernel writes why it refused the program (len bytes).
static inline struct kdt_load kdt_load_of(const struct dobj_file_hdr *h, char *why, uint32_t len)
{
    struct kdt_load l = {
        .obj = (uint32_t)(uintptr_t)(h + 1), .objlen = h->objlen, .bufsize = h->bufsize,
        .aggsize = h->aggsize, .dynvarsize = h->dynvarsize, .specsize = h->specsize,
        .bufpolicy = h->bufpolicy, .bufresize_manual = h->bufresize_manual, .nspec = h->nspec,
        .errbuf = (uint32_t)(uintptr_t)why, .errlen = len, .cpu_only = h->cpu_only,
        .dobj_hdr = (uint32_t)(uintptr_t)h,
    };
    return l;
}

#endif
