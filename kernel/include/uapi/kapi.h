// SPDX-License-Identifier: MIT
// Structures and constants that cross the kernel-call boundary: message info, pulses, the
// header every user program carries at the start of its flash slot, wait-status encoding.
// Layouts are fixed-width so that 32-bit targets and 64-bit hosts agree on them.
#ifndef UAPI_KAPI_H
#define UAPI_KAPI_H

#include <stdint.h>

#define KPRIO_MIN 1     // lowest priority a user thread may have (0 is the idle thread's)
#define KPRIO_MAX 255

// MsgReceive returns a rcvid > 0 for a message, 0 for a pulse (written to the buffer as
// struct kpulse). The info block describes the sender.
struct kmsg_info {
    int32_t pid;        // sender process
    int32_t tid;        // sender thread (1-based within its process)
    int32_t chid;       // channel it arrived on
    int32_t coid;       // sender's connection
    int32_t priority;   // sender's priority when it sent
    int32_t srcmsglen;  // bytes the sender offered
    int32_t dstmsglen;  // bytes the sender can take in the reply
    int32_t msglen;     // bytes copied into the receive buffer
};

struct kpulse {
    int32_t code;       // user codes >= 0; kernel codes < 0 (see KPULSE_CODE_*)
    int32_t value;
    int32_t priority;
    int32_t scoid;      // connection it came through (0 for kernel-generated pulses)
};

// Codes of pulses the kernel itself sends.
#define KPULSE_CODE_MIN_USER 0

// Processes: an exit status as seen by ProcWait.
#define KW_EXITED(st)     (((st) & 0x7f) == 0)
#define KW_EXITSTATUS(st) (((st) >> 8) & 0xff)
#define KW_SIGNALED(st)   (((st) & 0x7f) != 0)
#define KW_TERMSIG(st)    ((st) & 0x7f)
#define KSIG_SEGV 11    // killed: memory protection fault
#define KSIG_ILL  4     // killed: undefined instruction / usage fault
#define KSIG_BUS  7     // killed: bus fault
#define KSIG_KILL 9     // killed by ProcKill

// ChannelCreate flags: none yet; reserved bits must be zero.
// ProcSpawn(name, prio, flags): prio 0 = the program's default.

// The header at the start of every user program's flash slot, filled in by the linker.
#define KAPP_MAGIC   0x5050414bu   // "KAPP"
#define KAPP_VERSION 3
#define KAPP_NAME_MAX 16
#define KAPP_F_IO    0x1u   // may attach interrupts and map its device window
#define KAPP_F_TRACE 0x2u   // may control tracing (allocate buffers, start, stop)
#define KAPP_F_HOSTFS 0x8u  // may open and remove host files through semihosting (":tt", the
                            // console, is open to all); make SEMIHOST_DIR=d confines it to d
#define KAPP_F_PRIV  0x4u   // privileged: no priority ceiling, ProcKill, may start programs
                            // with flags it does not have itself (docs/ARCHITECTURE.md)
// The highest priority a process without KAPP_F_PRIV may give its threads, pulses and the
// programs it starts, unless its own program was built with a higher PRIO (the image's
// author granted that one). QNX limits non-root processes the same way (63 by default).
#define KPRIO_UNPRIV_MAX 63

struct kapp_header {
    uint32_t magic;
    uint32_t version;
    char     name[KAPP_NAME_MAX];
    uint32_t entry;             // address of _start (Thumb bit set)
    uint32_t data_source;       // .data image in flash
    uint32_t data_start;        // .data in RAM
    uint32_t data_size;
    uint32_t bss_start;
    uint32_t bss_size;
    uint32_t ram_base;          // the process's RAM slot; the MPU confines it there
    uint32_t ram_size;
    uint32_t stack_top;         // initial stack of the main thread
    uint32_t flags;             // KAPP_F_*
    uint32_t priority;          // default priority of the main thread
    uint32_t mmio_base;         // device window for KAPP_F_IO programs (0: none)
    uint32_t mmio_size;
    uint32_t exidx_start;       // its ARM EHABI unwind table [start, end) for ustack( ), or 0
    uint32_t exidx_end;         // (kernel/arch/armv7m/unwind.c; docs/profiling.md)
    uint32_t build_id;          // its GNU build-id note (ELF Nhdr, "GNU", the id), or 0: the
                                // kernel writes the id into the trace (SYSTEM IMAGE)
    uint32_t usdt_notes;        // its USDT sites' stapsdt notes [start, end), as built into the
    uint32_t usdt_notes_end;    // image (0, 0: none): the only sites and semaphores the kernel
                                // places a probe at (kernel/kusdt.c, docs/usdt.md)
};

