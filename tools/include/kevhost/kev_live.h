// SPDX-License-Identifier: MIT
// The live reader: a trace read while the board still writes it, the one reader every live
// consumer uses (kevcapture, kevtop, dtrace -i, the LTTng live server). Bytes go in as they
// arrive, in any pieces: a growing .kev file or the tracelogger's framed stream
// (trace/kev_stream.h), told apart by their first bytes. What comes out:
//   * the file: each whole unit (the header with the system page, a buffer, the loss note, the
//     trailer) once it has arrived undamaged, in order; a sound capture gives the same bytes as
//     the file the board writes, byte for byte;
//   * the events: each buffer decoded as it arrives by the shared decoder (kev_decode.h,
//     kev_feed), given in time order across CPUs (one CPU: as they come; several: held until
//     every CPU that writes has passed their time, or fallen a second of trace time behind);
//   * faults, each detected, said once in a sentence, counted, the rest decoded: data missing
//     from the stream (a cut mid-frame, a damaged frame, frames missing), garbage between
//     frames, a repeated buffer or frame (dropped), a buffer out of order (kept in the file, its
//     events shown if the view has not passed them), a board reset (a new header: a new
//     segment), a unit that does not decode, a frame whose claim the stream contradicts (a
//     HEARTBEAT's time or byte count, a LOSS frame's counts, an END before the trailer:
//     refused); the END frame's length and CRC are always checked against the file given.
// A consumer may attach at any time: it gets the header, then everything from the next unit.
// Single-threaded; no I/O (kev_input.h reads sources, kev_live_file writes files).
#ifndef TOOLS_KEV_LIVE_H
#define TOOLS_KEV_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <trace/kev_decode.h>
#include <trace/kev_stream.h>

enum kev_live_unit { KEV_LIVE_HEAD, KEV_LIVE_BUFFER, KEV_LIVE_NOTE, KEV_LIVE_TRAILER };

enum kev_live_fault {
    KEV_LIVE_CUT,      // data missing from the stream: a frame cut or damaged, frames missing
    KEV_LIVE_GARBAGE,  // bytes between frames (or units) that belong to none
    KEV_LIVE_REPEAT,   // a frame or buffer that came again (dropped)
    KEV_LIVE_ORDER,    // a frame or buffer behind its sequence
    KEV_LIVE_RESET,    // a new header before the trace ended: the board restarted
    KEV_LIVE_DAMAGED,  // a unit that does not decode, or a trailer or END that disagrees
    KEV_LIVE_CLAIM,    // a frame whose claim the stream contradicts (refused, not believed)
    KEV_LIVE_NFAULTS
};

// What happened so far, over every segment.
struct kev_live_counts {
    uint64_t bytes;                  // bytes fed
    uint64_t frames;                 // stream frames taken (framed input)
    uint64_t units, buffers, events; // units written, buffers decoded, events given
    uint64_t faults[KEV_LIVE_NFAULTS];
    uint64_t frames_lost;            // frames missing or damaged (framed input)
    uint64_t garbage_bytes;          // bytes outside frames and units, skipped
    uint64_t buffers_lost;           // buffers whose bytes did not all arrive, dropped
    uint64_t late_events;            // events of a late buffer the view had passed (in the file)
    uint64_t board_lost;             // events the board said it dropped (LOSS frames)
    uint64_t wire_lost_events;       // events of compact frames lost inside buffers kept (their
                                     // place a DROPPED event, trace/kev_wire.h)
    unsigned segments;               // headers seen
};

struct kev_live;

// What a consumer is told; any member may be NULL. r is the segment's reader: its header,
// names, counts and (at end) trailer; valid until end returns.
struct kev_live_consumer {
    void *user;
    // a segment begins (seg counts from 1): its header and system page are in r
    void (*begin)(void *user, struct kev_reader *r, unsigned seg);
    // a unit of the file, whole and undamaged, in file order
    void (*unit)(void *user, const uint8_t *p, size_t n, enum kev_live_unit kind);
    // an event, in time order; its words are valid during the call
    void (*event)(void *user, struct kev_reader *r, const struct kev_event *e);
    // every event before t (cycles) has been given: time has passed on every CPU
    void (*time)(void *user, struct kev_reader *r, uint64_t t);
    // the board dropped buffers the host did not take (a LOSS frame, kev_stream.h): the file's
    // trailer counts the same events lost on that CPU
    void (*loss)(void *user, struct kev_reader *r, const struct ks_loss *s);
    // a reader outside the board (kevprobe) says how far behind it is and what the board has
    // dropped so far (a READER frame, kev_stream.h): said, counted nowhere (the trace's DROPPED
    // events and trailer are the counts)
    void (*reader)(void *user, const struct ks_reader *s);
    // a fault, in a sentence (no newline), said once where it happened
    void (*fault)(void *user, enum kev_live_fault f, const char *what);
    // the segment ended: complete (its trailer arrived and agrees), or not (a reset, the end
    // of the input, the stream's END frame before the trailer)
    void (*end)(void *user, struct kev_reader *r, int complete);
};

#define KEV_LIVE_MAX_CONSUMERS 8u

// A reader for input called name (for its sentences). NULL out of memory.
struct kev_live *kev_live_new(const char *name);
void kev_live_free(struct kev_live *l);
// Add a consumer (copied): 0, or -1 when KEV_LIVE_MAX_CONSUMERS are attached. During a
// segment, begin and the header unit come at once, the rest from the next unit.
int kev_live_attach(struct kev_live *l, const struct kev_live_consumer *c);
// The input is a finished capture (kev_input_finished; before the first bytes), cpus the CPUs
// with events (bit n: CPU n, its trailer's count not 0): its CPUs' events are merged in time
// order however far apart the file holds them (no CPU is left behind after a second of trace
// time, and each of cpus is waited for from the start: a CPU whose first buffer the file has
// late), as the converters merge them; none is then late.
void kev_live_whole(struct kev_live *l, uint32_t cpus);
// The next n bytes of the input.
void kev_live_feed(struct kev_live *l, const void *p, size_t n);
// The input ended: what is held is given, a segment still open ends incomplete.
void kev_live_finish(struct kev_live *l);
// The trace has ended: a trailer (and, framed, the END frame) closed the last segment.
int kev_live_done(const struct kev_live *l);
// The last segment ended complete and every byte of it arrived undamaged (framed: the END
// frame's length and CRC agree with the file given).
int kev_live_sound(const struct kev_live *l);
const struct kev_live_counts *kev_live_counts(const struct kev_live *l);

// A consumer writing the file: the units to path as they come, flushed after each (a reset
// starts path's next segment: "capture.kev", "capture-2.kev", ..., at most KEV_LIVE_MAX_FILES
// files: past them each new segment replaces the last, said once). NULL with the reason on
// stderr (prefixed with tool) when path cannot be created. kev_live_file_close: 0, or -1 when
// a write failed (said on stderr).
#define KEV_LIVE_MAX_FILES 16u
struct kev_live_file;
struct kev_live_file *kev_live_file_open(const char *tool, const char *path,
                                         struct kev_live_consumer *c);
int kev_live_file_close(struct kev_live_file *f);
// The name the file of segment seg has (buf of n bytes).
const char *kev_live_file_name(const char *path, unsigned seg, char *buf, size_t n);

#endif
