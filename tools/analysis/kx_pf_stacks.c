// SPDX-License-Identifier: MIT
// kev2perfetto's callstacks (kx_pf_stacks.h), by the rules Perfetto's trace processor imports
// perf samples by (its stack profile sequence state): every iid is non-zero and defined in
// an InternedData of the same trusted_packet_sequence_id before a packet uses it, on a
// sequence whose first packet says its incremental state was cleared; a Frame names its
// function (InternedData.function_names) and its Mapping (InternedData.mappings, whose
// path is an InternedData.mapping_paths string); a Callstack lists its frames bottom (root)
// first; a PerfSample (TracePacket.perf_sample) gives cpu, pid, tid (the ids every converter
// uses, kx_ids.h) and its callstack, at the packet's timestamp (ns, the trace's clock).
// Field numbers (perfetto.protos): TracePacket timestamp 8, trusted_packet_sequence_id 10,
// interned_data 12, sequence_flags 13 (1 cleared, 2 needs state), perf_sample 66;
// InternedData function_names 5, frames 6, callstacks 7, mapping_paths 17, mappings 19;
// InternedString iid 1, str 2; Frame iid 1, function_name_id 2, mapping_id 3, rel_pc 4;
// Callstack iid 1, frame_ids 2; Mapping iid 1, path_string_ids 7; PerfSample cpu 1, pid 2,
// tid 3, callstack_iid 4.
#include <kevhost/kx_pf_stacks.h>
#include <inttypes.h>
#include <kevhost/kx_ids.h>
#include <kevhost/tool_elfsym.h>

#define SEQ_STACKS 300u // the sequence of the callstacks and samples

// A small table of names (function names, mapping paths, mappings), iid = index + 1; a new
// name is written to out as an InternedString in field (out NULL: the table only).
struct names {
    char **s;
    size_t n, cap;
};

static uint64_t name_iid(struct names *t, const char *s, struct pb *out, unsigned field)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->s[i], s))
            return i + 1;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        char **p = realloc(t->s, t->cap * sizeof(*p));
        if (!p) {
            fprintf(stderr, "kev2perfetto: out of memory\n");
            exit(1);
        }
        t->s = p;
    }
    t->s[t->n] = strdup(s);
    if (!t->s[t->n]) {
        fprintf(stderr, "kev2perfetto: out of memory\n");
        exit(1);
    }
    if (out) { // an InternedString
        struct pb e = { 0 };
        pb_int(&e, 1, (int64_t)(t->n + 1));
        pb_str(&e, 2, s);
        pb_bytes(out, field, e.p, e.len);
        free(e.p);
    }
    return ++t->n;
}

static void names_free(struct names *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
}

void kx_pf_stacks(const struct kx_stacks *k, uint64_t hz, kx_pf_put put, void *ctx)
{
    if (!k->nsamples)
        return;
    struct pb interned = { 0 }, pkt = { 0 };
    struct names fnames = { 0 }, paths = { 0 }, maps = { 0 };
    uint64_t frame_iid = 0;
    for (size_t j = 0; j < k->nstacks; j++) {
        const struct kx_stack *st = &k->stacks[j];
        uint64_t frames[KEV_STACK_MAXDEPTH];
        for (unsigned i = 0; i < st->s.depth; i++) {
            // the frame: its function and its module (the ELF file that names it, else the
            // process: an address no file names is still the process's code)
            char full[512], fn[256], mod[64];
            if (elfsym_frame(st->s.pcs[i], i > 0, 0, full, sizeof(full), fn, sizeof(fn)) == 0) {
                char *tick = strchr(full, '`');
                size_t ml = tick ? (size_t)(tick - full) : 0;
                snprintf(mod, sizeof(mod), "%.*s", (int)ml, full);
            } else {
                snprintf(fn, sizeof(fn), "0x%" PRIx64, st->s.pcs[i]);
                snprintf(mod, sizeof(mod), "%s", st->comm);
            }
            uint64_t name = name_iid(&fnames, fn, &interned, 5);
            size_t nmaps = maps.n;
            uint64_t map = name_iid(&maps, mod, NULL, 0);
            if (maps.n != nmaps) { // a new mapping: its path, then the Mapping
                uint64_t path = name_iid(&paths, mod, &interned, 17);
                struct pb m = { 0 };
                pb_int(&m, 1, (int64_t)map);
                pb_int(&m, 7, (int64_t)path);
                pb_bytes(&interned, 19, m.p, m.len);
                free(m.p);
            }
            struct pb fr = { 0 };
            pb_int(&fr, 1, (int64_t)++frame_iid);
            pb_int(&fr, 2, (int64_t)name);
            pb_int(&fr, 3, (int64_t)map);
            pb_int(&fr, 4, (int64_t)st->s.pcs[i]);
            pb_bytes(&interned, 6, fr.p, fr.len);
            free(fr.p);
            frames[i] = frame_iid;
        }
        struct pb cs = { 0 };
        pb_int(&cs, 1, (int64_t)(j + 1));
        for (unsigned i = st->s.depth; i-- > 0;) // bottom (the root) first
            pb_int(&cs, 2, (int64_t)frames[i]);
        pb_bytes(&interned, 7, cs.p, cs.len);
        free(cs.p);
    }
    pb_int(&pkt, 10, SEQ_STACKS);
    pb_int(&pkt, 13, 1);
    pb_bytes(&pkt, 12, interned.p, interned.len);
    put(ctx, &pkt);
    for (size_t i = 0; i < k->nsamples; i++) {
        const struct kx_sample *s = &k->samples[i];
        struct pb ps = { 0 };
        pb_int(&ps, 1, s->cpu);
        pb_int(&ps, 2, s->lpid);
        pb_int(&ps, 3, s->ltid);
        pb_int(&ps, 4, (int64_t)s->stack + 1);
        pb_int(&pkt, 8, (int64_t)(uint64_t)((unsigned __int128)s->t * 1000000000u / hz));
        pb_int(&pkt, 10, SEQ_STACKS);
        pb_int(&pkt, 13, 2);
        pb_bytes(&pkt, 66, ps.p, ps.len);
        free(ps.p);
        put(ctx, &pkt);
    }
    free(interned.p);
    free(pkt.p);
    names_free(&fnames);
    names_free(&paths);
    names_free(&maps);
}
