// SPDX-License-Identifier: MIT
// The .kev decoder (see trace/kev_decode.h and docs/kev-format.md). Freestanding: no libc.
// Every read goes through word_at()/in_range() on offsets checked against kr_len; the slot loop
// advances 16 bytes per iteration and never goes back, so it ends on any input. The first
// problem found sets kr_err (sticky) and stops decoding.
#include <trace/kev_decode.h>
#include <trace/kev_bytes.h>
#include <trace/kev_file.h>
#include <trace/kev_digits.h>
#include <trace/kev_text.h>

#if defined(__has_include)
#if __has_include(<uapi/kcall.h>)
#include <uapi/kcall.h>
// Format 1.01 numbered kernel calls its own way (0-51 in this order); 1.02 uses QNX's.
static const unsigned char kev_v101_kcall[] = {
    KC_Null, KC_ThreadCreate, KC_ThreadExit, KC_ThreadJoin, KC_ThreadYield, KC_ThreadSetPrio,
    KC_ThreadSleep, KC_ThreadName, KC_ThreadSelf, KC_ChannelCreate, KC_ChannelDestroy,
    KC_ConnectAttach, KC_ConnectDetach, KC_MsgSend, KC_MsgReceive, KC_MsgReply, KC_MsgError,
    KC_MsgSendPulse, KC_TimerTimeout, KC_TimerCreate, KC_TimerSettime, KC_TimerDestroy,
    KC_ClockCycles, KC_ClockTime, KC_InterruptAttachEvent, KC_InterruptDetach, KC_InterruptMask,
    KC_InterruptUnmask, KC_InterruptTrigger, KC_MutexCreate, KC_MutexLock, KC_MutexUnlock,
    KC_MutexDestroy, KC_CondCreate, KC_CondWait, KC_CondSignal, KC_CondDestroy, KC_SemCreate,
    KC_SemWait, KC_SemPost, KC_SemDestroy, KC_ProcSpawn, KC_ProcExit, KC_ProcWait, KC_ProcSelf,
    KC_Semihost, KC_DebugWrite, KC_SysInfo, KC_TraceEvent, KC_ProcInfo, KC_ThreadInfo,
    KC_DTrace,
};
#define KEV_HAVE_V101_KCALLS 1
#endif
#endif

// ---- small freestanding helpers ---------------------------------------------------------------

