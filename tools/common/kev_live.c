// SPDX-License-Identifier: MIT
// The live reader (kev_live.h): input bytes -> frames (framed input) -> whole units of the file
// -> the shared decoder -> events in time order, with every fault said once and counted.
//
// Units. After the header, a .kev file is a run of units, each starting on a slot: a buffer
// (CONTROL BUFFER ... its CONTROL BUFFER_END), the loss note (a SYSTEM SLOG combine event), the
// trailer (its length in its first slot). A unit is gathered in l->in until it is whole, then
// checked (a repeat, its order), decoded (kev_feed), written (the consumers' unit callback) and
// dropped from l->in. Bytes that start no unit are garbage: skipped to the next frame that
// starts one (framed input: the tracelogger starts every unit on a frame of its own) or to the
// next byte that could (raw input). Which of these the bytes are, and what follows, is one
// table of states and inputs (live_table, drawn above take()): a reader follows a stream there.
// Compact frames. A KEY frame's codes go into the dictionary (trace/kev_wire.h); a SLOTS frame
// is expanded into its slots, written in the file's byte order, and taken as a DATA frame's
// payload of those bytes would be (the same bytes, the same units). One that does not expand
// (a code no KEY gave: a KEY lost, or a reader that joined after the whole KEY; a sum that
// does not agree) is a hole as a missing frame is: said, counted, its buffer lost.
// Frames. The stream decoder (kev_stream.h) gives each good frame; the sequence numbers are
// followed here: a frame again with the same bytes is a repeat (dropped), one behind is out of
// order (dropped), a jump is a hole: the unit being gathered lost bytes and is dropped, counted.
// A frame that starts with a header starts a new stream (the board restarted): no hole.
// Claims. A frame that is not file bytes says something the stream can contradict, and is
// believed only when it does not: a HEARTBEAT's time must not be behind the events shown nor
// more than LIVE_MAX_QUIET_S (or LIVE_MAX_QUIET_FLUSHES flush intervals) past them, and its
// byte count must be the stream's while no frame was lost; a LOSS frame's CPU must be one the
// header names, its reason known, its events at most what its buffers can hold, its running
// total never going back nor past every buffer of that CPU up to its last dropped one; an END
// frame before the trailer is not the end. A refused claim is a fault (KEV_LIVE_CLAIM), said,
// counted, and otherwise ignored. A time once given to the consumers is kept: an event behind
// it (a heartbeat that came too early) is counted late, kept in the file, not given.
// The END frame's length and CRC are checked against the file bytes given (the units written),
// always: the file is sound when they agree, whatever faults said nothing of it was lost.
// Invariant: l->in[l->pos..l->len) holds the bytes not yet consumed, starting at a unit's
// start (ST_UNITS), at a header's (ST_HEAD), or bytes being searched (ST_NONE, ST_SKIP,
// ST_DONE).
#define _GNU_SOURCE // memmem
#include <kevhost/kev_live.h>
#include <kevhost/tool_grow.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev_bytes.h>
#include <trace/kev_file.h>
#include <trace/kev_stream.h>
#include <trace/kev_wire.h>
#include <zlib.h>

#define LIVE_MAX_HEAD (1u << 20)                    // a header and system page, at most
#define LIVE_MAX_BUF_SLOTS (KEV_BUF_SLOTS + 1u)     // kevdump closes an open buffer with one more
#define LIVE_REPEATS 8u                             // buffers remembered per CPU, for repeats
#define LIVE_INLINE_WORDS 6u
#define LIVE_MAX_QUIET_S 60u                        // a heartbeat's time past the newest shown,
#define LIVE_MAX_QUIET_FLUSHES 20u                  // ... at most (or this many intervals)
#define LIVE_LOSS_REASONS 3u

enum live_mode { MODE_UNKNOWN, MODE_RAW, MODE_FRAMED };
// Where the reader is in the file's bytes (the table above take() moves it).
enum live_state {
    ST_NONE,   // no segment yet: a header is searched for
    ST_HEAD,   // a header and system page being gathered
    ST_UNITS,  // in a segment: a unit being gathered
    ST_SKIP,   // in a segment, after bytes that start no unit: a unit or a header searched for
    ST_DONE,   // the segment ended (or none began): a header is searched for
    ST_COUNT
};

// An event held for the merge of several CPUs.
struct held {
    struct kev_event e;
    uint64_t unit;                 // the unit it came from (a consumer attached later skips it)
    uint32_t inl[LIVE_INLINE_WORDS];
    uint32_t *big;                 // malloc'd words when more than LIVE_INLINE_WORDS
};

struct cpu_queue {
    struct held *v;
    size_t head, n, cap;
};

// A buffer as it is known again: its sequence number, length and BUFFER_END slot.
struct buf_id {
    uint32_t seq, len, end_t, end_n;
};

struct cpu_seen {
    struct buf_id id[LIVE_REPEATS];
    unsigned next;
    int have;
    uint32_t last_seq;
};

struct kev_live {
    char name[128];
    enum live_mode mode;
    enum live_state st;
    struct ks_decoder ks;
    uint64_t in_off;               // input bytes fed (stream offset of the next)
    // frames
    int fr_have;
    uint32_t fr_last, fr_next;     // the last frame's sequence, the one expected next
    uint8_t fr_copy[KS_MAX_FRAME];
    size_t fr_copy_len;
    uint64_t fr_damaged;           // frames that failed their check since the last good one
    uint64_t fr_junk_off;          // where the first of them was
    uint64_t fr_junk_base;         // the stream decoder's skipped bytes at the last good frame
    int end_handled;
    uint64_t st_bytes;             // DATA bytes of the stream taken since its start
    int st_lost;                   // ... and frames were lost since (the count is not the board's)
    int early_end;                 // an END frame came before the trailer
    // the compact encoding
    struct kw_decoder kw;
    struct kev_slot kw_slots[KEV_BUF_SLOTS + 1u];
    uint8_t kw_bytes[(KEV_BUF_SLOTS + 1u) * KEV_SLOT_BYTES];
    int kw_unknown_said;           // frames that use codes no KEY gave: said once a stretch
    // the buffer being gathered from SLOTS frames: its CPU, sequence, the next slot expected,
    // its events so far; and, once frames of it were lost, where in the unit the DROPPED slot
    // marking their place lies (patched with the count when its BUFFER_END comes)
    struct {
        int active, dropped;
        unsigned cpu;
        uint32_t seq;
        unsigned next;
        uint32_t events;
        size_t drop_at;
    } kwb;
    uint64_t kw_cpu_lost[KEV_MAX_CPUS];   // events the wire lost on each CPU (DROPPED's total)
    // the bytes not yet consumed
    uint8_t *in;
    size_t pos, len, cap;
    size_t scanned;                // slots of the unit at pos already looked at
    uint64_t skipped;              // bytes skipped in the current ST_SKIP / ST_NONE stretch
    uint64_t skip_off;
    int skip_said;
    // the segment
    unsigned seg;
    uint8_t *head;                 // its header and system page (the reader points into it)
    size_t head_len;
    struct kev_reader *r;
    int big;
    uint64_t file_off;             // bytes of the segment consumed (a unit's offset in the file)
    uint64_t unit_no;              // units given in the segment
    int seg_faults;                // faults in the segment
    int seg_lost;                  // ... of which one lost data (the file is not whole)
    int seg_complete;              // its trailer arrived and agrees
    int seg_whole;                 // the END frame's length and CRC agree with the file given
    uint64_t seg_bytes;            // the file's bytes given (units), and their CRC-32
    uint32_t seg_crc;
    uint64_t loss_total[KEV_MAX_CPUS][LIVE_LOSS_REASONS]; // the LOSS frames' running totals
    struct cpu_seen seen[KEV_MAX_CPUS];
    // the merge (several CPUs)
    unsigned ncpu;
    struct cpu_queue q[KEV_MAX_CPUS];
    uint64_t last_t[KEV_MAX_CPUS];
    uint8_t active[KEV_MAX_CPUS];
    uint64_t newest, released, lag;
    int whole;                     // a finished capture: no lag (kev_live_whole), and the CPUs
    uint32_t whole_cpus;           // with events (the trailer's counts) waited for from the start
    uint64_t first_t;              // the segment's first event
    int have_first;
    int have_released;
    uint64_t shown;                // the latest time given to the consumers (no event before it
    int have_shown, shown_by_hb;   // comes after): by an event, or a heartbeat's time
    uint64_t late_unit;            // the unit whose late events were last said
    int hb_in_release;             // release() runs for a heartbeat
    // consumers
    struct kev_live_consumer c[KEV_LIVE_MAX_CONSUMERS];
    uint64_t from[KEV_LIVE_MAX_CONSUMERS]; // first unit each gets
    unsigned nc;
    struct kev_live_counts n;
    int done;
};

