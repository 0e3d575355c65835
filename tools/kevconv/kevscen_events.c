// SPDX-License-Identifier: MIT
// kevscen's "events" scenario: one of every event the event table describes (trace/kev_events.c),
// each written through the real producer with values chosen here, and the fields each must
// decode to printed as "expect-field NAME FIELD VALUE" lines: the truth the consumers' tests
// compare their output with (test/tools/test_event_table.sh). The payload is built from the
// row itself (the inverse of kev_fields_decode), so a row added to the table, or by a test
// through kev_events_add(), is written with no code here. Kernel calls: every call of
// uapi/kcall.h, its entry fast and wide and its exit, and one interrupted call (QNX's
// KER_INTR). CONTROL events are the ring's own.
#include <stdio.h>
#include <string.h>

#include "kevscen.h"
#include <trace/kev_events.h>
#include <uapi/kcall.h>

// The value of field k of a row: distinct per field, fitting its bits.
static uint64_t value_of(const struct kev_field_desc *fd, unsigned k, unsigned row)
{
    uint64_t v = 0x10u * (row % 16u) + k + 1u;
    if (fd->layout == KEV_L_HI_LO || fd->layout == KEV_L_LO_HI)
        v |= (uint64_t)0x1000u << 32;
    if (fd->bits && fd->bits < 32)
        v &= (1u << fd->bits) - 1u;
    if (fd->kind == KEV_K_FLAG)
        v = 1;
    return v;
}

static void expect(const char *name, const char *field, uint64_t v)
{
    printf("expect-field %s %s %llu\n", name, field, (unsigned long long)v);
}

// One event of row d (its number lo), built from the row's fields.
static void emit_row(const struct kev_event_desc *d, unsigned row)
{
    uint32_t w[64] = { 0 };
    unsigned nw = 0;
    const char *str = NULL;
    char sbuf[32];
    uint64_t vals[KEV_MAX_FIELDS] = { 0 };
    for (unsigned k = 0; k < d->nfields; k++) {
        const struct kev_field_desc *fd = &d->fields[k];
        unsigned at = fd->word == KEV_W_NEXT ? nw : fd->word;
        uint64_t v = value_of(fd, k, row);
        switch (fd->layout) {
        case KEV_L_WORD:
            for (unsigned j = k + 1; j < d->nfields; j++) // a count or a length another reads
                if ((d->fields[j].layout == KEV_L_ARGS || d->fields[j].layout == KEV_L_BYTES) &&
                    d->fields[j].shift == k)
                    v = d->fields[j].layout == KEV_L_ARGS ? 3 : 8;
            w[at] |= fd->bits ? (uint32_t)v << fd->shift : (uint32_t)v;
            nw = nw > at + 1 ? nw : at + 1;
            expect(d->name, fd->name, v);
            vals[k] = v;
            break;
        case KEV_L_HI_LO:
        case KEV_L_LO_HI:
            w[at] = (uint32_t)(fd->layout == KEV_L_HI_LO ? v >> 32 : v);
            w[at + 1] = (uint32_t)(fd->layout == KEV_L_HI_LO ? v : v >> 32);
            nw = at + 2;
            expect(d->name, fd->name, v);
            break;
        case KEV_L_BYTES: // 8 bytes 0x01 0x02 ..., in memory order
            for (unsigned b = 0; b < vals[fd->shift]; b++)
                ((uint8_t *)&w[at])[b] = (uint8_t)(b + 1);
            nw = at + (unsigned)(vals[fd->shift] + 3) / 4;
            printf("expect-text %s %s 0102030405060708\n", d->name, fd->name);
            break;
        case KEV_L_STRING:
            snprintf(sbuf, sizeof(sbuf), "%s_%u", fd->name, row);
            str = sbuf;
            printf("expect-text %s %s %s\n", d->name, fd->name, sbuf);
            break;
        case KEV_L_PCS: case KEV_L_REST: case KEV_L_USER: case KEV_L_ARGS: {
            // three values: USDT's (3 arguments, two words each), a 64-bit stack's
            unsigned per = fd->layout == KEV_L_ARGS ||
                           (fd->layout == KEV_L_PCS && (w[1] & KEV_STACK_PC64)) ? 2u : 1u;
            for (unsigned i = 0; i < 3u * per; i++)
                w[at + i] = 0x100u * (i + 1);
            nw = at + 3u * per;
            printf("expect-array %s %s 3\n", d->name, fd->name);
            break;
        }
        default:
            break;
        }
    }
    if (str)
        trace_emit_string(&ring, d->cls, d->lo, w, nw, str);
    else if (nw <= 2)
        trace_emit_simple(&ring, d->cls, d->lo, w[0], w[1]);
    else
        trace_emit_words(&ring, d->cls, d->lo, w, nw);
    emitted++;
}

void events_round(uint64_t T)
{
    at(T);
    for (unsigned i = 0; i < kev_event_rows(); i++) {
        const struct kev_event_desc *d = kev_event_row(i);
        if (d->kcall || d->cls == KEV_C_CONTROL || (d->cls == KEV_C_SYSTEM && d->lo == KEV_SYS_SLOG))
            continue;
        at(T + 2u * i);
        emit_row(d, i);
    }
    // Every kernel call (the list is not in number order): its entry fast and wide, its exits.
    uint64_t t = T + 1000u;
#define KC_EMIT(num, nm, nargs)                                                             \
    do {                                                                                    \
        uint32_t a[6] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };                             \
        at(t += 4u);                                                                        \
        ev(KEV_C_KER_CALL, KEV_KC_ENTRY(num), a[0], a[1]);                                  \
        ev(KEV_C_KER_CALL, KEV_KC_EXIT(num), 0, 0);                                         \
        trace_emit_words(&ring, KEV_C_KER_CALL, KEV_KC_ENTRY(num), a, 6);                   \
        emitted++;                                                                          \
        ev(KEV_C_KER_CALL, KEV_KC_EXIT(num), 0xffffffffu, 22);                              \
        printf("expect-kcall %u %s\n", (unsigned)(num), #nm);                               \
    } while (0);
    KCALL_LIST(KC_EMIT)
#undef KC_EMIT
    // QNX's interrupted call (this kernel writes none): MsgSend's entry, then its end, EINTR
    uint32_t a[6] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };
    at(t += 4u);
    trace_emit_words(&ring, KEV_C_KER_CALL, KEV_KC_ENTRY(KC_MsgSend), a, 6);
    emitted++;
    ev(KEV_C_KER_CALL, KEV_KC_INTERRUPTED(KC_MsgSend), 0xffffffffu, 4);
}