static size_t str_len(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

// Word at off in the file's byte order (caller checked off + 4 <= kr_len).
static uint32_t word_at(const struct kev_reader *r, size_t off)
{
    return kev_get32(r->kr_data + off, r->kr_big);
}

static int in_range(const struct kev_reader *r, size_t off, size_t n)
{
    return off <= r->kr_len && n <= r->kr_len - off;
}

// Message builder: text and numbers appended to kr_msg, always NUL terminated.
struct msg {
    char *p;
    size_t n, cap;
};

static void msg_s(struct msg *m, const char *s)
{
    while (*s && m->n + 1 < m->cap)
        m->p[m->n++] = *s++;
    m->p[m->n] = 0;
}

static void msg_u(struct msg *m, uint64_t v)
{
    char out[24];
    out[kev_put_dec(out, v)] = 0;
    msg_s(m, out);
}

#define NONUM UINT64_MAX // no number to print after the second text

// Record the first error: "<what> at offset <off>" (off == (size_t)-1: no offset).
static int fail(struct kev_reader *r, int code, size_t off, const char *what, const char *a,
                uint64_t n1, const char *b, uint64_t n2)
{
    if (r->kr_err)
        return r->kr_err;
    struct msg m = { r->kr_msg, 0, sizeof(r->kr_msg) };
    msg_s(&m, what);
    if (a) {
        msg_s(&m, a);
        msg_u(&m, n1);
    }
    if (b) {
        msg_s(&m, b);
        if (n2 != NONUM)
            msg_u(&m, n2);
    }
    if (off != (size_t)-1) {
        msg_s(&m, " (at byte offset ");
        msg_u(&m, off);
        msg_s(&m, ")");
    }
    r->kr_err = code;
    r->kr_err_off = off;
    return code;
}

#define NOOFF ((size_t)-1)

static int parse_u64(const char *s, unsigned n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 19)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

// A name as the tools print it: UTF-8 kept, control bytes escaped (kev_text.c).
static void copy_name(char *dst, const uint8_t *src, size_t max)
{
    kev_text_safe(dst, KEV_NAME_MAX, src, max);
}

// Add or update a name (tid 0: a process).
static void set_name(struct kev_reader *r, uint32_t pid, uint32_t tid, const uint8_t *name,
                     size_t max)
{
    struct kev_name *tab = tid ? r->kr_threads : r->kr_procs;
    unsigned *n = tid ? &r->kr_nthreads : &r->kr_nprocs;
    unsigned cap = tid ? KEV_MAX_THREADS : KEV_MAX_PROCS;
    struct kev_name *e = 0;
    for (unsigned i = 0; i < *n && !e; i++)
        if (tab[i].kn_pid == pid && tab[i].kn_tid == tid)
            e = &tab[i];
    if (!e) {
        if (*n >= cap)
            return; // table full: the name stays unknown
        e = &tab[(*n)++];
        e->kn_pid = pid;
        e->kn_tid = tid;
    }
    copy_name(e->kn_name, name, max);
}

// ---- header, system page, trailer ---------------------------------------------------------------

const char *kev_attr(const struct kev_reader *r, const char *key, unsigned *len)
{
    size_t kl = str_len(key);
    for (unsigned i = 0; i < r->kr_nattr; i++) {
        const struct kev_attr *a = &r->kr_attr[i];
        if (a->ka_klen == kl && kev_bytes_eq(a->ka_key, key, kl)) {
            if (len)
                *len = a->ka_vlen;
            return a->ka_val;
        }
    }
    return 0;
}

static int attr_u64(const struct kev_reader *r, const char *key, uint64_t *v)
{
    unsigned n;
    const char *s = kev_attr(r, key, &n);
    return s ? parse_u64(s, n, v) : -1;
}

static int starts_with(const char *d, size_t pos, size_t limit, const char *pfx)
{
    size_t n = str_len(pfx);
    return n <= limit - pos && kev_bytes_eq(d + pos, pfx, n);
}

// Header: "TRACE_HEADER_BEGIN::", items "TRACE_<KEY>::<value>", "TRACE_HEADER_END::", back to
// back as QNX writes them: a value ends where the next "TRACE_" begins. Format 1.01 files ended
// every item with '\n'; a value's trailing '\n' is dropped, and *nl says whether one followed
// TRACE_HEADER_END:: (check_format skips it for 1.01 files only).
static int parse_header(struct kev_reader *r, size_t *end, int *nl)
{
    const size_t mlen = sizeof(KEV_FILE_MAGIC) - 1, elen = sizeof(KEV_FILE_HEADER_END) - 1;
    const char *d = (const char *)r->kr_data;
    if (r->kr_len < mlen || !kev_bytes_eq(d, KEV_FILE_MAGIC, mlen))
        return fail(r, KEV_ERR_MAGIC, 0, "not a .kev trace file (no TRACE_HEADER_BEGIN::)", 0,
                    0, 0, 0);
    size_t pos = mlen, limit = r->kr_len < 65536 ? r->kr_len : 65536;
    if (pos < limit && d[pos] == '\n')
        pos++;
    for (;;) {
        if (starts_with(d, pos, limit, KEV_FILE_HEADER_END)) {
            *end = pos + elen;
            *nl = *end < r->kr_len && d[*end] == '\n';
            return 0;
        }
        if (pos >= limit)
            return fail(r, KEV_ERR_HEADER, pos, "header not terminated by TRACE_HEADER_END::",
                        0, 0, 0, 0);
        if (!starts_with(d, pos, limit, "TRACE_"))
            return fail(r, KEV_ERR_HEADER, pos, "malformed header item (want TRACE_KEY::value)",
                        0, 0, 0, 0);
        size_t sep = pos + 6;
        while (sep + 1 < limit && !(d[sep] == ':' && d[sep + 1] == ':'))
            sep++;
        size_t eov = sep + 2;
        while (eov < limit && !starts_with(d, eov, limit, "TRACE_"))
            eov++;
        if (sep + 1 >= limit || sep == pos + 6 || eov >= limit)
            return fail(r, KEV_ERR_HEADER, pos, "header not terminated by TRACE_HEADER_END::",
                        0, 0, 0, 0);
        if (r->kr_nattr >= KEV_MAX_ATTRS)
            return fail(r, KEV_ERR_HEADER, pos, "too many header items (max ", "",
                        KEV_MAX_ATTRS, ")", NONUM);
        struct kev_attr *a = &r->kr_attr[r->kr_nattr++];
        a->ka_key = d + pos + 6;
        a->ka_klen = (unsigned)(sep - pos - 6);
        a->ka_val = d + sep + 2;
        a->ka_vlen = (unsigned)(eov - sep - 2);
        if (a->ka_vlen && a->ka_val[a->ka_vlen - 1] == '\n')
            a->ka_vlen--;
        pos = eov;
    }
}

static int check_format(struct kev_reader *r)
{
    uint64_t maj, min;
    if (attr_u64(r, "VER_MAJOR", &maj) || attr_u64(r, "VER_MINOR", &min))
        return fail(r, KEV_ERR_HEADER, NOOFF, "header lacks TRACE_VER_MAJOR/TRACE_VER_MINOR", 0,
                    0, 0, 0);
    r->kr_ver_major = (unsigned)maj;
    r->kr_ver_minor = (unsigned)min;
    if (maj != KEV_VER_MAJOR || min < 1)
        return fail(r, KEV_ERR_VERSION, NOOFF, "unsupported format version ", "", maj, ".", min);
    int le = kev_attr(r, "LITTLE_ENDIAN", 0) != 0, be = kev_attr(r, "BIG_ENDIAN", 0) != 0;
    if (le == be)
        return fail(r, KEV_ERR_HEADER, NOOFF,
                    "header must say exactly one of TRACE_LITTLE_ENDIAN / TRACE_BIG_ENDIAN", 0, 0,
                    0, 0);
    r->kr_big = be;
    r->kr_swap = be != kev_host_is_big_endian();
    if (kev_attr(r, "CYCLES_PER_SEC", 0) && attr_u64(r, "CYCLES_PER_SEC", &r->kr_cycles_per_sec))
        return fail(r, KEV_ERR_HEADER, NOOFF, "TRACE_CYCLES_PER_SEC is not a number", 0, 0, 0, 0);
    return 0;
}

// The system page is QNX's (struct syspage_entry: its 16-bit total_size at byte 2) with our
// record list after it, or (files before 2026-11) our record list alone. A QNX page with no
// list after it, as QNX's own tracelogger writes, is read as carrying no names.
static int parse_syspage(struct kev_reader *r)
{
    size_t off = r->kr_sp_off, end = off + r->kr_sp_len;
    if (r->kr_sp_len == 0)
        return 0;
    if (r->kr_sp_len < 16 || (r->kr_sp_len & 3))
        return fail(r, KEV_ERR_SYSPAGE, off, "system page length ", "", r->kr_sp_len,
                    " is invalid", NONUM);
    if (word_at(r, off) != KEV_SP_MAGIC && kev_swap32(word_at(r, off)) != KEV_SP_MAGIC) {
        uint32_t w0 = word_at(r, off);
        size_t total = r->kr_big ? (w0 & 0xffffu) : (w0 >> 16);
        size_t other = kev_swap16((uint16_t)total);     // the other order
        if ((total < 8 || total > r->kr_sp_len) && other >= 8 && other <= r->kr_sp_len)
            return fail(r, KEV_ERR_BYTEORDER, off,
                        "system page is in the other byte order than the header says "
                        "(byte-swapped file?)", 0, 0, 0, 0);
        if (total < 8 || total > r->kr_sp_len)
            return fail(r, KEV_ERR_SYSPAGE, off, "QNX system page size ", "", total,
                        " does not fit TRACE_SYSPAGE_LEN ", r->kr_sp_len);
        off += (total + 3u) & ~(size_t)3u;
        if (off + 12 > end)
            return 0; // QNX's page alone
        if (word_at(r, off) != KEV_SP_MAGIC && kev_swap32(word_at(r, off)) != KEV_SP_MAGIC)
            return 0;
    }
    size_t blob = end - off;
    if (word_at(r, off) != KEV_SP_MAGIC) {
        if (kev_swap32(word_at(r, off)) == KEV_SP_MAGIC)
            return fail(r, KEV_ERR_BYTEORDER, off,
                        "system page is in the other byte order than the header says "
                        "(byte-swapped file?)", 0, 0, 0, 0);
        return fail(r, KEV_ERR_SYSPAGE, off, "bad system page magic", 0, 0, 0, 0);
    }
    if (word_at(r, off + 4) != KEV_SP_VERSION || word_at(r, off + 8) != blob)
        return fail(r, KEV_ERR_SYSPAGE, off, "system page version ", "", word_at(r, off + 4),
                    " or record list length disagrees with TRACE_SYSPAGE_LEN ", r->kr_sp_len);
    off += 12;
    r->kr_sp_list = off;
    while (off + 4 <= end) {
        uint32_t rh = word_at(r, off);
        unsigned type = rh >> 16, plen = rh & 0xffffu;
        size_t p = off + 4, next = p + ((plen + 3u) & ~3u);
        if (type == KEV_SP_END)
            return 0;
        if (next > end)
            return fail(r, KEV_ERR_SYSPAGE, off, "system page record overruns the page", 0, 0,
                        0, 0);
        unsigned nw = type == KEV_SP_THREAD ? 4u : type == KEV_SP_IRQDEV ? 3u : 2u;
        if (type >= KEV_SP_BOARD && type <= KEV_SP_IRQDEV) {
            if (plen < 4u * nw + 1u)
                return fail(r, KEV_ERR_SYSPAGE, off, "system page record type ", "", type,
                            " is too short: ", plen);
            const uint8_t *name = r->kr_data + p + 4u * nw;
            size_t nmax = plen - 4u * nw;
            if (type == KEV_SP_BOARD) {
                r->kr_board_hz = word_at(r, p);
                r->kr_board_ncpu = word_at(r, p + 4);
                copy_name(r->kr_board, name, nmax);
            } else if (type == KEV_SP_PROC) {
                set_name(r, word_at(r, p), 0, name, nmax);
            } else if (type == KEV_SP_THREAD) {
                set_name(r, word_at(r, p), word_at(r, p + 4), name, nmax);
            }
        } // unknown record types are skipped: newer writers may add some
        off = next;
    }
    return fail(r, KEV_ERR_SYSPAGE, off, "system page has no END record", 0, 0, 0, 0);
}

// The record list parse_syspage checked (each record within the page), read again for the
// interrupt devices and the incident records (sp_next). A name is copied as copy_name copies
// one (control bytes escaped).
// The record list's next record from *off (parse_syspage checked them): 1 and its type, payload
// offset and length, *off moved past it; 0 at END or the page's end, or past it.
static int sp_next(const struct kev_reader *r, size_t *off, unsigned *type, size_t *p,
                   unsigned *plen)
{
    size_t end = r->kr_sp_off + r->kr_sp_len;
    if (!*off || r->kr_err || *off + 4 > end)
        return 0;
    uint32_t rh = word_at(r, *off);
    *type = rh >> 16, *plen = rh & 0xffffu;
    *p = *off + 4;
    size_t next = *p + ((*plen + 3u) & ~3u);
    if (*type == KEV_SP_END || next > end)
        return 0;
    *off = next;
    return 1;
}

int kev_sp_irqdev_at(const struct kev_reader *r, unsigned k, uint32_t *line, uint32_t *major,
                     uint32_t *instance, char name[KEV_NAME_MAX])
{
    size_t off = r->kr_sp_list, p;
    unsigned type, plen;
    while (sp_next(r, &off, &type, &p, &plen)) {
        if (type == KEV_SP_IRQDEV && k-- == 0) {   // (parse_syspage: plen > 12)
            *line = word_at(r, p);
            *major = word_at(r, p + 4);
            *instance = word_at(r, p + 8);
            copy_name(name, r->kr_data + p + 12, plen - 12u);
            return 0;
        }
    }
    return -1;
}

long kev_sp_incident_at(const struct kev_reader *r, unsigned k, uint32_t *type, void *dst,
                        size_t cap)
{
    size_t off = r->kr_sp_list, p;
    unsigned rtype, plen;
    uint32_t total = 0, have = 0;
    int in = 0;     // inside the k-th section's pieces
    while (sp_next(r, &off, &rtype, &p, &plen)) {
        if (rtype != KEV_SP_INCIDENT || plen < 12u)
            continue;
        uint32_t st = word_at(r, p), sbytes = word_at(r, p + 4), at = word_at(r, p + 8), n = plen - 12u;
        if (!in) {
            if (at != 0 || k-- != 0)
                continue;
            in = 1;
            *type = st;
            total = sbytes;
        }
        if (st != *type || sbytes != total || at != have || n > total - have)
            return -1;      // a piece out of its place
        if (dst) {
            if (total > cap)
                return -1;
            const uint8_t *src = r->kr_data + p + 12;
            for (uint32_t i = 0; i < n; i++)
                ((uint8_t *)dst)[have + i] = src[i];
        }
        have += n;
        if (have == total)
            return (long)total;
    }
    return -1;
}

// Whether the file ends in a trailer's END word, with room for the smallest trailer after the
// events' start. (No trailer is reported after decoding what is there.)
static int ends_in_trailer(const struct kev_reader *r)
{
    return r->kr_len >= r->kr_ev_off + 48 && word_at(r, r->kr_len - 4) == KEV_TRAILER_END;
}

// The trailer at t of format version `version`: its version, then its checksum (at the
// file's end - 12) over its words before the last four. 0, or the error code.
static int trailer_version_sum(struct kev_reader *r, size_t t, uint32_t version)
{
    size_t len = r->kr_len;
    if (word_at(r, t + 8) != version)
        return fail(r, KEV_ERR_VERSION, t, "unsupported trailer version ", "", word_at(r, t + 8),
                    0, 0);
    uint32_t sum = 0;
    for (size_t o = t; o < len - 16; o += 4)
        sum += word_at(r, o);
    if (sum != word_at(r, len - 12))
        return fail(r, KEV_ERR_TRAILER, t, "trailer checksum mismatch", 0, 0, 0, 0);
    return 0;
}

// A checked trailer at t taken: its buffers, CPUs and flags, and each CPU's events and lost
// counts (64-bit, low word first): CPU c's events at events_at + stride * c, its lost count
// lost_at bytes after. The events end where the trailer starts.
static void take_trailer(struct kev_reader *r, size_t t, uint32_t nbufs, uint32_t ncpu,
                         uint32_t flags, size_t events_at, size_t stride, size_t lost_at)
{
    r->kr_have_trailer = 1;
    r->kr_trl_nbufs = nbufs;
    r->kr_trl_ncpu = ncpu;
    r->kr_trl_flags = flags;
    for (unsigned c = 0; c < ncpu; c++) {
        size_t o = events_at + stride * c;
        r->kr_trl_events[c] = (uint64_t)word_at(r, o + 4) << 32 | word_at(r, o);
        r->kr_trl_lost[c] = (uint64_t)word_at(r, o + lost_at + 4) << 32 | word_at(r, o + lost_at);
    }
    r->kr_ev_end = t;
}

// A trailer's layout in its format version (offsets in bytes from the trailer's start).
struct trailer_layout {
    uint32_t tag, version;
    size_t len_back;                 // its length word: at the file's end - len_back
    size_t nbufs_at, ncpu_at, flags_at;
    size_t fixed, per_cpu;           // its length: fixed + per_cpu * ncpu
    size_t events_at, lost_at;       // CPU 0's events count; a CPU's lost count past its events
};

// The trailer sits at the very end: CONTROL slots BEGIN, INFO, per CPU EVENTS and LOST, END;
// END's words are (checksum of every earlier trailer word, trailer bytes, "END!"). Per CPU an
// EVENTS slot, then a LOST slot: each count in the slot's words 1 and 2 (kev_trailer_len's
// 16 * (3 + 2 * ncpu) bytes).
static const struct trailer_layout trailer_v102 = {
    KEV_TRAILER_TAG, KEV_TRAILER_VERSION, 8, 20, 24, 28, 48, 32, 36, 16,
};

// Format 1.01's trailer: an EMPTY-class tag word 0x3ff, magic, version 1, length, buffers,
// ncpu, flags, 0, per CPU (events, lost) as 64-bit pairs, then (length, checksum, 0, END).
static const struct trailer_layout trailer_v101 = { 0x3ffu, 1u, 16, 16, 20, 24, 48, 16, 32, 8 };

// The trailer of the file's format version, if the file ends in one: checked and taken.
static int parse_trailer(struct kev_reader *r)
{
    const struct trailer_layout *l = r->kr_ver_minor < 2 ? &trailer_v101 : &trailer_v102;
    size_t len = r->kr_len, base = r->kr_ev_off;
    r->kr_ev_end = len;
    if (!ends_in_trailer(r))
        return 0;
    uint32_t tlen = word_at(r, len - l->len_back);
    if (tlen < l->fixed || tlen > len - base || (tlen - l->fixed) % l->per_cpu != 0)
        return fail(r, KEV_ERR_TRAILER, len - l->len_back, "trailer length ", "", tlen,
                    " is invalid", NONUM);
    size_t t = len - tlen;
    uint32_t ncpu = word_at(r, t + l->ncpu_at);
    if (word_at(r, t) != l->tag || word_at(r, t + 4) != KEV_TRAILER_MAGIC ||
        word_at(r, t + 12) != tlen || ncpu == 0 || ncpu > KEV_MAX_CPUS ||
        l->fixed + l->per_cpu * ncpu != tlen)
        return fail(r, KEV_ERR_TRAILER, t, "damaged trailer", 0, 0, 0, 0);
    if (trailer_version_sum(r, t, l->version))
        return r->kr_err;
    take_trailer(r, t, word_at(r, t + l->nbufs_at), ncpu, word_at(r, t + l->flags_at),
                 t + l->events_at, l->per_cpu, l->lost_at);
    return 0;
}

// The header of data[0..len) and where the system page is: 0, or the error code (TRUNCATED
// when the file ends inside the system page).
static int open_head(struct kev_reader *r, const void *data, size_t len)
{
    // One block clear (the compiler's memset; every C environment, freestanding too, provides
    // it): a byte loop over the reader's ~60 KB made each open cost more than decoding a trace,
    // and under the fuzzer's comparison tracing it was 80% of fuzz_kev_decode's time.
    *r = (struct kev_reader){0};
    r->kr_data = data;
    r->kr_len = data ? len : 0;
    size_t hdr_end = 0;
    int nl = 0;
    uint64_t splen;
    if (parse_header(r, &hdr_end, &nl) || check_format(r))
        return r->kr_err;
    if (nl && r->kr_ver_minor < 2)
        hdr_end++; // format 1.01 wrote a newline after TRACE_HEADER_END::
    if (attr_u64(r, "SYSPAGE_LEN", &splen))
        return fail(r, KEV_ERR_HEADER, NOOFF, "header lacks a numeric TRACE_SYSPAGE_LEN", 0, 0,
                    0, 0);
    if (!in_range(r, hdr_end, splen))
        return fail(r, KEV_ERR_TRUNCATED, hdr_end, "file ends inside the system page (",
                    "", splen, " bytes announced)", NONUM);
    r->kr_sp_off = hdr_end;
    r->kr_sp_len = (size_t)splen;
    r->kr_ev_off = hdr_end + (size_t)splen;
    return 0;
}

int kev_open(struct kev_reader *r, const void *data, size_t len)
{
    if (open_head(r, data, len) || parse_syspage(r) || parse_trailer(r))
        return r->kr_err;
    // The data must open with a CONTROL BUFFER slot; this also catches swapped files.
    if (r->kr_ev_end - r->kr_ev_off >= KEV_SLOT_BYTES) {
        uint32_t h = word_at(r, r->kr_ev_off);
        uint32_t want = KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, KEV_CTL_BUFFER, 0);
        uint32_t mask = ~(KEV_CPU_MASK << KEV_CPU_SHIFT);
        if ((h & mask) != want && (kev_swap32(h) & mask) == want)
            return fail(r, KEV_ERR_BYTEORDER, r->kr_ev_off,
                        "events are in the other byte order than the header says "
                        "(byte-swapped file?)", 0, 0, 0, 0);
    }
    return 0;
}

