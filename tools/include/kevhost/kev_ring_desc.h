// SPDX-License-Identifier: MIT
// The kernel's two published descriptions of its trace ring, parsed and checked in one place
// (tools/common/kev_ring_desc.c) before a reader believes any offset in them: the flight
// recorder's map (trace/kev_flight.h, for kevdump's halted read) and the probe block
// (trace/kev_probe.h, for kevprobe's running one). Both become one struct kev_ring_map
// (trace/kev_ring_map.h), whose layout one function checks for both: each stride in its range,
// each field inside its entry and apart from the others. The map's own fields (the ring's
// control structure) are checked the same way. A refusal is a sentence naming the field and
// its value; what each reader then trusts is docs/hostile.md's "What the ring's readers trust".
#ifndef KEVHOST_KEV_RING_DESC_H
#define KEVHOST_KEV_RING_DESC_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev_flight.h>
#include <trace/kev_ring_map.h>

// The bytes a reader fetches for the map: its u32s and the two addresses at their largest.
#define KEV_FLIGHT_READ_BYTES (KEV_FLIGHT_ADDRS + 16u)
// The most buffers and the largest control structure a map may describe (the kernels here:
// 64 buffers at most, structures of 2.5 to 4 KB).
#define KEV_FLIGHT_MAX_BUFS 1024u
#define KEV_FLIGHT_MAX_RING (256u * 1024u)

// The map's n bytes (as read from the target, KEV_FLIGHT_READ_BYTES at most) into *f,
// checked: NULL, or why it cannot be believed (a sentence naming the field; f then partly
// filled). kev_ring_map_flight(f, nbufs) is then a layout kev_ring_map_refused accepts.
const char *kev_flight_refused(const uint8_t *b, size_t n, struct kev_flight *f);

// The bytes of the ring's control structure a checked map reads: every field it names lies
// below this (the buffers' table and the CPUs' words included).
size_t kev_flight_ring_bytes(const struct kev_flight *f);

// The ring's layout m (either description's), checked: the buffers' table stride (14 to 64)
// and the CPUs' words' (16 to 512), each field m names inside its entry and apart from the
// others. NULL, or a sentence naming the field.
const char *kev_ring_map_refused(const struct kev_ring_map *m);

#endif
