// SPDX-License-Identifier: MIT
// The event table's layouts, written once and expanded by both sides: each layout is an X-macro
// KEV_F_<LAYOUT>(F, x) with one line a field,
//   F(x, name, KIND, LAYOUT, word, shift, bits, wide, names, meaning)
// (struct kev_field_desc's columns: KIND an enum kev_fkind without KEV_K_, LAYOUT an enum
// kev_flayout without KEV_L_, names a KEV_K_ENUM's names function, or NULL). The host's table
// (trace/kev_events.c) expands them into its rows' field arrays (KEV_FIELD_DESC). The kernel
// packs an event's words from the rows through what the build generates from them
// (tools/emitgen, <kev_emit_gen.h>): the emit helpers, and for a hand-written site (a fault, a
// stack, an image, a D program's span) the row's packer, kev_pack_<row>(w, fields...), each
// field a parameter of its name; so the kernel writes a word's bits where the readers read
// them, with no layout of its own. A layout no other code names may be written beside its row
// in kev_events.c instead (docs/adding-an-event.md).
// A layout is named after the rows' field array (f_prio_change: KEV_F_PRIO_CHANGE); rows that
// share one (the INT events, the thread states) share its macro. x is the expander's context.
// Adding an event: docs/adding-an-event.md.
// Freestanding, no state: pure macros and one inline function.
#ifndef TRACE_KEV_ROWS_H
#define TRACE_KEV_ROWS_H

#include <stdint.h>

// ---- the layouts --------------------------------------------------------------------------------

#define KEV_F_TIME(F, x) \
    F(x, cycles, CYCLES, HI_LO, 0, 0, 0, 0, NULL, "the 64-bit cycle counter")
#define KEV_F_BUFFER(F, x) \
    F(x, seq, U32, WORD, 0, 0, 0, 0, NULL, "the buffer's sequence number") \
    F(x, nevents, U32, WORD, 1, 0, 0, 0, NULL, "0 (QNX's num_events, which its kernel also leaves 0)")
#define KEV_F_BUFFER_END(F, x) \
    F(x, seq, U32, WORD, 0, 0, 0, 0, NULL, "the buffer's sequence number") \
    F(x, nevents, U32, WORD, 1, 0, 0, 0, NULL, "the events in the buffer")
#define KEV_F_DROPPED(F, x) \
    F(x, lost, U32, WORD, 0, 0, 0, 0, NULL, "events lost just before this point") \
    F(x, lost_total, U32, WORD, 1, 0, 0, 0, NULL, "events lost on this CPU so far")
#define KEV_F_INT(F, x) \
    F(x, irq, IRQ, WORD, 0, 0, 0, 0, NULL, "the interrupt number")
#define KEV_F_INT_HANDLER_ENTER(F, x) \
    F(x, pid, PID, WORD, 0, 0, 0, 0, NULL, "the process told (0: the kernel)") \
    F(x, irq, IRQ, WORD, 1, 0, 0, 0, NULL, "the interrupt number") \
    F(x, handler, ADDR, WORD, 2, 0, 0, 0, NULL, "the handler's address (0: a pulse-delivering attach)") \
    F(x, area, ADDR, WORD, 3, 0, 0, 0, NULL, "the handler's argument")
#define KEV_F_INT_HANDLER_EXIT(F, x) \
    F(x, irq, IRQ, WORD, 0, 0, 0, 0, NULL, "the interrupt number") \
    F(x, pid, PID, WORD, 1, 0, 0, 0, NULL, "the process told (0: the kernel)")
#define KEV_F_THREAD(F, x) \
    F(x, pid, PID, WORD, 0, 0, 0, 0, NULL, "the thread's process") \
    F(x, tid, TID, WORD, 1, 0, 0, 0, NULL, "the thread") \
    F(x, prio, PRIO, WORD, 2, 0, 0, 1, NULL, "its priority (wide mode)") \
    F(x, policy, ENUM, WORD, 3, 0, 0, 1, policy_names, "its scheduling policy (wide mode)")
#define KEV_F_THREAD_LIFE(F, x) \
    F(x, pid, PID, WORD, 0, 0, 0, 0, NULL, "the thread's process") \
    F(x, tid, TID, WORD, 1, 0, 0, 0, NULL, "the thread")
#define KEV_F_PROC(F, x) \
    F(x, ppid, PID, WORD, 0, 0, 0, 0, NULL, "the parent process") \
    F(x, pid, PID, WORD, 1, 0, 0, 0, NULL, "the process")
