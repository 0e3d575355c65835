// SPDX-License-Identifier: MIT
// A D program's timers as a capture names them: the digest of its tick-N and profile-N probes
// (each one's kind and period, in the object's order), 24 bits. The kernel writes it in the
// program's DPROG go event; the capture's DTIMER events are that program's timer runs
// (trace/kev.h), so dtrace -i fires a program's timers at them only when its own digest is the
// same: another program's timers come due at other times (docs/d-consumer.md).
#ifndef D_DTIMERS_H
#define D_DTIMERS_H

#include <d/dif.h>
#include <stdint.h>

#define DTIMER_DIGEST_BITS 24u

static inline uint32_t dtimer_digest(const struct dif_probe *probes, uint32_t nprobes)
{
    uint32_t h = 2166136261u;   // FNV-1a over each timer's flags and period, low byte first
    for (uint32_t k = 0; k < nprobes; k++) {
        if (!probes[k].dp_flags)
            continue;
        uint64_t v[2] = { probes[k].dp_flags, probes[k].dp_period };
        for (unsigned w = 0; w < 2; w++)
            for (unsigned b = 0; b < 8; b++)
                h = (h ^ (uint8_t)(v[w] >> (8u * b))) * 16777619u;
    }
    return h & ((1u << DTIMER_DIGEST_BITS) - 1u);
}

#endif
