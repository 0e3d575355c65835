// SPDX-License-Identifier: MIT
// The attacks of the hostile-process suite, shared by the runner (kt_hostile) and the
// attacker (kt_attack). Each is described in docs/hostile.md.
#ifndef HOSTILE_H
#define HOSTILE_H

enum {
    ATK_NONE = 0,           // no attack: the victim's baseline latency
    ATK_UNJOINED_EXIT,      // 1: exit with a finished thread never joined
    ATK_UNJOINED_FAULT,     // 2: the same, ending in a fault (the kill path)
    ATK_MUTEX_DESTROY,      // 3: destroy a mutex a CondWait waiter will take back
    ATK_TIMER_FOREIGN,      // 4: a timer on another process's connection
    ATK_PULSE_FLOOD,        // 5: as many pulses as the kernel takes on another's channel
    ATK_DEAD_CLIENT,        // 6: a client that dies REPLY-blocked on a boosted server
    ATK_SEGMENTS,           // 7: x86: segment registers left for the next process
    ATK_CONSOLE_FLOOD,      // 8: long console writes at a low priority
    ATK_PRIO_RAISE,         // 9: priorities, pulses, spawn and kill above its rights
    ATK_SPIN,               // 10: spin at its ceiling until a privileged process kills it
    ATK_HOST_FILES,         // 11: create and remove host files without KAPP_F_HOSTFS
    ATK_HOARD,              // 12: take every thread, channel, connection, timer, sync object
    ATK_URING_GARBAGE,      // 13: garbage in its own user-event ring
    ATK_FPU_LEAK,           // 14: x86: x87/SSE values left for the next process
    ATK_CONSOLE_FORGE,      // 15: forged kernel and tracelogger lines, glued lines, control
                            // characters (test/qemu/test_hostile.sh checks)
    ATK_TREE_HOARD,         // 16: a process and the programs it starts hoard
    // Attacks 17 to 24: new angles on the same weaknesses (docs/hostile.md; rerun.c in both apps)
    ATK_FPU_CONTROL,        // FP control/status words, MMX, a pending exception, every vector
                            // register; the FPU left on (Cortex-M): param 1 spins, 2 CPACR
    ATK_CONSOLE_C1,         // C1 controls (UTF-8 and raw), backspace, a forgery past the line
                            // bound, lines of several threads on several CPUs
    ATK_URING_STUCK,        // ring records behind a reserved, never committed one; the ring
                            // unregistered and registered again, then the process ends
    ATK_PULSE_CHAN_FILL,    // pulses onto a privileged process's channel, then exit (twice)
    ATK_STACK_KERNEL_SP,    // stack and frame pointers into kernel RAM while stacks are sampled
    ATK_URING_RACE,         // threads on several CPUs fill the process's ring at once
    ATK_FOREIGN_CALLS,      // another's child waited for; kernel and code addresses as the
                            // out/in pointers of the calls that take one (param: a pid)
    ATK_URING_START,        // records pending in its ring while a capture starts
    ATK_BREAKPOINT,         // a breakpoint instruction (bkpt, brk, int3) no debugger takes:
                            // killed, and the kernel handles it where an fbt probe's trap can
                            // still be taken (ARMv7-M in QEMU: a HardFault, docs/fbt.md)
    ATK_NAMES,              // 26: names: another's, too long, bad, a flood (param: the
                            // runner's named channel; kt_attack/names.c)
};
// The signal a process's breakpoint instruction kills it with: an undefined instruction's,
// but on x86 a general protection fault (int3's gate is the kernel's only: DPL 0).
#if defined(__i386__)
#define BREAKPOINT_SIG KSIG_SEGV
#else
#define BREAKPOINT_SIG KSIG_ILL
#endif
// How many programs the tree attack starts (kt_hoarder, kt_hoarder2, kt_hoarder3).
#define HOSTILE_TREE_MEMBERS 3

// The values the FPU attack leaves on the x87 stack and in xmm0 (bit patterns).
#define FPU_X87_SECRET 0x400921fb54442d18ull    // pi, as a double
#define FPU_XMM_SECRET 0x5ec2e75ec2e7f00dull

// The rerun's FPU secrets and control words (x86: x87 control word, MXCSR; AArch64: FPCR,
// FPSR): each far from its reset value.
#define FPU_MMX_SECRET 0x0bad5eed0bad5eedull
#define FPU_X87_CW_HOSTILE 0x0e60u      // exceptions unmasked but precision, truncate
#define FPU_MXCSR_HOSTILE 0xe040u       // flush to zero, denormals are zero, truncate,
                                        // every SIMD exception unmasked
#define FPU_A64_FPCR_HOSTILE 0x03c00000u    // DN, FZ, round toward zero
#define FPU_A64_FPSR_HOSTILE 0x08000001u    // QC and IOC set
// The stuck-ring attack: its events' code, records per round (the first reserved and never
// committed) and rounds (the ring unregistered between them; the process ends after).
#define URING_CODE_STUCK 103u
#define URING_STUCK_PER_ROUND 4u
#define URING_STUCK_ROUNDS 2u
// The ring race: threads, events each (code URING_CODE_RACE, a = thread << 16 | sequence).
#define URING_CODE_RACE 104u
#define URING_RACE_THREADS 3
#define URING_RACE_EVENTS 200u

// The capture-start attack: records it leaves pending (stamped before the capture).
#define URING_CODE_OLD 105u
#define URING_OLD_RECORDS 3u

// The console attack's threads and lines per thread (each line one DebugWrite).
#define CON_MT_THREADS 3
#define CON_MT_LINES 20

// The garbage attack's events (user codes) and the head it claims.
#define URING_CODE_FIRST 100u   // 1 event before the garbage
#define URING_CODE_PENDING 101u // URING_PENDING events pending when the bad record comes
#define URING_PENDING 3u
#define URING_CODE_AFTER 102u   // 1 event after the kernel gave the ring up (a kernel call)
#define URING_BAD_HEAD 100000u  // records it claims to have written on top

// The priority ceiling of a process without KAPP_F_PRIV (uapi/kapi.h KPRIO_UNPRIV_MAX).
#define HOSTILE_CEILING 63
// Per-process limits of an unprivileged process (kernel/include/kernel/kernel.h KLIM_*).
#define HOSTILE_LIM_THREADS 12
#define HOSTILE_LIM_CHANNELS 8
#define HOSTILE_LIM_CONNECTIONS 16
#define HOSTILE_LIM_TIMERS 8
#define HOSTILE_LIM_SYNC 8      // each of mutexes, condvars, semaphores
// How long the hoarder holds what it took (the runner creates its own meanwhile).
#define HOSTILE_HOARD_NS (40u * 1000000u)

// A priority-250 thread wakes at most this late under any attack from lower priorities.
#define HOSTILE_LATENCY_NS (10u * 1000000u)
// The software-triggered interrupt line the suite attaches (as ktest's t_irq does).
#define HOSTILE_IRQ 24
// The most pulses one process may have queued (kernel/include/kernel/kernel.h).
#define HOSTILE_PULSES_PER_PROC 16

#endif