const char *kev_error(const struct kev_reader *r)
{
    return r->kr_err ? r->kr_msg : "";
}

void kev_set_user(struct kev_reader *r, void *user) { r->kr_user = user; }
void kev_on_any(struct kev_reader *r, kev_cb cb) { r->kr_anycb = cb; }

void kev_on_class(struct kev_reader *r, unsigned cls, kev_cb cb)
{
    if (cls < KEV_NCLASS)
        r->kr_clscb[cls] = cb;
}

int kev_on_event(struct kev_reader *r, unsigned cls, unsigned ev, kev_cb cb)
{
    if (r->kr_nevcb >= KEV_MAX_EVCB)
        return -1;
    r->kr_evcb[r->kr_nevcb].cls = cls;
    r->kr_evcb[r->kr_nevcb].ev = ev;
    r->kr_evcb[r->kr_nevcb].cb = cb;
    r->kr_nevcb++;
    return 0;
}

const char *kev_proc_name(const struct kev_reader *r, uint32_t pid)
{
    for (unsigned i = 0; i < r->kr_nprocs; i++)
        if (r->kr_procs[i].kn_pid == pid)
            return r->kr_procs[i].kn_name;
    return 0;
}

const char *kev_thread_name(const struct kev_reader *r, uint32_t pid, uint32_t tid)
{
    for (unsigned i = 0; i < r->kr_nthreads; i++)
        if (r->kr_threads[i].kn_pid == pid && r->kr_threads[i].kn_tid == tid)
            return r->kr_threads[i].kn_name;
    return 0;
}

