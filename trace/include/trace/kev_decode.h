// SPDX-License-Identifier: MIT
// The .kev decoder (the traceparser equivalent) used by every host tool: parses the header,
// the system page and the trailer, walks the slots, reassembles combine events, rebuilds
// 64-bit time from TIME events, checks the buffer framing (BUFFER ... BUFFER_END with its
// count), counts sequence gaps and losses, and calls user callbacks per class / event.
// Freestanding and allocation-free: the whole file is in caller memory, all state is in
// struct kev_reader (large: keep it static or on the heap). One reader per thread.
// Damaged input never crashes nor loops: every read is bounds-checked, every slot is consumed
// once, and the first problem sets a sticky error (kev_error()) with the byte offset.
#ifndef TRACE_KEV_DECODE_H
#define TRACE_KEV_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev.h>
#include <trace/kev_events.h>

// Error codes (kr_err); kev_error() gives the message.
enum kev_err {
    KEV_OK = 0,
    KEV_ERR_MAGIC,     // not a .kev file
    KEV_ERR_HEADER,    // malformed header
    KEV_ERR_VERSION,   // unsupported format version
    KEV_ERR_BYTEORDER, // data in the other byte order than the header says
    KEV_ERR_SYSPAGE,   // malformed system page
    KEV_ERR_CORRUPT,   // bad slot, framing or combine event
    KEV_ERR_TRUNCATED, // the file ends early (no trailer, partial slot or buffer)
    KEV_ERR_TRAILER,   // trailer present but inconsistent with the data
    KEV_ERR_STOPPED,   // a callback asked to stop
};

#define KEV_MAX_ATTRS   64u
#define KEV_MAX_PROCS   256u
#define KEV_MAX_THREADS 1024u
#define KEV_NAME_MAX    32u
#define KEV_MAX_EVCB    32u

// struct kev_event, one decoded event, is in kev_events.h: the field API reads it inline.

struct kev_reader;
// Return 0 to go on, non-zero to stop decoding (kev_decode then returns KEV_ERR_STOPPED).
typedef int (*kev_cb)(void *user, struct kev_reader *r, const struct kev_event *e);

struct kev_attr {
    const char *ka_key; // after "TRACE_", not NUL terminated
    const char *ka_val;
    unsigned ka_klen, ka_vlen;
};

struct kev_name {
    uint32_t kn_pid, kn_tid; // kn_tid 0 for a process
    char kn_name[KEV_NAME_MAX];
};

struct kev_cpu_stats {
    uint64_t cs_events;      // non-CONTROL events decoded
    uint64_t cs_lost_stream; // sum of DROPPED counts
    uint64_t cs_buffers;
    uint64_t cs_time_guess;  // low-word wraps found without a TIME event
    uint64_t cs_rejected;    // records of processes' user-event rings the kernel rejected
                             // (SYSTEM URING_BAD): a process's doing, not a loss
    uint64_t cs_timer_lost;  // user timers' pulses the kernel could not deliver (SYSTEM
                             // TIMER_LOST events): the program's loss, not the trace's
    uint32_t cs_hi, cs_last;
    int cs_have_time;
};

// What a walk counts (the reader's "Results" below and the framing state), kept while a file
// of several CPUs is walked again in time order. Internal.
struct kev_results {
    struct kev_cpu_stats cpu[KEV_MAX_CPUS];
    unsigned ncpu_seen;
    uint64_t events, buffers, seq_missing, seq_reorder;
    uint32_t first_seq, last_seq;
    int64_t seq_lo, seq_hi;
    int have_seq;
};

// One CPU's place in the time-ordered walk: where its next event is. Internal.
struct kev_cursor {
    size_t kc_off;        // next slot to read
    size_t kc_ev_off;     // the next event's first slot
    uint64_t kc_t64;      // its time
    unsigned kc_nslots;
    int kc_in_buf, kc_have, kc_have_time;
    uint32_t kc_hi, kc_last;
};

enum kev_walk_mode { KEV_WALK_NONE, KEV_WALK_FILE, KEV_WALK_TIME, KEV_WALK_DONE };

// Where kev_next is in the file. Internal.
struct kev_walk {
    enum kev_walk_mode kw_mode;
    size_t kw_off;                 // file order: next slot
    unsigned kw_ncomb;             // payload words gathered for an open combine event
    uint32_t kw_comb_hdr, kw_comb_t;
    size_t kw_comb_off;
    unsigned kw_ncpu;              // time order: one cursor per CPU
    struct kev_cursor kw_cur[KEV_MAX_CPUS];
    struct kev_results kw_saved;   // the checking walk's counts
};

struct kev_reader {
    const uint8_t *kr_data;
    size_t kr_len;
    int kr_big;  // the file's byte order
    int kr_swap; // it differs from the host's
    int kr_err;  // enum kev_err (sticky)
    size_t kr_err_off;
    char kr_msg[192];