// ---- small helpers --------------------------------------------------------------------------

// The word at p in the stream's byte order.
static uint32_t word_at(const struct kev_live *l, const uint8_t *p)
{
    return kev_get32(p, l->big);
}

// A word written in the stream's byte order (the file's, its header's).
static void word_put(const struct kev_live *l, uint8_t *p, uint32_t v)
{
    kev_put(p, v, 4, l->big);
}

static int is_ctl(uint32_t h, unsigned ev)
{
    return kev_hdr_class(h) == KEV_C_CONTROL && kev_hdr_type(h) == KEV_TYPE_S &&
           kev_hdr_event(h) == ev;
}

static double seconds(const struct kev_live *l, uint64_t t)
{
    return (double)t / (double)(l->r->kr_cycles_per_sec ? l->r->kr_cycles_per_sec : 1u);
}

static const size_t magic_len = sizeof(KEV_FILE_MAGIC) - 1;

// p[0..n) is the start of a header (1), cannot be (0), or too short to tell (-1).
static int header_start(const uint8_t *p, size_t n)
{
    size_t k = n < magic_len ? n : magic_len;
    if (memcmp(p, KEV_FILE_MAGIC, k) != 0)
        return 0;
    return k == magic_len ? 1 : -1;
}

// A fault: counted, said to every consumer in one sentence.
static void fault(struct kev_live *l, enum kev_live_fault f, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(what, sizeof(what), "%s: ", l->name);
    vsnprintf(what + k, sizeof(what) - (size_t)k, fmt, ap);
    va_end(ap);
    l->n.faults[f]++;
    l->seg_faults++;
    if (f == KEV_LIVE_CUT || f == KEV_LIVE_DAMAGED || f == KEV_LIVE_RESET)
        l->seg_lost = 1;
    for (unsigned i = 0; i < l->nc; i++)
        if (l->c[i].fault)
            l->c[i].fault(l->c[i].user, f, what);
}

static int grow(uint8_t **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1u << 15;
    while (c < need)
        c *= 2;
    uint8_t *b = realloc(*buf, c);
    if (!b)
        return -1;
    *buf = b;
    *cap = c;
    return 0;
}

// ---- consumers and the merge ----------------------------------------------------------------

static void give_event(struct kev_live *l, const struct kev_event *e, uint64_t unit)
{
    if (l->have_shown && e->t64 < l->shown) {   // the view has passed it
        l->n.late_events++;
        if (l->late_unit != unit + 1) {
            l->late_unit = unit + 1;
            if (l->shown_by_hb)
                fault(l, KEV_LIVE_CLAIM, "CPU %u's events from %.6f s came after a heartbeat "
                      "said every event before %.6f s had been sent (the board read its clock "
                      "late): kept in the file, not shown live", e->cpu, seconds(l, e->t64),
                      seconds(l, l->shown));
            else
                fault(l, KEV_LIVE_ORDER, "CPU %u's events from %.6f s came after later ones "
                      "were shown: kept in the file, not shown live", e->cpu,
                      seconds(l, e->t64));
        }
        return;
    }
    l->released = e->t64;
    l->have_released = 1;
    if (!l->have_shown || e->t64 > l->shown)
        l->shown = e->t64, l->have_shown = 1, l->shown_by_hb = 0;
    l->n.events++;
    for (unsigned i = 0; i < l->nc; i++)
        if (l->c[i].event && unit >= l->from[i])
            l->c[i].event(l->c[i].user, l->r, e);
}

static void give_time(struct kev_live *l, uint64_t t, int by_hb)
{
    if (l->have_shown && t < l->shown)
        return;                     // (time given once is not given back)
    if (!l->have_shown || t > l->shown)
        l->shown_by_hb = by_hb;
    l->shown = t;
    l->have_shown = 1;
    for (unsigned i = 0; i < l->nc; i++)
        if (l->c[i].time)
            l->c[i].time(l->c[i].user, l->r, t);
}

// The stream's CRC-32 (IEEE 802.3) by zlib's crc32 (the same function as trace/kev_crc32.c's
// ks_crc32, the board's tables; zlib's is the host's maintained one): every byte of a stream
// is checked twice (its frame's CRC, the file's).
static uint32_t zcrc(uint32_t crc, const void *p, size_t n)
{
    return (uint32_t)crc32(crc, p, (uInt)n);
}

static void give_unit(struct kev_live *l, const uint8_t *p, size_t n, enum kev_live_unit kind)
{
    l->seg_bytes += n;
    l->seg_crc = zcrc(l->seg_crc, p, n);
    l->n.units++;
    l->unit_no++;
    for (unsigned i = 0; i < l->nc; i++)
        if (l->c[i].unit && l->unit_no >= l->from[i])
            l->c[i].unit(l->c[i].user, p, n, kind);
}

static int hold(struct kev_live *l, const struct kev_event *e)
{
    struct cpu_queue *q = &l->q[e->cpu];
    if (q->head && q->head == q->n) // empty: start again at the front
        q->head = q->n = 0;
    if (tool_grow(&q->v, &q->cap, q->n + 1, sizeof(*q->v), 1024))
        return -1;
    struct held *h = &q->v[q->n];
    h->e = *e;
    h->unit = l->unit_no + 1;
    h->big = NULL;
    uint32_t *w = h->inl;
    if (e->nw > LIVE_INLINE_WORDS && !(w = h->big = malloc(e->nw * sizeof(uint32_t))))
        return -1;
    memcpy(w, e->w, e->nw * sizeof(uint32_t));
    q->n++;
    return 0;
}

// The earliest time a CPU still writing may give next: events before it can go. A CPU the
// header counts that has given nothing yet holds them from the segment's first event; one that
// fell the lag behind the newest event (a second of trace time) is not waited for.
static uint64_t watermark(const struct kev_live *l)
{
    uint64_t w = UINT64_MAX;
    for (unsigned c = 0; c < l->ncpu; c++) {
        if (l->whole && !l->active[c] && !(l->whole_cpus >> c & 1u))
            continue;               // (a finished capture: this CPU has no event to give)
        uint64_t t = l->active[c] ? l->last_t[c] : l->whole ? 0 : l->first_t;
        if (l->newest - t <= l->lag && t < w)
            w = t;
    }
    return w;
}

// Give the held events in time order (ties: the lower CPU), those before the watermark, or
// all of them.
static void release(struct kev_live *l, int all)
{
    uint64_t wm = all ? UINT64_MAX : watermark(l);
    for (;;) {
        int best = -1;
        for (unsigned c = 0; c < l->ncpu; c++) {
            struct cpu_queue *q = &l->q[c];
            if (q->head < q->n && (best < 0 || q->v[q->head].e.t64 <
                                                   l->q[best].v[l->q[best].head].e.t64))
                best = (int)c;
        }
        if (best < 0)
            break;
        struct cpu_queue *q = &l->q[best];
        struct held *h = &q->v[q->head];
        if (!all && h->e.t64 >= wm)
            break;
        q->head++;
        h->e.w = h->big ? h->big : h->inl; // (the queue may have moved since it was held)
        give_event(l, &h->e, h->unit);
        free(h->big);
    }
    if (wm != UINT64_MAX && l->have_released)
        give_time(l, wm, l->hb_in_release);
}

// ---- units ----------------------------------------------------------------------------------

