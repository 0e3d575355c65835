// SPDX-License-Identifier: MIT
// The .kev writer (see trace/kev_file.h and docs/kev-format.md). Freestanding, no allocation:
// output goes into the caller's buffer; the first error sticks and later calls do nothing.
#include <trace/kev_file.h>
#include <trace/kev_digits.h>
#include <trace/kev_ident.h>

static size_t str_len(const char *s)
{
    size_t n = 0;
    while (s && s[n])
        n++;
    return n;
}

// The first error sticks: its code, why (a sentence for the user) and the header item's key.
static void fail(struct kev_out *o, int err, const char *why, const char *key)
{
    if (o->ko_err)
        return;
    o->ko_err = err;
    o->ko_why = why;
    size_t n = 0;
    while (key && key[n] && n + 1 < sizeof(o->ko_key)) {
        o->ko_key[n] = key[n];
        n++;
    }
    o->ko_key[n] = '\0';
}

int kev_host_is_big_endian(void)
{
    const uint32_t one = 1;
    return *(const uint8_t *)&one == 0;
}

void kev_out_init(struct kev_out *o, void *buf, size_t cap, int big_endian)
{
    o->ko_buf = buf;
    o->ko_cap = buf ? cap : 0;
    o->ko_len = 0;
    o->ko_err = 0;
    o->ko_big = big_endian != 0;
    o->ko_mark = 0;
    o->ko_why = 0;
    o->ko_key[0] = '\0';
}

void kev_out_bytes(struct kev_out *o, const void *p, size_t n)
{
    if (o->ko_err)
        return;
    if (n > o->ko_cap - o->ko_len) {
        fail(o, KEV_OUT_ENOSPC, "the output buffer is too small", 0);
        return;
    }
    const uint8_t *s = p;
    for (size_t i = 0; i < n; i++)
        o->ko_buf[o->ko_len + i] = s[i];
    o->ko_len += n;
}