#define KEV_F_PROC_NAME(F, x) \
    F(x, ppid, PID, WORD, 0, 0, 0, 0, NULL, "the parent process") \
    F(x, pid, PID, WORD, 1, 0, 0, 0, NULL, "the process") \
    F(x, name, STRING, STRING, 2, 0, 0, 0, NULL, "the program's name")
#define KEV_F_THREAD_NAME(F, x) \
    F(x, pid, PID, WORD, 0, 0, 0, 0, NULL, "the thread's process") \
    F(x, tid, TID, WORD, 1, 0, 0, 0, NULL, "the thread") \
    F(x, name, STRING, STRING, 2, 0, 0, 0, NULL, "its name")
#define KEV_F_FUNC_ENTER(F, x) \
    F(x, this_fn, ADDR, WORD, 0, 0, 0, 0, NULL, "the function, as a pointer to it holds it (Thumb: bit 0 set)") \
    F(x, call_site, ADDR, WORD, 1, 0, 0, 0, NULL, "the return address into its caller")
#define KEV_F_FUNC_EXIT(F, x) \
    F(x, this_fn, ADDR, WORD, 0, 0, 0, 0, NULL, "the function, as a pointer to it holds it (Thumb: bit 0 set)") \
    F(x, call_site, ADDR, WORD, 1, 0, 0, 0, NULL, "the return address into its caller") \
    F(x, offset, HEX, WORD, 2, 0, 0, 0, NULL, "the returning instruction's offset in the function (fbt's arg0)") \
    F(x, value, HEX, LO_HI, 3, 0, 0, 0, NULL, "the return value (fbt's arg1; the high word only for an 8-byte value)")
#define KEV_F_SLOG(F, x) \
    F(x, opcode, HEX, WORD, 0, 0, 0, 0, NULL, "1: _SLOG_SETCODE(_SLOGC_PROC, 0)") \
    F(x, severity, U32, WORD, 1, 0, 0, 0, NULL, "3: _SLOG_WARNING") \
    F(x, message, STRING, STRING, 2, 0, 0, 0, NULL, "the loss, in words")
#define KEV_F_TIMER(F, x) \
    F(x, timer_id, HEX, WORD, 0, 0, 0, 0, NULL, "the timer") \
    F(x, pid, PID, WORD, 1, 0, 0, 0, NULL, "its owner")
#define KEV_F_TIMER_LOST(F, x) \
    F(x, timer_id, HEX, WORD, 0, 0, 0, 0, NULL, "the timer") \
    F(x, pid, PID, WORD, 1, 0, 0, 0, NULL, "its owner") \
    F(x, lost, U32, WORD, 2, 0, 0, 0, NULL, "the timer's pulses lost since its creation, this one included")
#define KEV_F_SNAPSHOT(F, x) \
    F(x, what, ENUM, WORD, 0, 0, 8, 0, snapshot_names, "0 start, 1 end, 2 which thread a CPU runs") \
    F(x, cpu, U32, WORD, 0, 8, 8, 0, NULL, "for 2: the CPU") \
    F(x, who, WHO, WORD, 1, 0, 0, 0, NULL, "for 2: the thread it runs")
#define KEV_F_ONCPU(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread the CPU now runs") \
    F(x, cpu, U32, WORD, 1, 0, 0, 0, NULL, "the CPU")
#define KEV_F_DPROG(F, x) \
    F(x, what, ENUM, WORD, 0, 0, 8, 0, dprog_names, "1 go (BEGIN), 2 stop (END)") \
    F(x, timers, HEX, WORD, 0, 8, 24, 0, NULL, "the digest of its tick-N and profile-N probes (d/dtimers.h)") \
    F(x, who, WHO, WORD, 1, 0, 0, 0, NULL, "the consumer's thread: BEGIN's and END's context")
#define KEV_F_DTIMER(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the interrupted thread: the firings' context") \
    F(x, at, HEX, WORD, 1, 0, 0, 0, NULL, "the cycles' low word the kernel decided what was due by")
#define KEV_F_URING_BAD(F, x) \
    F(x, pid, PID, WORD, 0, 0, 0, 0, NULL, "the process whose ring it is") \
    F(x, rejected, U32, WORD, 1, 0, 31, 0, NULL, "records rejected (never counted lost)") \
    F(x, given_up, FLAG, WORD, 1, 31, 1, 0, NULL, "the kernel gave the ring up")