// Decode a buffer (or the loss note): its events go out (one CPU) or into the merge. 0, or -1
// when it does not decode (said; the events before the damage were given).
static int decode_unit(struct kev_live *l, const uint8_t *p, size_t n)
{
    kev_feed(l->r, p, n);
    struct kev_event e;
    int rc;
    while ((rc = kev_next(l->r, &e)) == 1) {
        if (!l->have_first)
            l->first_t = e.t64, l->have_first = 1;
        if (e.t64 > l->newest)
            l->newest = e.t64;
        if (l->ncpu <= 1) {
            give_event(l, &e, l->unit_no + 1);
            continue;
        }
        if (e.cpu >= l->ncpu || hold(l, &e) < 0) {
            fault(l, KEV_LIVE_DAMAGED, "an event of CPU %u at byte %llu of the trace: %s",
                  e.cpu, (unsigned long long)(l->file_off + e.offset),
                  e.cpu >= l->ncpu ? "the header names fewer CPUs" : "out of memory");
            return -1;
        }
        l->active[e.cpu] = 1;
        l->last_t[e.cpu] = e.t64;
    }
    if (rc) {
        fault(l, KEV_LIVE_DAMAGED, "the unit at byte %llu of the trace does not decode "
              "(dropped): %s", (unsigned long long)l->file_off, kev_error(l->r));
        return -1;
    }
    return 0;
}

// A repeat of a buffer seen lately (1: drop it), or one behind its CPU's sequence (said).
static int buffer_seen(struct kev_live *l, const uint8_t *p, size_t n)
{
    uint32_t h = word_at(l, p), seq = word_at(l, p + 8);
    const uint8_t *end = p + n - KEV_SLOT_BYTES;
    struct buf_id id = { seq, (uint32_t)n, word_at(l, end + 4), word_at(l, end + 12) };
    struct cpu_seen *s = &l->seen[kev_hdr_cpu(h)];
    for (unsigned i = 0; s->have && i < LIVE_REPEATS; i++)
        if (!memcmp(&s->id[i], &id, sizeof(id))) {
            fault(l, KEV_LIVE_REPEAT, "buffer %lu of CPU %u came again at byte %llu of the "
                  "input: dropped", (unsigned long)seq, kev_hdr_cpu(h),
                  (unsigned long long)l->in_off);
            return 1;
        }
    if (s->have && (int32_t)(seq - s->last_seq) < 0)
        fault(l, KEV_LIVE_ORDER, "buffer %lu of CPU %u came after buffer %lu: out of order",
              (unsigned long)seq, kev_hdr_cpu(h), (unsigned long)s->last_seq);
    else
        s->last_seq = seq;
    s->id[s->next++ % LIVE_REPEATS] = id;
    s->have = 1;
    return 0;
}

// The segment ends (the caller moves to DONE, or on to the next segment's header).
static void segment_end(struct kev_live *l, int complete)
{
    release(l, 1);
    l->seg_complete = complete;
    for (unsigned i = 0; i < l->nc; i++)
        if (l->c[i].end)
            l->c[i].end(l->c[i].user, l->r, complete);
}

static void unit_done(struct kev_live *l, const uint8_t *p, size_t n, enum kev_live_unit kind)
{
    if (kind == KEV_LIVE_TRAILER) {
        give_unit(l, p, n, kind);
        int rc = kev_feed_end(l->r, p, n);
        if (rc && !l->seg_lost) // (a loss already said is the cause)
            fault(l, KEV_LIVE_DAMAGED, "the trace's trailer disagrees with what arrived: %s",
                  kev_error(l->r));
        segment_end(l, rc == 0);
        if (l->mode == MODE_RAW)
            l->done = 1;
    } else if (kind == KEV_LIVE_BUFFER && buffer_seen(l, p, n)) {
        return;
    } else if (decode_unit(l, p, n) == 0) {
        if (kind == KEV_LIVE_BUFFER)
            l->n.buffers++;
        give_unit(l, p, n, kind);
        if (l->ncpu > 1)
            release(l, 0);
        else if (l->have_released)
            give_time(l, l->released, 0);
    } else if (kind == KEV_LIVE_BUFFER) {
        l->n.buffers_lost++;
    }
}

// The unit at p[0..n): 0 more bytes are needed, > 0 its length (kind set), -1 garbage (p
// starts no unit, or the unit it starts is malformed).
static long unit_at(struct kev_live *l, const uint8_t *p, size_t n, enum kev_live_unit *kind)
{
    if (n < KEV_SLOT_BYTES)
        return 0;
    uint32_t h = word_at(l, p);
    if (is_ctl(h, KEV_CTL_BUFFER)) {
        *kind = KEV_LIVE_BUFFER;
        size_t k = l->scanned ? l->scanned : 1;
        for (; (k + 1) * KEV_SLOT_BYTES <= n; k++) {
            uint32_t hk = word_at(l, p + k * KEV_SLOT_BYTES);
            if (is_ctl(hk, KEV_CTL_BUFFER_END) && kev_hdr_cpu(hk) == kev_hdr_cpu(h))
                return (long)((k + 1) * KEV_SLOT_BYTES);
            if (is_ctl(hk, KEV_CTL_BUFFER) || k + 1 >= LIVE_MAX_BUF_SLOTS)
                return -1; // a buffer that lost its end
        }
        l->scanned = k;
        return 0;
    }
    if (h == KEV_TRAILER_TAG && word_at(l, p + 4) == KEV_TRAILER_MAGIC) {
        uint32_t tlen = word_at(l, p + 12);
        *kind = KEV_LIVE_TRAILER;
        if (tlen < 48 || tlen % 32 != 16 || tlen > kev_trailer_len(KEV_MAX_CPUS))
            return -1;
        return n >= tlen ? (long)tlen : 0;
    }
    if (kev_hdr_type(h) == KEV_TYPE_CB && kev_hdr_class(h) == KEV_C_SYSTEM &&
        kev_hdr_event(h) == KEV_SYS_SLOG && word_at(l, p + 8) == KEV_LOSS_NOTE_OPCODE) {
        *kind = KEV_LIVE_NOTE;
        size_t k = l->scanned ? l->scanned : 1;
        for (; (k + 1) * KEV_SLOT_BYTES <= n; k++) {
            uint32_t hk = word_at(l, p + k * KEV_SLOT_BYTES);
            if ((hk & 0x3fffffffu) != (h & 0x3fffffffu) || k >= KEV_MAX_COMBINE_SLOTS)
                return -1;
            if (kev_hdr_type(hk) == KEV_TYPE_CE)
                return (long)((k + 1) * KEV_SLOT_BYTES);
        }
        l->scanned = k;
        return 0;
    }
    return -1;
}

static void consume(struct kev_live *l, size_t n)
{
    l->pos += n;
    l->file_off += n;
    l->scanned = 0;
    if (l->pos == l->len)
        l->pos = l->len = 0;
}

// Bytes that start nothing: skipped from here (said once per stretch, when it ends).
static void skip_begin(struct kev_live *l)
{
    l->skipped = 0;
    l->skip_off = l->in_off - (l->len - l->pos);
    l->skip_said = 0;
}

static void skip_said(struct kev_live *l)
{
    if (!l->skipped || l->skip_said)
        return;
    l->skip_said = 1;
    l->n.garbage_bytes += l->skipped;
    if (l->seg)
        fault(l, KEV_LIVE_GARBAGE, "%llu bytes at byte %llu of the input start no unit of the "
              "trace: skipped", (unsigned long long)l->skipped, (unsigned long long)l->skip_off);
    else
        fault(l, KEV_LIVE_GARBAGE, "%llu bytes before the first header (a stream joined after "
              "its start, or not a trace): skipped", (unsigned long long)l->skipped);
}

