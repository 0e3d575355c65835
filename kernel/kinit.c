// SPDX-License-Identifier: MIT
// The kernel's state at boot (kinit.h): threads, ready queues, timers, processes, channels,
// synchronisation objects, interrupt lines, user timers, tracing. The contiguous allocator is
// not here: its region comes from the board (main.c) or the test.
#include <kernel/kinit.h>
#include <kernel/thread.h>
#include <kernel/sched.h>
#include <kernel/proc.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/irq.h>
#include <kernel/utimer.h>
#include <kernel/ktrace.h>

void kernel_state_init(void)
{
    kmemset(k_threads, 0, sizeof(k_threads));
    sched_init();
    ktimer_subsystem_init();
    proc_init();
    ipc_init();
    sync_init();
    irq_init();
    utimer_init();
    ktrace_init();
}
