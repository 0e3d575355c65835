// SPDX-License-Identifier: MIT
// TraceEvent(): the kernel call that controls tracing, QNX-style. TraceEvent(cmd, a, b, c)
// returns >= 0, or -1 with errno (EINVAL bad argument, EPERM not allowed (the ring is another
// process's and it did not share its control: KTRACE_SHARECONTROL), ECANCELED no
// buffers, EBUSY not while tracing runs, EEXIST buffers already there, ENOMEM no contiguous
// block, EAGAIN nothing to take). Commands that control tracing need a program built with
// KAPP_F_TRACE; inserting user events is open to every process.
// The event classes and numbers are those of trace/include/trace/kev.h.
#ifndef UAPI_KTRACE_H
#define UAPI_KTRACE_H

#include <stdint.h>

enum ktrace_cmd {
    KTRACE_QUERYVERSION = 0,    // -> (major << 16) | minor of the event format
    KTRACE_ALLOCBUFFER = 1,     // (nbufs): the ring, mapped read-only into the caller
    KTRACE_DEALLOCBUFFER = 2,
    KTRACE_START = 3,           // writes a snapshot of every process and thread first
    KTRACE_STARTNOSTATE = 4,
    KTRACE_STOP = 5,
    KTRACE_FLUSHBUFFER = 6,     // close the current buffer so the logger can take it
    KTRACE_QUERYEVENTS = 7,     // (struct ktrace_query *)
    KTRACE_ADDALLCLASSES = 8,
    KTRACE_DELALLCLASSES = 9,
    KTRACE_ADDCLASS = 10,       // (class)
    KTRACE_DELCLASS = 11,
    KTRACE_ADDEVENT = 12,       // (class, event)
    KTRACE_DELEVENT = 13,
    KTRACE_SETALLCLASSESFAST = 14,
    KTRACE_SETALLCLASSESWIDE = 15,
    KTRACE_SETCLASSFAST = 16,   // (class)
    KTRACE_SETCLASSWIDE = 17,
    KTRACE_SETEVENTFAST = 18,   // (class, event)
    KTRACE_SETEVENTWIDE = 19,
    KTRACE_SETCLASSPID = 20,    // (class, pid)
    KTRACE_SETCLASSTID = 21,    // (class, tid)
    KTRACE_CLRCLASSPID = 22,    // (class)
    KTRACE_CLRCLASSTID = 23,
    KTRACE_SETEVENTPID = 24,    // (class, event, pid)
    KTRACE_SETEVENTTID = 25,    // (class, event, tid)
    KTRACE_CLREVENTPID = 26,    // (class, event)
    KTRACE_CLREVENTTID = 27,
    KTRACE_INSERTSUSEREVENT = 28,   // (code, word, word): a 2-word user event
    KTRACE_INSERTCUSEREVENT = 29,   // (code, const uint32_t *buf, nwords)
    KTRACE_INSERTUSRSTREVENT = 30,  // (code, const char *string)
    KTRACE_SETRINGMODE = 31,        // flight recorder (policy ring)
    KTRACE_SETLINEARMODE = 32,      // back to the switch policy
    KTRACE_SETPOLICY = 33,          // (enum ktrace_policy)
    KTRACE_TAKEBUFFER = 34,         // (struct ktrace_buffer *): a full buffer for the logger
    KTRACE_RELEASEBUFFER = 35,      // (index)
    KTRACE_BENCH = 36,              // (kind, count): cost measurements, see kbench
    KTRACE_SHARECONTROL = 37,       // (1 | 0): the owner lets other KAPP_F_TRACE processes
                                    // start, stop and filter its capture (or stops letting)
    KTRACE_USERRING = 38,           // (struct kuser_ring *, nrec): the caller's user-event
                                    // ring (below); nrec a power of two, 0 unregisters
    KTRACE_STACKSAMPLE = 39,        // (hz): record the running thread's stack as a SYSTEM
                                    // STACK event hz times a second on each CPU (1..5000 from
                                    // the profile timer; 1..1000 at the tick of a board without
                                    // one), 0 stops (docs/trace-events.md); returns the rate
    KTRACE_USERDRAIN = 40,          // (): nothing but the kernel entry, which drains the
                                    // caller's user-event rings into the trace; on several
                                    // CPUs it runs on the shared side of the kernel lock (no
                                    // exclusive entry): the library's call for a full ring
    KTRACE_PROBE = 41,              // (KTRACE_PROBE_*, arg): the probe block for a reader
                                    // outside the target (trace/kev_probe.h), the ring's owner
    KTRACE_WITHHOLDCLASSES = 42,    // (mask of KEV_C_* bits): the ring's owner keeps these
                                    // classes off whatever ADDCLASS or ADDALLCLASSES say, now
                                    // and after (a passive logger's -F: the program that starts
                                    // the capture cannot turn them on); 0 withholds none
    KTRACE_INCIDENT = 43,           // (KTRACE_INCIDENT_*, arg): the incident record an earlier
                                    // boot left (docs/incidents.md), below
    KTRACE_NCMDS
};