// ---- the state table: what the bytes in[pos..len) are, and what is done with them --------------
//
// take() appends the data's next bytes to in[] and turns the table until a row says to wait.
// A turn looks at in[pos..len) as the state looks (look()), names what it sees (an input), and
// the row for (state, input) gives the action, the next state, and whether the bytes left wait
// for the next take() (then: wait). No action runs another state's work: every move between
// states is a row of this table. Search looks (NONE, SKIP, DONE) see a header or a unit only
// where one may start: raw input at any byte, framed input only at a frame's start (the first
// look of a take() of a frame's payload); the rest of a frame that starts nothing is skipped
// whole.
//
//   state  input        action                                              next   then
//   NONE   MORE         none: nothing left, or too few bytes to tell        -      wait
//   NONE   HEADER       say the bytes skipped; a new segment                HEAD
//   NONE   NOTHING      skip (raw: one byte; framed: the frame's rest)      NONE
//   SKIP   (as NONE, staying in SKIP), and:
//   SKIP   UNIT_START   say the bytes skipped                               UNITS
//   DONE   (as NONE, staying in DONE)
//   HEAD   MORE         none: the header and system page are not whole      -      wait
//   HEAD   HEAD_OK      the segment begins; the header given as a unit      UNITS
//   HEAD   HEAD_BAD     said; its magic skipped (no segment began)          DONE
//   UNITS  MORE         none: the unit is not whole                         -      wait
//   UNITS  HEADER       a new segment (one still open ends: a reset)        HEAD
//   UNITS  UNIT         checked, decoded, given, consumed                   UNITS
//   UNITS  TRAILER      given, checked, the segment ends                    DONE   wait
//   UNITS  BAD_HEADER   not a whole unit, a header later: a reset there     HEAD
//   UNITS  BAD          not a whole unit: said; skip (framed: the frame)    SKIP
//
// After a trailer the bytes left wait: the trace has ended (raw input: kev_live_done, and the
// caller stops feeding; framed: the trailer ends the logger's last write, the END frame next).
// Only two things outside the table move the state, both events of the stream rather than of
// the file's bytes: a hole in it (hole()) moves UNITS and SKIP to SKIP, NONE and HEAD to NONE;
// its END frame or the input's end ends an open segment (DONE).

enum live_input {
    IN_MORE, IN_NOTHING, IN_HEADER, IN_UNIT_START, IN_HEAD_OK, IN_HEAD_BAD, IN_UNIT,
    IN_TRAILER, IN_BAD_HEADER, IN_BAD, IN_COUNT
};

// What a look saw at in[pos..len).
struct live_seen {
    enum live_input in;
    size_t len;                    // IN_UNIT, IN_TRAILER: the unit's length
    enum kev_live_unit kind;       // IN_UNIT, IN_TRAILER, IN_BAD*: the unit's kind
    uint8_t *head;                 // IN_HEAD_OK: a copy of the header (the reader points into it)
    size_t later;                  // IN_BAD_HEADER: where the header starts, from pos
};

struct live_row {
    void (*act)(struct kev_live *l, const struct live_seen *s); // NULL: wait for more bytes
    enum live_state next;
    int wait;                      // after the action, the bytes left wait for the next take()
};

// p[0..n) could start a unit after the header (1), cannot (0), or is too short to tell (-1):
// unit_at checks the whole unit.
static int unit_start(const struct kev_live *l, const uint8_t *p, size_t n)
{
    if (n < 12)
        return -1;
    uint32_t h = word_at(l, p);
    return is_ctl(h, KEV_CTL_BUFFER) || (h == KEV_TRAILER_TAG && word_at(l, p + 4) ==
                                                                      KEV_TRAILER_MAGIC) ||
           (kev_hdr_type(h) == KEV_TYPE_CB && kev_hdr_class(h) == KEV_C_SYSTEM &&
            kev_hdr_event(h) == KEV_SYS_SLOG && word_at(l, p + 8) == KEV_LOSS_NOTE_OPCODE);
}

// NONE, SKIP, DONE: a header (any search state) or a unit (SKIP) where one may start.
static enum live_input look_search(const struct kev_live *l, int frame_start)
{
    if (l->pos >= l->len)
        return IN_MORE;
    const uint8_t *p = l->in + l->pos;
    size_t n = l->len - l->pos;
    int at = l->mode == MODE_RAW || frame_start;
    int hs = at ? header_start(p, n) : 0;
    int us = at && l->st == ST_SKIP ? unit_start(l, p, n) : 0;
    if (hs == 1)
        return IN_HEADER;
    if (us == 1)
        return IN_UNIT_START;
    return hs < 0 || us < 0 ? IN_MORE : IN_NOTHING;
}

// HEAD: the header and system page, opened by the reader from a copy of in[pos..len).
static enum live_input look_head(struct kev_live *l, struct live_seen *s)
{
    size_t n = l->len - l->pos;
    uint8_t *h = malloc(n);
    if (!h)
        return IN_MORE;
    memcpy(h, l->in + l->pos, n);
    int rc = kev_open_head(l->r, h, n);
    if (rc == 0) {
        s->head = h;
        return IN_HEAD_OK;
    }
    free(h);
    return rc == KEV_ERR_TRUNCATED && n < LIVE_MAX_HEAD ? IN_MORE : IN_HEAD_BAD;
}

// UNITS: a header, or the unit at pos, whole or not.
static enum live_input look_units(struct kev_live *l, struct live_seen *s)
{
    if (l->pos >= l->len)
        return IN_MORE;
    const uint8_t *p = l->in + l->pos;
    size_t n = l->len - l->pos;
    int hs = header_start(p, n);
    if (hs)
        return hs < 0 ? IN_MORE : IN_HEADER;
    s->kind = KEV_LIVE_BUFFER;
    long k = unit_at(l, p, n, &s->kind);
    if (k > 0) {
        s->len = (size_t)k;
        return s->kind == KEV_LIVE_TRAILER ? IN_TRAILER : IN_UNIT;
    }
    if (k == 0)
        return IN_MORE;
    const uint8_t *h = memmem(p + 1, n - 1, KEV_FILE_MAGIC, magic_len);
    if (!h)
        return IN_BAD;
    s->later = (size_t)(h - p);
    return IN_BAD_HEADER;
}

static enum live_input look(struct kev_live *l, int frame_start, struct live_seen *s)
{
    switch (l->st) {
    case ST_HEAD: return look_head(l, s);
    case ST_UNITS: return look_units(l, s);
    default: return look_search(l, frame_start);
    }
}

// A header at in[pos]: a new segment; the board restarted when one was still open.
static void segment_begin(struct kev_live *l)
{
    if (l->seg && l->st != ST_DONE) {
        fault(l, KEV_LIVE_RESET, "a new header at byte %llu of the input: the board "
              "restarted; segment %u ends without its trailer, segment %u begins",
              (unsigned long long)(l->in_off - (l->len - l->pos)), l->seg, l->seg + 1);
        segment_end(l, 0);
    }
    l->seg++;
    l->n.segments++;
    l->done = 0;
    l->file_off = 0;
    l->unit_no = 0;
    l->seg_faults = 0;
    l->seg_lost = 0;
    l->seg_complete = 0;
    l->have_released = 0;
    l->have_shown = 0;
    l->have_first = 0;
    l->newest = 0;
    l->seg_whole = 0;
    l->seg_bytes = 0;
    l->seg_crc = 0;
    memset(l->loss_total, 0, sizeof(l->loss_total));
    memset(l->seen, 0, sizeof(l->seen));
    memset(l->active, 0, sizeof(l->active));
    memset(l->last_t, 0, sizeof(l->last_t));
}

// NOTHING: the bytes start nothing here.
static void act_skip(struct kev_live *l, const struct live_seen *s)
{
    (void)s;
    size_t drop = l->mode == MODE_RAW ? 1 : l->len - l->pos;
    l->skipped += drop;
    l->pos += drop;
    if (l->pos == l->len)
        l->pos = l->len = 0;
}

// HEADER in a search state: the stretch skipped before it said.
static void act_found_header(struct kev_live *l, const struct live_seen *s)
{
    (void)s;
    skip_said(l);
    segment_begin(l);
}

// HEADER among the units.
static void act_header(struct kev_live *l, const struct live_seen *s)
{
    (void)s;
    segment_begin(l);
}

// UNIT_START after garbage: the stretch said, the unit gathered from here.
static void act_unit_start(struct kev_live *l, const struct live_seen *s)
{
    (void)s;
    skip_said(l);
    l->scanned = 0;
}