void kev_out_u32(struct kev_out *o, uint32_t v)
{
    uint8_t b[4];
    for (unsigned i = 0; i < 4; i++)
        b[o->ko_big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
    kev_out_bytes(o, b, 4);
}

void kev_out_slots(struct kev_out *o, const struct kev_slot *s, size_t n)
{
    for (size_t i = 0; i < n && !o->ko_err; i++) {
        kev_out_u32(o, s[i].header);
        for (unsigned k = 0; k < 3; k++)
            kev_out_u32(o, s[i].data[k]);
    }
}

static void out_str(struct kev_out *o, const char *s)
{
    kev_out_bytes(o, s, str_len(s));
}

static void out_dec(struct kev_out *o, uint64_t v)
{
    char tmp[24];
    kev_out_bytes(o, tmp, kev_put_dec(tmp, v));
}

// The first offset in h[from..end) where `what` begins, or (size_t)-1.
static size_t find(const uint8_t *h, size_t from, size_t end, const char *what)
{
    size_t m = str_len(what);
    for (size_t i = from; i + m <= end; i++) {
        size_t k = 0;
        while (k < m && h[i + k] == (uint8_t)what[k])
            k++;
        if (k == m)
            return i;
    }
    return (size_t)-1;
}

static int key_ok(const char *key)
{
    if (!key || !key[0])
        return 0;
    for (const char *k = key; *k; k++)
        if (!((*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') || *k == '_'))
            return 0;
    return 1;
}

// A value ends where the next "TRACE_" begins, so a value may not contain "TRACE_" (nor a
// newline, which older readers took as the end of an item).
static int value_ok(const char *v)
{
    size_t n = str_len(v);
    const uint8_t *b = (const uint8_t *)v;
    return find(b, 0, n, "TRACE_") == (size_t)-1 && find(b, 0, n, "\n") == (size_t)-1;
}

// QNX's traceparser reads the header through a 99-byte window (qnx_header_ends, below): an
// item's key, "::", value and the next item's "TRACE_" must fit in it, or its traceprinter
// loops for ever. The longest value a key takes:
#define QNX_HDR_WINDOW 99u
static size_t value_max(const char *key)
{
    size_t k = str_len(key) + 2 + 6;
    return k < QNX_HDR_WINDOW ? QNX_HDR_WINDOW - k : 0;
}

#define KEY_BAD "a header key holds a character other than A-Z, 0-9 and _"
#define VALUE_BAD "a header value holds \"TRACE_\" or a newline, either of which ends it early"
#define VALUE_LONG "a header value is longer than QNX's traceparser reads: \"TRACE_\", the key, " \
                   "\"::\", the value and the next \"TRACE_\" must fit in 99 bytes"

// "TRACE_<key>::", every item's start; a key outside A-Z, 0-9 and _ is an error.
static void item_head(struct kev_out *o, const char *key)
{
    if (!key_ok(key))
        fail(o, KEV_OUT_EINVAL, KEY_BAD, key);
    out_str(o, "TRACE_");
    out_str(o, key);
    out_str(o, "::");
}

// The same as kev_hdr_item for a value whose end says most (a file's path): one longer than
// QNX's traceparser reads keeps its end after "...".
static void hdr_item_tail(struct kev_out *o, const char *key, const char *value)
{
    size_t n = str_len(value), max = value_max(key);
    if (n <= max || max < 4) {
        kev_hdr_item(o, key, value);
        return;
    }
    const char *tail = value + n - (max - 3);
    if (!value_ok(tail))
        fail(o, KEV_OUT_EINVAL, VALUE_BAD, key);
    item_head(o, key);
    out_str(o, "...");
    out_str(o, tail);
}

const char *kev_hdr_item_refused(const char *key, const char *value)
{
    if (!key_ok(key))
        return KEY_BAD;
    if (!value_ok(value))
        return VALUE_BAD;
    if (str_len(value) > value_max(key))
        return VALUE_LONG;
    return 0;
}

void kev_hdr_item(struct kev_out *o, const char *key, const char *value)
{
    const char *why = kev_hdr_item_refused(key, value);
    if (why)
        fail(o, KEV_OUT_EINVAL, why, key);
    item_head(o, key);
    out_str(o, value);
}

void kev_hdr_item_u(struct kev_out *o, const char *key, uint64_t value)
{
    item_head(o, key);
    out_dec(o, value);
}

// VER_MAJOR, VER_MINOR, the byte-order key and ENCODING.
static void hdr_format(struct kev_out *o)
{
    kev_hdr_item_u(o, "VER_MAJOR", KEV_VER_MAJOR);
    const char minor[3] = { (char)('0' + KEV_VER_MINOR / 10u % 10u),
                            (char)('0' + KEV_VER_MINOR % 10u), 0 }; // two digits: "01"
    kev_hdr_item(o, "VER_MINOR", minor);
    kev_hdr_item(o, o->ko_big ? "BIG_ENDIAN" : "LITTLE_ENDIAN", "TRUE");
    kev_hdr_item(o, "ENCODING", "16 byte events");
}

static void hdr_item_opt(struct kev_out *o, const char *key, const char *value)
{
    if (value)
        kev_hdr_item(o, key, value);
}

// The header items are written back to back with no separator, as QNX's tracelogger does:
// QNX's traceparser starts the system page right after "TRACE_HEADER_END::". The order is
// QNX's tracelogger's (services/tracelogger/kevfile.c), which also puts a writer's own items
// after SYSPAGE_LEN; our readers look items up by key.
void kev_hdr_standard(struct kev_out *o, const struct kev_hdr_std *s)
{
    out_str(o, KEV_FILE_MAGIC);
    if (s->hs_file_name)
        hdr_item_tail(o, "FILE_NAME", s->hs_file_name);
    hdr_item_opt(o, "DATE", s->hs_date);
    hdr_format(o);
    hdr_item_opt(o, "BOOT_DATE", s->hs_boot_date);
    kev_hdr_item_u(o, "CYCLES_PER_SEC", s->hs_cycles_per_sec);
    kev_hdr_item_u(o, "CPU_NUM", s->hs_cpu_num);
    hdr_item_opt(o, "SYSNAME", s->hs_sysname);
    hdr_item_opt(o, "NODENAME", s->hs_nodename);
    hdr_item_opt(o, "SYS_RELEASE", s->hs_sys_release);
    hdr_item_opt(o, "SYS_VERSION", s->hs_sys_version);
    hdr_item_opt(o, "MACHINE", s->hs_machine);
    kev_hdr_item_u(o, "SYSPAGE_LEN", s->hs_syspage_len);
}

// ---- QNX's reading of the header ----------------------------------------------------------
// QNX's traceparser (lib/traceparser, get_header) reads the header through a 99-byte window:
// it takes items while an item's "::" and the next item's "TRACE_" both lie in the window,
// then reads a new window from the key it stopped at. Two layouts never end there: a window
// whose first item's next "TRACE_" lies past it (an item over 99 bytes), and a window that
// holds the end marker's "TRACE_" but not all of "TRACE_HEADER_END::" (it then takes
// HEADER_END for a key, whose value, the system page, holds no "TRACE_"). Its traceprinter
// then loops for ever. qnx_header_ends says whether h[0..n), the whole header, end marker
// included, is read to its end; bytes past n are taken to hold no "TRACE_".

static int qnx_header_ends(const uint8_t *h, size_t n)
{
    static const char magic[] = KEV_FILE_MAGIC, end_key[] = KEV_FILE_HEADER_END;
    size_t base = 0, key = str_len(magic) + 6;  // the first item's key
    if (str_len(magic) >= n || find(h, 0, str_len(magic), magic) != 0)
        return 0;
    for (unsigned round = 0; round < 64; round++) {
        size_t win = base + QNX_HDR_WINDOW, lim = win < n ? win : n;
        for (;;) {
            size_t colon = find(h, key, lim, "::");
            size_t next = colon == (size_t)-1 ? colon : find(h, colon + 2, lim, "TRACE_");
            if (next == (size_t)-1) {
                if (key == base)
                    return 0;                   // no progress: an error, or the endless loop
                break;
            }
            if (next + str_len(end_key) <= lim && find(h, next, next + str_len(end_key), end_key) == next)
                return 1;
            key = next + 6;
        }
        base = key;                             // the next window starts at that key
    }
    return 0;
}

// The end marker, after a padding item ("TRACE_PAD::" and dashes) when QNX's traceparser
// would not find it otherwise; a header no padding helps (an item over 99 bytes) is left as
// it is. Not checked when the header is not kept (a sizing pass, or an error already).
void kev_hdr_end(struct kev_out *o)
{
    size_t at = o->ko_len;
    out_str(o, KEV_FILE_HEADER_END);
    if (o->ko_err || !o->ko_buf || qnx_header_ends(o->ko_buf, o->ko_len))
        return;
    for (unsigned pad = 1; pad <= 40; pad++) {
        o->ko_len = at;
        out_str(o, "TRACE_PAD::");
        for (unsigned i = 0; i < pad; i++)
            out_str(o, "-");
        out_str(o, KEV_FILE_HEADER_END);
        if (o->ko_err || qnx_header_ends(o->ko_buf, o->ko_len))
            return;
    }
    o->ko_len = at;                             // no padding helps: the header as written
    out_str(o, KEV_FILE_HEADER_END);
}

// ---- QNX's system page (public/sys/syspage.h, as a 32-bit QNX target lays it out) ---------
// struct syspage_entry: size, total_size, type, num_cpu (16 bits each), then 15
// (entry_off, entry_size) pairs, spare[2] and the per-CPU union: 156 bytes. The sections
// we fill follow it; offsets count from the page's start.
#define QSP_HDR       160u // 156 rounded up to 8
#define QSP_CPUINFO   32u  // struct cpuinfo_entry
#define QSP_QTIME     96u  // struct qtime_entry
#define QSP_E_CPUINFO 4u   // entry index of cpuinfo, qtime, typed_strings, strings
#define QSP_E_QTIME   6u
#define QSP_E_TYPED   9u
#define QSP_E_STRINGS 10u

static void out_n(struct kev_out *o, uint64_t v, unsigned bytes) // file byte order
{
    uint8_t b[8];
    for (unsigned i = 0; i < bytes; i++)
        b[o->ko_big ? bytes - 1u - i : i] = (uint8_t)(v >> (8u * i));
    kev_out_bytes(o, b, bytes);
}

static void out_zeros(struct kev_out *o, size_t n)
{
    static const uint8_t z[16];
    while (n && !o->ko_err) {
        size_t k = n < sizeof(z) ? n : sizeof(z);
        kev_out_bytes(o, z, k);
        n -= k;
    }
}

// Overwrites `bytes` at page offset `at` (written before as zeros).
static void patch_n(struct kev_out *o, size_t page, size_t at, uint64_t v, unsigned bytes)
{
    if (o->ko_err)
        return;
    size_t save = o->ko_len;
    o->ko_len = page + at;
    out_n(o, v, bytes);
    o->ko_len = save;
}

static void out_align(struct kev_out *o, size_t page)
{
    out_zeros(o, (4u - (o->ko_len - page) % 4u) % 4u);
}

// _CS_HOSTNAME 2, _CS_RELEASE 3, _CS_MACHINE 5, _CS_ARCHITECTURE 6, _CS_SYSNAME 11
// (QNX's confname.h); the list ends with _CS_NONE (0).
static void out_typed(struct kev_out *o, size_t page, uint32_t type, const char *s)
{
    out_n(o, type, 4);
    kev_out_bytes(o, s ? s : "", str_len(s ? s : "") + 1);
    out_align(o, page);
}

static void qnx_syspage(struct kev_out *o, const struct kev_sp_machine *m)
{
    size_t page = o->ko_len;
    uint32_t ncpu = m->ncpu ? m->ncpu : 1u;
    size_t cpuinfo = QSP_HDR, qtime = cpuinfo + QSP_CPUINFO * ncpu, typed = qtime + QSP_QTIME;
    out_zeros(o, QSP_HDR);
    // cpuinfo_entry: cpu, speed (MHz), flags, spare[4], name (offset in strings), caches
    for (uint32_t c = 0; c < ncpu; c++) {
        out_n(o, c, 4);
        out_n(o, m->cpu_mhz, 4);
        out_zeros(o, 4 + 16 + 2); // flags, spare, name: string 0
        out_n(o, 0xffff, 2);      // CACHE_LIST_END twice: no caches described
    }
    // qtime_entry: cycles_per_sec (u64) at 0, boot_time at 28, epoch (1970) at 56
    out_n(o, m->cycles_per_sec, 8);
    out_zeros(o, 20);
    out_n(o, m->boot_time, 4);
    out_zeros(o, 24);
    out_n(o, 1970, 4);
    out_zeros(o, QSP_QTIME - 60);
    out_typed(o, page, 11, KEV_IDENT_SYSNAME);
    out_typed(o, page, 3, KEV_IDENT_RELEASE);
    out_typed(o, page, 2, m->machine);
    out_typed(o, page, 5, m->machine);
    out_typed(o, page, 6, m->arch);
    out_n(o, 0, 4);
    size_t strings = o->ko_len - page;
    kev_out_bytes(o, m->cpu_name ? m->cpu_name : "", str_len(m->cpu_name ? m->cpu_name : "") + 1);
    out_align(o, page);
    size_t total = o->ko_len - page;
    if (total > 0xffffu) // QNX's sizes are 16 bits
        fail(o, KEV_OUT_EINVAL, "QNX's system page is over 65535 bytes: fewer processes or "
             "threads, or shorter names", 0);
    // struct syspage_entry: size, total_size, type, num_cpu, then (entry_off, entry_size)s
    patch_n(o, page, 0, 156, 2);
    patch_n(o, page, 2, total, 2);
    patch_n(o, page, 4, m->qnx_type, 2);
    patch_n(o, page, 6, ncpu, 2);
    const size_t e[4][3] = { { QSP_E_CPUINFO, cpuinfo, QSP_CPUINFO * ncpu },
                             { QSP_E_QTIME, qtime, QSP_QTIME },
                             { QSP_E_TYPED, typed, strings - typed },
                             { QSP_E_STRINGS, strings, total - strings } };
    for (unsigned i = 0; i < 4; i++) {
        patch_n(o, page, 8u + 4u * e[i][0], e[i][1], 2);
        patch_n(o, page, 10u + 4u * e[i][0], e[i][2], 2);
    }
}

void kev_sp_begin(struct kev_out *o, const struct kev_sp_machine *m)
{
    o->ko_mark = o->ko_len;
    qnx_syspage(o, m);
    o->ko_blob = o->ko_len;
    kev_out_u32(o, KEV_SP_MAGIC);
    kev_out_u32(o, KEV_SP_VERSION);
    kev_out_u32(o, 0); // total length, patched by kev_sp_end
}

// A record: header word, nw words, then name (NUL included) padded to 4 bytes.
static void sp_record(struct kev_out *o, unsigned type, const uint32_t *w, unsigned nw,
                      const char *name)
{
    size_t slen = str_len(name) + 1;
    if (slen > 256)
        slen = 256;
    size_t plen = 4u * nw + slen;
    kev_out_u32(o, (uint32_t)type << 16 | (uint32_t)plen);
    for (unsigned i = 0; i < nw; i++)
        kev_out_u32(o, w[i]);
    kev_out_bytes(o, name ? name : "", slen - 1);
    static const uint8_t zeros[4] = { 0, 0, 0, 0 };
    kev_out_bytes(o, zeros, 1 + (4 - plen % 4) % 4);
}

void kev_sp_board(struct kev_out *o, const char *name, uint32_t cpu_hz, uint32_t ncpu)
{
    uint32_t w[2] = { cpu_hz, ncpu };
    sp_record(o, KEV_SP_BOARD, w, 2, name);
}

void kev_sp_mem(struct kev_out *o, uint32_t base, uint32_t size, const char *name)
{
    uint32_t w[2] = { base, size };
    sp_record(o, KEV_SP_MEM, w, 2, name);
}

void kev_sp_proc(struct kev_out *o, uint32_t pid, uint32_t ppid, const char *name)
{
    uint32_t w[2] = { pid, ppid };
    sp_record(o, KEV_SP_PROC, w, 2, name);
}

void kev_sp_thread(struct kev_out *o, uint32_t pid, uint32_t tid, uint32_t state,
                   uint32_t prio, const char *name)
{
    uint32_t w[4] = { pid, tid, state, prio };
    sp_record(o, KEV_SP_THREAD, w, 4, name);
}

void kev_sp_irqdev(struct kev_out *o, uint32_t line, uint32_t major, uint32_t instance,
                   const char *name)
{
    uint32_t w[3] = { line, major, instance };
    sp_record(o, KEV_SP_IRQDEV, w, 3, name);
}

size_t kev_sp_end(struct kev_out *o)
{
    kev_out_u32(o, KEV_SP_END << 16);
    if (o->ko_err)
        return 0;
    size_t blob = o->ko_len - o->ko_blob;
    size_t save = o->ko_len;
    o->ko_len = o->ko_blob + 8;
    kev_out_u32(o, (uint32_t)blob);
    o->ko_len = save;
    return o->ko_len - o->ko_mark;
}

size_t kev_sp_end_tail(struct kev_out *o, size_t tail)
{
    if (o->ko_err)
        return 0;
    size_t save = o->ko_len;
    o->ko_len = o->ko_blob + 8;
    kev_out_u32(o, (uint32_t)(save - o->ko_blob + tail));
    o->ko_len = save;
    return o->ko_len - o->ko_mark + tail;
}

void kev_loss_note(struct kev_out *o, uint32_t t32, uint64_t lost)
{
    char msg[96];
    unsigned n = kev_put_dec(msg, lost);
    const char *tail = " events lost in this capture: see its DROPPED events";
    for (unsigned i = 0; tail[i] && n + 1 < sizeof(msg); i++)
        msg[n++] = tail[i];
    msg[n++] = 0;
    // Payload: opcode and severity as words, then the message's bytes in memory order, NUL
    // included, padded to whole slots (2 words each).
    unsigned nwords = 2u + (n + 3u) / 4u, nslots = (nwords + 1u) / 2u;
    uint8_t bytes[104] = { 0 };
    for (unsigned i = 0; i < n; i++)
        bytes[i] = (uint8_t)msg[i];
    for (unsigned s = 0; s < nslots; s++) {
        unsigned type = s == 0 ? KEV_TYPE_CB : s + 1u == nslots ? KEV_TYPE_CE : KEV_TYPE_CC;
        kev_out_u32(o, KEV_HEADER(type, KEV_C_SYSTEM, KEV_SYS_SLOG, 0));
        kev_out_u32(o, t32);
        for (unsigned w = 2u * s; w < 2u * s + 2u; w++) {
            if (w == 0)
                kev_out_u32(o, KEV_LOSS_NOTE_OPCODE);
            else if (w == 1)
                kev_out_u32(o, KEV_LOSS_NOTE_SEVERITY);
            else
                kev_out_bytes(o, bytes + 4u * (w - 2u), 4);
        }
    }
}

size_t kev_trailer_len(unsigned ncpu)
{
    return KEV_SLOT_BYTES * (3u + 2u * ncpu);
}

// One trailer slot; sum accumulates every word written before the END slot.
static void trl_slot(struct kev_out *o, unsigned ev, unsigned cpu, uint32_t a, uint32_t b,
                     uint32_t c, uint32_t *sum)
{
    uint32_t w[4] = { KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, ev, cpu), a, b, c };
    for (unsigned i = 0; i < 4; i++) {
        kev_out_u32(o, w[i]);
        *sum += w[i];
    }
}

void kev_trailer(struct kev_out *o, uint32_t nbufs, uint32_t flags,
                 const struct kev_cpu_totals *cpu, unsigned ncpu)
{
    if (ncpu == 0 || ncpu > KEV_MAX_CPUS) {
        fail(o, KEV_OUT_EINVAL, "the trailer's CPU count is 0 or over KEV_MAX_CPUS", 0);
        return;
    }
    uint32_t len = (uint32_t)kev_trailer_len(ncpu), sum = 0;
    trl_slot(o, KEV_CTL_TRL_BEGIN, 0, KEV_TRAILER_MAGIC, KEV_TRAILER_VERSION, len, &sum);
    trl_slot(o, KEV_CTL_TRL_INFO, 0, nbufs, ncpu, flags, &sum);
    for (unsigned c = 0; c < ncpu; c++) {
        trl_slot(o, KEV_CTL_TRL_EVENTS, c, (uint32_t)cpu[c].events,
                 (uint32_t)(cpu[c].events >> 32), 0, &sum);
        trl_slot(o, KEV_CTL_TRL_LOST, c, (uint32_t)cpu[c].lost, (uint32_t)(cpu[c].lost >> 32),
                 0, &sum);
    }
    uint32_t end_sum = sum;
    trl_slot(o, KEV_CTL_TRL_END, 0, end_sum, len, KEV_TRAILER_END, &sum);
}