// String bytes packed in payload words: in memory order in the file (format 1.02, as QNX):
// byte i is the word's byte i % 4 in the file's byte order. Format 1.01 packed them by value:
// byte i was bits 8 * (i % 4), whatever the byte order.
static void words_bytes(const struct kev_reader *r, const uint32_t *w, unsigned nw,
                        uint8_t *out, size_t n)
{
    int big = r->kr_big && r->kr_ver_minor >= 2;
    uint8_t b[4];
    for (size_t i = 0; i < n && i / 4 < nw; i++) {
        if (i % 4 == 0)
            kev_put(b, w[i / 4], 4, big);
        out[i] = b[i % 4];
    }
}

void kev_event_string(const struct kev_reader *r, const struct kev_event *e, unsigned first,
                      char *buf, size_t n)
{
    if (n == 0)
        return;
    size_t i = 0;
    if (first < e->nw) {
        uint8_t tmp[8u * KEV_MAX_COMBINE_SLOTS];
        size_t nb = 4u * (e->nw - first);
        words_bytes(r, e->w + first, e->nw - first, tmp, nb);
        for (; i + 1 < n && i < nb && tmp[i]; i++)
            buf[i] = (tmp[i] >= 0x20 && tmp[i] < 0x7f) ? (char)tmp[i] : '?';
    }
    buf[i] = 0;
}

// The table's row of a kernel-call event (KER_CALL, KER_EXIT or KER_INTR), NULL for another.
static const struct kev_event_desc *kcall_row(unsigned cls, unsigned ev)
{
    const struct kev_event_desc *d = cls == KEV_C_KER_CALL ? kev_event_describe(cls, ev) : NULL;
    return d && d->kcall ? d : NULL;
}

enum kev_kcall_part kev_kcall_part(const struct kev_event *e)
{
    const struct kev_event_desc *d = kcall_row(e->cls, e->ev);
    return d ? (enum kev_kcall_part)d->kcall : KEV_KCALL_NONE;
}

uint32_t kev_kcall_arg(const struct kev_event *e, unsigned k)
{
    return kev_kcall_part(e) == KEV_KCALL_ENTRY && k < e->nw ? e->w[k] : 0u;
}

unsigned kev_kcall_no(const struct kev_event *e)
{
    const struct kev_event_desc *d = kcall_row(e->cls, e->ev);
    return d ? e->ev - d->lo : e->ev % KEV_KC_MAX;
}

const char *kev_kcall_part_name(unsigned ev)
{
    const struct kev_event_desc *d = kcall_row(KEV_C_KER_CALL, ev);
    switch (d ? d->kcall : KEV_KCALL_NONE) {
    case KEV_KCALL_ENTRY: return "entry";
    case KEV_KCALL_EXIT: return "exit";
    case KEV_KCALL_INTR: return "interrupted";
    default: return "unknown";
    }
}

int kev_kcall_exit(const struct kev_event *e, int32_t *ret, uint32_t *err)
{
    const struct kev_event_desc *d = kcall_row(e->cls, e->ev);
    if (!d || (d->kcall != KEV_KCALL_EXIT && d->kcall != KEV_KCALL_INTR) || e->nw < 2)
        return 0;
    unsigned n = e->ev - d->lo; // the call's number
    *ret = (int32_t)e->w[0];
    *err = 0;
#ifdef KEV_HAVE_V101_KCALLS
    if (n == KC_ClockCycles || n == KC_ClockTime || n == KC_Semihost)
        return 1;
#else
    (void)n;
#endif
    if (e->w[0] == 0xffffffffu) {
        *err = e->w[1];
    } else if (*ret < 0 && e->w[1] == 0) { // format 1.01: -errno
        *err = (uint32_t)-*ret;
        *ret = -1;
    }
    return 1;
}

