// SPDX-License-Identifier: MIT
// kt_fault: commits the fault ProcArg() names, so that the tests can check the kernel kills
// the process, reports it, and keeps running. See t_proc.c for the list.
#include <kern.h>
#include <board_user.h>
#include <uapi/ktrace.h>
#include <uapi/kdtrace.h>
#include <trace/kev.h>
#include "ring_spy.h"

static KSTACK(stack2, 512);
static KSTACK(stack3, 2048);     // mode 13's reader

// user/arch/<arch>/fault_arch.c
void fault_exec_at(void *ram);
void fault_bad_stack_call(void);
void fault_breakpoint(void);

static int fault_thread(void *arg)
{
    (void)arg;
    *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = 1;
    return 0;
}

// Mode 13 (kt_smp's check_freed_ring, several CPUs): this process owns a trace ring, a second
// thread bound to CPU 2 reads all of it at EL0 without end and without a kernel call, and the
// main thread, on CPU 1, frees the ring. The reader must fault (SIGSEGV) once it is freed; if
// it ever reads SPY_PATTERN, the events kt_smp writes into the next ring (the same memory), it
// ends the process with status SPY_SAW. 1..4: could not set up (4: nobody ended it).
static volatile uint32_t spy_passes;
static const volatile uint32_t *spy_ring;

static int spy_reader(void *arg)
{
    (void)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << 2));
    for (;;) {                          // no kernel call from here on
        for (uint32_t i = 0; i < SPY_BUFS * KEV_BUF_BYTES / 4u; i++)
            if (spy_ring[i] == SPY_PATTERN)
                ProcExit(SPY_SAW);
        spy_passes++;
    }
}

// Owns a trace ring of nbufs buffers and finds where it is mapped (a buffer taken and given
// back tells): its first word, or NULL (*why: 1, no ring; 2, no buffer taken).
static const volatile uint32_t *own_ring(uint32_t nbufs, int *why)
{
    struct ktrace_buffer b;
    *why = 1;
    if (TraceEvent(KTRACE_ALLOCBUFFER, nbufs, 0, 0) != (int)nbufs)
        return NULL;
    TraceEvent(KTRACE_ADDALLCLASSES, 0, 0, 0);
    TraceEvent(KTRACE_STARTNOSTATE, 0, 0, 0);
    TraceEvent(KTRACE_FLUSHBUFFER, 0, 0, 0);
    int r = TraceEvent(KTRACE_TAKEBUFFER, (uint32_t)(uintptr_t)&b, 0, 0);
    TraceEvent(KTRACE_STOP, 0, 0, 0);
    *why = 2;
    if (r < 0)
        return NULL;
    TraceEvent(KTRACE_RELEASEBUFFER, b.index, 0, 0);
    return (const volatile uint32_t *)(uintptr_t)(b.addr - b.index * KEV_BUF_BYTES);
}

static int ring_spy(void)
{
    int why;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << 1));
    spy_ring = own_ring(SPY_BUFS, &why);
    if (!spy_ring)
        return why;
    if (ThreadCreate(spy_reader, NULL, stack3, sizeof(stack3), 50, 0) < 0)
        return 3;
    while (spy_passes < 2)
        ThreadSleep(1000000);
    TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    ThreadSleep(1000000000ull);         // the reader faults, or kt_smp kills this process
    return 4;
}

// Mode 14 (ktest's processes): a D object the kernel refuses must not show through in the
// next ring made of its memory. It loads an object of junk words (REFUSED_PATTERN: the
// verifier refuses it, after the kernel has copied it into the block it allocated), then owns
// a trace ring (the pool's first fit: the same memory) and reads all of it. 0: none of the
// pattern there (42, ktest's normal exit); REFUSED_SEEN: some; 1..3: could not set up.
#define REFUSED_PATTERN 0xd0b1ec75u
#define REFUSED_SEEN 77
#define REFUSED_BUFS 2u
static uint32_t refused_obj[512];

static int refused_object(void)
{
    for (unsigned i = 0; i < sizeof(refused_obj) / 4u; i++)
        refused_obj[i] = REFUSED_PATTERN;
    static char err[64];
    struct kdt_load l = {
        .obj = (uint32_t)(uintptr_t)refused_obj, .objlen = sizeof(refused_obj),
        .bufsize = 1024, .aggsize = 1024, .dynvarsize = 1024, .specsize = 0,
        .errbuf = (uint32_t)(uintptr_t)err, .errlen = sizeof(err),
    };
    if (kresult(KCALL4(KC_DTrace, KDT_LOAD, (uint32_t)(uintptr_t)&l, 0, 0)) >= 0)
        return 3;                       // it was meant to be refused
    int why;
    const volatile uint32_t *ring = own_ring(REFUSED_BUFS, &why);
    if (!ring)
        return why;
    int seen = 0;
    for (uint32_t i = 0; i < REFUSED_BUFS * KEV_BUF_BYTES / 4u; i++)
        seen |= ring[i] == REFUSED_PATTERN;
    TraceEvent(KTRACE_DEALLOCBUFFER, 0, 0, 0);
    return seen ? REFUSED_SEEN : 42;
}

int main(void)
{
    volatile uint32_t *p;

    switch (ProcArg()) {
    case 1:
        *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = 0xdead;
        break;
    case 2:
        p = (volatile uint32_t *)APP_RAM_BASE;      // slot 0's RAM (not ours)
        return (int)*p;
    case 3: {
        static uint32_t code_in_ram[2];
        fault_exec_at(code_in_ram);
        break;
    }
    case 4:
        fault_bad_stack_call();
        break;
    case 5: {
        volatile int zero = 0;
#ifdef __aarch64__
        // AArch64 division by zero does not trap (the quotient is 0): the check a compiler
        // inserts (-fsanitize=integer-divide-by-zero -fsanitize-trap) traps instead (brk).
        if (zero == 0)
            __builtin_trap();
#endif
        return 10 / zero;
    }
    case 6:
        *(volatile uint32_t *)BOARD_OTHER_DEV_ADDR = 'x';    // e.g. the console UART
        break;
    case 7:
        ThreadCreate(fault_thread, NULL, stack2, sizeof(stack2), 0, 0);
        ThreadSleep(1000000000ull);
        return 1;
    case 8:
        return 42;
    case 9: {
        volatile uint32_t *volatile code = (volatile uint32_t *)BOARD_CODE_ADDR;
        *code = 1;
        break;
    }
    case 10:                // no fault: spins until killed (kt_smp kills it on another CPU)
        for (volatile int forever = 1; forever;)
            ;
        break;
    case 11:
        return (int)*(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR;
    case 12: {
        uint32_t code_on_stack[2];
        fault_exec_at(code_on_stack);
        break;
    }
    case 13:                // a ring's reader on another CPU when it is freed (kt_smp)
        return ring_spy();
    case 14:                // a refused D object's memory, read back through the next ring
        return refused_object();
    case 15:
        fault_breakpoint();
        break;
    }
    return 0;
}