// ProcInfo(slot, out) / ThreadInfo(slot, out): the process and thread tables, one slot at a
// time (slots 0 .. KSYSINFO_NPROC-1 and 0 .. KSYSINFO_NTHREAD-1); ESRCH for an empty slot,
// EINVAL past the end. The tracelogger writes them into the trace file's system page.
struct kproc_info {
    int32_t pid, ppid, nthreads, state;     // state: 1 alive, 2 zombie
    char name[KAPP_NAME_MAX];
};

struct kthread_info {
    int32_t pid, tid, state, priority;      // state: uapi/kstate.h
    int32_t cpu;                            // the CPU it runs on (RUNNING) or last ran on
    char name[KAPP_NAME_MAX];
};

// SysInfo(what, out): what the kernel tells about itself.
#define KSYSINFO_CYCLES_PER_SEC 1
#define KSYSINFO_TICK_NS        2
#define KSYSINFO_NPROC          3
#define KSYSINFO_TRACE_HOOKS    4   // 1: trace hooks compiled in (0 in the benchmark baseline)
#define KSYSINFO_NTHREAD        5
#define KSYSINFO_NCPUS          6   // CPUs running (trace buffers and D buffers are per CPU)
// Kernel entries that took the big-reader lock exclusive, and kernel calls finished in its
// shared mode (kernel/klock.h), since boot, modulo 2^32; 0 with one CPU (no lock taken).
#define KSYSINFO_KENTRIES_EXCLUSIVE 7
#define KSYSINFO_KCALLS_SHARED      8
// Reschedule IPIs the CPUs received (taken: one kernel entry each), since boot, modulo 2^32.
#define KSYSINFO_IPIS               9
// The run-queue lock's contention in shared mode, summed over the CPUs, modulo 2^32: takes,
// takes that found it held by another CPU, counter cycles it was held. Only in kernels built
// with make KLOCK_STATS=1 (docs/smp.md); 0 otherwise.
#define KSYSINFO_RUNQ_TAKES         16
#define KSYSINFO_RUNQ_FOUND_TAKEN   17
#define KSYSINFO_RUNQ_HOLD_CYCLES   18
// Time kept by the tick (docs/timers.md, "A late tick"), modulo 2^32: the ticks since boot
// (one a period, late ones included, and those ended that no tick has counted yet), the periods a late tick counted beyond its own
// (each ended while the tick interrupt waited), and the firings of periodic user timers that
// fell in such a gap and were skipped (the timer keeps its phase and fires once).
#define KSYSINFO_TICKS              24
#define KSYSINFO_TICKS_LATE         25
#define KSYSINFO_TIMER_OVERRUNS     26
// Of KSYSINFO_TICKS, those counted on the shared side of the kernel lock (several CPUs: a
// period with no kernel timer due, untraced; docs/smp.md, "The tick"); the rest
// were the exclusive tick's. EINVAL from a one-CPU kernel.
#define KSYSINFO_TICKS_SHARED       27
// The kernel's build date as yyyymmdd (20261128): the version D's `utsname gives, which the
// tracelogger writes as the capture header's SYS_VERSION (trace/kev_ident.h).
#define KSYSINFO_BUILD_DATE         28