    struct kev_attr kr_attr[KEV_MAX_ATTRS];
    unsigned kr_nattr;
    unsigned kr_ver_major, kr_ver_minor;
    uint64_t kr_cycles_per_sec;
    size_t kr_sp_off, kr_sp_len; // system page
    size_t kr_sp_list;           // its record list's first record (0: none)
    size_t kr_ev_off, kr_ev_end; // slots
    char kr_board[KEV_NAME_MAX];
    uint32_t kr_board_hz, kr_board_ncpu;

    int kr_have_trailer;
    size_t kr_note_off;   // the loss note's first slot (kev.h KEV_SYS_SLOG), 0: none
    unsigned kr_note_nslots;
    uint32_t kr_trl_nbufs, kr_trl_flags, kr_trl_ncpu;
    uint64_t kr_trl_events[KEV_MAX_CPUS], kr_trl_lost[KEV_MAX_CPUS];

    // Callbacks: per (class, event), per class, and for everything.
    struct { unsigned cls, ev; kev_cb cb; } kr_evcb[KEV_MAX_EVCB];
    unsigned kr_nevcb;
    kev_cb kr_clscb[KEV_NCLASS];
    kev_cb kr_anycb;
    void *kr_user;

    // Results.
    struct kev_cpu_stats kr_cpu[KEV_MAX_CPUS];
    unsigned kr_ncpu_seen; // highest CPU number seen + 1
    uint64_t kr_events, kr_buffers;
    uint64_t kr_seq_missing;  // buffers missing according to sequence numbers: numbers in
                              // the span seen that no buffer has (several CPUs save theirs
                              // out of order: a jump forward need not be a loss)
    uint64_t kr_seq_reorder;  // buffers out of sequence order
    uint32_t kr_first_seq, kr_last_seq;
    int64_t kr_seq_lo, kr_seq_hi; // lowest and highest sequence, relative to the first
    int kr_have_seq;

    struct kev_name kr_procs[KEV_MAX_PROCS];
    unsigned kr_nprocs;
    struct kev_name kr_threads[KEV_MAX_THREADS];
    unsigned kr_nthreads;

    // Order of delivery: several CPUs' events are merged in time order (kev_decode) unless
    // kr_file_order is set (before kev_decode) to get them as the file holds them.
    int kr_file_order;
    int kr_merging;  // internal: the time-ordered walk of a file already checked
    int kr_live;     // a file still being written (kev_open_head): its trailer comes later

    // Decoding state.
    struct kev_walk kr_walk;
    int kr_in_buf;
    uint32_t kr_buf_seq;
    uint64_t kr_buf_events;
    uint32_t kr_comb[2u * KEV_MAX_COMBINE_SLOTS];
};

// Parse header, system page and trailer of data[0..len). 0, or the error code.
int kev_open(struct kev_reader *r, const void *data, size_t len);
// Decode every slot, calling the callbacks. 0, or the error code (events before it were
// delivered). Also checks the totals against the trailer.
int kev_decode(struct kev_reader *r);
// The same walk one event at a time, for a reader that pulls (kev_decode is kev_next with the
// callbacks): 1 with *e the next event (its words valid until the next call), 0 at the end of
// a sound file (totals checked), or the error code (sticky; the events before it were given).
// The first call on a file of several CPUs checks the whole file before the first event.
int kev_next(struct kev_reader *r, struct kev_event *e);
const char *kev_error(const struct kev_reader *r); // "" when there is no error

// A file still being written, read as it arrives (the live reader, tools/common/kev_live.c,
// cuts it into whole buffers). kev_open_head parses the header and system page at the start of
// data[0..len): 0 with r->kr_ev_off their length, KEV_ERR_TRUNCATED while they have not all
// arrived (call again with more), or the error. data must stay where it is while r is used
// (the header items point into it). Then kev_feed gives the next whole buffers (or the loss
// note) as r's data: kev_next gives their events (offsets are the piece's) and 0 at the end of
// the piece, without the trailer's check; a new kev_feed clears an error of the last piece,
// whose events before it were given. kev_feed_end gives the trailer and checks the totals of
// every piece fed against it: 0, or the error.
int kev_open_head(struct kev_reader *r, const void *data, size_t len);
void kev_feed(struct kev_reader *r, const void *slots, size_t len);
int kev_feed_end(struct kev_reader *r, const void *trailer, size_t len);

void kev_set_user(struct kev_reader *r, void *user);
void kev_on_any(struct kev_reader *r, kev_cb cb);
void kev_on_class(struct kev_reader *r, unsigned cls, kev_cb cb);
int kev_on_event(struct kev_reader *r, unsigned cls, unsigned ev, kev_cb cb); // -1 if full