// HEAD_OK: the segment's header kept (the reader points into it), given as its first unit.
static void act_head_ok(struct kev_live *l, const struct live_seen *s)
{
    free(l->head);
    l->head = s->head;
    l->head_len = l->r->kr_ev_off;
    l->big = l->r->kr_big;
    unsigned len;
    const char *cpus = kev_attr(l->r, "CPU_NUM", &len);
    l->ncpu = cpus ? (unsigned)strtoul(cpus, NULL, 10) : l->r->kr_board_ncpu;
    if (l->ncpu > KEV_MAX_CPUS)
        l->ncpu = KEV_MAX_CPUS;
    l->lag = l->whole ? UINT64_MAX : l->r->kr_cycles_per_sec ? l->r->kr_cycles_per_sec : 1000000000u;
    for (unsigned i = 0; i < l->nc; i++) {
        l->from[i] = 0;
        if (l->c[i].begin)
            l->c[i].begin(l->c[i].user, l->r, l->seg);
    }
    give_unit(l, l->head, l->head_len, KEV_LIVE_HEAD);
    consume(l, l->head_len);
}

// HEAD_BAD: no segment began (none ends: DONE); a header is searched for past this one's magic,
// in the bytes already here (raw: the next byte; framed: the next frame).
static void act_head_bad(struct kev_live *l, const struct live_seen *s)
{
    (void)s;
    fault(l, KEV_LIVE_DAMAGED, "the header at byte %llu of the input does not decode: %s",
          (unsigned long long)l->in_off - (l->len - l->pos), kev_error(l->r));
    consume(l, magic_len);
    skip_begin(l);
    l->skip_said = 1;
}

// A trailer after compact frames lost inside buffers that were kept (their events counted per
// CPU, kw_cpu_lost): those events move from the CPU's written to its lost, and the trailer's
// check follows, so the file decodes with its losses counted where the trailer counts them.
static void trailer_wire_loss(struct kev_live *l, uint8_t *p, size_t n)
{
    uint32_t sum = 0;
    for (size_t off = 0; off + KEV_SLOT_BYTES <= n; off += KEV_SLOT_BYTES) {
        uint8_t *q = p + off;
        uint32_t h = word_at(l, q);
        unsigned ev = kev_hdr_event(h), cpu = kev_hdr_cpu(h);
        if (kev_hdr_class(h) != KEV_C_CONTROL)
            return;
        if (ev == KEV_CTL_TRL_END) {
            word_put(l, q + 4, sum);
            return;
        }
        if (ev == KEV_CTL_TRL_EVENTS || ev == KEV_CTL_TRL_LOST) {
            uint64_t v = word_at(l, q + 4) | (uint64_t)word_at(l, q + 8) << 32, d = l->kw_cpu_lost[cpu];
            v = ev == KEV_CTL_TRL_LOST ? v + d : v > d ? v - d : 0;
            word_put(l, q + 4, (uint32_t)v);
            word_put(l, q + 8, (uint32_t)(v >> 32));
        }
        for (int k = 0; k < 16; k += 4)
            sum += word_at(l, q + k);
    }
}

// UNIT, TRAILER: the whole unit at pos (a trailer ends the segment).
static void act_unit(struct kev_live *l, const struct live_seen *s)
{
    if (s->kind == KEV_LIVE_TRAILER && l->n.wire_lost_events)
        trailer_wire_loss(l, l->in + l->pos, s->len);
    unit_done(l, l->in + l->pos, s->len, s->kind);
    consume(l, s->len);
}

// A unit that is not whole: a buffer among them is lost.
static void bad_count(struct kev_live *l)
{
    if (is_ctl(word_at(l, l->in + l->pos), KEV_CTL_BUFFER))
        l->n.buffers_lost++;
}

// BAD_HEADER: the unit cut short by a header later in the bytes: the board restarted there.
static void act_bad_header(struct kev_live *l, const struct live_seen *s)
{
    bad_count(l);
    l->pos += s->later;
    segment_begin(l);
}

// BAD: the unit is damaged or garbage: said, and skipped (framed: to the next frame; raw: to
// the next byte that could start one).
static void act_bad(struct kev_live *l, const struct live_seen *s)
{
    bad_count(l);
    fault(l, KEV_LIVE_DAMAGED, "byte %llu of the trace starts no whole unit (a %s damaged, "
          "or garbage): skipped to the next", (unsigned long long)l->file_off,
          s->kind == KEV_LIVE_TRAILER ? "trailer" : s->kind == KEV_LIVE_NOTE ? "loss note" :
                                                                               "buffer");
    skip_begin(l);
    l->skip_said = 1;
    if (l->mode == MODE_FRAMED)
        l->pos = l->len = 0;
    else
        l->pos++;
}

// The table drawn above. Rows not listed are never seen: look() names only its state's inputs.
#define LIVE_SEARCH_ROWS(st)                                                                    \
    [IN_MORE] = { NULL, st, 1 }, [IN_HEADER] = { act_found_header, ST_HEAD, 0 },               \
    [IN_NOTHING] = { act_skip, st, 0 }
static const struct live_row live_table[ST_COUNT][IN_COUNT] = {
    [ST_NONE] = { LIVE_SEARCH_ROWS(ST_NONE) },
    [ST_SKIP] = { LIVE_SEARCH_ROWS(ST_SKIP), [IN_UNIT_START] = { act_unit_start, ST_UNITS, 0 } },
    [ST_DONE] = { LIVE_SEARCH_ROWS(ST_DONE) },
    [ST_HEAD] = {
        [IN_MORE] = { NULL, ST_HEAD, 1 },
        [IN_HEAD_OK] = { act_head_ok, ST_UNITS, 0 },
        [IN_HEAD_BAD] = { act_head_bad, ST_DONE, 0 },
    },
    [ST_UNITS] = {
        [IN_MORE] = { NULL, ST_UNITS, 1 },
        [IN_HEADER] = { act_header, ST_HEAD, 0 },
        [IN_UNIT] = { act_unit, ST_UNITS, 0 },
        [IN_TRAILER] = { act_unit, ST_DONE, 1 },
        [IN_BAD_HEADER] = { act_bad_header, ST_HEAD, 0 },
        [IN_BAD] = { act_bad, ST_SKIP, 0 },
    },
};

// The next bytes of the data (the file's bytes: raw input, or a frame's payload), taken by the
// table until a row waits.
static void take(struct kev_live *l, const uint8_t *p, size_t n, int frame_start)
{
    if (l->pos > (1u << 16) && l->pos > l->len / 2) { // compact
        memmove(l->in, l->in + l->pos, l->len - l->pos);
        l->len -= l->pos;
        l->pos = 0;
    }
    if (grow(&l->in, &l->cap, l->len + n)) {
        fault(l, KEV_LIVE_DAMAGED, "out of memory: %zu bytes dropped", n);
        return;
    }
    memcpy(l->in + l->len, p, n);
    l->len += n;
    for (;;) {
        struct live_seen s = { 0 };
        s.in = look(l, frame_start, &s);
        const struct live_row *row = &live_table[l->st][s.in];
        if (!row->act && !row->wait) {  // (a look naming an input its state has no row for)
            fprintf(stderr, "kev_live: no row for state %d, input %d\n", (int)l->st, (int)s.in);
            abort();
        }
        if (!row->act)
            return;
        row->act(l, &s);
        l->st = row->next;
        if (row->wait)
            return;
        frame_start = 0;  // (a frame's start is its first look's only)
    }
}

// Bytes lost before what comes next: the unit being gathered is dropped (counted), and said
// in what (of n bytes: "" when it was none).
static void hole(struct kev_live *l, char *what, size_t n)
{
    const uint8_t *p = l->in ? l->in + l->pos : NULL;   // (nothing held yet: no buffer)
    if (p && l->st == ST_UNITS && l->pos < l->len && l->len - l->pos >= KEV_SLOT_BYTES &&
        is_ctl(word_at(l, p), KEV_CTL_BUFFER)) {
        l->n.buffers_lost++;
        snprintf(what, n, "; buffer %lu of CPU %u lost with it", (unsigned long)word_at(l, p + 8),
                 kev_hdr_cpu(word_at(l, p)));
    } else if (l->st == ST_HEAD) {
        snprintf(what, n, "; the header lost with it: nothing decodes until the next one");
    }
    if (l->st != ST_DONE) { // what is skipped until a unit (or a header) is the hole's
        l->st = l->st == ST_UNITS || l->st == ST_SKIP ? ST_SKIP : ST_NONE;
        skip_begin(l);
        l->pos = l->len = 0;
    }
    l->skip_said = 1;
}

// ---- frames -----------------------------------------------------------------------------------

