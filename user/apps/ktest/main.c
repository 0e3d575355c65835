// SPDX-License-Identifier: MIT
// ktest runner: runs every group, then exits with the failure count (0 = all passed).
#include "ktest.h"

uint64_t now_ms(void)
{
    return ClockTime() / 1000000u;
}

static KSTACK(stacks[8], 1024u);
_Static_assert(sizeof(stacks[0]) == TSTACK_SIZE, "ktest.h says the stacks' size");
static unsigned next_stack;

void *stack_get(void)
{
    return stacks[next_stack++ % 8];
}

// A created thread's first act pins it to CPU 0 (ktest.h), then it runs its function. Its
// function and argument wait in a slot of this ring until it starts (ktest's threads start
// long before 32 more are created). With several CPUs it starts on another CPU (the creator
// runs on CPU 0) and moves: the creator waits until it has (it asked, and no longer runs
// elsewhere), so that threads reach CPU 0's queue in the order they were created, as they
// do on one CPU (a FIFO check depends on it).
static struct {
    thread_fn fn;
    void *arg;
    volatile int asked;
} pinned[32];
static unsigned next_pinned;

static int pinned_entry(void *p)
{
    unsigned k = (unsigned)(uintptr_t)p;
    pinned[k].asked = 1;
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);
    return pinned[k].fn(pinned[k].arg);
}

// Whether thread tid of this process runs on a CPU other than 0 now (ThreadInfo's slots).
static bool runs_elsewhere(int tid)
{
    int pid = ProcSelf();
    for (unsigned slot = 0; slot < 64u; slot++) {
        struct kthread_info ti;
        if (ThreadInfo(slot, &ti) == 0 && ti.pid == pid && ti.tid == tid)
            return ti.state == THS_RUNNING && ti.cpu != 0;
    }
    return false;   // gone
}

#undef ThreadCreate
int ktest_thread_create(thread_fn fn, void *arg, void *stack, size_t stack_size, int prio,
                        int policy)
{
    unsigned k = next_pinned++ % 32u;
    uint32_t ncpu = 1;
    pinned[k].fn = fn;
    pinned[k].arg = arg;
    pinned[k].asked = 0;
    int tid = ThreadCreate(pinned_entry, (void *)(uintptr_t)k, stack, stack_size, prio, policy);
    if (tid < 0 || SysInfo(KSYSINFO_NCPUS, &ncpu) != 0 || ncpu < 2)
        return tid;
    while (!pinned[k].asked || runs_elsewhere(tid))
        ;
    return tid;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);   // on CPU 0, as its threads (ktest.h)
    printf("# ktest: pid %d, kernel tests\n", ProcSelf());
    test_sched();
    test_ipc();
    test_sync();
    test_time();
    test_late_tick();
    test_irq();
    test_proc();
    test_errors();
    test_trace();
    test_qnx_trace();
    test_smp();
    return tap_done("ktest");
}
