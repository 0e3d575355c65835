// SPDX-License-Identifier: MIT
// The trace event format: the one header shared by the kernel's producer (trace_ring), the
// target tracelogger and every host tool (decoder, traceprinter). It follows the public QNX
// layout so that QNX users can read our traces. Freestanding: only <stdint.h>.
//
// Invariants pinned below with _Static_assert: a slot is 16 bytes (header + 3 data words),
// data[0] is always the low 32 bits of the cycle counter, a buffer is 1024 slots (16 KB).
// Any change to a number in this file is a format change: bump KEV_VER_MINOR (or MAJOR).
#ifndef TRACE_KEV_H
#define TRACE_KEV_H

#include <stdint.h>

// Format version written as TRACE_VER_MAJOR / TRACE_VER_MINOR (readers take 1.01 and 1.02;
// 1.02: header items back to back, QNX kernel-call numbers, QNX layouts; docs/kev-format.md).
#define KEV_VER_MAJOR 1u
#define KEV_VER_MINOR 2u

// ---- the slot ---------------------------------------------------------------------------------
struct kev_slot {
    uint32_t header;  // KEV_HEADER(type, class, event, cpu)
    uint32_t data[3]; // data[0] = low 32 bits of the cycle counter, data[1..2] = payload
};

#define KEV_SLOT_BYTES   16u
#define KEV_BUF_SLOTS    1024u                     // slots per kernel buffer
#define KEV_BUF_BYTES    (KEV_BUF_SLOTS * KEV_SLOT_BYTES)
#define KEV_HIGH_WATER   715u                      // slot count that asks the logger to save
#define KEV_MAX_CPUS     64u                       // 6 header bits
#define KEV_MAX_COMBINE_SLOTS 256u                 // longest combine event (4 KB payload)

// Header bits: event 0-9, class 10-14 (stored shifted), unused 15-23, CPU 24-29, type 30-31.
#define KEV_EVENT_SHIFT  0
#define KEV_EVENT_MASK   0x3ffu
#define KEV_CLASS_SHIFT  10
#define KEV_CLASS_MASK   0x1fu
#define KEV_CPU_SHIFT    24
#define KEV_CPU_MASK     0x3fu
#define KEV_TYPE_SHIFT   30
#define KEV_TYPE_MASK    0x3u

// Slot types: a simple event, or the begin / continue / end slots of a combine event.
#define KEV_TYPE_S  0u
#define KEV_TYPE_CB 1u
#define KEV_TYPE_CC 2u
#define KEV_TYPE_CE 3u

#define KEV_HEADER(type, cls, ev, cpu)                                                     \
    (((uint32_t)(type) << KEV_TYPE_SHIFT) | ((uint32_t)(cpu) << KEV_CPU_SHIFT) |           \
     ((uint32_t)(cls) << KEV_CLASS_SHIFT) | ((uint32_t)(ev) << KEV_EVENT_SHIFT))

static inline unsigned kev_hdr_event(uint32_t h) { return (h >> KEV_EVENT_SHIFT) & KEV_EVENT_MASK; }
static inline unsigned kev_hdr_class(uint32_t h) { return (h >> KEV_CLASS_SHIFT) & KEV_CLASS_MASK; }
static inline unsigned kev_hdr_cpu(uint32_t h) { return (h >> KEV_CPU_SHIFT) & KEV_CPU_MASK; }
static inline unsigned kev_hdr_type(uint32_t h) { return (h >> KEV_TYPE_SHIFT) & KEV_TYPE_MASK; }

// ---- classes (internal numbers; QNX's _NTO_TRACE_* values are these shifted left by 10) --------
#define KEV_C_EMPTY    0u  // never produced by the ring; the file trailer's tag uses it
#define KEV_C_CONTROL  1u  // written by the ring itself: time, buffer start/end, loss
#define KEV_C_KER_CALL 2u
#define KEV_C_INT      3u
#define KEV_C_PR_TH    4u  // process and thread events
#define KEV_C_SYSTEM   5u
#define KEV_C_USER     6u
#define KEV_C_COMM     7u
#define KEV_NCLASS     8u
#define KEV_CLASS_BITS(c) ((uint32_t)(c) << KEV_CLASS_SHIFT)

