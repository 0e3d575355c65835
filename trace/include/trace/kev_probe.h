// SPDX-License-Identifier: MIT
// The probe block: what the kernel publishes so that a host reading the target's memory (a
// debugger's stub, a debug probe's GDB server: docs/probe-path.md) can take the
// trace buffers where they lie, as SEGGER RTT's control block lets a probe find its ring. One
// static block in the kernel (symbol kev_probe_block), found by that symbol or by scanning RAM
// for its magic, which the kernel writes last, in pieces, at run time (the magic's text is in
// no image).
//
// The block describes the ring (trace/trace_ring.h) by addresses and offsets: the buffers'
// memory, the array of struct trace_buf (each buffer's sequence, state, CPU and slots) and of
// struct trace_cpu (each CPU's loss counts), and the .kev header's bytes the logger built (the
// ASCII header and the system page, in the logger's memory). The kernel writes nothing here per
// event: the reader reads the ring's own words. The description (pb_version .. pb_gen) is fixed
// while a capture lasts and covered by pb_check; the words after it change.
//
// Hand-over, with the target running (docs/probe-path.md, "The protocol"). Each shared word has
// one writer. The kernel writes the block, the buffers' table and the slots; the host writes
// only pb_flush_req, pb_host_done and its acknowledgement array (pb_acks: one 32-bit word a
// buffer, in the probe area, 0 at first). To take FULL buffer i of sequence S the host writes
// ~(S + 1) in word i (a claim), re-reads the buffer's sequence and state (still FULL and S: the
// kernel, which stores a buffer's new state before it reads the word, will see the claim and
// not reuse it), copies the slots, writes S + 1 (done), and reads the entry once more: still
// FULL and S, the copy is its own (any later pick sees the done); FILLING and S, a pick is
// deciding (read again); a new sequence, the buffer was reused: its tb_lost (pb_off_lost) says
// S + 1 when the kernel counted its events lost (a claim refused while the host copied: the
// copy is dropped), else the kernel saw the done and the copy, finished before it, is whole.
// The kernel, picking its next buffer under the pool lock, takes a FULL buffer whose word is
// S + 1 as FREE, skips one whose word is ~(S + 1) (for TRACE_CLAIM_PASSES picks that wanted it
// at most: then the claim is refused and the buffer reused), and overwrites (ring, overwrite
// policies) only an unclaimed one, counting its events lost; a refused claim's buffer is
// counted lost and marked (tb_lost = S + 1, kept until a later claim's refusal: the host
// claims no later life of the buffer before it has read the mark). A word is only compared with the sequence the kernel
// gave out, never an index: one left from an earlier life of the buffer is no claim, one that
// names no life of it (garbage) is refused and counted (the ring's tr_refused, once a life).
// The host reads the next sequence (pb_next_seq)
// before the table: the kernel stores a buffer's sequence before it moves the next on. With KEV_PROBE_F_KEEP the host writes no word (the logger saves every buffer at the
// end) and keeps a copy only when the buffer's sequence and state did not move while it copied.
// The host asks for partial buffers by moving pb_flush_req on; the kernel's tick closes every
// buffer holding events and sets pb_flush_done to it. No notification goes to the logger (the
// ring is quiet: trace_ring_set_quiet). Little-endian targets only (every board here); the host
// checks pb_version, pb_size and pb_self.
#ifndef TRACE_KEV_PROBE_H
#define TRACE_KEV_PROBE_H

#include <stdint.h>
#include <stddef.h>

#define KEV_PROBE_VERSION 3u
#define KEV_PROBE_MAGIC "KEV PROBE BLOCK" // 15 characters and the NUL: 16 bytes
#define KEV_PROBE_MAGIC_LEN 16u

// pb_state: where the capture is (the kernel and the logger write it).
enum kev_probe_state {
    KEV_PROBE_IDLE = 0,     // no ring (or not published): nothing to read
    KEV_PROBE_READY = 1,    // the header is published, tracing not started yet
    KEV_PROBE_RUNNING = 2,  // tracing runs
    KEV_PROBE_STOPPED = 3,  // tracing stopped for good: the rest is FULL, pb_stop_time and
                            // pb_trl_flags are set; the reader reads the rest, sets pb_host_done
    KEV_PROBE_NSTATES
};

// pb_flags
#define KEV_PROBE_F_KEEP 1u     // the reader gives no buffer back (the logger saves them all)

struct kev_probe_block {
    char pb_magic[KEV_PROBE_MAGIC_LEN];  // KEV_PROBE_MAGIC, written last
    // ---- the description (pb_check) ----
    uint32_t pb_version;    // KEV_PROBE_VERSION
    uint32_t pb_size;       // sizeof(struct kev_probe_block)
    uint64_t pb_self;       // this block's own address
    uint64_t pb_mem;        // the first buffer (pb_nbufs of pb_buf_bytes each, in a row)
    uint64_t pb_bufs;       // &tr_buf[0] (struct trace_buf, pb_buf_stride bytes each)
    uint64_t pb_cpus;       // &tr_cpu[0] (struct trace_cpu, pb_cpu_stride bytes each)
    uint64_t pb_next_seq;   // &tr_next_seq: the sequence number the next buffer gets
    uint64_t pb_head;       // the .kev file's ASCII header (the kernel's copy, in the probe area)
    uint64_t pb_page;       // the system page that follows it
    uint64_t pb_acks;       // the host's acknowledgement words (uint32_t, pb_nbufs of them)
    uint32_t pb_head_len, pb_page_len;
    uint32_t pb_nbufs, pb_buf_bytes, pb_ncpus, pb_flags;
    uint16_t pb_buf_stride, pb_cpu_stride;
    uint8_t pb_off_seq, pb_off_state, pb_off_cpu, pb_off_nslots;    // in a struct trace_buf
    uint8_t pb_off_dropped, pb_off_overwritten;                     // in a struct trace_cpu
    uint8_t pb_off_lost, pb_pad;                                    // in a struct trace_buf
    uint32_t pb_gen;        // the capture's number since boot (from 1)
    uint32_t pb_check;      // kev_probe_check over pb_version .. pb_gen
    // ---- what changes ----
    uint32_t pb_state;      // enum kev_probe_state
    uint32_t pb_flush_req;  // the reader: moved on to ask for the partial buffers
    uint32_t pb_flush_done; // the kernel: the request it served last
    uint32_t pb_host_done;  // the reader: pb_gen once it has read a STOPPED capture whole
    uint32_t pb_trl_flags;  // the trailer's flags the logger knows (KEV_TRL_RING, _FILLED)
    uint64_t pb_stop_time;  // the logger's time at the stop (the trailer's loss note)
    uint64_t pb_flush_time; // the kernel: the cycle count when it served pb_flush_done (every
                            // event before it is in a closed buffer: a reader's heartbeat)
};

#define KEV_PROBE_CHECK_FROM offsetof(struct kev_probe_block, pb_version)
#define KEV_PROBE_CHECK_TO offsetof(struct kev_probe_block, pb_check)

// FNV-1a over the description's bytes: a block copied half-way, overwritten or read from the
// wrong place fails it.
static inline uint32_t kev_probe_check(const struct kev_probe_block *b)
{
    const unsigned char *p = (const unsigned char *)b;
    uint32_t h = 2166136261u;
    for (size_t i = KEV_PROBE_CHECK_FROM; i < KEV_PROBE_CHECK_TO; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

_Static_assert(sizeof(struct kev_probe_block) == 168, "the probe block's layout is the format");

#endif