// The stream's END frame closed the segment: what it announced against what arrived.
// An END before the trace's trailer claims an end the file has not reached: said, and the
// stream is read on (the real END, or the input's end, closes it).
static void stream_end(struct kev_live *l)
{
    skip_said(l);
    if (l->fr_have && (uint16_t)l->ks.end_seq == l->fr_next) // (END takes a number too)
        l->fr_next = (uint16_t)(l->ks.end_seq + 1u);
    if (l->seg && l->st != ST_DONE && l->st != ST_HEAD) {
        l->early_end = 1;
        l->ks.ended = 0;
        fault(l, KEV_LIVE_CLAIM, "the stream's END frame at byte %llu of the input came before "
              "the trace's trailer (%llu bytes of the file so far): not the end, reading on",
              (unsigned long long)l->ks.offset, (unsigned long long)l->seg_bytes);
        return;
    }
    l->end_handled = 1;
    l->early_end = 0;
    int agree = l->seg && l->ks.end_len == (uint32_t)l->seg_bytes &&
                ((l->ks.end_flags & KS_END_LEN_ONLY) || l->ks.end_crc == l->seg_crc);
    l->seg_whole = agree;
    if (l->seg && !agree && !l->seg_lost) // (a loss already said is the cause)
        fault(l, KEV_LIVE_DAMAGED, "the stream's END announced %lu bytes (CRC %08lx), the file "
              "written has %llu (CRC %08lx): it is not the board's file, a frame's payload was "
              "changed under a good frame CRC", (unsigned long)l->ks.end_len,
              (unsigned long)l->ks.end_crc, (unsigned long long)l->seg_bytes,
              (unsigned long)l->seg_crc);
    if (l->st != ST_DONE && l->seg) {
        segment_end(l, 0);
        l->st = ST_DONE;
    }
    if (!l->seg)
        fault(l, KEV_LIVE_CUT, "no header arrived: nothing could be decoded");
    l->done = 1;
}

// The frame the stream decoder is handing on (its buffer holds it during the callback): its
// place in the sequence, which frames of every type share. 1: take it; 0: drop it (a repeat of
// the last frame, or one behind). The damage and garbage since the last good frame are said
// here, once: a jump in the sequence or a damaged frame is a hole, and the unit being gathered
// is lost with it (a frame that starts a header starts a new stream: no hole).
static int frame_seq_bridged(struct kev_live *l, int new_stream, int bridge);

static int frame_seq(struct kev_live *l, int new_stream)
{
    return frame_seq_bridged(l, new_stream, 0);
}

// The same, for a SLOTS frame that continues the buffer being gathered (bridge): frames lost
// before it cost that buffer's slots between, not the buffer (on_wire marks their place).
static int frame_seq_bridged(struct kev_live *l, int new_stream, int bridge)
{
    const uint8_t *f = l->ks.frame;
    size_t n = KS_HDR_BYTES + (size_t)kev_get_le16(f + 6);
    uint32_t seq = kev_get_le16(f + 4);
    if (l->fr_have && seq == l->fr_last && n == l->fr_copy_len &&
        !memcmp(f, l->fr_copy, n)) {
        fault(l, KEV_LIVE_REPEAT, "frame %lu came again at byte %llu of the input: dropped",
              (unsigned long)seq, (unsigned long long)l->ks.offset);
        l->fr_damaged = 0;
        return 0;
    }
    // (a stream starts at frame 0: one joined later has missed the frames before)
    uint32_t gap = !new_stream ? (uint16_t)(seq - l->fr_next) : 0;  // the sequence is 16 bits: it wraps
    if (gap >= 0x8000u) {
        fault(l, KEV_LIVE_ORDER, "frame %lu came after frame %lu at byte %llu of the input: "
              "out of order, dropped", (unsigned long)seq, (unsigned long)l->fr_last,
              (unsigned long long)l->ks.offset);
        return 0;
    }
    uint64_t junk = l->ks.junk_bytes - l->fr_junk_base;
    if (gap) {
        l->st_lost = 1;
        l->n.frames_lost += gap;
        char damaged[64] = "", lost[96] = "";
        if (l->fr_damaged)
            snprintf(damaged, sizeof(damaged), "; %llu frame(s) damaged (CRC mismatch)",
                     (unsigned long long)l->fr_damaged);
        if (bridge)
            snprintf(lost, sizeof(lost), "; buffer %lu of CPU %u kept, a DROPPED event where "
                     "their slots were", (unsigned long)l->kwb.seq, l->kwb.cpu);
        else if (!new_stream)
            hole(l, lost, sizeof(lost));
        fault(l, KEV_LIVE_CUT, "the stream lost data before byte %llu of the input; %lu "
              "frame(s) missing%s%s", (unsigned long long)l->ks.offset, (unsigned long)gap,
              damaged, lost);
    } else if (junk) { // (a "frame" that failed its check between two in sequence was junk)
        char damaged[96] = "";
        if (l->fr_damaged)
            snprintf(damaged, sizeof(damaged), " (%llu looked like a frame, damaged (CRC "
                     "mismatch))", (unsigned long long)l->fr_damaged);
        l->n.garbage_bytes += junk;
        fault(l, KEV_LIVE_GARBAGE, "%llu bytes of garbage between frames at byte %llu of the "
              "input%s: skipped", (unsigned long long)junk, (unsigned long long)l->fr_junk_off,
              damaged);
    }
    l->fr_junk_base = l->ks.junk_bytes;
    l->fr_damaged = 0;
    l->fr_have = 1;
    l->fr_last = seq;
    l->fr_next = (uint16_t)(seq + 1u);
    memcpy(l->fr_copy, f, n);
    l->fr_copy_len = n;
    l->n.frames++;
    return 1;
}

// The expanded slots of a SLOTS frame as the file's bytes (its byte order, the header's).
static size_t slots_bytes(struct kev_live *l, const struct kev_slot *s, unsigned n)
{
    uint8_t *o = l->kw_bytes;
    for (unsigned i = 0; i < n; i++) {   // (a slot's four words, as the file orders bytes)
        word_put(l, o, s[i].header);
        for (unsigned k = 0; k < 3; k++)
            word_put(l, o + 4 + 4 * k, s[i].data[k]);
        o += KEV_SLOT_BYTES;
    }
    return (size_t)(o - l->kw_bytes);
}

// A SLOTS frame p[0..n) that continues the buffer being gathered past slots that did not come
// (frames lost or refused between): 1, and the buffer is kept with their place marked.
static int continues(const struct kev_live *l, const uint8_t *p, size_t n)
{
    return n >= KW_HDR_BYTES && !(p[1] & KW_F_FIRST) && l->kwb.active && p[0] == l->kwb.cpu &&
           kev_get_le16(p + 2) == (uint16_t)l->kwb.seq && kev_get_le16(p + 4) > l->kwb.next &&
           l->st == ST_UNITS &&
           l->pos < l->len;
}

// The place of slots lost in the buffer being gathered: a DROPPED slot at time t (the last lost
// slot's), its count patched in when the buffer's BUFFER_END comes (count_dropped). One per
// buffer: later gaps add to it.
static void mark_dropped(struct kev_live *l, uint32_t t)
{
    if (l->kwb.dropped)
        return;
    struct kev_slot d = { KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, KEV_CTL_DROPPED, l->kwb.cpu),
                          { t, 0, 0 } };
    l->kwb.dropped = 1;
    l->kwb.drop_at = l->len - l->pos;
    size_t k = slots_bytes(l, &d, 1);
    take(l, l->kw_bytes, k, 1);
}

// The buffer's BUFFER_END e has come: the events lost are the board's count less those that
// arrived; the DROPPED slot says them (and the CPU's running total of the wire's losses), and
// BUFFER_END counts what the buffer now holds, as a buffer the kernel wrote after a loss does.
static void count_dropped(struct kev_live *l, struct kev_slot *e)
{
    uint32_t lost = e->data[2] > l->kwb.events ? e->data[2] - l->kwb.events : 0;
    unsigned cpu = l->kwb.cpu % KEV_MAX_CPUS;
    l->kw_cpu_lost[cpu] += lost;
    e->data[2] = l->kwb.events;
    struct kev_slot d = { KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, KEV_CTL_DROPPED, l->kwb.cpu),
                          { 0, lost, (uint32_t)l->kw_cpu_lost[cpu] } };
    uint8_t *at = l->in + l->pos + l->kwb.drop_at;
    uint8_t w[KEV_SLOT_BYTES];
    size_t k = slots_bytes(l, &d, 1);
    memcpy(w, l->kw_bytes, k);
    memcpy(at + 8, w + 8, 8);       // (its words 2 and 3: the time stays)
    l->n.wire_lost_events += lost;
}