// Overrun policies (docs/trace-api.md): the numbers are trace_ring's TRACE_POLICY_*.
enum ktrace_policy {
    KTRACE_POLICY_SWITCH = 0,
    KTRACE_POLICY_OVERWRITE = 1,
    KTRACE_POLICY_RING = 2,
    KTRACE_POLICY_FILL = 3,
};

// A buffer handed to the logger: its slots are readable at addr (the read-only mapping).
struct ktrace_buffer {
    uint32_t index;
    uint32_t seq;
    uint32_t nslots;
    uint32_t addr;
};

struct ktrace_query {
    uint32_t running;
    uint32_t nbufs;
    uint32_t policy;
    uint32_t buffers;       // buffers started so far
    uint64_t recorded;      // events recorded, all CPUs
    uint64_t dropped;       // events that found no buffer
    uint64_t overwritten;   // events lost to overwritten buffers
    uint64_t generated;     // recorded + dropped + overwritten
    uint32_t ncpus;         // CPUs online; the same counts for each of the first
    uint32_t rejected;      // records of processes' user-event rings the kernel refused this
                            // capture (bad codes, a garbage head): not events, never lost;
                            // KTRACE_QUERY_CPUS CPUs' counts follow
    struct ktrace_cpu_counts {
        uint64_t recorded, dropped, overwritten;
    } cpu[8];
};
#define KTRACE_QUERY_CPUS 8

// KTRACE_INCIDENT's operations: the record an earlier boot's D trigger left in the board's
// incident region (trace/kev_incident.h), held until a reader has written it out.
#define KTRACE_INCIDENT_QUERY 0u    // () -> its bytes (header and body), 0 when none is held
#define KTRACE_INCIDENT_READ  1u    // (struct ktrace_incident_read *) -> bytes copied
#define KTRACE_INCIDENT_DONE  2u    // (its seq): written out; kept, no longer announced
struct ktrace_incident_read {
    uint32_t off, buf, len;         // from byte off of the record, len bytes into buf
};

// KTRACE_PROBE's operations (docs/live.md, "The probe path"). The ring goes quiet (no buffer
// notified) and a reader outside the target takes the buffers through the kernel's probe block.
#define KTRACE_PROBE_PUBLISH  0u    // (struct ktrace_probe_pub *): before or after START
#define KTRACE_PROBE_STOPPED  1u    // (struct ktrace_probe_end *): after STOP, for good
#define KTRACE_PROBE_HOSTDONE 2u    // () -> 1 once the reader has read the stopped capture
#define KTRACE_PROBE_STATUS   3u    // () -> buffers started << 1 | running: KTRACE_QUERYEVENTS's
                                    // two words without its counts (no CPU is waited for)
#define KTRACE_PROBE_WORK     4u    // (struct ktrace_probe_work *): what the kernel did for the
                                    // reader since the capture was published
// The quiet ring notifies no buffer: the owner's KIRQ_TRACE pulse comes only when tracing
// stops (KTRACE_STOP by anyone, the fill policy) and, with wake_bufs, as the buffer that makes
// wake_bufs started begins (the logger's -n): the logger blocks until one comes.
struct ktrace_probe_pub {
    uint32_t head, head_len;    // the .kev header's text, in the caller's RAM, kept there
    uint32_t page, page_len;    // the system page that follows it
    uint32_t flags;             // KEV_PROBE_F_*
    uint32_t wake_bufs;         // a pulse as this many buffers have started (0: none)
};
struct ktrace_probe_work {
    uint32_t flushes;           // the reader's flush requests the kernel's tick served
    uint32_t cycles_lo, cycles_hi;  // the board's cycles in them and in the buffer starts
                                    // they caused (a flushed CPU's next switch)
    uint32_t cleans;            // data cache cleans for the reader (trace_port_publish)
    uint32_t clean_lo, clean_hi;    // the board's cycles in them (none without a data cache;
                                    // those of a buffer start a flush caused are in both)
};
struct ktrace_probe_end {
    uint32_t stop_lo, stop_hi;  // the time the trailer's loss note carries
    uint32_t trl_flags;         // the trailer's flags the logger knows
};

