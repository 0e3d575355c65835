// SPDX-License-Identifier: MIT
// The incident record's reader (trace/kev_incident.h): the one check that decides whether a
// record may be believed, shared by the kernel at boot (kernel/kincident.c), the tracelogger
// and kevdump. Each refusal names the field it found wrong, as a sentence; nothing of a
// refused record is used. Freestanding: no libc.
#include <trace/kev_incident.h>
#include <trace/kev_stream.h>

const char *kev_incident_action_name(uint32_t action)
{
    static const char *const names[] = { "freeze", "panic", "breakpoint" };
    return action < sizeof(names) / sizeof(names[0]) ? names[action] : "?";
}

static int bytes_eq(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return 0;
    return 1;
}

static void bytes_copy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}

// The body's CRC, read through rd in pieces.
static int body_crc(kev_inc_read_fn rd, void *arg, uint32_t len, uint32_t *crc)
{
    uint8_t buf[256];
    uint32_t c = 0;
    for (uint32_t off = 0; off < len;) {
        uint32_t n = len - off < sizeof(buf) ? len - off : (uint32_t)sizeof(buf);
        if (rd(arg, off, buf, n) < 0)
            return -1;
        c = ks_crc32(c, buf, n);
        off += n;
    }
    *crc = c;
    return 0;
}

// The sections' table: each within the body, a TRIGGER among them, the THREAD and RING sections
// at least their fixed part long.
static int sections(kev_inc_read_fn rd, void *arg, struct kev_inc_view *v, const char **why)
{
    uint32_t len = v->hdr.body_bytes, off = 0;
    int trig = 0;
    v->nsecs = 0;
    while (off < len) {
        struct kev_inc_sec s;
        if (len - off < sizeof(s) || rd(arg, off, &s, sizeof(s)) < 0) {
            *why = "a section's header runs past the body's end";
            return -1;
        }
        off += (uint32_t)sizeof(s);
        if (s.bytes > len - off || kev_inc_pad8(s.bytes) > len - off) {
            *why = "a section's length runs past the body's end";
            return -1;
        }
        if (v->sec && v->nsecs == v->cap) {
            *why = "it holds more sections than a reader keeps";
            return -1;
        }
        static const uint32_t least[KEV_INC_NTYPES] = {
            0, sizeof(struct kev_inc_trigger), sizeof(struct kev_inc_ring),
            sizeof(struct kev_inc_proc), sizeof(struct kev_inc_thread), 64,
            sizeof(struct kev_inc_dcpu), sizeof(struct kev_inc_dcpu),
        };
        if (s.type && s.type < KEV_INC_NTYPES && s.bytes < least[s.type]) {
            *why = "a section is shorter than its kind's fixed part";
            return -1;
        }
        if (s.type == KEV_INC_TRIGGER) {
            if (rd(arg, off, &v->trig, sizeof(v->trig)) < 0) {
                *why = "its trigger cannot be read";
                return -1;
            }
            v->trig.probe[sizeof(v->trig.probe) - 1] = 0;
            v->trig.board[sizeof(v->trig.board) - 1] = 0;
            v->trig.machine[sizeof(v->trig.machine) - 1] = 0;
            trig = 1;
        }
        if (v->sec) {
            v->sec[v->nsecs].type = s.type;
            v->sec[v->nsecs].off = off;
            v->sec[v->nsecs].bytes = s.bytes;
        }
        v->nsecs++;
        off += kev_inc_pad8(s.bytes);
    }
    if (!trig) {
        *why = "it holds no trigger section";
        return -1;
    }
    return 0;
}

int kev_incident_check(const void *hdr, uint32_t region, kev_inc_read_fn rd, void *arg,
                       struct kev_inc_view *v, const char **why)
{
    const struct kev_inc_hdr *h = &v->hdr;
    bytes_copy(&v->hdr, hdr, sizeof(v->hdr));
    if (!bytes_eq(h->magic, KEV_INC_MAGIC, sizeof(h->magic))) {
        // RAM after power-on holds no record; one whose magic alone is damaged still has a
        // state word a writer stores, which random RAM almost never holds there
        if (h->state == KEV_INC_WRITING || h->state == KEV_INC_COMMIT || h->state == KEV_INC_READ) {
            *why = "its magic is damaged (its state word is a record's)";
            return -1;
        }
        return 1;
    }
    if (h->version != KEV_INC_VERSION) {
        *why = "its version word is not this reader's (1)";
        return -1;
    }
    if (h->state == KEV_INC_WRITING) {
        *why = "its writing was cut before it was whole (a reset or a second failure during "
               "the write)";
        return -1;
    }
    if (h->state != KEV_INC_COMMIT && h->state != KEV_INC_READ) {
        *why = "its state word is neither committed nor read (damaged)";
        return -1;
    }
    if (ks_crc32(0, h, KEV_INC_HDR_CRC_BYTES) != h->hdr_crc) {
        *why = "its header's checksum does not match its words (a damaged header)";
        return -1;
    }
    if (h->hdr_bytes != sizeof(*h) || (h->ptr_bytes != 4 && h->ptr_bytes != 8)) {
        *why = "its header's size or pointer size is not one a writer gives";
        return -1;
    }
    if (h->region_bytes != region || h->body_bytes > region - sizeof(*h)) {
        *why = "its length does not fit this board's incident region";
        return -1;
    }
    uint32_t crc;
    if (body_crc(rd, arg, h->body_bytes, &crc) < 0) {
        *why = "its body cannot be read";
        return -1;
    }
    if (crc != h->body_crc) {
        *why = "its body's checksum does not match (a damaged body)";
        return -1;
    }
    return sections(rd, arg, v, why);
}