// A SLOTS frame that does not expand: a hole where its bytes would be, said.
static void wire_lost(struct kev_live *l, const uint8_t *p, size_t n, enum kw_error e)
{
    char lost[96] = "";
    l->n.frames_lost++;
    l->st_lost = 1;
    if (n >= 2 && !(p[1] & KW_F_FIRST) && l->kwb.active && l->st == ST_UNITS)
        snprintf(lost, sizeof(lost), "; buffer %lu of CPU %u kept, a DROPPED event where its "
                 "slots were", (unsigned long)l->kwb.seq, l->kwb.cpu);
    else
        hole(l, lost, sizeof(lost));
    if (n >= 2 && (p[1] & KW_F_FIRST) && l->st != ST_NONE && l->st != ST_DONE)
        l->n.buffers_lost++;    // (its buffer's first frame: the rest of it starts no unit)
    if (e == KW_UNKNOWN) {
        if (l->kw_unknown_said)
            return;
        l->kw_unknown_said = 1;
    }
    fault(l, e == KW_UNKNOWN ? KEV_LIVE_CUT : KEV_LIVE_DAMAGED, "the SLOTS frame at byte %llu "
          "of the input (CPU %u, %zu bytes) does not expand: %s%s%s",
          (unsigned long long)l->ks.offset, n ? p[0] : 0u, n, kw_error_text(e),
          e == KW_UNKNOWN ? "; so are the frames after it until the next KEY" : "", lost);
}

// A KEY or SLOTS frame (the compact encoding), or a REF frame (passed by).
static void on_wire(void *arg, unsigned type, const uint8_t *p, size_t n)
{
    struct kev_live *l = arg;
    if (l->ks.ended && !l->end_handled)
        stream_end(l);
    int bridge = type == KS_SLOTS && continues(l, p, n);
    if (!frame_seq_bridged(l, 0, bridge) || type == KS_REF)   // (a REF frame: no file bytes)
        return;
    if (type == KS_KEY) {
        enum kw_error e = kw_take_key(&l->kw, p, n);
        if (e == KW_OK && n >= 2 && p[0] == 0 && p[1] == 0)
            l->kw_unknown_said = 0;     // (a whole KEY: what fails after it is new)
        else if (e != KW_OK)
            fault(l, KEV_LIVE_DAMAGED, "the KEY frame at byte %llu of the input: %s (its codes "
                  "are taken as it gives them)", (unsigned long long)l->ks.offset,
                  kw_error_text(e));
        return;
    }
    struct kw_frame f;
    enum kw_error e = kw_expand(&l->kw, p, n, &f, l->kw_slots, KEV_BUF_SLOTS + 1u);
    if (e != KW_OK) {
        wire_lost(l, p, n, e);
        return;
    }
    uint32_t events = 0;
    for (unsigned i = 0; i < f.nslots; i++) {
        uint32_t h = l->kw_slots[i].header;
        events += kev_hdr_class(h) != KEV_C_CONTROL && kev_hdr_type(h) <= KEV_TYPE_CB;
    }
    if ((f.flags & KW_F_FIRST) && l->kwb.active && l->st == ST_UNITS && l->pos < l->len) {
        char lost[96] = "";     // (the buffer before never got its end: its last frames lost)
        hole(l, lost, sizeof(lost));
        fault(l, KEV_LIVE_CUT, "a buffer's first SLOTS frame at byte %llu of the input came "
              "before the end of the buffer being gathered%s", (unsigned long long)l->ks.offset,
              lost);
    }
    if (f.flags & KW_F_FIRST) {
        l->kwb.active = 1;
        l->kwb.dropped = 0;
        l->kwb.cpu = f.cpu;
        l->kwb.seq = f.nslots ? l->kw_slots[0].data[1] : 0;
        l->kwb.next = 0;
        l->kwb.events = 0;
    } else if (continues(l, p, n)) {
        mark_dropped(l, f.t0);
    } else if (!l->kwb.active || f.first != l->kwb.next) {
        l->kwb.active = 0;      // (a stray frame: the table skips what starts no unit)
    }
    l->kwb.next = f.first + f.nslots;
    l->kwb.events += events;
    if ((f.flags & KW_F_LAST) && l->kwb.active && f.nslots) {
        if (l->kwb.dropped)
            count_dropped(l, &l->kw_slots[f.nslots - 1u]);
        l->kwb.active = 0;
    }
    size_t k = slots_bytes(l, l->kw_slots, f.nslots);
    l->st_bytes += k;
    take(l, l->kw_bytes, k, 1);
}

static void on_frame(void *arg, const uint8_t *p, size_t n)
{
    struct kev_live *l = arg;
    int new_stream = header_start(p, n) == 1;
    if (l->ks.ended && !l->end_handled) // a frame after END: the END first
        stream_end(l);
    if (!frame_seq(l, new_stream))
        return;
    if (new_stream) { // a new tracelogger's stream: its own byte count from here, its own codes
        kw_decoder_init(&l->kw);
        l->kw_unknown_said = 0;
        l->st_bytes = 0;
        l->st_lost = 0;
        l->ks.ended = 0;
        l->end_handled = 0;
        l->early_end = 0;
    }
    l->st_bytes += n;
    take(l, p, n, 1);
}

// A heartbeat's claims against what the stream has shown: 1 believed, 0 refused (said).
static int heartbeat_believed(struct kev_live *l, const struct ks_heartbeat *h)
{
    uint64_t cps = l->r->kr_cycles_per_sec ? l->r->kr_cycles_per_sec : 1000000000u;
    uint64_t quiet = (uint64_t)LIVE_MAX_QUIET_S * cps;
    uint64_t flushes = (uint64_t)h->interval_ms * LIVE_MAX_QUIET_FLUSHES * (cps / 1000u);
    if (flushes > quiet)
        quiet = flushes;
    const char *why = NULL;
    char text[160];
    if (!l->st_lost && h->offset != l->st_bytes) {
        snprintf(text, sizeof(text), "says %llu bytes were sent before it, %llu arrived with no "
                 "frame lost", (unsigned long long)h->offset, (unsigned long long)l->st_bytes);
        why = text;
    } else if (h->time < l->newest) {
        snprintf(text, sizeof(text), "is behind the event at %.6f s already shown",
                 seconds(l, l->newest));
        why = text;
    } else if (h->time - l->newest > quiet) {
        snprintf(text, sizeof(text), "is %.3g s past the newest time the stream showed (%.6f s); "
                 "at most %.0f s are believed", (double)(h->time - l->newest) / (double)cps,
                 seconds(l, l->newest), (double)quiet / (double)cps);
        why = text;
    }
    if (!why)
        return 1;
    fault(l, KEV_LIVE_CLAIM, "a HEARTBEAT at byte %llu of the input claims the board's time is "
          "%llu cycles, which %s: not believed", (unsigned long long)l->ks.offset,
          (unsigned long long)h->time, why);
    return 0;
}

// The board had nothing to send for a flush interval: every CPU has passed its time (once the
// stream has shown a time to check it against).
static void on_heartbeat(void *arg, const struct ks_heartbeat *h)
{
    struct kev_live *l = arg;
    if (!frame_seq(l, 0) || l->st != ST_UNITS || !l->have_first ||
        !heartbeat_believed(l, h))
        return;
    for (unsigned c = 0; c < l->ncpu && c < KEV_MAX_CPUS; c++) {
        if (!l->active[c] || l->last_t[c] < h->time)
            l->last_t[c] = h->time;
        l->active[c] = 1;
    }
    if (h->time > l->newest)
        l->newest = h->time;
    if (l->ncpu > 1) {
        l->hb_in_release = 1;
        release(l, 0);
        l->hb_in_release = 0;
    } else {
        give_time(l, h->time, 1);
    }
}