// A process's user-event ring (KTRACE_USERRING), in the process's own RAM: it inserts 2-word
// user events with plain stores, the kernel drains them into the trace at the process's next
// traced kernel entry (kernel/kuring.c has the protocol). Only the process can write it, so
// garbage there loses or corrupts its own events and nothing else.
struct kuser_rec {
    uint32_t tag;   // (sequence & 0xffff) << 16 | event code; stored last: the commit
    uint32_t ts;    // low word of the cycle counter when the process has one, else 0
    uint32_t a, b;
};

struct kuser_ring {
    uint32_t head;  // records reserved so far (the process's, atomic increment)
    uint32_t tail;  // records the kernel consumed (the kernel's copy; advisory here)
    uint32_t nrec;  // ring size, a power of two; the kernel writes 0 when it gives the ring up
    uint32_t corrupt;   // set by the kernel when it found the ring inconsistent; or
                        // KUSER_RING_FORGOTTEN (below)
    struct kuser_rec rec[];
};
// `corrupt` of a thread's own ring (KTRACE_USERRING_THREAD) whose thread ended: the kernel
// drained it and forgot it (nrec 0), its last word on the ring; it touches it again only when
// a thread registers it anew, so the library may give it to a thread created from then on.
#define KUSER_RING_FORGOTTEN 2u
#define KUSER_RING_MAX 1024u
// KTRACE_USERRING's third argument: 0 the process's ring (shared by its threads), or this
// value: the calling thread's own ring (boards with several CPUs; -EINVAL on one).
#define KTRACE_USERRING_THREAD 1u

// The synthetic interrupt a logger attaches to (InterruptAttachEvent) to hear "buffer ready":
// its pulse value is (sequence << 8) | buffer index.
#define KIRQ_TRACE 32
// Interrupt numbers in INT trace events for exceptions that are not device lines.
#define KIRQ_TICK  0x100
// A CPU's own timer interrupt in a period whose kernel tick another CPU took (SMP,
// KENTRY_CPUTICK): its round-robin look, stack sample and profile-N, and sched:::tick there.
#define KIRQ_CPUTICK 0x101
// A reschedule IPI (SMP): another CPU made ready a thread this CPU should run, or ended its
// thread's slice; the entry only chooses again. Its INT pair precedes that choice's events.
#define KIRQ_IPI 0x102

// KTRACE_BENCH kinds.
#define KTRACE_BENCH_LOOP     0   // the measuring loop alone
#define KTRACE_BENCH_DISABLED 1   // a hook whose class is off
#define KTRACE_BENCH_SIMPLE   2   // a simple event (class USER must be on)
#define KTRACE_BENCH_COMBINE  3   // a 4-word combine event (class USER must be on)
// The kernel spins, interrupts masked, for `count` tick periods by the cycle counter (at most
// KTRACE_BENCH_STALL_MAX): a late tick on purpose, for the test of its accounting
// (docs/timers.md, ktest's t_tick.c).
#define KTRACE_BENCH_STALL    4
#define KTRACE_BENCH_STALL_MAX 16u
// The decisions' hooks as their sites run them (SYSTEM on: the event; off: the hook alone):
// a tick's mark and its exit's test into the same thread (REMAIN_CPU), a CPU's interrupt of
// CPU 0 (SURRENDER), a kill of the caller (SIGNAL_SEND), a choice's taking of the caller from
// its own CPU's queue as from another's (STEAL: the hook a steal runs, its queue's CPU noted).
#define KTRACE_BENCH_REMAIN   5
#define KTRACE_BENCH_SURRENDER 6
#define KTRACE_BENCH_SIGNAL   7
// The traced tick's look at a probe's flush request word, nothing asked (ktrace_probe_tick).
#define KTRACE_BENCH_PROBE_TICK 8
// One buffer's 16 KB made visible to a probe that reads around the data cache, as a quiet ring
// does before it marks the buffer FULL (trace_port_publish: nothing without a cache, where
// the call returns 1 and runs no loop: there is no cost to time).
#define KTRACE_BENCH_CLEAN    9
// A steal's hook as the steal site runs it (the queue's CPU noted, then STEAL).
#define KTRACE_BENCH_STEAL    10
// A simple event while every FULL buffer is claimed by a host reader (each host word the claim
// of the buffer's sequence, trace/kev_probe.h): the ring's words for the loop's length only.
// With no buffer free, each event is a dropped one: the cost of a drop when the host holds all.
#define KTRACE_BENCH_CLAIMED  11
// The most iterations one KTRACE_BENCH call runs (EINVAL beyond): the kernel is not
// preemptible inside it, so a call stays near 1-4 ms on a 25 MHz Cortex-M3.
#define KTRACE_BENCH_MAX      4096u

#endif