size_t kev_event_bytes(const struct kev_reader *r, const struct kev_event *e, unsigned first,
                       uint8_t *buf, size_t n)
{
    size_t nb = first < e->nw ? 4u * (e->nw - first) : 0u;
    if (nb > n)
        nb = n;
    if (nb)
        words_bytes(r, e->w + first, e->nw - first, buf, nb);
    return nb;
}

void kev_event_name(const struct kev_reader *r, const struct kev_event *e, unsigned first,
                    char *buf, size_t n)
{
    uint8_t tmp[8u * KEV_MAX_COMBINE_SLOTS];
    kev_text_safe(buf, n, tmp, kev_event_bytes(r, e, first, tmp, sizeof(tmp)));
}

uint64_t kev_lost_total(const struct kev_reader *r)
{
    uint64_t s = 0;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        s += r->kr_have_trailer && r->kr_trl_lost[c] > r->kr_cpu[c].cs_lost_stream
                 ? r->kr_trl_lost[c] : r->kr_cpu[c].cs_lost_stream;
    return s;
}

uint64_t kev_timer_lost_total(const struct kev_reader *r)
{
    uint64_t s = 0;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        s += r->kr_cpu[c].cs_timer_lost;
    return s;
}

uint64_t kev_rejected_total(const struct kev_reader *r)
{
    uint64_t s = 0;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        s += r->kr_cpu[c].cs_rejected;
    return s;
}

// ---- the slot walk ----------------------------------------------------------------------------

// Learn names from process/thread name events.
// A URING_BAD event's count of rejected records, by its row's field (0 when it has none).
static uint32_t uring_rejected(const struct kev_event *e)
{
    uint64_t v = 0;
    kev_field_read(e, kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_URING_BAD, "rejected"), &v);
    return (uint32_t)v;
}

static void learn_names(struct kev_reader *r, const struct kev_event *e)
{
    if (e->cls != KEV_C_PR_TH || e->nw < 3)
        return;
    if (e->ev != KEV_PR_CREATE_NAME && e->ev != KEV_PR_THREAD_NAME)
        return;
    uint8_t tmp[KEV_NAME_MAX];
    size_t nb = 4u * (e->nw - 2) < sizeof(tmp) ? 4u * (e->nw - 2) : sizeof(tmp);
    words_bytes(r, e->w + 2, e->nw - 2, tmp, nb);
    if (e->ev == KEV_PR_CREATE_NAME) // [ppid, pid, name]
        set_name(r, e->w[1], 0, tmp, nb);
    else // [pid, tid, name]
        set_name(r, e->w[0], e->w[1] ? e->w[1] : 1, tmp, nb);
}

static int control_event(struct kev_reader *r, const struct kev_event *e)
{
    struct kev_cpu_stats *cs = &r->kr_cpu[e->cpu];
    uint32_t a = e->w[0], b = e->w[1];
    switch (e->ev) {
    case KEV_CTL_BUFFER:
        if (r->kr_in_buf)
            return fail(r, KEV_ERR_CORRUPT, e->offset, "buffer sequence ", "", r->kr_buf_seq,
                        " has no BUFFER_END before the next BUFFER", NONUM);
        r->kr_in_buf = 1;
        r->kr_buf_seq = a;
        r->kr_buf_events = 0;
        r->kr_buffers++;
        cs->cs_buffers++;
        if (r->kr_have_seq && a != r->kr_last_seq + 1u && (int32_t)(a - r->kr_last_seq) <= 0)
            r->kr_seq_reorder++;
        if (!r->kr_have_seq)
            r->kr_first_seq = a;
        {
            int64_t d = (int32_t)(a - r->kr_first_seq);
            if (d < r->kr_seq_lo)
                r->kr_seq_lo = d;
            if (d > r->kr_seq_hi)
                r->kr_seq_hi = d;
            uint64_t span = (uint64_t)(r->kr_seq_hi - r->kr_seq_lo) + 1u;
            r->kr_seq_missing = span > r->kr_buffers ? span - r->kr_buffers : 0;
        }
        r->kr_have_seq = 1;
        r->kr_last_seq = a;
        break;
    case KEV_CTL_BUFFER_END:
        if (a != r->kr_buf_seq || b != r->kr_buf_events)
            return fail(r, KEV_ERR_CORRUPT, e->offset, "BUFFER_END claims ", "", b,
                        " events but the buffer holds ", r->kr_buf_events);
        r->kr_in_buf = 0;
        break;
    case KEV_CTL_DROPPED:
        cs->cs_lost_stream += a;
        break;
    default:
        break;
    }
    return 0;
}

// A format 1.01 event renumbered to 1.02's meaning (kernel calls, THCREATE/THDESTROY, SYSTEM).
static void upgrade_v101(struct kev_event *e)
{
    if (e->cls == KEV_C_PR_TH && (e->ev == 22u || e->ev == 23u)) {
        e->ev = e->ev == 22u ? KEV_TH_CREATE : KEV_TH_DESTROY;
    } else if (e->cls == KEV_C_SYSTEM && (e->ev == 1u || e->ev == 2u)) {
        e->ev = e->ev == 1u ? KEV_SYS_TIMER : KEV_SYS_SNAPSHOT;
    } else if (e->cls == KEV_C_KER_CALL) {
#ifdef KEV_HAVE_V101_KCALLS
        unsigned n = e->ev % KEV_KC_MAX, base = e->ev - n;
        if (n < sizeof(kev_v101_kcall))
            e->ev = base + kev_v101_kcall[n];
#endif
    }
}

// A BUFFER slot followed by the TIME slot the ring writes with it (the same CPU and low word):
// the buffer's start, whose high word that TIME gives. So a buffer's first event has its true
// time even when the buffer came out of order, or first in the file.
static int buffer_time(const struct kev_reader *r, const struct kev_event *e)
{
    size_t o = e->offset + KEV_SLOT_BYTES;
    if (e->cls != KEV_C_CONTROL || e->ev != KEV_CTL_BUFFER || e->nslots != 1 ||
        !in_range(r, o, KEV_SLOT_BYTES))
        return 0;
    uint32_t h = word_at(r, o);
    return kev_hdr_type(h) == KEV_TYPE_S && kev_hdr_class(h) == KEV_C_CONTROL &&
           kev_hdr_event(h) == KEV_CTL_TIME && kev_hdr_cpu(h) == e->cpu &&
           word_at(r, o + 12) == e->t32;
}

// Bookkeeping of an event about to be given out: format 1.01's numbers, the 64-bit time (the
// time-ordered walk's cursors rebuilt it already), the framing of CONTROL events, the counts,
// the names. 0, or the error code.
static int account(struct kev_reader *r, struct kev_event *e)
{
    if (r->kr_ver_minor < 2)
        upgrade_v101(e);
    struct kev_cpu_stats *cs = &r->kr_cpu[e->cpu];
    if (e->cpu >= r->kr_ncpu_seen)
        r->kr_ncpu_seen = e->cpu + 1;
    if (e->cls == KEV_C_CONTROL && e->ev == KEV_CTL_TIME) {
        cs->cs_hi = e->w[0];
        cs->cs_have_time = 1;
    } else if (buffer_time(r, e)) {
        cs->cs_hi = word_at(r, e->offset + KEV_SLOT_BYTES + 8);
        cs->cs_have_time = 1;
    } else if (cs->cs_have_time && e->t32 < cs->cs_last) {
        cs->cs_hi++; // the low word wrapped without a TIME event
        cs->cs_time_guess++;
    }
    cs->cs_last = e->t32;
    if (!r->kr_merging)
        e->t64 = (uint64_t)cs->cs_hi << 32 | e->t32;

    if (e->cls == KEV_C_CONTROL) {
        if (!r->kr_merging && control_event(r, e)) // framing was checked by the first walk
            return r->kr_err;
    } else {
        cs->cs_events++;
        r->kr_events++;
        r->kr_buf_events++;
        if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_URING_BAD)
            cs->cs_rejected += uring_rejected(e);
        if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_TIMER_LOST)
            cs->cs_timer_lost++;
        learn_names(r, e);
    }
    return 0;
}