// A LOSS frame's claims against what a buffer can hold: NULL believed, else why not.
static const char *loss_refused(struct kev_live *l, const struct ks_loss *s, char *text,
                                size_t n)
{
    unsigned ncpu = l->ncpu ? l->ncpu : 1;
    if (s->cpu >= ncpu || s->cpu >= KEV_MAX_CPUS)
        snprintf(text, n, "names CPU %lu, the header %u", (unsigned long)s->cpu, ncpu);
    else if (s->reason != KS_LOSS_HOST_STOP && s->reason != KS_LOSS_HOST_STALL)
        snprintf(text, n, "gives reason %lu, not one a logger gives", (unsigned long)s->reason);
    else if (s->events > (uint64_t)s->buffers * KEV_BUF_SLOTS)
        snprintf(text, n, "claims %llu events in %lu buffers, which hold %llu at most",
                 (unsigned long long)s->events, (unsigned long)s->buffers,
                 (unsigned long long)s->buffers * KEV_BUF_SLOTS);
    else if (s->total < l->loss_total[s->cpu][s->reason] + s->events)
        snprintf(text, n, "gives a running total of %llu, behind the %llu said before and its "
                 "%llu", (unsigned long long)s->total,
                 (unsigned long long)l->loss_total[s->cpu][s->reason],
                 (unsigned long long)s->events);
    else if (s->total > ((uint64_t)s->first_seq + s->buffers) * KEV_BUF_SLOTS)
        snprintf(text, n, "gives a running total of %llu, more than buffers 0 to %llu of the "
                 "CPU hold", (unsigned long long)s->total,
                 (unsigned long long)s->first_seq + s->buffers);
    else if (s->t_first > s->t_last)
        snprintf(text, n, "spans %llu to %llu cycles, backwards",
                 (unsigned long long)s->t_first, (unsigned long long)s->t_last);
    else
        return NULL;
    return text;
}

// The board dropped buffers the host did not take: said to the consumers as it is.
static void on_loss(void *arg, const struct ks_loss *s)
{
    struct kev_live *l = arg;
    if (!frame_seq(l, 0))
        return;
    char text[200];
    const char *why = loss_refused(l, s, text, sizeof(text));
    if (why) {
        fault(l, KEV_LIVE_CLAIM, "a LOSS frame at byte %llu of the input %s: not believed (the "
              "trailer counts what was lost)", (unsigned long long)l->ks.offset, why);
        return;
    }
    l->loss_total[s->cpu][s->reason] = s->total;
    l->n.board_lost += s->events;
    for (unsigned i = 0; i < l->nc; i++)
        if (l->c[i].loss)
            l->c[i].loss(l->c[i].user, l->r, s);
}

// A reader's word on its lag and the board's drops: handed on as it is (nothing counts it).
static void on_reader(void *arg, const struct ks_reader *s)
{
    struct kev_live *l = arg;
    if (!frame_seq(l, 0))
        return;
    for (unsigned i = 0; i < l->nc; i++)
        if (l->c[i].reader)
            l->c[i].reader(l->c[i].user, s);
}

// The stream decoder's problems: gaps are followed here (frame_seq), skipped bytes counted by
// it (junk_bytes); what is kept is where they began and how many frames failed their check.
static void on_problem(void *arg, enum ks_problem what, uint64_t off, uint32_t detail)
{
    struct kev_live *l = arg;
    (void)detail;
    if (what == KS_P_GAP)
        return;
    if (l->ks.junk_bytes == l->fr_junk_base && !l->fr_damaged)
        l->fr_junk_off = off;
    if (what != KS_P_JUNK)
        l->fr_damaged++;
}

// ---- the interface ----------------------------------------------------------------------------

struct kev_live *kev_live_new(const char *name)
{
    struct kev_live *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->r = calloc(1, sizeof(*l->r));
    if (!l->r) {
        free(l);
        return NULL;
    }
    snprintf(l->name, sizeof(l->name), "%s", name);
    ks_decoder_init(&l->ks);
    l->ks.crc = zcrc;
    l->ks.on_data = on_frame;
    l->ks.on_heartbeat = on_heartbeat;
    l->ks.on_loss = on_loss;
    l->ks.on_reader = on_reader;
    l->ks.on_wire = on_wire;
    l->ks.on_problem = on_problem;
    l->ks.arg = l;
    return l;
}

void kev_live_whole(struct kev_live *l, uint32_t cpus)
{
    l->whole = 1;
    l->whole_cpus = cpus;
}

void kev_live_free(struct kev_live *l)
{
    if (!l)
        return;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++) {
        for (size_t i = l->q[c].head; i < l->q[c].n; i++)
            free(l->q[c].v[i].big);
        free(l->q[c].v);
    }
    free(l->in);
    free(l->head);
    free(l->r);
    free(l);
}

int kev_live_attach(struct kev_live *l, const struct kev_live_consumer *c)
{
    if (l->nc >= KEV_LIVE_MAX_CONSUMERS)
        return -1;
    unsigned i = l->nc++;
    l->c[i] = *c;
    l->from[i] = l->unit_no + 1;
    if (l->seg && l->st != ST_HEAD && l->st != ST_DONE) { // the header now, the rest to come
        if (c->begin)
            c->begin(c->user, l->r, l->seg);
        if (c->unit)
            c->unit(c->user, l->head, l->head_len, KEV_LIVE_HEAD);
    }
    return 0;
}

void kev_live_feed(struct kev_live *l, const void *p, size_t n)
{
    const uint8_t *b = p;
    if (l->mode == MODE_UNKNOWN && n) // a .kev file starts with its header, a stream with "KS"
        l->mode = b[0] == KEV_FILE_MAGIC[0] ? MODE_RAW : MODE_FRAMED;
    l->n.bytes += n;
    l->in_off += n;
    if (l->mode == MODE_RAW) {
        take(l, b, n, 0);
        return;
    }
    ks_decode(&l->ks, b, n);
    if (l->ks.ended && !l->end_handled)
        stream_end(l);
}

void kev_live_finish(struct kev_live *l)
{
    char why[256] = "";
    size_t k = 0;
    if (l->mode == MODE_FRAMED) {
        ks_decoder_finish(&l->ks);
        uint64_t junk = l->ks.junk_bytes - l->fr_junk_base;
        if (junk)
            k += (size_t)snprintf(why + k, sizeof(why) - k, ", inside a frame (%llu bytes)",
                                  (unsigned long long)junk);
    }
    if (l->st == ST_UNITS && l->pos < l->len) {
        if (is_ctl(word_at(l, l->in + l->pos), KEV_CTL_BUFFER))
            l->n.buffers_lost++;
        k += (size_t)snprintf(why + k, sizeof(why) - k, ", inside a unit at byte %llu of the "
                              "trace (%zu bytes of it arrived)",
                              (unsigned long long)l->file_off, l->len - l->pos);
    }
    if (l->mode == MODE_FRAMED && !l->end_handled && l->seg && k < sizeof(why))
        snprintf(why + k, sizeof(why) - k, l->early_end ? ", without the trace's trailer (an END "
                 "frame came before it)" : ", without its END frame");
    else if (l->seg && l->st != ST_DONE && !why[0])
        snprintf(why, sizeof(why), ", without the trace's trailer");
    skip_said(l);
    if (why[0])
        fault(l, KEV_LIVE_CUT, "the stream ended%s: the trace is incomplete", why);
    if (!l->seg)
        fault(l, KEV_LIVE_CUT, "no header arrived: nothing could be decoded");
    if (l->seg && l->st != ST_DONE) {
        segment_end(l, 0);
        l->st = ST_DONE;
    }
    release(l, 1);
}

int kev_live_done(const struct kev_live *l)
{
    return l->done;
}

// Framed: the END frame's length and CRC agree with the file given (frames lost that carried
// no file bytes, a LOSS frame's, lost nothing of it). Raw: nothing lost was said.
int kev_live_sound(const struct kev_live *l)
{
    if (!l->seg || !l->seg_complete || l->n.segments != 1)
        return 0;
    return l->mode == MODE_RAW ? !l->seg_lost : l->end_handled && l->seg_whole;
}

const struct kev_live_counts *kev_live_counts(const struct kev_live *l)
{
    return &l->n;
}
