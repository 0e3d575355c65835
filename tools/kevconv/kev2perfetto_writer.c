// SPDX-License-Identifier: MIT
// kev2perfetto's writer (kev2perfetto.h): the Trace's packets, gathered in one buffer and
// written in large pieces; the TrackDescriptors of thread, interrupt and child tracks, each
// once before its first event; the one way a TrackEvent is written (pf_te_begin, its own
// fields, pf_te_end); its debug annotations, the event table's fields among them. Protobuf's
// field numbers are listed atop kev2perfetto.c.
#include <stdlib.h>
#include <string.h>

#include "kev2perfetto.h"
#include <kevhost/kx_digits.h>
#include <trace/kev_text.h>

#define OUT_FLUSH (1u << 18) // bytes of packets gathered in c->out before a write

void pf_out_flush(struct conv *c)
{
    if (c->out.len && fwrite(c->out.p, 1, c->out.len, c->f) != c->out.len)
        c->werr = 1;
    c->out.len = 0;
}

// Adds the Trace.packet of content parts (in order, n bytes in all) to the output: its tag
// and length, then the parts as they are, so no packet is copied to be wrapped.
void pf_put_parts(struct conv *c, const struct pb *const *part, unsigned nparts, size_t n)
{
    pb_reserve(&c->out, 11 + n);
    pb_varint(&c->out, 1 << 3 | 2); // Trace.packet
    pb_varint(&c->out, n);
    for (unsigned i = 0; i < nparts; i++) {
        if (part[i]->len) // (an empty part may have no buffer)
            memcpy(c->out.p + c->out.len, part[i]->p, part[i]->len);
        c->out.len += part[i]->len;
    }
    if (c->out.len >= OUT_FLUSH)
        pf_out_flush(c);
}

// Wrap c->pkt's content as one Trace.packet and write it.
void pf_put_packet(struct conv *c)
{
    const struct pb *part = &c->pkt;
    pf_put_parts(c, &part, 1, c->pkt.len);
    c->pkt.len = 0;
}

// A TrackDescriptor packet (d: its fields, freed here) on the track events' sequence, the first
// one saying the sequence's state is cleared.
void pf_put_descriptor(struct conv *c, struct pb *d)
{
    c->pkt.len = 0;
    pb_bytes(&c->pkt, 60, d->p, d->len);
    pb_int(&c->pkt, 10, SEQ_TRACKS);
    if (!c->seq_started)
        pb_int(&c->pkt, 13, 1), c->seq_started = 1;
    pf_put_packet(c);
    free(d->p);
}

// Begins a TrackEvent packet at t in c->pkt: the fields that vary by kind of event - its args
// (debug annotations), flow ids, a counter's value - are appended to c->pkt, then te_end adds
// the fields every event has and writes it: the one way a TrackEvent is written (field order
// within a message means nothing to protobuf). Nothing else may write a packet in between
// (describe a track first).
size_t pf_te_begin(struct conv *c, uint64_t t)
{
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, (int64_t)pf_ns(c, t));
    return pb_open(&c->pkt, 11);
}

// Ends the TrackEvent begun at at: of type (1 begin, 2 end, 3 instant, 4 counter) on track
// uuid, of category cat and named name (either NULL: none), and writes its packet.
void pf_te_end(struct conv *c, size_t at, uint64_t uuid, unsigned type, const char *cat,
               const char *name)
{
    struct pb *te = &c->pkt;
    pb_int(te, 9, type);
    pb_int(te, 11, (int64_t)uuid);
    if (cat)
        pb_str(te, 22, cat);
    if (name)
        pb_str(te, 23, name);
    pb_close(te, at);
    pb_int(te, 10, SEQ_TRACKS);
    pf_put_packet(c);
}

