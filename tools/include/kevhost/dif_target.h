// SPDX-License-Identifier: MIT
// The programs a compiled D object's pid$target probes name, which is how $target is bound
// without -T/-c/-p (docs/pid.md): dcompile and dtrace -i bind it by the one program those
// probes name. Inline over the object (d/dif.h), as dcompile and dtrace link the D sources
// themselves and the host library holds none of them.
#ifndef KEVHOST_DIF_TARGET_H
#define KEVHOST_DIF_TARGET_H

#include <d/dif.h>
#include <d/dprobes.h>
#include <stdint.h>
#include <string.h>

// Probe p is a pid probe whose process is $target (bound to `placeholder` for the compile).
static inline int dif_probe_on_target(const struct dif_probe *p, uint32_t placeholder)
{
    return DPROBE_IS_PID(p->dp_id) && (uint32_t)(p->dp_period >> 32) == placeholder;
}

// The next program o's pid$target probes name, from probe *k on, that no earlier one named
// (each program once, in the order of the probes); NULL after the last. Start with *k = 0.
static inline const char *dif_target_next(const struct dif_obj *o, uint32_t placeholder,
                                          uint32_t *k)
{
    for (; *k < o->hdr->dh_nprobes; (*k)++) {
        const struct dif_probe *p = &o->probes[*k];
        if (!dif_probe_on_target(p, placeholder))
            continue;
        const char *m = dif_str(o, p->dp_mod);
        uint32_t j = 0;
        while (j < *k && !(dif_probe_on_target(&o->probes[j], placeholder) &&
                           !strcmp(dif_str(o, o->probes[j].dp_mod), m)))
            j++;
        if (j == *k) {
            (*k)++;
            return m;
        }
    }
    return NULL;
}

#endif
