// SPDX-License-Identifier: MIT
// kevdump's reading of a halted target's trace ring (flight_read.c), through any struct
// kev_mem (a GDB server's, or a fuzzer's bytes: test/fuzz/fuzz_kevdump.c): the flight
// recorder's map, checked whole before any offset in it is used (kevhost/kev_ring_desc.h), the
// ring's control structure and its buffers fetched into buffers of exactly their size, the
// ring's own words checked before they index anything, and the buffers that hold events
// written as a .kev. What the map, the ring and the buffers are trusted for is
// docs/hostile.md's "What the ring's readers trust".
#ifndef TOOLS_FLIGHT_READ_H
#define TOOLS_FLIGHT_READ_H

#include <stdint.h>
#include <stdio.h>
#include <kevhost/kev_mem.h>
#include <trace/kev.h>
#include <trace/kev_flight.h>
#include <trace/kev_ring_map.h>

struct dumped {
    uint32_t idx, seq, nslots, cpu;
    int open;           // the CPU's current buffer: no BUFFER_END yet
};

// What the halted target's memory gave: the map, the ring's control structure, its buffers,
// and which of them hold events (flight_pick), with what was lost and what was left out.
struct dump {
    struct kev_flight m;
    struct kev_ring_map map;    // its buffers' table and CPUs, once nbufs is known
    uint8_t *ring;              // the ring's control structure, as read (ring_bytes of it)
    size_t ring_bytes;
    struct kev_slot *slots;     // its nbufs buffers, as read
    uint64_t mem;               // their address on the target
    uint32_t nbufs, ncpus;
    struct dumped *d;           // the buffers to write, by sequence
    unsigned nd;
    uint64_t lost_cpu[KEV_MAX_CPUS], lost, skipped;
    unsigned damaged;           // buffers that were not what the table said, left out
    FILE *note;                 // where what was left out and why is said (stderr)
    char why[400];              // flight_read's refusal, or the last damaged buffer's story
};

// The map at map_addr, then the ring and its buffers, read through mem into x (x->note set,
// the rest zero). 0; -1 on a memory error (mem->error says it); -2 with x->why saying why the
// map or the ring's words cannot be believed.
int flight_read(const struct kev_mem *mem, uint64_t map_addr, struct dump *x);
// Which buffers hold events, in sequence order: closed ones with their slot count, each CPU's
// open one up to its write pointer. A buffer that is not what the table says is left out,
// counted (x->damaged) and its story kept (x->why).
void flight_pick(struct dump *x);
// The .kev: a header and a system page with what a halted ring tells (the CPUs, the counter's
// rate hz), the picked buffers (an open one closed with a BUFFER_END of its own), a loss note
// and the trailer. *events: how many were written. 0; -1 when a write failed; -2 after
// saying (on x->note) why the header could not be made.
int flight_write(FILE *out, const char *out_name, const struct dump *x, unsigned long long hz,
                 uint64_t *events);
void flight_free(struct dump *x);

#endif
