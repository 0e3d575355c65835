// SPDX-License-Identifier: MIT
// The profile timer: each CPU's own one-shot interrupt at a time of the board's counter
// (board_cycles()), what the profile provider's probes (D's profile-N and tick-N) and the
// capture's stack samples (tracelogger -p) run from, at their own rates, apart from the
// kernel's tick (kernel/kprof.c; docs/profiling.md "The profile timer"). Its interrupt is a
// KENTRY_PROFILE kernel entry on the CPU it belongs to.
//
// Implemented by whoever owns the timer: the arch where it is the processor's own
// (kernel/arch/aarch64/irq_timer.c: each CPU's virtual timer compare, shared with the tick;
// kernel/arch/x86/lapic.c: the local APIC's timer), the board where it is a device
// (boards/mps2-an385/timer_cmsdk.c: the CMSDK dual timer). A board with none links the weak
// defaults of kernel/kprof.c (ptimer_present() false), and the profile provider then runs
// from the tick: its probes fire at the first tick at or after their times, once.
#ifndef KERNEL_PTIMER_H
#define KERNEL_PTIMER_H

#include <kernel/kernel.h>

// Whether this board has the timer (a constant for a board, asked once at boot).
bool ptimer_present(void);

// CPU cpu's timer interrupts it once at counter time `at` (0: not at all; a time already
// past: as soon as it can). Called inside the kernel, interrupts off; for the calling CPU it
// holds from the return, for another CPU from that CPU's next tick at the latest (its next
// timer interrupt writes its compare value; until then it may fire once at the time it had,
// as a KENTRY_PROFILE entry with nothing due, which is harmless).
void ptimer_arm(unsigned cpu, uint64_t at);

#endif
