// SPDX-License-Identifier: MIT
// DTrace(cmd, a, b, c): the kernel's D provider (trace/d/ is the engine). A consumer loads a
// compiled D program (a DIF object, d/dif.h), starts it, reads its records at its switch rate
// and stops it; the kernel verifies the object before it runs anything, fires the program's
// probes from its trace hooks, and maps the engine's state read-only into the consumer so it
// can print aggregations. Needs KAPP_F_TRACE. Returns >= 0, or -1 with errno.
#ifndef UAPI_KDTRACE_H
#define UAPI_KDTRACE_H

#include <stdint.h>

enum kdt_cmd {
    KDT_LOAD = 1,   // (struct kdt_load *): verify and load; refused (EINVAL, ENOMEM, EEXIST,
                    // EFAULT) with the reason in errbuf, when the struct itself is readable
    KDT_GO = 2,     // (errbuf, errlen): fires BEGIN, then the program's probes; returns the
                    // number of fbt probe sites placed; EINVAL, ENOSPC, ENOMEM with the
                    // reason in errbuf when its fbt probes cannot be placed
    KDT_STOP = 3,   // fires END; probes stop
    KDT_READ = 4,   // (cpu, buf, len): the principal buffer's records; len >= bufsize
    KDT_STATE = 5,  // -> address of the engine's struct dvm_state (read-only mapping)
    KDT_UNLOAD = 6,
    KDT_AGGCLEAR = 7,   // (agg): clear() / the consumer's part of trunc(): values to zero
    KDT_AGGREMOVE = 8,  // (agg, keys): drop one key (trunc); keys as the consumer read them
    KDT_FBT_TABLE = 9,  // (buf, len): the kernel's fbt table's description (d/dfbt.h: its
                        // functions and names), copied when len holds it; returns its size
                        // either way. ENOENT: this kernel has none. No program needed.
    KDT_COST = 10,      // (struct kdt_cost *): what the program's probes have cost the board
                        // since KDT_GO (its consumer's; ECANCELED: no program loaded)
};

// KDT_COST: the firings of the program's probes and the board's time in its probe sites (from
// a site's opening to its close: the hook's D work, the clauses, the event the site records
// when the ring records it), summed over the CPUs, and the board's time since KDT_GO (each CPU's
// when it runs: the span times the CPUs), all in the cycle counter's counts.
struct kdt_cost {
    uint64_t firings;
    uint64_t site_cycles;
    uint64_t run_cycles;
};

#define KDT_OBJ_MAX (64u * 1024u)   // the largest compiled program KDT_LOAD takes (bytes)

struct kdt_load {
    uint32_t obj, objlen;           // the DIF object in the caller's memory
    uint32_t bufsize, aggsize, dynvarsize, specsize;
    uint32_t bufpolicy;             // d/dvm.h enum dvm_bufpolicy
    uint32_t bufresize_manual;      // 0: halve bufsize until it fits (and say so); 1: fail
    uint32_t nspec;
    uint32_t errbuf, errlen;        // where the kernel writes why it refused the program
    uint32_t cpu_only;              // -x cpu=N: N + 1, probes fire on CPU N only (BEGIN, END,
                                    // ERROR and tick-N wherever they come); 0: every CPU
    uint32_t dobj_hdr;              // the program's .dobj header (d/dobj_file.h, 72 bytes: its
                                    // output options and -w), or 0: kept for an incident record
                                    // (docs/incidents.md), and its destructive word is what
                                    // allows panic( ) and breakpoint( )
};

#endif