// ThreadCtl(cmd, data) (QNX's __KER_THREAD_CTL): what the calling thread may change about itself.
// KTCTL_RUNMASK: data is a bit mask of the CPUs the thread may run on (bit n: CPU n; QNX's
// _NTO_TCTL_RUNMASK). Bits past the kernel's CPUs (KSYSINFO_NCPUS) are ignored; EINVAL if
// none is left. A CPU still starting counts: the thread waits for it.
// The thread moves at once if its CPU is no longer in the mask. KTCTL_RUNMASK_GET_AND_SET:
// data points to a uint32_t, the new mask (0: keep the mask), which receives the old one
// (0: any CPU). EPERM for a thread bound to a CPU by its device window (docs/smp.md).
#define KTCTL_RUNMASK             4
#define KTCTL_RUNMASK_GET_AND_SET 6
// KTCTL_KDEBUG_FAULT (ours, a test facility): the kernel faults on purpose, in kernel mode
// (kernel/kcrash.c), for the post-mortem test. Only in images linked with kcrash.c
// (<image>_KOBJS, docs/tracelogger.md), and only for a privileged process; EINVAL elsewhere.
// Its data says how: KDEBUG_FAULT_PLAIN, or KDEBUG_FAULT_TRACE_LOCKED (the fault comes while the
// CPU holds its trace buffer's lock, as a fault inside the ring's code would).
#define KTCTL_KDEBUG_FAULT        0x4b46
#define KDEBUG_FAULT_PLAIN        0
#define KDEBUG_FAULT_TRACE_LOCKED 1
// KTCTL_KDEBUG_ROW (ours, a test facility): the kernel writes the event table's test-only row
// (SYSTEM 0x3f0 TEST_ONLY, test/tools/test_event_row.h) for the calling thread through the
// emit helper the build generates from that row (tools/emitgen), so that a D program's
// kevtest:::test-only fires live. Only in images linked with test/tools/test_event_row_kernel.c
// (<image>_KOBJS; the kevrowlive test image); EINVAL elsewhere. data points to a struct
// kdebug_row, the event's values (EFAULT if it cannot be read; EINVAL past the fields' bits).
#define KTCTL_KDEBUG_ROW          0x4b52
struct kdebug_row {
    uint32_t level;     // 12 bits
    uint32_t flagged;   // 0 or 1
    uint64_t where;
};

// NameCtl(cmd, arg, name) (ours, number 99, QNX's spare NET_SPARE2): the names of channels, what
// QNX's path manager keeps under /dev/name/local for name_attach() and name_open()
// (user/lib/name.c; docs/applications.md, "Programs that find each other by name"). A name is
// 1 to KNAME_CHAN_MAX - 1 bytes, printable, no '/' and no space (EINVAL), longer is ENAMETOOLONG;
// it belongs to one channel of the system, and goes with the channel (ChannelDestroy, or its
// process's end). The kernel keeps KMAX_NAMES of them (kernel/kname.c).
//   KNAMECTL_ATTACH (arg = chid): the caller's channel takes the name. ESRCH: not the caller's
//     channel; EBUSY: the channel has a name already; EEXIST: another channel has this name;
//     EAGAIN: the caller's quota of names is taken (KLIM_NAMES, or the pool of KMAX_NAMES).
//   KNAMECTL_DETACH (arg = chid): the caller's channel gives its name up. ESRCH: not the
//     caller's channel; ENOENT: the channel does not have this name.
//   KNAMECTL_OPEN (arg = 0): a connection to the named channel (a coid, as ConnectAttach
//     gives). ENOENT: no channel has the name; EAGAIN: the caller's connections are all taken.
//     arg = KNAMECTL_OPEN_WAIT: while no channel has the name, the caller waits (state
//     NANOSLEEP) until one takes it, then gets its connection; a TimerTimeout armed before
//     the call ends the wait with 0 (no coid is 0).
#define KNAMECTL_ATTACH 1
#define KNAMECTL_DETACH 2
#define KNAMECTL_OPEN   3
#define KNAMECTL_OPEN_WAIT 1u
#define KNAME_CHAN_MAX  16  // bytes of a channel's name with its NUL

#endif