// Header value of TRACE_<key>, or NULL; *len gets its length.
const char *kev_attr(const struct kev_reader *r, const char *key, unsigned *len);
// Names from the system page and from name events seen so far (NULL when unknown).
const char *kev_proc_name(const struct kev_reader *r, uint32_t pid);
const char *kev_thread_name(const struct kev_reader *r, uint32_t pid, uint32_t tid);
// The k-th interrupt line's device of the system page (KEV_SP_IRQDEV records, in their
// order): 0 and *line, *major, *instance and its driver's name in name (as the tools print a
// name), or -1 when the page has fewer (or none).
int kev_sp_irqdev_at(const struct kev_reader *r, unsigned k, uint32_t *line, uint32_t *major,
                     uint32_t *instance, char name[KEV_NAME_MAX]);
// The k-th incident section of the system page (KEV_SP_INCIDENT records, in their order: an
// incident record's trigger and D sections, trace/kev_incident.h): its type in *type and its
// bytes gathered from its pieces into dst (cap bytes; dst NULL asks only the length). Its
// length, or -1 when the page has fewer or its pieces do not make it whole.
long kev_sp_incident_at(const struct kev_reader *r, unsigned k, uint32_t *type, void *dst,
                        size_t cap);
// Copy the NUL-terminated string packed in e's payload from word `first` into buf[n].
void kev_event_string(const struct kev_reader *r, const struct kev_event *e, unsigned first,
                      char *buf, size_t n);
// The part of a kernel call e is (enum kev_kcall_part, trace/kev_events.h), from the event
// table's KER_CALL rows; KEV_KCALL_NONE for any other event and for a number no row holds.
enum kev_kcall_part kev_kcall_part(const struct kev_event *e);
// The number of the call a KER_CALL event belongs to (KC_MsgSend for MsgSend's entry, exit and
// interrupted end): the event's number less its run's first. A number past the runs gives
// its remainder by KEV_KC_MAX, as QNX's tools read one.
unsigned kev_kcall_no(const struct kev_event *e);
// The part a KER_CALL event numbered ev is, as the tools name it: "entry", "exit",
// "interrupted"; "unknown" for a number past the three runs.
const char *kev_kcall_part_name(unsigned ev);
// A kernel call's end, decoded from the slots that hold it (docs/kev-format.md): 1 when e is
// an exit or QNX's interrupted call (read as its call's exit, by the same rule), with *ret
// its result (-1 on failure) and *err the errno (0 on success). Exits of
// calls whose result is not errno-style (ClockCycles, ClockTime: a 64-bit value; Semihost:
// the host's answer, such as QEMU's 0xdeadbeef) never count as failures. Format 1.01 files
// that stored -errno in the first word are read the same way.
int kev_kcall_exit(const struct kev_event *e, int32_t *ret, uint32_t *err);

// A kernel call entry's argument k, as the table's KER_CALL rows give
// them to D ($words: each word an argument; this kernel's entry holds the call's registers,
// r0 first, two in fast mode, six in wide): 0 past the words the entry recorded.
uint32_t kev_kcall_arg(const struct kev_event *e, unsigned k);

// The interrupt number of an INT event, its row's `irq` (trace/kev_fields.c). QNX's
// INT_HANDLER_ENTR is [pid, irq, handler IP, area] (4 words, the row's); format 1.02 files
// written before that carried [irq, pid] in 2 words, which no row describes: read so.
uint32_t kev_int_irq(const struct kev_event *e);
// The pid of an INT_HANDLER_ENTR/EXIT event's handler owner (its row's `pid`), 0 when the event
// does not carry it.
uint32_t kev_int_handler_pid(const struct kev_event *e);

// The raw payload bytes from word `first` in memory order (as stored: strings, QNX's
// view); returns how many were copied (at most n).
size_t kev_event_bytes(const struct kev_reader *r, const struct kev_event *e, unsigned first,
                       uint8_t *buf, size_t n);
// A name event's name (payload from word `first`) as the tools print names: UTF-8 kept,
// control bytes escaped (trace/kev_text.h), as kev_proc_name and kev_thread_name give it.
void kev_event_name(const struct kev_reader *r, const struct kev_event *e, unsigned first,
                    char *buf, size_t n);
// The loss note a writer put after the last buffer: its message (NUL-terminated in buf) and
// time; returns the message length, 0 when the file has none.
size_t kev_loss_note_text(const struct kev_reader *r, uint32_t *t32, char *buf, size_t n);
// Events lost in total: the trailer's count when present (it includes losses after the last
// buffer), else what DROPPED events report.
uint64_t kev_lost_total(const struct kev_reader *r);
// Records of processes' user-event rings the kernel rejected (the URING_BAD events' counts):
// shown apart from losses, which are only events the system generated and could not keep.
uint64_t kev_rejected_total(const struct kev_reader *r);
// User timers' pulses lost (the TIMER_LOST events): not trace losses, the program's own.
uint64_t kev_timer_lost_total(const struct kev_reader *r);

#endif
