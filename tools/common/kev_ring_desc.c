// SPDX-License-Identifier: MIT
// The ring's published descriptions, checked (kevhost/kev_ring_desc.h). A description is input
// like any other: a halted target's memory after a crash, a wrong address, another build's
// kernel, a debugger's write. Every offset a reader will add to a buffer it fetched is checked
// here against the size of that buffer, so that no reader reads outside what it fetched.
#include <kevhost/kev_ring_desc.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/kev_bytes.h>

// A field of an entry (or of the ring's control structure): its name, offset and size.
struct field {
    const char *what;
    uint64_t off, size;
};

// fields[0..n) inside `bytes` and apart from each other (a field at KEV_RING_NO_FIELD is not
// published: skipped); `in` names the whole. NULL, or why not (in why[]).
static const char *fields_refused(const struct field *f, unsigned n, uint64_t bytes,
                                  const char *in, char *why, size_t why_n)
{
    for (unsigned i = 0; i < n; i++) {
        if (f[i].off == KEV_RING_NO_FIELD)
            continue;
        if (f[i].off + f[i].size > bytes) {
            snprintf(why, why_n, "%s (%llu bytes at offset %llu) lies past the end of %s "
                     "(%llu bytes)", f[i].what, (unsigned long long)f[i].size,
                     (unsigned long long)f[i].off, in, (unsigned long long)bytes);
            return why;
        }
        for (unsigned k = 0; k < i; k++)
            if (f[k].off != KEV_RING_NO_FIELD && f[i].off < f[k].off + f[k].size &&
                f[k].off < f[i].off + f[i].size) {
                snprintf(why, why_n, "%s (offset %llu) and %s (offset %llu) overlap in %s",
                         f[k].what, (unsigned long long)f[k].off, f[i].what,
                         (unsigned long long)f[i].off, in);
                return why;
            }
    }
    return NULL;
}

const char *kev_ring_map_refused(const struct kev_ring_map *m)
{
    static char why[240];
    if (m->buf_stride < 14 || m->buf_stride > 64) {
        snprintf(why, sizeof(why), "a buffer's entry in the table is %u bytes (buf_stride), "
                 "not 14 to 64", m->buf_stride);
        return why;
    }
    if (m->cpu_stride < 16 || m->cpu_stride > 512) {
        snprintf(why, sizeof(why), "a CPU's words are %u bytes (cpu_stride), not 16 to 512",
                 m->cpu_stride);
        return why;
    }
    const struct field buf[] = {
        { "a buffer's sequence number (off_seq)", m->off_seq, 4 },
        { "a buffer's state (off_state)", m->off_state, 1 },
        { "a buffer's CPU (off_cpu)", m->off_cpu, 1 },
        { "a buffer's slot count (off_nslots)", m->off_nslots, 2 },
        { "a buffer's lost mark (off_lost)", m->off_lost, 4 },
    };
    const struct field cpu[] = {
        { "a CPU's write pointer (off_wp)", m->off_wp, m->ptr_bytes },
        { "a CPU's current buffer (off_cur)", m->off_cur, 4 },
        { "a CPU's dropped count (off_dropped)", m->off_dropped, 8 },
        { "a CPU's overwritten count (off_overwritten)", m->off_overwritten, 8 },
        { "a CPU's recorded count (off_recorded)", m->off_recorded, 8 },
    };
    const char *r = fields_refused(buf, 5, m->buf_stride, "a buffer's entry", why, sizeof(why));
    return r ? r : fields_refused(cpu, 5, m->cpu_stride, "a CPU's words", why, sizeof(why));
}

// The ring's fields a reader takes from the map f (the control structure's own, and its two
// tables): what they are named in a refusal, their offsets and sizes.
static unsigned ring_fields(const struct kev_flight *f, struct field out[6])
{
    const struct field ring[] = {
        { "the buffers' memory pointer (off_mem)", f->off_mem, f->ptr_bytes },
        { "the buffer count (off_nbufs)", f->off_nbufs, 4 },
        { "the policy (off_policy)", f->off_policy, 4 },
        { "the running flag (off_running)", f->off_running, 4 },
        { "the CPUs' words (off_cpu)", f->off_cpu, (uint64_t)f->max_cpus * f->cpu_stride },
        { "the buffers' table (off_buf)", f->off_buf, (uint64_t)f->max_bufs * f->buf_stride },
    };
    memcpy(out, ring, sizeof(ring));
    return 6;
}

