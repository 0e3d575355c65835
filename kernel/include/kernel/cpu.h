// SPDX-License-Identifier: MIT
// The processors: one struct cpu per CPU the kernel can run on (KMAX_CPUS, from the board's
// BOARD_MAX_CPUS; 1 on the boards that have one core, where everything here folds to constants).
// Each CPU runs one thread at a time (its `current`) and has an idle thread of its own.
//
// LOCKING. The kernel is entered with interrupts masked and runs under a big-reader lock
// (kernel/klock.h): exclusive for every entry but the message fast path, which runs shared
// with fine-grained locks. A struct cpu's fields are its own CPU's, except `kicked`, which
// other CPUs set before they send it an inter-processor interrupt, `remap`, which another
// CPU's exclusive entry sets (and `lock_waiting`, which it reads: kernel/kunmap.h), and
// `current`, which other CPUs read without a lock (its CPU stores it with release order at its
// choice: sched.c, R3). A thread's saved context belongs
// to the CPU it runs on while it is RUNNING (t->cpu): no other CPU may free or reuse it then
// (thread_destroy defers to that CPU, see thread.c).
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <stdint.h>
#include <stdbool.h>

#ifndef KMAX_CPUS
#define KMAX_CPUS 1
#endif

// KCPU_LINE_ALIGNED: with several CPUs, an object that different CPUs write on their hot paths
// (a CPU's own struct cpu, a thread, a channel, a sync object) starts a cache line of its own,
// so that two CPUs doing independent work never write one line (false sharing: the line
// bounces between their caches, and under QEMU between its host threads' cores). KCACHE_LINE:
// the largest data-cache line of the multiprocessor ports' CPUs (64 bytes on the Cortex-A53,
// and on the x86-64 hosts QEMU runs on); as trace_ring.h's TRACE_CACHE_LINE. Nothing on the
// one-CPU boards. docs/smp.md, "Cache lines": a line written by two CPUs on every entry is a
// coherence miss per store on real cores.
#ifndef KCACHE_LINE
#define KCACHE_LINE 64u
#endif
#if KMAX_CPUS > 1
#define KCPU_LINE_ALIGNED __attribute__((aligned(KCACHE_LINE)))
#else
#define KCPU_LINE_ALIGNED
#endif

struct thread;
struct trace_cpu;
struct kev_slot;

struct cpu {
    struct thread *current;     // offset 0: the exception entry code loads it (arch entry.S)
    uint32_t id;                // offset 8 on 64-bit arches (entry code finds its stacks by it)
    bool yield_pending;         // the running thread used up its slice (or yielded)
    bool kicked;                // an IPI asking this CPU to reschedule is on its way
    bool online;
    bool stack_at_interrupt;    // profile-N / tick-N fire here in a kernel thread: stack( ) is
                                // the pc it was interrupted at (kernel/kstack.c, kdtrace.c)
#ifdef KCPU_USER_ROOT
    uintptr_t user_root;        // the translation root its user threads run on, set by the
                                // arch's address-space switch and loaded at every return to a
                                // thread (AArch64: TTBR0_EL1 with its ASID, mmu.c, entry.S;
                                // a port that wants it defines KCPU_USER_ROOT in its arch.mk):
                                // here, in this CPU's line, not in an array of the CPUs' roots
                                // that one CPU's switch wrote while the others read it
    uintptr_t entry_root;       // the root a kernel entry moves to, 0 to stay on the table
                                // the thread ran on; set with user_root, for it (AArch64: the
                                // kernel's table when user_root's has a map, read-only for EL1
                                // too; mmu.c "The kernel on a user table")
#endif
    struct thread *idle;        // this CPU's idle thread (pinned here)
    uintptr_t trace_ran;        // the thread its last traced exit returned to, bit 0 set
                                // while a D program runs: any other thread is a switch's end,
                                // and with the bit every exit takes the out-of-line path
                                // (ktrace_exit_end, ktrace.c); here, in this CPU's line,
                                // written by this CPU at every switch
    uint64_t ipis;              // reschedule IPIs received
    bool kick_check;            // this entry may have made work for another CPU (sched.c)
    bool rq_held;               // a shared entry holds its CPU's ready-queue lock (sched.c)
#if KMAX_CPUS > 1
    bool lock_waiting;          // waits for the kernel lock (either side; its slow paths)
    bool remap;                 // another CPU freed memory this one's user table may map:
                                // switch again once it has the lock (kernel/kunmap.h)
#endif
    uint32_t locks_held;        // ranks held, bit per rank (KLOCK_CHECK images: klock.h)
    uint64_t shared_kcalls;     // kernel calls finished in shared mode (k_kcall_count: the rest)
    uint64_t context_switches;  // this CPU's choices of another thread than it ran (sched.c)
#if KMAX_CPUS > 1
    uint64_t ticks_shared;      // tick periods this CPU counted on the shared side (ktimer.c)
#endif
#ifdef KLOCK_STATS
    // The run-queue lock's contention, in KLOCK_STATS images only (sched.c, SysInfo
    // KSYSINFO_RUNQ_*): takes in shared mode, takes that found it held by another CPU, and the
    // counter cycles it was held from the take to the release.
    uint64_t runq_takes, runq_found_taken, runq_hold_cycles, runq_taken_at;
#endif
#if KMAX_CPUS > 1
    struct trace_cpu *ktrace_cpu; // this CPU's state in the kernel's trace ring (set by
                                  // ktrace_init): the trace fast path's one load (trace_port)
    struct kev_slot **ktrace_limit; // its tc_limit's address, loaded with it as one pair
                                    // (the ordered load's operand, trace_port_kernel.h)
#endif
} KCPU_LINE_ALIGNED;            // (its fields are written on every entry: a line per CPU)

// Several CPUs: the tick periods CPU c counted on the shared side (ktimer.c; none with one).
#if KMAX_CPUS > 1
static inline void cpu_count_ticks_shared(struct cpu *c, unsigned n) { c->ticks_shared += n; }
static inline uint64_t cpu_ticks_shared(const struct cpu *c) { return c->ticks_shared; }
#else
static inline void cpu_count_ticks_shared(struct cpu *c, unsigned n) { (void)c, (void)n; }
static inline uint64_t cpu_ticks_shared(const struct cpu *c) { (void)c; return 0; }
#endif

// Several CPUs: where CPU c's state in the kernel's trace ring is (ktrace_init); with one, the
// fast path uses the ring's own address and keeps nothing here.
#if KMAX_CPUS > 1
static inline void cpu_set_trace(struct cpu *c, struct trace_cpu *tc, struct kev_slot **limit)
{
    c->ktrace_cpu = tc;
    c->ktrace_limit = limit;
}
#else
static inline void cpu_set_trace(struct cpu *c, struct trace_cpu *tc, struct kev_slot **limit)
{
    (void)c, (void)tc, (void)limit;
}
#endif

extern struct cpu k_cpus[KMAX_CPUS];
extern unsigned k_ncpus;        // CPUs online (1 until the others are started)

#if KMAX_CPUS > 1
#include <arch_cpu.h>           // arch_this_cpu(): this CPU's struct cpu, from a CPU register
static inline struct cpu *this_cpu(void) { return arch_this_cpu(); }
#else
static inline struct cpu *this_cpu(void) { return &k_cpus[0]; }
#endif

static inline unsigned cpu_id(void) { return KMAX_CPUS > 1 ? this_cpu()->id : 0; }

// The thread running on this CPU.
#define k_current (this_cpu()->current)

#endif
