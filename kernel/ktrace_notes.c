// SPDX-License-Identifier: MIT
// The trace's notifications (kernel/ktrace.h): a buffer that reached its high-water mark
// (ktrace_port_notify, from the ring's port), the ring that stopped itself (ktrace_port_stopped),
// a D firing on the shared side that ran exit() (ktrace_kdt_exited), a quiet ring's stop for
// its owner (ktrace_notes_wake: the pulse of no buffer, KTRACE_NOTE_NOBUF). Each is queued on its
// CPU, with no lock (the ring may be written without the kernel lock), and delivered at that
// CPU's kernel exit under the lock (ktrace_exit_notify, ktrace.c; the core raises the synthetic
// interrupt for each buffer). ktrace_hot.notes has a bit per CPU with something to deliver.
// The bottom of the tracing layer: it calls nothing above it.
#include <kernel/ktrace.h>
#include <kernel/smp.h>

// The buffers of each CPU's notes, and those that found no room (the logger still finds
// the buffer: TAKEBUFFER takes any full one).
static struct {
    uint16_t idx;
    uint32_t seq;
} notes[KMAX_CPUS][TRACE_MAX_BUFS];
static uint16_t notes_n[KMAX_CPUS];
static uint32_t notes_overflow[KMAX_CPUS];

static void notes_mark(unsigned cpu)
{
    if (KSMP)
        __atomic_fetch_or(&ktrace_hot.notes, 1u << cpu, __ATOMIC_RELAXED);
    else
        ktrace_hot.notes = 1u << cpu;
}

// A note's buffer index when it names none (a quiet ring's stop): no ring has that many.
#define KTRACE_NOTE_NOBUF 0xffu
_Static_assert(TRACE_MAX_BUFS <= KTRACE_NOTE_NOBUF, "a buffer index is never the no-buffer note");

void ktrace_port_notify(struct trace_ring *r, unsigned bufidx, unsigned seq)
{
    (void)r;
    unsigned cpu = cpu_id();
    if (notes_n[cpu] < ARRAY_SIZE(notes[cpu])) {
        notes[cpu][notes_n[cpu]].idx = (uint16_t)bufidx;
        notes[cpu][notes_n[cpu]].seq = seq;
        notes_n[cpu]++;
    } else {
        notes_overflow[cpu]++;  // the logger still finds the buffer: TAKEBUFFER takes any full one
    }
    notes_mark(cpu);
}

// The ring stopped itself (FILL): the hooks follow at this CPU's exit (ktrace_exit_notify's
// ktrace_sync, under the kernel lock). Until then an inline hook finds no room in the stopped
// ring and its slow path sees the class off: nothing is recorded or counted meanwhile.
void ktrace_port_stopped(struct trace_ring *r)
{
    if (r->tr_quiet)
        ktrace_notes_wake();    // the logger of a probe's capture waits for nothing else
    notes_mark(cpu_id());
}

void ktrace_notes_wake(void)
{
    ktrace_port_notify(NULL, KTRACE_NOTE_NOBUF, 0);
}

// A D firing on this CPU's shared side ran exit(): the probes go off at its exclusive exit
// (kdt_settle in ktrace_exit_notify), as the hooks follow a ring that stopped itself.
void ktrace_kdt_exited(void)
{
    notes_mark(cpu_id());
}

void ktrace_notes_reset(void)
{
    kmemset(notes_n, 0, sizeof(notes_n));
}

void ktrace_notes_raise(ktrace_raise_fn raise)
{
    unsigned cpu = cpu_id();
    // Raising the interrupt may itself emit events that fill a buffer: keep going until the
    // queue is empty.
    for (unsigned i = 0; i < notes_n[cpu]; i++)
        raise(KIRQ_TRACE, (int32_t)(notes[cpu][i].seq << 8 | notes[cpu][i].idx));
    notes_n[cpu] = 0;
    if (KSMP)
        __atomic_fetch_and(&ktrace_hot.notes, ~(1u << cpu), __ATOMIC_RELAXED);
    else
        ktrace_hot.notes = 0;
}