#define KEV_F_SYNC_WAIT(F, x) \
    F(x, object, HEX, WORD, 0, 0, 0, 0, NULL, "the mutex, semaphore or condvar (the SYNC_* call's first argument)") \
    F(x, owner, WHO, WORD, 1, 0, 0, 0, NULL, "the owner (a semaphore: its last taker; a condvar: 0), 0: none")
#define KEV_F_PRIO_CHANGE(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread") \
    F(x, new_prio, PRIO, WORD, 1, 0, 8, 0, NULL, "its effective priority after") \
    F(x, old_prio, PRIO, WORD, 1, 8, 8, 0, NULL, "before") \
    F(x, cause, ENUM, WORD, 1, 16, 8, 0, kev_prio_cause_name, "why (KEV_PRIO_*)")
#define KEV_F_STACK(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread whose stack this is (kernel threads: pid 0)") \
    F(x, kind, ENUM, WORD, 1, 0, 4, 0, stack_kind_names, "1 user (a sample), 2 kernel, 3 fault") \
    F(x, depth, U32, WORD, 1, 8, 8, 0, NULL, "the pcs (0-32)") \
    F(x, ended, ENUM, WORD, 1, 16, 4, 0, stack_ended_names, "0 complete, else the unwind error") \
    F(x, at_max, FLAG, WORD, 1, 20, 1, 0, NULL, "the depth bound ended the walk") \
    F(x, pc64, FLAG, WORD, 1, 24, 1, 0, NULL, "each pc is two words, high first") \
    F(x, pcs, ADDRS, PCS, 2, 5, 0, 0, NULL, "the pcs, innermost first")
#define KEV_F_FAULT(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the faulting thread") \
    F(x, signal, ENUM, WORD, 1, 0, 8, 0, signal_names, "the signal the process is killed with") \
    F(x, kind, ENUM, WORD, 1, 8, 8, 0, fault_kind_names, "what the hardware said (KEV_FAULT_*)") \
    F(x, addr_valid, FLAG, WORD, 1, 16, 1, 0, NULL, "addr is known") \
    F(x, pc, ADDR, HI_LO, 2, 0, 0, 0, NULL, "the faulting instruction") \
    F(x, addr, ADDR, HI_LO, 4, 0, 0, 0, NULL, "the faulting data address (0 when not known)")
#define KEV_F_KPANIC(F, x) \
    F(x, origin, ENUM, WORD, 0, 0, 8, 0, panic_origin_names, "0x10 kpanic() called, 0x11 an exception") \
    F(x, kind, ENUM, WORD, 0, 8, 8, 0, fault_kind_names, "an exception's kind (KEV_FAULT_*)") \
    F(x, addr_valid, FLAG, WORD, 0, 16, 1, 0, NULL, "addr is known") \
    F(x, pc, ADDR, HI_LO, 1, 0, 0, 0, NULL, "the faulting instruction; for a call, kpanic's caller") \
    F(x, addr, ADDR, HI_LO, 3, 0, 0, 0, NULL, "the fault address (0 when not known)") \
    F(x, who, WHO, WORD, 5, 0, 0, 0, NULL, "the thread on that CPU") \
    F(x, message, STRING, STRING, 6, 0, 0, 0, NULL, "the panic's message")
#define KEV_F_TRIGGER(F, x) \
    F(x, action, ENUM, WORD, 0, 0, 8, 0, trigger_action_names, "0 freeze( ), 1 panic( ), 2 breakpoint( )") \
    F(x, clause, U32, WORD, 0, 8, 16, 0, NULL, "the clause's number in the D program, from 1") \
    F(x, probe_id, U32, WORD, 1, 0, 0, 0, NULL, "the D probe's id (d/dprobes.h)") \
    F(x, who, WHO, WORD, 2, 0, 0, 0, NULL, "the thread the probe fired in") \
    F(x, record, U32, WORD, 3, 0, 0, 0, NULL, "the incident record written (0: none)") \
    F(x, probe, STRING, STRING, 4, 0, 0, 0, NULL, "the probe's name")