// The callback for e (per event, else per class, else the catch-all), if any.
static int dispatch(struct kev_reader *r, const struct kev_event *e)
{
    kev_cb cb = 0;
    for (unsigned i = 0; i < r->kr_nevcb && !cb; i++)
        if (r->kr_evcb[i].cls == e->cls && r->kr_evcb[i].ev == e->ev)
            cb = r->kr_evcb[i].cb;
    if (!cb)
        cb = r->kr_clscb[e->cls];
    if (!cb)
        cb = r->kr_anycb;
    if (cb && cb(r->kr_user, r, e))
        return fail(r, KEV_ERR_STOPPED, e->offset, "stopped by a callback", 0, 0, 0, 0);
    return 0;
}

static int check_totals(struct kev_reader *r)
{
    if (!r->kr_have_trailer)
        return fail(r, KEV_ERR_TRUNCATED, r->kr_len,
                    "file truncated: no trailer after the last buffer", 0, 0, 0, 0);
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++) {
        uint64_t want = c < r->kr_trl_ncpu ? r->kr_trl_events[c] : 0;
        if (want != r->kr_cpu[c].cs_events)
            return fail(r, KEV_ERR_TRAILER, NOOFF, "trailer counts ", "", want,
                        " events on a CPU but the file holds ", r->kr_cpu[c].cs_events);
        if (c < r->kr_trl_ncpu && r->kr_trl_lost[c] < r->kr_cpu[c].cs_lost_stream)
            return fail(r, KEV_ERR_TRAILER, NOOFF, "trailer counts ", "", r->kr_trl_lost[c],
                        " lost events on a CPU, DROPPED events say ",
                        r->kr_cpu[c].cs_lost_stream);
    }
    if (r->kr_trl_nbufs != r->kr_buffers)
        return fail(r, KEV_ERR_TRAILER, NOOFF, "trailer counts ", "", r->kr_trl_nbufs,
                    " buffers but the file holds ", r->kr_buffers);
    return 0;
}

// The loss note between buffers (kev.h) at off, h its first slot's header: not an event of the
// capture; its place and length are kept and the walk goes on past it. -1, or the error code.
static int skip_loss_note(struct kev_reader *r, size_t off, uint32_t h)
{
    const size_t end = r->kr_ev_end;
    const uint32_t type_mask = KEV_TYPE_MASK << KEV_TYPE_SHIFT;
    size_t o = off;
    unsigned n = 1;
    while (kev_hdr_type(h) != KEV_TYPE_CE && n < KEV_MAX_COMBINE_SLOTS &&
           end - o >= 2u * KEV_SLOT_BYTES) {
        o += KEV_SLOT_BYTES, n++;
        h = word_at(r, o);
        if ((h & ~type_mask) != (word_at(r, off) & ~type_mask))
            return fail(r, KEV_ERR_CORRUPT, off, "unterminated loss note", 0, 0, 0, 0);
    }
    if (kev_hdr_type(h) != KEV_TYPE_CE)
        return fail(r, KEV_ERR_CORRUPT, off, "unterminated loss note", 0, 0, 0, 0);
    r->kr_note_off = off;
    r->kr_note_nslots = n;
    r->kr_walk.kw_off = o + KEV_SLOT_BYTES;
    return -1;
}

// A slot (header h, time t, words w0 w1) while a combine event is open: its words join the
// event, which its end slot completes (1 with *e); -1 while more follow, else the error code.
static int combine_slot(struct kev_reader *r, struct kev_event *e, uint32_t h, uint32_t t,
                        uint32_t w0, uint32_t w1)
{
    struct kev_walk *k = &r->kr_walk;
    const uint32_t type_mask = KEV_TYPE_MASK << KEV_TYPE_SHIFT;
    unsigned type = kev_hdr_type(h);
    if ((type != KEV_TYPE_CC && type != KEV_TYPE_CE) ||
        (h & ~type_mask) != (k->kw_comb_hdr & ~type_mask) || t != k->kw_comb_t)
        return fail(r, KEV_ERR_CORRUPT, k->kw_comb_off, "unterminated combine event", 0,
                    0, 0, 0);
    if (k->kw_ncomb + 2 > 2u * KEV_MAX_COMBINE_SLOTS)
        return fail(r, KEV_ERR_CORRUPT, k->kw_comb_off, "combine event longer than ", "",
                    KEV_MAX_COMBINE_SLOTS, " slots", NONUM);
    r->kr_comb[k->kw_ncomb++] = w0;
    r->kr_comb[k->kw_ncomb++] = w1;
    if (type == KEV_TYPE_CC)
        return -1;
    uint32_t ch = k->kw_comb_hdr;
    *e = (struct kev_event){ ch, kev_hdr_class(ch), kev_hdr_event(ch), kev_hdr_cpu(ch),
                             k->kw_comb_t, 0, r->kr_comb, k->kw_ncomb, k->kw_ncomb / 2,
                             k->kw_comb_off };
    k->kw_ncomb = 0;
    return account(r, e) ? r->kr_err : 1;
}

// A slot at off (header h, time t, words w0 w1) with no combine event open: a combine event's
// begin (-1: its continuations follow), else a one-slot event (1 with *e); or the error code.
static int first_slot(struct kev_reader *r, struct kev_event *e, size_t off, uint32_t h,
                      uint32_t t, uint32_t w0, uint32_t w1)
{
    struct kev_walk *k = &r->kr_walk;
    unsigned cls = kev_hdr_class(h), type = kev_hdr_type(h);
    if (type == KEV_TYPE_CC || type == KEV_TYPE_CE)
        return fail(r, KEV_ERR_CORRUPT, off, "combine continuation without a begin slot", 0,
                    0, 0, 0);
    r->kr_comb[0] = w0;
    r->kr_comb[1] = w1;
    if (type == KEV_TYPE_CB) {
        if (cls == KEV_C_CONTROL)
            return fail(r, KEV_ERR_CORRUPT, off, "CONTROL events are never combined", 0, 0,
                        0, 0);
        k->kw_comb_hdr = h;
        k->kw_comb_t = t;
        k->kw_comb_off = off;
        k->kw_ncomb = 2;
        return -1;
    }
    *e = (struct kev_event){ h, cls, kev_hdr_event(h), kev_hdr_cpu(h), t, 0, r->kr_comb, 2,
                             1, off };
    return account(r, e) ? r->kr_err : 1;
}

// The end of the events: nothing left open (a combine event, a slot, a buffer), then, in a
// finished file, its totals against the trailer's. 0, or the error code.
static int walk_end(struct kev_reader *r)
{
    struct kev_walk *k = &r->kr_walk;
    if (k->kw_ncomb)
        return fail(r, KEV_ERR_TRUNCATED, k->kw_comb_off, "file truncated inside a combine event",
                    0, 0, 0, 0);
    if (r->kr_ev_end != k->kw_off)
        return fail(r, KEV_ERR_TRUNCATED, k->kw_off, "file truncated inside a slot", 0, 0, 0, 0);
    if (r->kr_in_buf)
        return fail(r, KEV_ERR_TRUNCATED, k->kw_off, "file truncated: buffer sequence ", "",
                    r->kr_buf_seq, " has no BUFFER_END", NONUM);
    if (r->kr_live) // the end of what has arrived of a file still being written
        return 0;
    return check_totals(r);
}

