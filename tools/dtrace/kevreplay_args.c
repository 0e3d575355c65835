// SPDX-License-Identifier: MIT
// dtrace -i's notes on the probe arguments a capture does not hold (kevreplay_args.h): which
// arguments the program reads, per probe, found once in its clauses' code; which firings
// lacked them, counted per reason; one line per reason at the end.
#include "kevreplay_args.h"
#include <d/dif.h>
#include <d/dprobes.h>
#include <stdio.h>
#include <string.h>

#define RARGS_NAMED 6u      /* probes named in a note, at most */

static uint16_t reads[DPROBE_COUNT];    /* table probe id -> arguments its clauses read */
static struct {
    uint64_t firings;
    unsigned args;
    uint32_t ids[RARGS_NAMED];
    unsigned nids, more;    /* more: other probes beyond those named */
} missing[RARGS_NWHY];

/* prog_args: the arguments program p loads (a bit per argument). */
static unsigned prog_args(const struct dif_obj *o, const struct dif_prog *p)
{
    unsigned m = 0;
    for (uint32_t pc = p->dp_start; pc < p->dp_start + p->dp_len; pc++) {
        uint32_t i = o->insns[pc];
        if (DIF_OP(i) == DIF_BUILTIN && DIF_IDX(i) < DIF_B_ARG0 + DVM_NARGS)
            m |= 1u << (DIF_IDX(i) - DIF_B_ARG0);
    }
    return m;
}

void rargs_begin(const struct dvm_state *st)
{
    const struct dif_obj *o = &st->obj;
    memset(reads, 0, sizeof(reads));
    memset(missing, 0, sizeof(missing));
    for (uint32_t e = 0; e < o->hdr->dh_necbs; e++) {
        uint32_t id = o->probes[o->ecbs[e].de_probe].dp_id;
        const struct dif_clause *c = &o->clauses[o->ecbs[e].de_clause];
        if (id >= DPROBE_COUNT)
            continue;
        unsigned m = prog_args(o, &c->dc_pred);
        for (uint32_t a = 0; a < c->dc_nacts; a++)
            m |= prog_args(o, &o->acts[c->dc_act + a].da_prog);
        reads[id] |= (uint16_t)m;
    }
}

void rargs_missing(uint32_t id, unsigned args, enum rargs_why why)
{
    if (id >= DPROBE_COUNT || !(reads[id] & args))
        return;
    missing[why].firings++;
    missing[why].args |= reads[id] & args;
    for (unsigned k = 0; k < missing[why].nids; k++)
        if (missing[why].ids[k] == id)
            return;
    if (missing[why].nids < RARGS_NAMED)
        missing[why].ids[missing[why].nids++] = id;
    else
        missing[why].more = 1;  /* (counted again at each of its firings: a flag, not a count) */
}

/* args_text: "arg2" or "arg2-arg5" or "arg0, arg2" for the bits in m. */
static void args_text(unsigned m, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < DVM_NARGS && len < n; k++) {
        if (!(m >> k & 1u))
            continue;
        unsigned last = k;
        while (last + 1 < DVM_NARGS && (m >> (last + 1) & 1u))
            last++;
        len += (size_t)snprintf(buf + len, n - len, last == k ? "%sarg%u" : "%sarg%u-arg%u",
                                len ? ", " : "", k, last);
        k = last;
    }
}

void rargs_report(const char *path)
{
    static const char *const why_text[RARGS_NWHY] = {
        [RARGS_KCALL_FAST] = "its kernel calls' entries were recorded fast, with two "
                             "arguments (tracelogger -w records all six)",
        [RARGS_MSG_BYTES] = "a message's size is its MsgSend's third argument, which only a "
                            "wide capture holds (tracelogger -w)",
        [RARGS_MSG_COID] = "the client's connection is its MsgSend's first argument, and that "
                           "call's entry is not in the capture (kernel calls not recorded, or "
                           "sent before the capture began)",
        [RARGS_BLOCK_OBJ] = "the object is the blocking call's first argument, and that call's "
                            "entry is not in the capture (kernel calls not recorded, or called "
                            "before the capture began)",
        [RARGS_EXIT_STATUS] = "no event of a capture carries an exit status",
    };
    for (unsigned w = 0; w < RARGS_NWHY; w++) {
        if (!missing[w].firings)
            continue;
        char args[64], probes[256];
        size_t len = 0;
        args_text(missing[w].args, args, sizeof(args));
        probes[0] = '\0';
        for (unsigned k = 0; k < missing[w].nids && len < sizeof(probes); k++) {
            struct dprobe_desc d;
            if (dprobe_get(missing[w].ids[k], &d) == 0)
                len += (size_t)snprintf(probes + len, sizeof(probes) - len, "%s%s:%s:%s:%s",
                                        len ? ", " : "", d.prov, d.mod, d.func, d.name);
        }
        if (missing[w].more && len < sizeof(probes))
            snprintf(probes + len, sizeof(probes) - len, " and others");
        fprintf(stderr, "dtrace: %s: %s of %s %s not in this capture (%llu firings): %s; "
                "0 over it\n", path, args, probes, strchr(args, '-') || strchr(args, ',') ?
                "are" : "is", (unsigned long long)missing[w].firings, why_text[w]);
    }
}
