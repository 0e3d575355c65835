// SPDX-License-Identifier: MIT
// The core as the tracing layer and the D provider see it: the one header of the core they
// include (the layers: docs/ARCHITECTURE.md, held to the code by test_kernel_layers.sh). It
// gives the core's objects (struct thread and struct proc, whose fields they read; the core's
// functions on them are not theirs to call) and the few calls they make into the core:
//   the current thread   k_current (kernel/cpu.h)
//   process lookup       proc_by_pid, proc_find_app, proc_app_end
//   user memory          proc_can_read, proc_can_write, proc_copy_in, proc_copy_out,
//                        proc_copy_string
//   time                 kview_ns, kview_stall
//   memory               kview_alloc, kview_free: blocks of the contiguous pool
//   the other CPUs       kview_unmap_others, kview_hold_cpus (kernel/kunmap.h)
//   a thread's place     thread_rq_cpu, kview_chid, thread_ring: where it waits, its own
//                        user-event ring (struct thread's fields of several CPUs only)
//   a thread's name      ktrace_pid, ktrace_tid, ktrace_who: the trace's words for it
// None of them calls back into the tracing layer (the functions are kernel/kview.c's, or the
// leaves pmem.c, ktimer.c and kunmap.c), so no chain of calls leaves tracing and comes back.
// The core's own code calls the process and memory functions too.
#ifndef KERNEL_KVIEW_H
#define KERNEL_KVIEW_H

#include <kernel/thread.h>
#include <kernel/proc.h>
#include <kernel/pmem.h>
#include <kernel/ktimer.h>
#include <kernel/kunmap.h>
#include <kernel/ipc.h>

struct kapp_header;

// The image's programs (found at boot by proc_scan_apps): the one named name, or NULL; and
// the end of a process's program in flash (the next program's start, or the slots' end: a
// program larger than a slot takes the slots after its own; one slot from its base if it is
// none of them).
const struct kapp_header *proc_find_app(const char *name);
uint32_t proc_app_end(const struct proc *p);
// The process of pid (alive or a zombie), or NULL.
struct proc *proc_by_pid(int pid);
// Memory checks for kernel-call arguments and D's reads: [addr, addr+len) lies inside what the
// process may read (its RAM, its own flash, its maps) or write (its RAM). NULL p: nothing.
bool proc_can_read(const struct proc *p, uint32_t addr, uint32_t len);
bool proc_can_write(const struct proc *p, uint32_t addr, uint32_t len);
// Bounded copy of a NUL-terminated user string: its length, or -EFAULT or -EINVAL (too long).
int proc_copy_string(const struct proc *p, uint32_t uaddr, char *dst, size_t size);
// A kernel-call argument's bytes in or out: n bytes of the process's memory at uaddr copied
// to dst, or src's copied there; 0, or -EFAULT (nothing copied) where the process may not
// read (in) or write (out) all of them.
static inline int proc_copy_in(const struct proc *p, void *dst, uint32_t uaddr, uint32_t n)
{
    if (!proc_can_read(p, uaddr, n))
        return -EFAULT;
    kmemcpy(dst, (const void *)(uintptr_t)uaddr, n);
    return 0;
}
static inline int proc_copy_out(const struct proc *p, uint32_t uaddr, const void *src, uint32_t n)
{
    if (!proc_can_write(p, uaddr, n))
        return -EFAULT;
    kmemcpy((void *)(uintptr_t)uaddr, src, n);
    return 0;
}

// Cycles of the board's counter as nanoseconds.
static inline uint64_t kview_ns(uint64_t cycles)
{
    return ktimer_cycles_to_ns(cycles);
}

// Spins n tick periods with the kernel held (KTRACE_STALL: a stall the tests provoke).
static inline int kview_stall(uint32_t n)
{
    return ktimer_stall_periods(n);
}

// A block of `size` bytes, `align` aligned, from the contiguous pool (NULL: none that large);
// its return; the largest block the pool could give now.
static inline void *kview_alloc(size_t size, size_t align)
{
    return pmem_alloc(&k_pmem, size, align);
}

static inline bool kview_free(void *p)
{
    return pmem_free(&k_pmem, p);
}

static inline size_t kview_largest_free(void)
{
    return pmem_largest_free(&k_pmem);
}

// Several CPUs (kernel/kunmap.h; nothing with one): a map of [base, base + size) taken back
// from every CPU's table before its memory is reused, and every other CPU held out of its
// threads while the kernel writes programs' text.
static inline void kview_unmap_others(uint32_t base, uint32_t size)
{
    kunmap_others(base, size);
}

static inline void kview_hold_cpus(void)
{
    kcpus_hold();
}

// The multiprocessor fields (several CPUs only: netduinoplus2's kernel RAM has no room for
// them): the CPU whose ready queue holds a READY t (sched.c), and t's own user-event ring
// (kernel/kuring.c; NULL with one CPU, where a process's threads share its ring).
#if KMAX_CPUS > 1
static inline unsigned thread_rq_cpu(const struct thread *t) { return t->rq_cpu; }
static inline void thread_set_rq_cpu(struct thread *t, unsigned cpu) { t->rq_cpu = (uint8_t)cpu; }
static inline struct kuring *thread_ring(struct thread *t) { return &t->ur; }
#else
static inline unsigned thread_rq_cpu(const struct thread *t) { (void)t; return 0; }
static inline void thread_set_rq_cpu(struct thread *t, unsigned cpu) { (void)t; (void)cpu; }
static inline struct kuring *thread_ring(struct thread *t) { (void)t; return NULL; }
#endif

// The channel a RECEIVE- or SEND-blocked t waits on (0: none).
static inline int kview_chid(const struct thread *t)
{
    return t->chan ? t->chan->chid : 0;
}

// The payload words naming a thread (thread.h: kept with its tid, one load each), and the
// thread as one word, unique across processes (docs/trace-events.md `who`; D's arg0): built
// once with the thread's ids (thread_set_trace_ids).
static inline uint32_t ktrace_pid(const struct thread *t)
{
    return t->trace_pid;
}

static inline uint32_t ktrace_tid(const struct thread *t)
{
    return t->trace_tid;
}

static inline uint32_t ktrace_who(const struct thread *t)
{
    return t->trace_who;
}

#endif