// The next event of the file in file order, with every check and every count: 1 with *e, 0
// at the end of a sound file (its totals checked against the trailer), or the error code.
// Position and an open combine event live in r->kr_walk, so each call resumes the last.
static int file_step(struct kev_reader *r, struct kev_event *e)
{
    struct kev_walk *k = &r->kr_walk;
    const size_t end = r->kr_ev_end;

    while (end - k->kw_off >= KEV_SLOT_BYTES) {
        size_t off = k->kw_off;
        k->kw_off += KEV_SLOT_BYTES;
        uint32_t h = word_at(r, off), t = word_at(r, off + 4);
        uint32_t w0 = word_at(r, off + 8), w1 = word_at(r, off + 12);
        unsigned cls = kev_hdr_class(h), type = kev_hdr_type(h);
        if (h == KEV_TRAILER_TAG && word_at(r, off + 4) == KEV_TRAILER_MAGIC)
            return fail(r, KEV_ERR_TRUNCATED, off, "file truncated inside the trailer", 0, 0, 0,
                        0);
        if (cls == KEV_C_EMPTY || cls >= KEV_NCLASS)
            return fail(r, KEV_ERR_CORRUPT, off, "invalid slot: class ", "", cls,
                        " is not an event class", NONUM);
        int rc;
        if (!r->kr_in_buf && !k->kw_ncomb && type == KEV_TYPE_CB && cls == KEV_C_SYSTEM &&
            kev_hdr_event(h) == KEV_SYS_SLOG && w0 == KEV_LOSS_NOTE_OPCODE)
            rc = skip_loss_note(r, off, h);
        else if (!r->kr_in_buf && !(cls == KEV_C_CONTROL && kev_hdr_event(h) == KEV_CTL_BUFFER &&
                                    type == KEV_TYPE_S))
            return fail(r, KEV_ERR_CORRUPT, off, "event outside a buffer (expected CONTROL "
                        "BUFFER)", 0, 0, 0, 0);
        else if (k->kw_ncomb)
            rc = combine_slot(r, e, h, t, w0, w1);
        else
            rc = first_slot(r, e, off, h, t, w0, w1);
        if (rc != -1)
            return rc;
    }
    return walk_end(r);
}

// ---- time order across CPUs ------------------------------------------------------------------
// Each CPU fills buffers of its own, so a file holds each CPU's events in order but the CPUs'
// buffers one after another. Once the file-order walk has found the file sound, one cursor per
// CPU walks that CPU's buffers (skipping the others' and the loss note) and the event with the
// earliest 64-bit time goes next (ties: the lower CPU). A cursor keeps where its next event
// is, not its words: they are read from the file when the event goes out.

// The first slot after the buffer (of any CPU) that starts at off: past its BUFFER_END.
static size_t skip_buffer(const struct kev_reader *r, size_t off, unsigned cpu)
{
    for (off += KEV_SLOT_BYTES; r->kr_ev_end - off >= KEV_SLOT_BYTES; off += KEV_SLOT_BYTES) {
        uint32_t h = word_at(r, off);
        if (kev_hdr_class(h) == KEV_C_CONTROL && kev_hdr_type(h) == KEV_TYPE_S &&
            kev_hdr_event(h) == KEV_CTL_BUFFER_END && kev_hdr_cpu(h) == cpu)
            return off + KEV_SLOT_BYTES;
    }
    return r->kr_ev_end;
}

// Finds cursor c's next event (of CPU cpu): its slot, slot count and time; c->kc_have = 0 at
// the end of the file.
static void cursor_next(const struct kev_reader *r, struct kev_cursor *c, unsigned cpu)
{
    const size_t end = r->kr_ev_end;
    c->kc_have = 0;
    while (end - c->kc_off >= KEV_SLOT_BYTES) {
        size_t off = c->kc_off;
        uint32_t h = word_at(r, off), t = word_at(r, off + 4);
        unsigned cls = kev_hdr_class(h), type = kev_hdr_type(h);
        if (!c->kc_in_buf) {
            if (h == KEV_TRAILER_TAG)
                break;
            if (!(cls == KEV_C_CONTROL && type == KEV_TYPE_S && kev_hdr_event(h) == KEV_CTL_BUFFER)) {
                // The loss note (the only thing between buffers in a sound file): skip it.
                while (end - c->kc_off >= KEV_SLOT_BYTES &&
                       kev_hdr_type(word_at(r, c->kc_off)) != KEV_TYPE_CE)
                    c->kc_off += KEV_SLOT_BYTES;
                c->kc_off += KEV_SLOT_BYTES;
                continue;
            }
            if (kev_hdr_cpu(h) != cpu) {
                c->kc_off = skip_buffer(r, off, kev_hdr_cpu(h));
                continue;
            }
            c->kc_in_buf = 1;
        }
        unsigned n = 1;
        if (type == KEV_TYPE_CB)
            while (n < KEV_MAX_COMBINE_SLOTS && end - (off + n * KEV_SLOT_BYTES) >= KEV_SLOT_BYTES) {
                size_t o = off + n * KEV_SLOT_BYTES;
                n++;
                if (kev_hdr_type(word_at(r, o)) == KEV_TYPE_CE)
                    break;
            }
        c->kc_off = off + n * KEV_SLOT_BYTES;
        if (cls == KEV_C_CONTROL && kev_hdr_event(h) == KEV_CTL_BUFFER_END)
            c->kc_in_buf = 0;
        if (cls == KEV_C_CONTROL && kev_hdr_event(h) == KEV_CTL_TIME) {
            c->kc_hi = word_at(r, off + 8);
            c->kc_have_time = 1;
        } else if (c->kc_have_time && t < c->kc_last) {
            c->kc_hi++;
        }
        c->kc_last = t;
        c->kc_ev_off = off;
        c->kc_nslots = n;
        c->kc_t64 = (uint64_t)c->kc_hi << 32 | t;
        c->kc_have = 1;
        return;
    }
}

static void results_save(const struct kev_reader *r, struct kev_results *s)
{
    for (unsigned i = 0; i < KEV_MAX_CPUS; i++)
        s->cpu[i] = r->kr_cpu[i];
    s->ncpu_seen = r->kr_ncpu_seen;
    s->events = r->kr_events;
    s->buffers = r->kr_buffers;
    s->seq_missing = r->kr_seq_missing;
    s->seq_reorder = r->kr_seq_reorder;
    s->first_seq = r->kr_first_seq;
    s->last_seq = r->kr_last_seq;
    s->seq_lo = r->kr_seq_lo;
    s->seq_hi = r->kr_seq_hi;
    s->have_seq = r->kr_have_seq;
}

static void results_restore(struct kev_reader *r, const struct kev_results *s)
{
    for (unsigned i = 0; i < KEV_MAX_CPUS; i++)
        r->kr_cpu[i] = s->cpu[i];
    r->kr_ncpu_seen = s->ncpu_seen;
    r->kr_events = s->events;
    r->kr_buffers = s->buffers;
    r->kr_seq_missing = s->seq_missing;
    r->kr_seq_reorder = s->seq_reorder;
    r->kr_first_seq = s->first_seq;
    r->kr_last_seq = s->last_seq;
    r->kr_seq_lo = s->seq_lo;
    r->kr_seq_hi = s->seq_hi;
    r->kr_have_seq = s->have_seq;
}

