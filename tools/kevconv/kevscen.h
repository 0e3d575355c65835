// SPDX-License-Identifier: MIT
// kevscen's script helpers (kevscen.c), shared with the scenarios in other files
// (kevscen_sync.c). Each event goes through the real producer at the time set by at().
#ifndef TOOLS_KEVSCEN_H
#define TOOLS_KEVSCEN_H

#include <stdint.h>

#include <kevhost/kev_capture.h>

extern struct trace_ring ring;
extern uint64_t emitted;                   // events written
void at(uint64_t t);                       // the clock for the next events
void th(unsigned state, unsigned pid);     // thread 1 of pid enters state (wide event)
void ev(unsigned cls, unsigned e, uint32_t a, uint32_t b);
void kc_in(unsigned call, uint32_t a);
void kc_out(unsigned call, int32_t ret);

// The "sync" scenario (kevscen_sync.c): its processes, one round at T, the deadlock at the
// end, and its expected results. events: write SYNC_WAIT and PRIO_CHANGE (the contract of
// docs/trace-events.md); timeout: the deadlock is broken by a timed-out MutexLock.
extern const char *const sync_pname[], *const sync_tname[];
extern const uint32_t sync_prio[];
extern const unsigned sync_nproc;
void sync_round(uint64_t T, int events);
void sync_deadlock(uint64_t T, int events, int timeout);
void sync_expect(unsigned rounds, int events, int timeout);

// The "events" scenario (kevscen_events.c): one of every event of the event table, with the
// fields each must decode to printed as expect-* lines.
void events_round(uint64_t T);

// The "emul" scenario (kevscen_emul.c): skipped tick periods and a run stretched by another
// CPU's turn, a round every 10000 cycles; its expected results for the capture's QEMU_CLOCK
// item (NULL: none).
void emul_round(uint64_t T);
void emul_expect(unsigned rounds, const char *clock);

#endif