// ---- CONTROL events ----------------------------------------------------------------------------
#define KEV_CTL_TIME       1u // data[1] = high 32 bits, data[2] = low 32 bits of the cycle counter
#define KEV_CTL_BUFFER     2u // first slot of a buffer: data[1] = sequence number, data[2] = 0
                          // (QNX's "num_events", which its kernel also leaves 0 there)
#define KEV_CTL_BUFFER_END 4u // last slot of a buffer: data[1] = sequence, data[2] = events in it
#define KEV_CTL_DROPPED    8u // data[1] = events lost just before this point, data[2] = running
                              // total lost on this CPU

// ---- KER_CALL events: entry = call number, exit = number + 128, interrupted = number + 256 ----
#define KEV_KC_MAX          128u
#define KEV_KC_ENTRY(n)     ((unsigned)(n))
#define KEV_KC_EXIT(n)      ((unsigned)(n) + KEV_KC_MAX)
#define KEV_KC_INTERRUPTED(n) ((unsigned)(n) + 2u * KEV_KC_MAX)

// ---- INT events: data[1] = interrupt number ---------------------------------------------------
#define KEV_INT_ENTER         1u
#define KEV_INT_EXIT          2u
#define KEV_INT_HANDLER_ENTER 3u
#define KEV_INT_HANDLER_EXIT  4u
// Interrupt numbers that are not lines (the kernel's KIRQ_*, kernel/include/uapi/ktrace.h),
// named for the host tools' tables; NULL for a line.
static inline const char *kev_int_pseudo_name(uint32_t irq)
{
    switch (irq) {
    case 0x100: return "tick";
    case 0x101: return "a CPU's tick share";
    case 0x102: return "reschedule IPI";
    default:    return 0;
    }
}

// ---- PR_TH events ------------------------------------------------------------------------------
// Process events (payload words): CREATE / DESTROY [ppid, pid]; *_NAME [ppid, pid, name...];
// THREAD_NAME [pid, tid, name...]. Strings are NUL terminated, packed 8 bytes a slot.
#define KEV_PR_CREATE       64u
#define KEV_PR_DESTROY      128u
#define KEV_PR_CREATE_NAME  192u
#define KEV_PR_DESTROY_NAME 256u
#define KEV_PR_THREAD_NAME  320u

// Thread events: the event id is the thread state (QNX numbers). Payload: fast [pid, tid],
// wide [pid, tid, priority, policy]. Thread ids are 1-based.
#define KEV_TH_DEAD        0u
#define KEV_TH_RUNNING     1u
#define KEV_TH_READY       2u
#define KEV_TH_STOPPED     3u
#define KEV_TH_SEND        4u
#define KEV_TH_RECEIVE     5u
#define KEV_TH_REPLY       6u
#define KEV_TH_STACK       7u
#define KEV_TH_WAITTHREAD  8u
#define KEV_TH_WAITPAGE    9u
#define KEV_TH_SIGSUSPEND  10u
#define KEV_TH_SIGWAITINFO 11u
#define KEV_TH_NANOSLEEP   12u
#define KEV_TH_MUTEX       13u
#define KEV_TH_CONDVAR     14u
#define KEV_TH_JOIN        15u
#define KEV_TH_INTR        16u
#define KEV_TH_SEM         17u
#define KEV_TH_WAITCTX     18u
#define KEV_TH_NET_SEND    19u
#define KEV_TH_NET_REPLY   20u
#define KEV_TH_WAITCHILD   21u // written by files before 2026-11: a thread blocked in ProcWait.
                              // Now traced as JOIN (15), which QNX's tools print; readers
                              // still name 21 for older files.
#define KEV_TH_NSTATES     22u
#define KEV_TH_CREATE      24u // QNX: _TRACE_THREAD_CREATE = STATE_MAX
#define KEV_TH_DESTROY     25u // QNX: _TRACE_THREAD_DESTROY

// ---- SYSTEM events -----------------------------------------------------------------------------
// QNX uses 1-12 (_NTO_TRACE_SYS_*: 2 PATHMGR, 6 MMAP, ...); ours are on numbers QNX leaves
// free, which QNX's traceprinter skips instead of printing them as another event.
#define KEV_SYS_TIMER      0x200u // a timer expired: [timer id, owner pid]
#define KEV_SYS_SNAPSHOT   0x201u // start (data[1] = 0) / end (1) of the state snapshot at START
#define KEV_SYS_URING_BAD  0x202u // the kernel rejected records of a process's user-event ring
                                  // (bad codes, or a garbage head: then it gave the ring up):
                                  // [pid, records rejected | KEV_URING_GIVEN_UP]; rejected
                                  // records are not events and never counted lost