static void results_clear(struct kev_reader *r)
{
    static const struct kev_results zero;
    results_restore(r, &zero);
    r->kr_in_buf = 0;
    r->kr_buf_seq = 0;
    r->kr_buf_events = 0;
}

// The next event in time order: 1 with *e (its words gathered into kr_comb), 0 at the end.
static int time_step(struct kev_reader *r, struct kev_event *e)
{
    struct kev_walk *k = &r->kr_walk;
    int best = -1;
    for (unsigned i = 0; i < k->kw_ncpu; i++)
        if (k->kw_cur[i].kc_have && (best < 0 || k->kw_cur[i].kc_t64 < k->kw_cur[best].kc_t64))
            best = (int)i;
    if (best < 0)
        return 0;
    struct kev_cursor *c = &k->kw_cur[best];
    size_t off = c->kc_ev_off;
    uint32_t h = word_at(r, off);
    for (unsigned s = 0; s < c->kc_nslots; s++) {
        r->kr_comb[2 * s] = word_at(r, off + s * KEV_SLOT_BYTES + 8);
        r->kr_comb[2 * s + 1] = word_at(r, off + s * KEV_SLOT_BYTES + 12);
    }
    *e = (struct kev_event){ h, kev_hdr_class(h), kev_hdr_event(h), (unsigned)best,
                             word_at(r, off + 4), c->kc_t64, r->kr_comb, 2u * c->kc_nslots,
                             c->kc_nslots, off };
    cursor_next(r, c, (unsigned)best);
    return account(r, e) ? r->kr_err : 1;
}

// Decides how the walk goes (kev_decode.h, "Order of delivery"). Merging is for files whose
// events come from several CPUs (the trailer counts each CPU's); one CPU's, or a file without
// a trailer, is read once, in file order. Several CPUs: the whole file is checked and counted
// first, quietly; a damaged file is then read again in file order (what a reader can make of
// it, up to the damage).
static void walk_start(struct kev_reader *r)
{
    struct kev_walk *k = &r->kr_walk;
    unsigned ncpu = r->kr_trl_ncpu, busy = 0;
    k->kw_off = r->kr_ev_off;
    k->kw_mode = KEV_WALK_FILE;
    for (unsigned c = 0; r->kr_have_trailer && c < ncpu && c < KEV_MAX_CPUS; c++)
        busy += r->kr_trl_events[c] != 0;
    if (busy <= 1 || ncpu > KEV_MAX_CPUS || r->kr_file_order)
        return;
    struct kev_event e;
    int rc;
    while ((rc = file_step(r, &e)) == 1)
        ;
    k->kw_off = r->kr_ev_off;
    k->kw_ncomb = 0;
    if (rc) {
        results_clear(r);
        r->kr_err = 0;
        r->kr_err_off = 0;
        r->kr_msg[0] = '\0';
        return;
    }
    results_save(r, &k->kw_saved);
    results_clear(r);
    r->kr_merging = 1;
    k->kw_mode = KEV_WALK_TIME;
    k->kw_ncpu = ncpu;
    for (unsigned i = 0; i < ncpu; i++) {
        k->kw_cur[i] = (struct kev_cursor){ .kc_off = r->kr_ev_off };
        cursor_next(r, &k->kw_cur[i], i);
    }
}

int kev_next(struct kev_reader *r, struct kev_event *e)
{
    if (r->kr_err)
        return r->kr_err;
    struct kev_walk *k = &r->kr_walk;
    int rc;
    switch (k->kw_mode) {
    case KEV_WALK_NONE:
        walk_start(r);
        return kev_next(r, e);
    case KEV_WALK_FILE:
        rc = file_step(r, e);
        if (rc == 0)
            k->kw_mode = KEV_WALK_DONE;
        return rc;
    case KEV_WALK_TIME:
        rc = time_step(r, e);
        if (rc == 0) {
            results_restore(r, &k->kw_saved); // the first walk's counts and sequence checks
            r->kr_merging = 0;
            k->kw_mode = KEV_WALK_DONE;
        }
        return rc;
    default:
        return 0;
    }
}

int kev_decode(struct kev_reader *r)
{
    struct kev_event e;
    int rc;
    while ((rc = kev_next(r, &e)) == 1)
        if (dispatch(r, &e))
            return r->kr_err;
    return rc;
}

size_t kev_loss_note_text(const struct kev_reader *r, uint32_t *t32, char *buf, size_t n)
{
    if (!r->kr_note_off || !n)
        return 0;
    *t32 = word_at(r, r->kr_note_off + 4);
    size_t k = 0;
    for (unsigned s = 0; s < r->kr_note_nslots; s++)
        for (unsigned b = 8; b < 16; b++) {
            if (s == 0) // the first slot's words are opcode and severity
                break;
            uint8_t c = r->kr_data[r->kr_note_off + KEV_SLOT_BYTES * s + b];
            if (!c || k + 1 >= n)
                goto done;
            buf[k++] = (char)c;
        }
done:
    buf[k] = 0;
    return k;
}

// ---- a file still being written ----------------------------------------------------------------
// The live reader (tools/common/kev_live.c) holds the header and system page for the whole
// capture and gives the rest a piece at a time; each piece becomes the reader's data, so the
// offsets of its events and errors are the piece's.

int kev_open_head(struct kev_reader *r, const void *data, size_t len)
{
    const size_t mlen = sizeof(KEV_FILE_MAGIC) - 1, elen = sizeof(KEV_FILE_HEADER_END) - 1;
    const char *d = data;
    size_t limit = len < 65536 ? len : 65536, i = mlen;
    while (i + elen <= limit && !kev_bytes_eq(d + i, KEV_FILE_HEADER_END, elen))
        i++;
    int begun = kev_bytes_eq(d, KEV_FILE_MAGIC, len < mlen ? len : mlen);
    if (i + elen > limit && len < 65536 && begun) { // the header has not all come
        *r = (struct kev_reader){0};
        return fail(r, KEV_ERR_TRUNCATED, len, "the header has not all arrived", 0, 0, 0, 0);
    }
    int rc = open_head(r, data, len);
    if (rc)
        return rc;
    r->kr_len = r->kr_ev_off;
    if (parse_syspage(r))
        return r->kr_err;
    r->kr_ev_end = r->kr_ev_off;
    r->kr_live = 1;
    r->kr_file_order = 1;
    r->kr_walk.kw_mode = KEV_WALK_FILE;
    r->kr_walk.kw_off = r->kr_ev_off;
    return 0;
}

void kev_feed(struct kev_reader *r, const void *slots, size_t len)
{
    r->kr_data = slots;
    r->kr_len = r->kr_ev_end = len;
    r->kr_ev_off = 0;
    r->kr_walk.kw_mode = KEV_WALK_FILE;
    r->kr_walk.kw_off = 0;
    r->kr_walk.kw_ncomb = 0;
    r->kr_in_buf = 0;
    r->kr_err = 0;
    r->kr_err_off = 0;
    r->kr_msg[0] = 0;
}

int kev_feed_end(struct kev_reader *r, const void *trailer, size_t len)
{
    kev_feed(r, trailer, len);
    r->kr_live = 0;
    if (parse_trailer(r))
        return r->kr_err;
    if (!r->kr_have_trailer || r->kr_ev_end != 0)
        return fail(r, KEV_ERR_TRAILER, 0, "damaged trailer", 0, 0, 0, 0);
    r->kr_walk.kw_mode = KEV_WALK_DONE;
    return check_totals(r);
}