// The track's TrackDescriptor, once, before its first event.
void pf_describe(struct conv *c, int th, unsigned irq)
{
    uint8_t *done = irq ? &c->irq_described[(irq - 1) % 1024u]
                        : &c->described[th >= 0 ? (unsigned)th : KX_MAX_THREADS];
    if (*done)
        return;
    *done = 1;
    struct pb d = { 0 };
    pb_int(&d, 1, (int64_t)pf_track_uuid(c, th, irq));
    if (irq) {
        char name[24];
        snprintf(name, sizeof(name), "irq %u", irq - 1);
        pb_str(&d, 2, name);
    } else {
        c->sub.len = 0;
        pb_int(&c->sub, 1, kx_lpid(c->m, th));
        pb_int(&c->sub, 2, kx_ltid(c->m, th));
        pb_str(&c->sub, 5, kx_lcomm(c->m, th));
        pb_bytes(&d, 4, c->sub.p, c->sub.len);
    }
    pf_put_descriptor(c, &d);
}

// A child track of thread th's track (its kernel calls, its states), named name, described
// once (*done), after th's own.
void pf_describe_child(struct conv *c, int th, uint64_t uuid, const char *name, uint8_t *done)
{
    if (*done)
        return;
    *done = 1;
    pf_describe(c, th, 0);
    struct pb d = { 0 };
    pb_int(&d, 1, (int64_t)uuid);
    pb_str(&d, 2, name);
    pb_int(&d, 5, (int64_t)pf_track_uuid(c, th, 0));
    pf_put_descriptor(c, &d);
}

// Item j of a list of numbers, at out (room for 20 bytes), as printf's "%s0x%llx" writes it
// with " " before every item but the first: its length.
size_t pf_hex_item(char *out, unsigned j, uint64_t v)
{
    size_t k = 0;
    if (j)
        out[k++] = ' ';
    return k + kx_put_hex(out + k, v);
}

// A debug annotation of a TrackEvent (field 4), written in place: its name and one value.
void pf_arg_str(struct pb *te, const char *name, const char *v)
{
    size_t at = pb_open(te, 4);
    pb_str(te, 10, name);
    pb_str(te, 6, v);
    pb_close(te, at);
}

void pf_arg_uint(struct pb *te, const char *name, uint64_t v, int pointer)
{
    size_t at = pb_open(te, 4);
    pb_str(te, 10, name);
    pb_int(te, pointer ? 7 : 3, (int64_t)v);
    pb_close(te, at);
}

void pf_arg_int(struct pb *te, const char *name, int64_t v)
{
    size_t at = pb_open(te, 4);
    pb_str(te, 10, name);
    pb_int(te, 4, v);
    pb_close(te, at);
}

// The event's fields, as the event table names them, as debug annotations of te: integers
// as uint or int values, addresses as pointers, strings and arrays ("0x.. 0x..") as strings.
// (fs: the event's fields, decoded by the caller)
void pf_table_args(const struct kev_fields *fs, struct pb *te)
{
    for (unsigned i = 0; i < fs->n; i++) {
        const struct kev_field *f = &fs->f[i];
        if (f->kind == KEV_K_STRING) {
            char safe[512];
            kev_text_safe(safe, sizeof(safe), (const uint8_t *)f->str, strlen(f->str));
            pf_arg_str(te, f->name, safe);
        } else if (KEV_K_IS_ARRAY(f->kind)) {
            char list[1024]; // "0x.. 0x..", as printf's "%s0x%llx" would write it
            size_t k = 0;
            for (unsigned j = 0; j < f->n && k + 24 < sizeof(list); j++)
                k += pf_hex_item(list + k, j, f->arr[j]);
            list[k] = 0;
            pf_arg_str(te, f->name, list);
        } else if (f->kind == KEV_K_S32) {
            pf_arg_int(te, f->name, (int64_t)f->v);
        } else {
            pf_arg_uint(te, f->name, f->v, f->kind == KEV_K_ADDR);
        }
    }
}

// put_stack_packet: kx_pf_stacks's packets, written as every other one.
void pf_put_stack_packet(void *ctx, struct pb *pkt)
{
    struct conv *c = ctx;
    struct pb t = c->pkt;
    c->pkt = *pkt;
    pf_put_packet(c);
    *pkt = c->pkt;
    c->pkt = t;
}