#define KEV_URING_GIVEN_UP 0x80000000u // URING_BAD word 2: the ring was given up too
// Ownership and priority (ours; docs/trace-events.md): a thread blocks on a mutex, semaphore or
// condvar [object, owner who or 0]; a thread's effective priority changes
// [who, new | old << 8 | cause << 16], cause KEV_PRIO_*.
#define KEV_SYS_SYNC_WAIT   0x203u
#define KEV_SYS_PRIO_CHANGE 0x204u
#define KEV_PRIO_INITIAL   0u  // the START snapshot, thread creation
#define KEV_PRIO_CALL      1u  // ThreadSetPrio / SchedSet
#define KEV_PRIO_MUTEX     2u  // mutex priority inheritance
#define KEV_PRIO_MSG       3u  // a server takes its client's (or a pulse's) priority
#define KEV_PRIO_INH_END   4u  // inheritance ends
#define KEV_PRIO_CEILING   5u  // a priority ceiling (none in this kernel yet)
#define KEV_PRIO_NCAUSES   6u
// The kernel panicked (ours; docs/trace-events.md): the last event of a crashed kernel's
// ring, written by kpanic before it halts (kernel/kpanic.c). A combine event:
// [info, pc high, pc low, address high, address low, who] then the panic's message as a
// NUL-terminated string. info is laid out as FAULT's second word (KEV_FAULT_KIND and
// KEV_FAULT_ADDR_VALID read it): origin | kind << 8 | addr-valid << 16, origin KEV_PANIC_CALL
// (kpanic() called: an assertion, a boot error; kind 0) or KEV_PANIC_EXCEPTION (a fault taken
// in the kernel, its kind KEV_FAULT_* told by the same decoding as a thread's fault). pc is
// the faulting instruction (for a call, kpanic's caller), address the faulting data address
// when the CPU gave one (addr-valid), else 0. Every 64-bit value in an event is two words,
// high word first (CONTROL TIME, STACK, FAULT, KPANIC).
#define KEV_SYS_KPANIC      0x207u
#define KEV_KPANIC_WORDS    6u
#define KEV_PANIC_CALL      0x10u
#define KEV_PANIC_EXCEPTION 0x11u
#define KEV_PANIC_ORIGIN(w) ((w) & 0xffu)
// Captures written before that layout: info was a cause 0-5 alone and pc and address low word
// first; trace/kev_panic.c still reads them, each cause as the fault kind it meant.
#define KEV_PANIC_SOFTWARE 0u  // kpanic() called
#define KEV_PANIC_DATA     1u  // a data access faulted: read as KEV_FAULT_ACCESS
#define KEV_PANIC_FETCH    2u  // an instruction fetch faulted: KEV_FAULT_EXEC
#define KEV_PANIC_UNDEF    3u  // an undefined instruction: KEV_FAULT_UNDEF
#define KEV_PANIC_ALIGN    4u  // an alignment fault: KEV_FAULT_ALIGN
#define KEV_PANIC_OTHER    5u  // any other exception: KEV_FAULT_OTHER
// Stacks and faults in captures (ours; docs/trace-events.md "Stacks and faults"; decoded by
// trace/kev_stack.c). STACK is a combine event [who, info, pcs...]: info packs the kind
// (KEV_STACK_*), the depth, why the walk ended early (0, or the kernel's unwind error
// 1-5) and whether the depth bound stopped it; pcs innermost first, one word each, or two
// (high word first) when KEV_STACK_PC64 is set. FAULT [who, signal | kind << 8 |
// addr-valid << 16, pc high, pc low, address high, address low] is followed by the
// faulting thread's STACK (kind KEV_STACK_FAULT). 0x207 is KPANIC (above).
#define KEV_SYS_STACK       0x205u
#define KEV_SYS_FAULT       0x206u
#define KEV_STACK_USER      1u  // a thread's user stack, sampled at a profile tick
#define KEV_STACK_KERNEL    2u  // the kernel's stack at that tick (a kernel thread ran)
#define KEV_STACK_FAULT     3u  // the user stack of a thread that faulted (after its FAULT)
#define KEV_STACK_KIND(i)   ((i) & 0xfu)
#define KEV_STACK_DEPTH(i)  (((i) >> 8) & 0xffu)
#define KEV_STACK_ENDED(i)  (((i) >> 16) & 0xfu)   // 0: complete; else the unwind error
#define KEV_STACK_AT_MAX    (1u << 20)             // the depth bound ended the walk
#define KEV_STACK_PC64      (1u << 24)             // each pc is two words, high first
#define KEV_STACK_INFO(kind, depth, ended) \
    ((uint32_t)(kind) | (uint32_t)(depth) << 8 | (uint32_t)(ended) << 16)
