// SPDX-License-Identifier: MIT
// dtrace -i over an incident's .kev with no program: the board's D program when its trigger
// fired (docs/incidents.md), read from the system page's INCIDENT records (the record's DOBJ,
// DBUF and DAGG sections, trace/kev_incident.h, kev_sp_incident_at) and loaded into the host's
// engine as the board's was: its object and options, each CPU's aggregation entries restored
// (dvm_agg_restore). dtrace.c then hands each CPU's unread records to the consumer and prints
// the aggregations, as the board's consumer would have at its end.
#include "kevincident.h"
#include <kevhost/tool_file.h>
#include <trace/kev_decode.h>
#include <trace/kev_incident.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENGINE_BYTES (64u << 20)

int kev_dsnap_read(const char *path, struct kev_dsnap *s)
{
    size_t len;
    uint8_t *data = tool_read_file(path, &len);
    static struct kev_reader r;
    memset(s, 0, sizeof(*s));
    if (!data || kev_open(&r, data, len) != 0) {
        fprintf(stderr, "dtrace: cannot read %s: %s\n", path, data ? kev_error(&r) : "no such file");
        free(data);
        return -1;
    }
    int have_obj = 0;
    uint32_t type;
    long n;
    for (unsigned k = 0; (n = kev_sp_incident_at(&r, k, &type, NULL, 0)) >= 0; k++) {
        uint8_t *b = malloc((size_t)n + 1u);
        if (!b || kev_sp_incident_at(&r, k, &type, b, (size_t)n) != n) {
            free(b);
            break;
        }
        struct kev_inc_dcpu c;
        if (type == KEV_INC_DOBJ && (size_t)n >= sizeof(s->hdr)) {
            memcpy(&s->hdr, b, sizeof(s->hdr));
            if (!dobj_file_ok(&s->hdr, (size_t)n)) {
                fprintf(stderr, "dtrace: %s: its incident's D program is not a whole .dobj\n", path);
                free(b);
                free(data);
                return -1;
            }
            s->obj = malloc(s->hdr.objlen);
            memcpy(s->obj, b + sizeof(s->hdr), s->hdr.objlen);
            have_obj = 1;
        } else if ((type == KEV_INC_DBUF || type == KEV_INC_DAGG) && (size_t)n >= sizeof(c)) {
            memcpy(&c, b, sizeof(c));
            if (c.cpu >= DVM_MAXCPU || c.bytes > (uint32_t)n - sizeof(c)) {
                fprintf(stderr, "dtrace: %s: an incident section names CPU %u or %u bytes it "
                        "does not hold\n", path, (unsigned)c.cpu, (unsigned)c.bytes);
                free(b);
                free(data);
                return -1;
            }
            uint8_t *p = malloc(c.bytes + 1u);
            memcpy(p, b + sizeof(c), c.bytes);
            if (type == KEV_INC_DBUF) {
                s->recs[c.cpu] = p;
                s->nrecs[c.cpu] = c.bytes;
                s->drops[c.cpu] = (uint64_t)c.drops_hi << 32 | c.drops_lo;
            } else {
                s->agg[c.cpu] = p;
                s->nagg[c.cpu] = c.bytes;
            }
            if (c.cpu + 1u > s->ncpu)
                s->ncpu = c.cpu + 1u;
        }
        free(b);
    }
    free(data);
    if (!have_obj) {
        fprintf(stderr, "dtrace: %s holds no D program of an incident (an incident's .kev, "
                "docs/incidents.md, has one): give a program with -n or -s\n", path);
        return -1;
    }
    if (!s->ncpu)
        s->ncpu = 1;
    return 0;
}

int kev_dsnap_load(const struct kev_dsnap *s, struct dvm_state *st)
{
    const struct dobj_file_hdr *h = &s->hdr;
    struct dvm_opts o = { h->bufsize, h->aggsize, h->dynvarsize, h->bufpolicy,
                          h->bufresize_manual, s->ncpu, h->nspec, h->specsize, 0 };
    char err[256];
    if (dvm_load(st, s->obj, h->objlen, &o, malloc(ENGINE_BYTES), ENGINE_BYTES, err,
                 sizeof(err)) != 0) {
        fprintf(stderr, "dtrace: the incident's D program does not load: %s\n", err);
        return -1;
    }
    for (unsigned c = 0; c < s->ncpu; c++)
        if (s->nagg[c] && dvm_agg_restore(st, c, s->agg[c], s->nagg[c]) != 0) {
            fprintf(stderr, "dtrace: the incident's aggregations of CPU %u are not whole "
                    "entries of its program's (%u bytes)\n", c, (unsigned)s->nagg[c]);
            return -1;
        }
    return 0;
}
