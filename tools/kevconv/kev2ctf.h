// SPDX-License-Identifier: MIT
// kev2ctf's encoder (kev2ctf.c): .kev events into CTF 1.8 packets, one stream per CPU, in the
// layout ctf_meta.h declares. Two users: the kev2ctf command (kev2ctf_dir.c) writes the packets
// into a trace directory's channel0_<cpu> files; kevlive serves them to LTTng live viewers as
// they are made. One encoder, so a viewer attached live and babeltrace2 over a converted file
// read the same events.
// A packet is one .kev buffer (CONTROL BUFFER ... BUFFER_END), handed on whole when it closes.
// Losses raise the packet context's events_discarded counter, which babeltrace2 reports as
// "discarded N events" between the packet before and the packet that carries the increase: the
// kernel's (a DROPPED event: a new packet starts there), the host's (ctf_enc_host_loss: from
// the CPU's next buffer on) and those only the trailer counts (ctf_enc_finish).
// Single-threaded; one encoder at a time (its field tables are static).
#ifndef TOOLS_KEV2CTF_H
#define TOOLS_KEV2CTF_H

#include <stdint.h>
#include <stdio.h>
#include <kevhost/kx.h>
#include <kevhost/kx_pass.h>

#include "ctf_meta.h"

// A closed packet: its bytes (header and context as ctf_meta.h lays them out) and what its
// context says, for a reader that indexes packets without parsing them.
struct ctf_packet {
    unsigned cpu;
    const uint8_t *p;
    size_t n;
    uint64_t begin, end;  // timestamp_begin, timestamp_end (cycles)
    uint64_t discarded;   // events_discarded: the CPU's losses so far
    uint64_t seq;         // packet_seq_num
    uint64_t events;      // CTF events in it
};
// Where packets go: 0, or -1 on a write error (the encoder stops; its pass's step returns 1).
typedef int (*ctf_packet_fn)(void *user, const struct ctf_packet *pk);

struct ctf_enc;

// An encoder over model m (kx_model_init'ed with the capture's reader; its pass updates it
// with every event), stamping each packet with uuid. NULL out of memory.
struct ctf_enc *ctf_enc_new(struct kx_model *m, const uint8_t uuid[16], ctf_packet_fn out,
                            void *user);
void ctf_enc_free(struct ctf_enc *c);
// Where sched_switch's prev_exec_cycles come from (ctf_exec.h; before the first event, kept by
// the caller). Without one they are 0.
struct ctf_exec;
void ctf_enc_exec(struct ctf_enc *c, const struct ctf_exec *x);
// The pass the encoder is fed by (kx_pass.h; in the file's order, per CPU): kx_pass_run over a
// file, kx_pass_step for each event as it arrives; a step gives 1 after a write error.
const struct kx_pass *ctf_enc_pass(const struct ctf_enc *c);
// The host lost events of CPU cpu in transit (the stream's LOSS frames): counted from the
// CPU's next buffer on.
void ctf_enc_host_loss(struct ctf_enc *c, unsigned cpu, uint64_t events);
// The events of CPU cpu given so far go out now: the packet being filled is closed at its last
// event (its buffer's next events open another). A live server's, when time has passed them.
void ctf_enc_flush(struct ctf_enc *c, unsigned cpu);
// The capture ended: every CPU's stream is closed at the capture's last event (with an empty
// packet up to it where the CPU fell silent earlier: an LTTng session's streams span it); the
// host's losses no buffer came after, and, when r's trailer arrived (whole: the decode did not
// stop), the trailer's lost count, raise each CPU's counter in a last, empty packet. 0, or 1
// after a write error.
int ctf_enc_finish(struct ctf_enc *c, const struct kev_reader *r, int whole);

struct ctf_enc_counts {
    uint64_t events, derived, packets, discarded;
    uint64_t unplaced;   // kernel-call fields beyond their call's layout, not written
};
void ctf_enc_counts(const struct ctf_enc *c, struct ctf_enc_counts *n);

// The clock of r's events (its cycles a second, its boot time when the header says it).
void ctf_enc_clock(const struct kev_reader *r, struct ctf_clock *clk);
// The metadata for r's capture, stamped with uuid, on clock clk. Call ctf_kcall_layouts(r)
// first.
void ctf_enc_metadata(FILE *f, const struct kev_reader *r, const uint8_t uuid[16],
                      const struct ctf_clock *clk);

#endif