#define KEV_STACK_MAXDEPTH  32u                    // the kernel's walk bound (DVM_STACK_MAXDEPTH)
#define KEV_FAULT_SIGNAL(w) ((w) & 0xffu)
#define KEV_FAULT_KIND(w)   (((w) >> 8) & 0xffu)
#define KEV_FAULT_ADDR_VALID (1u << 16)
// Fault kinds: what the hardware said, the same on every architecture.
#define KEV_FAULT_OTHER     0u
#define KEV_FAULT_ACCESS    1u  // a data access the MPU / MMU refused (or to unmapped memory)
#define KEV_FAULT_EXEC      2u  // an instruction fetch refused
#define KEV_FAULT_ALIGN     3u  // an unaligned access, pc or stack pointer
#define KEV_FAULT_UNDEF     4u  // an undefined instruction
#define KEV_FAULT_DIVZERO   5u  // a division by zero
#define KEV_FAULT_BUS       6u  // a bus error
#define KEV_FAULT_STACKING  7u  // the exception could not be stacked (a bad stack pointer)
#define KEV_FAULT_BREAK     8u  // a breakpoint instruction
#define KEV_FAULT_NKINDS    9u
// A kernel function's entry and return, as an fbt probe fired (docs/fbt.md; QNX's own numbers,
// _NTO_TRACE_SYS_FUNC_ENTER/EXIT, which its -finstrument-functions library writes): ENTER
// [this_fn, call_site], a simple event; EXIT a combine event [this_fn, call_site, offset,
// value low, value high]: the returning instruction's offset in the function (its fbt
// probe's arg0) and the return value (arg1; the high word only for an 8-byte value). this_fn
// is the function's address as a pointer to it holds it (Thumb: bit 0 set), call_site the
// return address into its caller. Recorded only while a D program enables the function's
// fbt probe and the SYSTEM class is traced.
#define KEV_SYS_FUNC_ENTER  0x0au
#define KEV_SYS_FUNC_EXIT   0x0bu
// What a process runs (ours; docs/trace-events.md "Images and build ids"): written once a
// process, at its creation and in the START snapshot, and the kernel's own (pid 0) at every
// START. A combine event [pid, info, load address, build id...] then a NUL-terminated name:
// info bits 0-7 the GNU build id's length in bytes (0: the image has none); the load address
// is where the image's first byte lies (a program's slot, where its header is; the kernel's
// flash); the id's bytes follow in memory order, as strings are stored, (length + 3) / 4
// words; the name is the program's, or for the kernel the image's ELF file as the build
// wrote it (so that host tools find the build directory: the programs' files are in the
// directory of that name without ".elf"). Decoded by trace/kev_image.c.
#define KEV_SYS_IMAGE       0x208u
// A USDT probe fired (ours; docs/usdt.md): a combine event [site address, argument count n,
// arg0 low, arg0 high, ... arg(n-1) high], in the firing thread's context. Recorded only while
// a D program enables the site and the SYSTEM class is traced, so that dtrace -i fires the
// same clauses over the capture (docs/trace-events.md).
#define KEV_SYS_USDT        0x209u
// A thread runs on the CPU (ours; docs/trace-events.md): [who], written at the kernel's exit
// into a thread other than the one this CPU last returned to, after the choice's RUNNING event
// and before the thread's kernel-call exit event. sched:::on-cpu fires here, off-cpu at the
// RUNNING event, so that the switch's time between the two is in the capture.
#define KEV_SYS_ONCPU       0x20au
// A D program's probes go on or off (ours; docs/trace-events.md "DPROG, DTIMER"): [what |
// timers << 8, who], what KEV_DPROG_GO (BEGIN fires at this event's stamp) or KEV_DPROG_STOP
// (END fires at its stamp; no probe fires after it but END), timers the digest of the
// program's tick-N and profile-N probes (d/dtimers.h), who the consumer's thread
// (pid << 16 | tid), in whose context BEGIN and END run. Written by the kernel at KDT_GO and
// KDT_STOP while SYSTEM is traced, so that dtrace -i over a capture of the run replays the same
// span (docs/d-consumer.md).
#define KEV_SYS_DPROG       0x20bu
#define KEV_DPROG_GO        1u
#define KEV_DPROG_STOP      2u
// The program's timers ran on this CPU (ours): [who, at], at the profile timer's interrupt (or
// the tick's) when one of its tick-N or profile-N probes was due; who the interrupted thread,
// their context; at the low word of the cycles the kernel decided what was due by (a stack
// sample's stamp at the same interrupt, or the interrupt's time). The firings take this
// event's stamp, and dtrace -i fires the same program's timers here, deciding as the kernel did.
#define KEV_SYS_DTIMER      0x20cu
// A user timer's pulse could not be delivered (ours; docs/trace-events.md): [timer id, owner
// pid, lost], written where the timer fired (after its TIMER event) when the pulse found no
// room (the owner's or the channel's bound on queued pulses, or the pool full); lost is that
// timer's count of lost pulses since it was created, this one included, so a reader that
// lost some of these events still has the true count from the next.
#define KEV_SYS_TIMER_LOST  0x20du
// What a D program's probes cost the board (ours; docs/dtrace-target.md "What watching costs"):
// [firings, site cycles, run cycles], each 64 bits, high word first: the kernel's own counts
// (KDT_COST) from KDT_GO to this event, written at KDT_STOP after END while SYSTEM is traced,
// so that kevstat says from the capture what dtrace's closing line said on the board.
#define KEV_SYS_DCOST       0x210u
// A D clause's trigger action ran (docs/incidents.md): freeze( ), panic( ) or breakpoint( ). The
// ring stops right after this event; its words: [action | clause << 8, probe id, who, record],
// then the probe's name. record is the incident record's number, 0 when none was written.
#define KEV_SYS_TRIGGER     0x20fu
// The scheduling decisions D's sched and proc providers describe (ours; docs/trace-events.md
// "Decisions"), each written while SYSTEM is traced, at no cost while it is not: a clock tick
// whose choice keeps the running thread [who, prio] (at the tick's exit, sched:::remain-cpu);
// one CPU interrupts another for a more urgent thread [who, prio | cpu << 8] (who the thread
// running there, sched:::surrender); a process is killed [who, sig] (who its first thread, in
// the killer's context, proc:::signal-send); a CPU's choice takes a thread to run from
// another CPU's run queue [who, prio | from << 8] (before its RUNNING, whose sched:::dequeue
// names `from`). Numbered apart from the others' run.
#define KEV_SYS_REMAIN_CPU  0x230u
#define KEV_SYS_SURRENDER   0x231u
#define KEV_SYS_SIGNAL_SEND 0x232u
#define KEV_SYS_STEAL       0x233u
#define KEV_IMAGE_ID_MAX    32u    // the longest build id recorded (sha1's is 20 bytes)
#define KEV_IMAGE_ID_LEN(i) ((i) & 0xffu)
#define KEV_IMAGE_WORDS     3u     // the words before the id
// QNX's SYSTEM SLOG (_NTO_TRACE_SYS_SLOG): [opcode, severity, message]. A writer puts one after
// the last buffer when the capture lost events, so QNX's tools show the loss too (their
// printer skips our DROPPED events); opcode _SLOG_SETCODE(_SLOGC_PROC, 0), severity
// _SLOG_WARNING. Not an event of the capture: readers do not count it (docs/kev-format.md).
#define KEV_SYS_SLOG           12u
#define KEV_LOSS_NOTE_OPCODE   1u
#define KEV_LOSS_NOTE_SEVERITY 3u