size_t kev_flight_ring_bytes(const struct kev_flight *f)
{
    struct field r[6];
    uint64_t end = 0;
    for (unsigned i = 0, n = ring_fields(f, r); i < n; i++)
        if (r[i].off + r[i].size > end)
            end = r[i].off + r[i].size;
    return (size_t)end;
}

// The map's counts and strides, and the fields of the ring's control structure it names.
// The map's 20 u32s by name, in the order of trace/kev_flight.h.
static const char *const flight_u32s[KEV_FLIGHT_U32S] = {
    "version", "ptr_bytes", "max_cpus", "max_bufs", "off_mem", "off_nbufs", "off_policy",
    "off_running", "off_cpu", "off_buf", "cpu_stride", "off_wp", "off_cur", "off_recorded",
    "off_dropped", "off_overwritten", "buf_stride", "off_seq", "off_state", "off_nslots",
};

static const char *flight_fields_refused(const struct kev_flight *f, char *why, size_t n)
{
    const uint32_t *w = &f->version;    // every offset is published: none is "no field"
    for (unsigned i = 0; i < KEV_FLIGHT_U32S; i++)
        if (w[i] == KEV_RING_NO_FIELD && !strncmp(flight_u32s[i], "off_", 4)) {
            snprintf(why, n, "it leaves out %s (0x%x), which a halted ring's reader takes",
                     flight_u32s[i], w[i]);
            return why;
        }
    if (!f->max_cpus || f->max_cpus > KEV_MAX_CPUS) {
        snprintf(why, n, "it says the ring has room for %u CPUs (max_cpus), not 1 to %u",
                 f->max_cpus, KEV_MAX_CPUS);
        return why;
    }
    if (!f->max_bufs || f->max_bufs > KEV_FLIGHT_MAX_BUFS) {
        snprintf(why, n, "it says the ring has room for %u buffers (max_bufs), not 1 to %u",
                 f->max_bufs, KEV_FLIGHT_MAX_BUFS);
        return why;
    }
    struct kev_ring_map m = kev_ring_map_flight(f, f->max_bufs);
    const char *r = kev_ring_map_refused(&m);
    if (r)
        return r;
    struct field ring[6];
    unsigned nr = ring_fields(f, ring);
    return fields_refused(ring, nr, KEV_FLIGHT_MAX_RING, "the ring's control structure as this "
                          "reader takes it", why, n);
}

const char *kev_flight_refused(const uint8_t *b, size_t n, struct kev_flight *f)
{
    static char why[320];
    memset(f, 0, sizeof(*f));
    if (n < KEV_FLIGHT_ADDRS || memcmp(b, KEV_FLIGHT_MAGIC, sizeof(KEV_FLIGHT_MAGIC)) != 0)
        return "its magic (" KEV_FLIGHT_MAGIC ") is not there: the address is not the map's, "
               "or the image is not this kernel's";
    memcpy(f->magic, b, sizeof(f->magic));
    uint32_t *w = &f->version;      // the 20 u32s, in the order of trace/kev_flight.h
    for (size_t i = 0; i < KEV_FLIGHT_U32S; i++)
        w[i] = kev_get_le32(b + 8 + 4 * i);
    if (f->version != KEV_FLIGHT_VERSION) {
        snprintf(why, sizeof(why), "it is version %u, this reader knows version %u (a kernel "
                 "and tools of different builds)", f->version, KEV_FLIGHT_VERSION);
        return why;
    }
    if ((f->ptr_bytes != 4 && f->ptr_bytes != 8) || n < KEV_FLIGHT_ADDRS + 2u * f->ptr_bytes) {
        snprintf(why, sizeof(why), "it says the target's pointers are %u bytes (ptr_bytes), "
                 "not 4 or 8", f->ptr_bytes);
        return why;
    }
    f->ring = (uintptr_t)kev_get_le(b + KEV_FLIGHT_ADDRS, f->ptr_bytes);
    f->ncpus_addr = (uintptr_t)kev_get_le(b + KEV_FLIGHT_ADDRS + f->ptr_bytes, f->ptr_bytes);
    if (!f->ring || !f->ncpus_addr)
        return !f->ring ? "it puts the ring at address 0 (ring)"
                        : "it puts the CPUs-online count at address 0 (ncpus_addr)";
    return flight_fields_refused(f, why, sizeof(why));
}
