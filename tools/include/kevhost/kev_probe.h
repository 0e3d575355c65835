// SPDX-License-Identifier: MIT
// The probe path's host side (tools/common/kev_probe.c; docs/probe-path.md): through a way to
// read and write the target's memory while it runs (struct kev_mem: QEMU's guest RAM shared
// as a file, kev_mem_file.h; a GDB server's m and M), it reads the kernel's probe block
// (trace/kev_probe.h) and the trace buffers where they lie, gives the full ones back through
// the host's acknowledgement words, and asks the kernel for the partial ones every flush
// interval. What it writes is the .kev file the tracelogger would have: the header and
// system page the logger published, the buffers in sequence order, the loss note and the
// trailer from the kernel's own counts, so every live tool reads it as it grows.
// The block and every buffer are checked before use: a block that fails its check, a state the
// kernel never writes, a buffer that is not what its table says, a block that is not at the
// image's address are refused with a sentence (kev_probe_refused, kev_probe_buffer_refused).
// Single-threaded; no allocation after kev_probe_open.
#ifndef KEVHOST_KEV_PROBE_H
#define KEVHOST_KEV_PROBE_H

#include <stdint.h>
#include <stdio.h>
#include <trace/kev_probe.h>
#include <trace/kev.h>

// The target's memory, as the reader reaches it: read and write return 0, or -1 with error()
// saying why. A 4-byte write at a 4-byte aligned address is one store (the host's words).
struct kev_mem {
    int (*read)(void *ctx, uint64_t addr, void *buf, size_t n);
    int (*write)(void *ctx, uint64_t addr, const void *buf, size_t n);
    const char *(*error)(void *ctx);
    void *ctx;
};

// The most buffers a block may describe (the kernel's TRACE_MAX_BUFS is below it).
#define KEV_PROBE_MAX_BUFS 64u

// ---- the block's checks (no target needed: test/unit/test_kev_probe.c) ----
// Why the block b, read at address `at`, cannot be used (a sentence), or NULL when it can.
const char *kev_probe_refused(const struct kev_probe_block *b, uint64_t at);
// Why a FULL buffer's slots (n of them, read from buffer idx, sequence seq by the table) cannot
// be used, or NULL: its BUFFER first (that sequence), its BUFFER_END last.
const char *kev_probe_buffer_refused(const struct kev_slot *s, unsigned n, uint32_t seq);
// Why b (read at `at`) is not believed where the kernel's RAM is [kram, kram + kram_len): the
// block and every word the reader writes or counts from (the buffers' table, the CPUs' loss
// counts, the next sequence number) must lie in it, where no program can write; NULL when
// they do or when no map is known (kram_len 0).
const char *kev_probe_untrusted(const struct kev_probe_block *b, uint64_t at, uint64_t kram,
                                uint64_t kram_len);
// Whether b's description (pb_version .. pb_check) differs from first's: within one
// generation the kernel never changes it.
int kev_probe_desc_moved(const struct kev_probe_block *first, const struct kev_probe_block *b);

// ---- the reader ----
struct kev_probe_counts {
    uint64_t buffers;       // buffers written to the file
    uint64_t events;        // events in them
    uint64_t overwritten;   // sequence numbers the kernel reused before they were read
    uint64_t torn;          // buffers that moved while they were read (read again)
    uint64_t damaged;       // buffers not what the table said: skipped, their slots lost
    uint64_t seq_lies;      // rounds where the table held a sequence past the kernel's next
    uint64_t heartbeats;    // HEARTBEAT frames sent (-t)
    uint64_t stale_heartbeats;  // flushes served behind an event already written (no frame)
    uint64_t polls;         // rounds
    uint64_t flushes;       // flush requests the kernel served
    uint64_t halted_ns;     // host time the target spent halted by the reader
};
struct kev_probe {
    struct kev_mem p_mem;
    uint64_t p_at;              // the block's address
    uint64_t p_kram, p_kram_len;    // the kernel's RAM (0 long: not known)
    struct kev_probe_block p_first; // the block as the capture p_gen began
    FILE *p_out;
    struct kev_probe_block p_blk;
    uint32_t p_gen;             // the capture being written (0: none yet)
    uint32_t p_next;            // the next sequence number to write
    uint64_t p_cpu_events[KEV_MAX_CPUS];
    uint64_t p_damaged_events[KEV_MAX_CPUS];   // slots of damaged buffers (the trailer's loss)
    char p_damage[200];         // what the last damaged buffer was
    uint32_t p_flush_ms;        // 0: never ask for partial buffers
    uint64_t p_last_flush_ns;
    int p_done;                 // the capture's trailer is written
    int p_unpublished;          // the block read all zero (not published yet), or the scan
                                // found no magic: the caller may wait and try again
    uint8_t *p_table;           // the buffers' table, read each poll
    struct kev_slot *p_slots;   // one buffer
    // A copy given back (done) while a pick of the kernel was deciding on its buffer (the
    // entry FILLING, its sequence p_next): kept in p_slots until the entry says the verdict.
    int p_pending;
    unsigned p_pend_idx, p_pend_n;
    struct kev_probe_counts p_counts;
    // The framed stream (p_stream: trace/kev_stream.h) instead of the bare file: the file's
    // bytes in DATA frames, a HEARTBEAT at each flush the kernel served once every buffer
    // before it is written (so that a live reader of several CPUs knows they all passed its
    // time), END at the end.
    int p_stream;
    uint16_t p_frame_seq;
    uint64_t p_file_bytes;
    uint32_t p_file_crc;
    uint32_t p_hb_flush;        // the flush request a heartbeat was armed for
    uint64_t p_hb_time;         // its time, while armed (not yet sent)
    int p_hb_armed;
    uint64_t p_newest;          // the newest event time written (a heartbeat is not behind it)
    // The board outrunning the reader (said at most once a second): the loss counts seen, the
    // events read by class, and a sentence for the caller to say (then clear) when they grew.
    uint64_t p_watch_ns, p_lost_seen;
    // The READER frames (p_stream): the buffers the last round found given out and not yet
    // written as it began, when the last frame went, whether it said the reader behind, the
    // drops it said.
    uint32_t p_behind;
    uint64_t p_reader_ns, p_reader_dropped;
    int p_reader_behind;
    uint64_t p_class_events[KEV_NCLASS];
    char p_note[300];
    char p_err[256];
};
// Where the block is: at `at` when not 0 (an ELF symbol's address, or the user's), else by
// scanning [scan, scan + scan_len) for the magic, inside the kernel's RAM alone. kram_len 0:
// the kernel's RAM is not known (a scan is then refused, and -a's table not checked).
struct kev_probe_where {
    uint64_t at, scan, scan_len, kram, kram_len;
};
// Finds the block through m. 0, or -1 with p->p_err (p_unpublished: no magic yet, try again
// later).
int kev_probe_find(struct kev_probe *p, const struct kev_mem *m, const struct kev_probe_where *w);
// One round: reads the block, writes what is new to out, gives back
// the buffers written, asks for partial ones when flush_ms has passed. 1 when the capture is
// written whole (its trailer), 0 to go on (p_unpublished: the block is still all zero, as the
// kernel's is before the first capture), -1 with p->p_err.
int kev_probe_poll(struct kev_probe *p, uint64_t now_ns);
void kev_probe_free(struct kev_probe *p);

#endif