// ---- COMM events (QNX numbering) ---------------------------------------------------------------
// (the words of each: docs/trace-events.md; who = pid << 16 | tid)
#define KEV_COMM_SND_MESSAGE 0u  // [rcvid, pid of the channel's owner]
#define KEV_COMM_SND_PULSE   1u  // [connection (0: the kernel), channel << 16 | code]
#define KEV_COMM_REC_MESSAGE 2u  // [rcvid, who of the receiver]
#define KEV_COMM_REC_PULSE   3u  // [channel << 16 | code, who of the receiver]
#define KEV_COMM_SND_PULSE_EXE 4u
#define KEV_COMM_SND_PULSE_DIS 5u
#define KEV_COMM_SND_PULSE_DEA 6u
#define KEV_COMM_SND_PULSE_UN  7u
#define KEV_COMM_SND_PULSE_QUN 8u
#define KEV_COMM_SIGNAL        9u  // [si_signo, si_code]
#define KEV_COMM_REPLY_MESSAGE 10u // [rcvid, status]
#define KEV_COMM_MSG_ERROR     11u // [rcvid, errno]
#define KEV_COMM_NEVENTS       12u

// ---- USER events: codes 0-1023 chosen by the application ---------------------------------------

// ---- file layout constants (docs/kev-format.md) ------------------------------------------------
#define KEV_FILE_MAGIC      "TRACE_HEADER_BEGIN::"
#define KEV_FILE_HEADER_END "TRACE_HEADER_END::"
#define KEV_SP_MAGIC        0x5053594bu // "KYSP" read as a little-endian word
#define KEV_SP_VERSION      1u
// The trailer is a run of CONTROL slots on event numbers QNX does not use (its printer skips
// them): BEGIN, INFO, per CPU EVENTS and LOST, END (docs/kev-format.md section 4).
#define KEV_CTL_TRL_BEGIN   0x3f0u // [magic, version, trailer bytes]
#define KEV_CTL_TRL_INFO    0x3f1u // [buffers in the file, ncpu, flags]
#define KEV_CTL_TRL_EVENTS  0x3f2u // (slot's CPU) [events low, high, 0]
#define KEV_CTL_TRL_LOST    0x3f3u // (slot's CPU) [lost low, high, 0]
#define KEV_CTL_TRL_END     0x3f4u // [checksum, trailer bytes, "END!"]
#define KEV_TRAILER_TAG     KEV_HEADER(KEV_TYPE_S, KEV_C_CONTROL, KEV_CTL_TRL_BEGIN, 0u)
#define KEV_TRAILER_MAGIC   0x4c52544bu // "KTRL"
#define KEV_TRAILER_END     0x21444e45u // "END!"
#define KEV_TRAILER_VERSION 2u // 1: format 1.01's trailer (an EMPTY-class tag, not slots)

