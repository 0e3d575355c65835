// SPDX-License-Identifier: MIT
// The wire encoding of each event's words (trace/kev_wire.h), read from the event table: a
// word is written as the kind of the first field it holds says a value of that kind is best
// sent, so that adding an event (its row) gives it its encoding with nothing else to write.
// The board's encoder takes the same answers from the table tools/emitgen generates from this
// function (kev_emit_gen.h, KEV_WIRE_ROWS), as it cannot carry the table itself; the host's
// tests take them from here, and a reader never needs either: a code's encoding travels with it.
#include <trace/kev_wire.h>
#include <trace/kev_events.h>
#include <trace/kev_kercall.h>

// A kind's encoding: counts and small numbers as they are, signed ones zigzagged, a time as
// its distance from the slot's own, text as it is; ids and addresses (a thread, a process, an
// interrupt, a code address), which repeat from one event to the next of the same kind, as
// the difference from the previous one.
static unsigned kind_enc(unsigned kind)
{
    switch (kind) {
    case KEV_K_U32: case KEV_K_PRIO: case KEV_K_ENUM: case KEV_K_FLAG: case KEV_K_ERRNO:
        return KW_E_VAR;
    case KEV_K_S32:
        return KW_E_SVAR;
    case KEV_K_CYCLES:
        return KW_E_TDELTA;
    case KEV_K_STRING:
        return KW_E_RAW;
    default:
        return KW_E_DELTA;
    }
}

// A kernel call's field letter (trace/kev_kercall.h): D signed, U and R numbers, the rest ids
// and addresses; W and C a 64-bit value low word first (C a cycle count: its low word is near
// the slot's time).
static unsigned letter_enc(char c, int low_of_64)
{
    switch (c) {
    case 'D': return KW_E_SVAR;
    case 'U': case 'R': return KW_E_VAR;
    case 'C': return low_of_64 ? KW_E_TDELTA : KW_E_DELTA;
    default: return KW_E_DELTA;
    }
}

// The encodings of a kernel call's two words from its layout string ("Dcoid Psmsg ...": the
// first two fields are the fast event's words; W and C take both).
static uint8_t call_enc(const char *layout, uint8_t none)
{
    if (!layout)
        return none;
    unsigned e[2] = { KW_E_DELTA, KW_E_DELTA }, k = 0;
    for (const char *s = layout; *s && k < 2; ) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        char c = *s;
        if (c == 'W' || c == 'C') {
            e[k] = letter_enc(c, k == 0);
            if (++k < 2)
                e[k] = letter_enc(c, 0);
            k++;
        } else {
            e[k++] = letter_enc(c, 0);
        }
        while (*s && *s != ' ')
            s++;
    }
    return KW_ENC(e[0], e[1]);
}

// The field of row d that holds payload word w (the first one), or NULL.
static const struct kev_field_desc *field_at(const struct kev_event_desc *d, unsigned w)
{
    for (unsigned i = 0; d->fields && i < d->nfields; i++) {
        const struct kev_field_desc *f = &d->fields[i];
        if (f->word == KEV_W_NEXT)
            continue;
        if (f->word == w || ((f->layout == KEV_L_HI_LO || f->layout == KEV_L_LO_HI) &&
                             f->word + 1u == w))
            return f;
    }
    return NULL;
}

static unsigned word_enc(const struct kev_event_desc *d, unsigned w)
{
    const struct kev_field_desc *f = field_at(d, w);
    if (!f)
        return KW_E_DELTA;
    if (f->kind == KEV_K_CYCLES && (f->layout == KEV_L_HI_LO || f->layout == KEV_L_LO_HI)) {
        int low = (f->layout == KEV_L_HI_LO) == (w == f->word + 1u);
        return low ? KW_E_TDELTA : KW_E_DELTA;
    }
    return kind_enc(f->kind);
}

uint8_t kev_wire_row_enc(uint32_t header)
{
    unsigned type = kev_hdr_type(header), cls = kev_hdr_class(header);
    unsigned ev = kev_hdr_event(header);
    const struct kev_event_desc *d = kev_event_describe(cls, ev);
    if (!d)
        return KW_ENC(KW_E_DELTA, KW_E_DELTA);
    if (d->kcall) {
        unsigned call = ev - d->lo;
        if (call >= KEV_OUR_KERCALL_NUM)
            return KW_ENC(KW_E_DELTA, KW_E_DELTA);
        if (d->kcall == KEV_KCALL_ENTRY)
            return call_enc(kev_our_kercalls[call], KW_ENC(KW_E_DELTA, KW_E_DELTA));
        // an errno-style result: [result, 0] or [-1, errno]
        return call_enc(kev_our_kercall_exits[call], KW_ENC(KW_E_SVAR, KW_E_VAR));
    }
    if (type == KEV_TYPE_CC || type == KEV_TYPE_CE) {
        // a combine event's later words: its row's last field (a string, an array)
        unsigned e = d->nfields ? kind_enc(d->fields[d->nfields - 1u].kind) : KW_E_DELTA;
        return KW_ENC(e, e);
    }
    return KW_ENC(word_enc(d, 0), word_enc(d, 1));
}