#define KEV_F_IMAGE(F, x) \
    F(x, pid, PID, WORD, 0, 0, 0, 0, NULL, "the process (0: the kernel)") \
    F(x, id_len, U32, WORD, 1, 0, 8, 0, NULL, "the build id's length in bytes (0: none)") \
    F(x, load, ADDR, WORD, 2, 0, 0, 0, NULL, "where the image's first byte lies") \
    F(x, build_id, STRING, BYTES, 3, 1, 0, 0, NULL, "the GNU build id, as hex (readelf -n's spelling)") \
    F(x, name, STRING, STRING, KEV_W_NEXT, 0, 0, 0, NULL, "the program's name; the kernel's ELF file")
#define KEV_F_USDT(F, x) \
    F(x, site, ADDR, WORD, 0, 0, 0, 0, NULL, "the probe site's address") \
    F(x, nargs, U32, WORD, 1, 0, 0, 0, NULL, "the argument count") \
    F(x, args, U64S, ARGS, 2, 1, 0, 0, NULL, "the arguments (each low, high)")
#define KEV_F_USER(F, x) \
    F(x, data, WORDS, USER, 0, 0, 0, 0, NULL, "the words (INSERTSUSEREVENT, INSERTCUSEREVENT), or the text (INSERTUSRSTREVENT)")
#define KEV_F_SND_MESSAGE(F, x) \
    F(x, rcvid, HEX, WORD, 0, 0, 0, 0, NULL, "names the client thread; links send, receive and reply") \
    F(x, pid, PID, WORD, 1, 0, 0, 0, NULL, "the channel's owner")
#define KEV_F_SND_PULSE(F, x) \
    F(x, coid, HEX, WORD, 0, 0, 0, 0, NULL, "the connection (0: the kernel)") \
    F(x, code, HEX, WORD, 1, 0, 16, 0, NULL, "the pulse's code (low 16 bits)") \
    F(x, chid, U32, WORD, 1, 16, 16, 0, NULL, "the channel")
#define KEV_F_REC_MESSAGE(F, x) \
    F(x, rcvid, HEX, WORD, 0, 0, 0, 0, NULL, "names the client thread") \
    F(x, who, WHO, WORD, 1, 0, 0, 0, NULL, "the receiver")
#define KEV_F_REC_PULSE(F, x) \
    F(x, code, HEX, WORD, 0, 0, 16, 0, NULL, "the pulse's code") \
    F(x, chid, U32, WORD, 0, 16, 16, 0, NULL, "the channel") \
    F(x, who, WHO, WORD, 1, 0, 0, 0, NULL, "the receiver")
#define KEV_F_PULSE_OTHER(F, x) \
    F(x, scoid, HEX, WORD, 0, 0, 0, 0, NULL, "QNX's server connection") \
    F(x, pid, PID, WORD, 1, 0, 0, 0, NULL, "QNX's process")
#define KEV_F_SIGNAL(F, x) \
    F(x, signo, ENUM, WORD, 0, 0, 32, 0, signal_names, "si_signo") \
    F(x, code, U32, WORD, 1, 0, 0, 0, NULL, "si_code as QNX's siginfo.h gives it")
#define KEV_F_REPLY(F, x) \
    F(x, rcvid, HEX, WORD, 0, 0, 0, 0, NULL, "the client") \
    F(x, status, S32, WORD, 1, 0, 0, 0, NULL, "the reply's status")
#define KEV_F_MSG_ERROR(F, x) \
    F(x, rcvid, HEX, WORD, 0, 0, 0, 0, NULL, "the client") \
    F(x, errno, ERRNO, WORD, 1, 0, 0, 0, NULL, "the error")

// ---- the host's expansion: a layout's struct kev_field_desc entries -----------------------------
#define KEV_FIELD_DESC(x, name, kind, layout, word, shift, bits, wide, names, meaning) \
    { #name, KEV_K_##kind, KEV_L_##layout, word, shift, bits, wide, names, meaning },

// ---- the kernel's packing: a field's bits in its word -----------------------------------------
// kev_pack_bits(v, shift, bits): v masked to its bits (0 or 32: the whole word) and shifted to
// its place, the term of one field in the words the generated helpers and packers write
// (tools/emitgen: kev_pack_bits(new_prio, 0, 8) | kev_pack_bits(old_prio, 8, 8) | ...).
// test_kev_emit decodes each helper's words by the host's reading of the same layout.
static inline uint32_t kev_pack_bits(uint32_t v, unsigned shift, unsigned bits)
{
    return bits >= 32u || bits == 0u ? v << shift : (v & ((1u << bits) - 1u)) << shift;
}

#endif