_Static_assert(sizeof(struct kev_slot) == KEV_SLOT_BYTES, "a slot is 16 bytes");
_Static_assert(KEV_BUF_BYTES == 16384u, "a buffer is 16 KB");
_Static_assert(KEV_HEADER(3u, 0u, 0u, 0u) == 0xc0000000u, "slot type is bits 30-31");
_Static_assert(KEV_HEADER(0u, 0u, 0u, 63u) == 0x3f000000u, "CPU is bits 24-29");
_Static_assert(KEV_HEADER(0u, 31u, 0u, 0u) == 0x00007c00u, "class is bits 10-14");
_Static_assert(KEV_HEADER(0u, 0u, 1023u, 0u) == 0x000003ffu, "event is bits 0-9");
_Static_assert(KEV_CLASS_BITS(KEV_C_KER_CALL) == 0x800u, "KER_CALL is QNX's 2 << 10");
_Static_assert(KEV_TH_DESTROY < 64u, "thread events stay below process events");
_Static_assert(KEV_BUF_SLOTS - KEV_HIGH_WATER >= 300u, "300 slots of headroom for interrupts");

// ---- names (trace/kev_events.c, the event table; usable on target and host) ---------------------
// Each returns a static string, or NULL when the number has no name.
const char *kev_class_name(unsigned cls);        // "CONTROL", "KER_CALL", ...
const char *kev_thread_state_name(unsigned st);  // "DEAD", "RUNNING", ... "CREATE", "DESTROY"
const char *kev_control_name(unsigned ev);       // "TIME", "BUFFER", "BUFFER_END", "DROPPED"
const char *kev_process_event_name(unsigned ev); // "PROCCREATE", ...
const char *kev_comm_name(unsigned ev);          // "SND_MESSAGE", ...
const char *kev_int_name(unsigned ev);           // "INT_ENTR", ...
const char *kev_system_name(unsigned ev);        // "TIMER", "SNAPSHOT"
const char *kev_kcall_name(unsigned callno);     // from uapi/kcall.h when present, else NULL
const char *kev_errno_name(unsigned err);        // "EAGAIN", ... (the target's numbers)
const char *kev_prio_cause_name(unsigned cause); // "initial", "mutex inheritance", ...
                                                 // (PRIO_CHANGE's KEV_PRIO_*)

#endif
