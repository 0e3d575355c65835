// SPDX-License-Identifier: MIT
// Kernel variables over a capture (kevkvar.h). Live, the board's kernel reads its own memory
// for `name (kernel/kdtrace.c, kdt_kread); a capture holds events, not memory. Where the events
// fix the value the replay gives it, so that `mpid in a tick-1sec clause prints over the
// capture what it printed live; elsewhere one line says the value is not there, where the
// engine would report an invalid address at every firing.
#include "kevkvar.h"
#include "kevreplay.h"
#include <d/dvm.h>
#include <kevhost/tool_elfsym.h>
#include <stdio.h>
#include <string.h>

#define KVARS 32u

/* an object the program reads, as the compiler looked it up */
static struct kvar {
    char name[48];
    uint64_t addr, size;
    uint8_t said;       /* its "not in the capture" line was printed */
} kvars[KVARS];
static unsigned nkvars, replay_ncpus;

int kev_kvar_object(const char *mod, const char *name, uint64_t *addr, uint64_t *size)
{
    if (elfsym_object(mod, name, addr, size) != 0)
        return -1;
    for (unsigned k = 0; k < nkvars; k++)
        if (kvars[k].addr == *addr)
            return 0;
    if (nkvars < KVARS) {
        struct kvar *v = &kvars[nkvars++];
        snprintf(v->name, sizeof(v->name), "%s", name);
        v->addr = *addr;
        v->size = *size;
    }
    return 0;
}

/* capture_read: dvm_kread over the capture (its signature: 0, or -1 for an address that is
 * no object the program named) */
static int capture_read(void *dst, uint64_t addr, unsigned n)
{
    for (unsigned k = 0; k < nkvars; k++) {
        struct kvar *v = &kvars[k];
        if (addr < v->addr || addr + n > v->addr + v->size)
            continue;
        uint64_t val = 0;
        if (!strcmp(v->name, "next_pid"))
            val = (uint64_t)kev_replay_pid_max() + 1u;
        else if (!strcmp(v->name, "k_ncpus"))
            val = replay_ncpus;
        else if (!v->said) {
            v->said = 1;
            fprintf(stderr, "dtrace: `%s is kernel memory, which a capture does not hold: it "
                    "reads 0 over the capture (live, the board reads the kernel's)\n", v->name);
        }
        memcpy(dst, &val, n);   /* little-endian, as every target is */
        return 0;
    }
    return -1;
}

void kev_kvar_replay(unsigned ncpus)
{
    replay_ncpus = ncpus;
    dvm_kread = capture_read;
}
