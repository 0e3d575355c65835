// SPDX-License-Identifier: MIT
// The hostile suite's attacks 17 to 24 (docs/hostile.md): new angles on the weaknesses of
// attacks 13 to 16 (FP state, the console, the user-event ring, quotas and pulses), and two
// new surfaces (stack samples, kernel-call pointers). Each attack is committed by kt_attack
// (its rerun.c); this runner reads the verdict from what the attacker cannot forge: its own
// registers, a fresh thread's, the trace it captures, the queue of its own channel. The console
// attack is read by test/qemu/test_hostile.sh from the console the kernel wrote.
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev.h>
#include "hostile.h"
#include "rerun.h"
#include "capture.h"

// ---- weakness 1: FP state ------------------------------------------------------------------
// What of another's FP state this thread sees: 0 when none. `fresh`: a thread that never used
// the FPU must see exactly the clean state (x86: FNINIT's with MXCSR 0x1f80, zero registers;
// AArch64: zero registers, FPCR and FPSR 0).
#if defined(__i386__)
static unsigned fpu_seen(bool fresh)
{
    uint16_t cw = 0, sw = 0;
    uint32_t mx = 0;
    uint64_t mm = 0, x = 0;
    __asm__ volatile("fnstcw %0\n\tfnstsw %1" : "=m"(cw), "=m"(sw));
    if (sw & 0x80u)
        __asm__ volatile("fnclex");     // another's pending exception: would trap us next
    __asm__ volatile("movq %%mm1, %0\n\temms" : "=m"(mm));
    __asm__ volatile("stmxcsr %0\n\tmovq %%xmm7, %1" : "=m"(mx), "=m"(x));
    unsigned bad = (cw != 0x037fu) << 0 | ((sw & 0x84u) != 0) << 1 | (mm == FPU_MMX_SECRET) << 2 |
                   ((mx & 0xffc0u) != 0x1f80u) << 3 | (x == FPU_MMX_SECRET) << 4;
    if (fresh)
        bad |= (sw != 0) << 5 | (mm != 0) << 6 | (x != 0) << 7 | (mx != 0x1f80u) << 8;
    return bad;
}
#elif defined(__aarch64__)
static unsigned fpu_seen(bool fresh)
{
    uint64_t v0, v15, v31, cr, sr;
    __asm__ volatile(".arch_extension simd\n\tumov %0, v0.d[0]\n\tumov %1, v15.d[1]\n\t"
                     "umov %2, v31.d[0]\n\tmrs %3, fpcr\n\tmrs %4, fpsr"
                     : "=r"(v0), "=r"(v15), "=r"(v31), "=r"(cr), "=r"(sr));
    unsigned bad = (v0 == FPU_MMX_SECRET) << 0 | (v15 == FPU_MMX_SECRET) << 1 |
                   (v31 == FPU_MMX_SECRET) << 2 | (cr != 0) << 3 |
                   ((sr & FPU_A64_FPSR_HOSTILE) != 0) << 4;
    if (fresh)
        bad |= (v0 != 0) << 5 | (v15 != 0) << 6 | (v31 != 0) << 7 | (sr != 0) << 8;
    return bad;
}
#endif

#if defined(__i386__) || defined(__aarch64__)
static volatile unsigned fresh_seen;
static KSTACK(fresh_stack, 1024);
static int fresh_thread(void *arg)
{
    (void)arg;
    fresh_seen = fpu_seen(true);
    return 0;
}
#endif

static void attack_fpu_control(void)
{
    int st = -1;
    printf("# attack %u: %s\n", ATK_FPU_CONTROL, "FP control and status words, MMX, a pending "
           "exception, vector registers; killed while it owns the FPU");
#if defined(__i386__) || defined(__aarch64__)
    int pid = ProcSpawn("kt_attack", 10, ATK_FPU_CONTROL);
    ThreadSleep(1000000u);                  // it set its state and sleeps
    unsigned seen = fpu_seen(false);
    tap_check(seen == 0, "another process's FP control/status words, pending exception, MMX and "
          "vector registers did not reach us (%#x)", seen);
    int w = ProcWait(pid, &st);
    tap_check(w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "attack %u: the attacker got its own FP state back (status %#x)", ATK_FPU_CONTROL, st);
    // killed while it owns the FPU (it spins touching it), then a new thread of ours
    pid = ProcSpawn("kt_attack", 10, ATK_FPU_CONTROL | 1u << 8);
    ThreadSleep(2000000u);
    int k = ProcKill(pid);
    w = ProcWait(pid, &st);
    tap_check(k == 0 && w == pid && KW_SIGNALED(st) && KW_TERMSIG(st) == KSIG_KILL,
          "attack %u: killed while it held the FPU (status %#x)", ATK_FPU_CONTROL, st);
    fresh_seen = ~0u;
    int tid = ThreadCreate(fresh_thread, NULL, fresh_stack, sizeof(fresh_stack), 100, 0);
    ThreadJoin(tid, NULL);
    tap_check(tid > 0 && fresh_seen == 0, "a thread created after the kill starts from the clean "
          "FP state (%#x)", fresh_seen);
    seen = fpu_seen(false);
    tap_check(seen == 0, "and ours is still ours (%#x)", seen);
    // its unmasked exceptions taken: x86 ends it (#MF, #XM), AArch64 does not trap them
#if defined(__i386__)
    run_attack(ATK_FPU_CONTROL, 3, 10, KSIG_ILL, "an unmasked x87 exception raised");
    // (QEMU's TCG does not raise #XM: the SIMD exception only sets its flag there, and the
    // process runs on; a CPU that raises it ends the process as for #MF: fault.c vector 19)
    printf("# attack %u: %s\n", ATK_FPU_CONTROL, "an unmasked SSE exception raised");
    int sp = ProcSpawn("kt_attack", 10, ATK_FPU_CONTROL | 4u << 8), sst = -1;
    int sw = sp > 0 ? ProcWait(sp, &sst) : -1;
    tap_check(sw == sp && ((KW_SIGNALED(sst) && KW_TERMSIG(sst) == KSIG_ILL) ||
                       (KW_EXITED(sst) && KW_EXITSTATUS(sst) == 0)),
          "attack %u: an unmasked SSE exception ends the process, or is only flagged where "
          "the CPU does not raise #XM (status %#x)", ATK_FPU_CONTROL, sst);
#else
    run_attack(ATK_FPU_CONTROL, 3, 10, 0, "FP exceptions (not trapped) raised");
#endif
#elif defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
    static const char *const what[2] = { "an FP instruction", "enabling the FPU in CPACR" };
    for (unsigned i = 0; i < 2; i++) {
        int pid = ProcSpawn("kt_attack", 10, ATK_FPU_CONTROL | (i ? 2u : 0u) << 8);
        int w = pid > 0 ? ProcWait(pid, &st) : -1;
        tap_check(w == pid && KW_SIGNALED(st) && (KW_TERMSIG(st) == KSIG_ILL ||
              KW_TERMSIG(st) == KSIG_BUS || KW_TERMSIG(st) == KSIG_SEGV),
              "attack %u: %s ends the process (the FPU stays off; status %#x)",
              ATK_FPU_CONTROL, what[i], st);
    }
#endif
}

// ---- weakness 3: records behind a hole, unregistered, or left at the end ------------------
struct stuck_seen {
    uint32_t pid;
    unsigned delivered;
    uint32_t rejected;          // URING_BAD counts naming the attacker
};

static void stuck_scan(const struct kev_slot *s, void *ctx)
{
    struct stuck_seen *f = ctx;
    unsigned cls = kev_hdr_class(s->header), ev = kev_hdr_event(s->header);
    if (cls == KEV_C_USER && ev == URING_CODE_STUCK)
        f->delivered++;
    else if (cls == KEV_C_SYSTEM && ev == KEV_SYS_URING_BAD && s->data[1] == f->pid)
        f->rejected += s->data[2] & ~KEV_URING_GIVEN_UP;
}

static void attack_uring_stuck(void)
{
    struct stuck_seen f = { 0, 0, 0 };
    struct ktrace_query q;
    int st = -1, s;
    printf("# attack %u: %s\n", ATK_URING_STUCK, "ring records behind a never-committed one, "
           "the ring unregistered, the process ended");
    int a = capture_begin(&s);
    int pid = ProcSpawn("kt_attack", 10, ATK_URING_STUCK);
    int w = pid > 0 ? ProcWait(pid, &st) : -1;
    f.pid = (uint32_t)pid;
    capture_end(&q, stuck_scan, &f);
    tap_check(a >= 0 && s == 0 && w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "attack %u: the drain stopped at the hole each time (capture %d %d, status %#x)",
          ATK_URING_STUCK, a, s, st);
    const unsigned total = URING_STUCK_PER_ROUND * URING_STUCK_ROUNDS;
    tap_check(f.delivered + f.rejected == total && q.rejected == f.rejected,
          "none of a process's ring records vanishes uncounted when it unregisters or ends "
          "(%u of %u delivered, %lu rejected for its pid, %lu in all)", f.delivered, total,
          (unsigned long)f.rejected, (unsigned long)q.rejected);
    tap_check(q.dropped == 0 && q.generated == q.recorded,
          "and none is counted lost (recorded %lu, lost %lu, generated %lu)",
          (unsigned long)q.recorded, (unsigned long)q.dropped, (unsigned long)q.generated);
}

// ---- weakness 4: a privileged process's own channel filled by pulses of the dead ----------
static void attack_pulse_chan_fill(void)
{
    int chq = ChannelCreate(0);
    run_attack(ATK_PULSE_CHAN_FILL, (uint32_t)chq, 10, 0, "pulses onto a privileged channel, exit");
    run_attack(ATK_PULSE_CHAN_FILL, (uint32_t)chq, 10, 0, "again, from a new process");
    int coq = ConnectAttach(0, chq);
    errno = 0;
    int r = MsgSendPulse(coq, 10, 8, 0), e = errno;
    int mine = 0, n = drain_pulses(chq, 1000000u, 8, -1, &mine);
    tap_check(r == 0 && mine == 1, "after unprivileged processes filled a privileged process's "
          "channel and ended, it still queues its own pulse there (%d, errno %d; %d queued)",
          r, e, n);
    ConnectDetach(coq);
    ChannelDestroy(chq);
}

// ---- a new surface: stack walks of a hostile stack -----------------------------------------
// The runner captures SYSTEM with stack sampling at 1000 Hz while the attacker spins with its
// stack and frame pointers in kernel RAM. Every STACK event of the attacker must stop at its
// first frame (the pc the tick interrupted): a second one could only come from kernel memory.
struct stack_seen {
    uint32_t pid;
    unsigned stacks, deeper, faults;
};

static void stack_scan(const struct kev_slot *s, void *ctx)
{
    struct stack_seen *f = ctx;
    unsigned cls = kev_hdr_class(s->header), ev = kev_hdr_event(s->header);
    if (cls != KEV_C_SYSTEM || s->data[1] >> 16 != f->pid)
        return;
    f->faults += ev == KEV_SYS_FAULT;
    if (ev == KEV_SYS_STACK) {
        f->stacks++;
        f->deeper += KEV_STACK_DEPTH(s->data[2]) > 1u;
    }
}

static void attack_stack_kernel_sp(void)
{
    struct ktrace_query q;
    struct stack_seen f = { 0, 0, 0, 0 };
    int st = -1, s;
    printf("# attack %u: %s\n", ATK_STACK_KERNEL_SP, "stack and frame pointers into kernel RAM "
           "while stacks are sampled");
    int a = capture_begin(&s);
    int hz = TraceEvent(KTRACE_STACKSAMPLE, 1000, 0, 0);
    int pid = ProcSpawn("kt_attack", 10, ATK_STACK_KERNEL_SP);
    ThreadSleep(10000000u);
    ProcKill(pid);                          // (Cortex-M: it is gone already)
    int w = pid > 0 ? ProcWait(pid, &st) : -1;
    TraceEvent(KTRACE_STACKSAMPLE, 0, 0, 0);
    f.pid = (uint32_t)pid;
    capture_end(&q, stack_scan, &f);
    tap_check(a >= 0 && hz == 1000 && s == 0 && w == pid && KW_SIGNALED(st),
          "attack %u: sampled, then ended (capture %d %d %d, status %#x)", ATK_STACK_KERNEL_SP,
          a, hz, s, st);
    tap_check(f.stacks > 0 && f.deeper == 0, "no stack walk of a process reads the kernel's memory "
          "(%u of its %u STACK events deeper than the pc; %u FAULT)", f.deeper, f.stacks, f.faults);
}

// ---- weakness 3 on several CPUs: threads fill the ring at once ------------------------------
// Each thread's sequence numbers as they arrive (in the capture's per-CPU buffers: a ring is
// drained by whichever CPU enters the kernel for the process, so one thread's events may lie
// in several buffers, each in time order; the scan checks the set, not the order).
#define RACE_SEQ_MAX 4096u
struct race_seen {
    uint32_t seen[URING_RACE_THREADS][RACE_SEQ_MAX / 32u];
    uint32_t top[URING_RACE_THREADS];       // the highest sequence + 1
    unsigned got, dups, strays;
};

static void race_scan(const struct kev_slot *s, void *ctx)
{
    struct race_seen *f = ctx;
    if (kev_hdr_class(s->header) != KEV_C_USER || kev_hdr_event(s->header) != URING_CODE_RACE)
        return;
    uint32_t k = s->data[1] >> 16, n = s->data[1] & 0xffffu;
    if (k >= URING_RACE_THREADS || n >= RACE_SEQ_MAX) {
        f->strays++;
        return;
    }
    f->got++;
    f->dups += (f->seen[k][n / 32u] >> (n % 32u)) & 1u;
    f->seen[k][n / 32u] |= 1u << (n % 32u);
    if (n + 1u > f->top[k])
        f->top[k] = n + 1u;
}

// Events missing below each thread's last one that arrived.
static unsigned race_missing(const struct race_seen *f)
{
    unsigned want = 0;
    for (unsigned k = 0; k < URING_RACE_THREADS; k++)
        want += f->top[k];
    return want - (f->got - f->dups);
}

// Runs the ring race under a capture: to its end, or (kill) killed 2 ms in, while its threads
// insert (on CPUs 1-3 where the board has them). `race`: what arrived; returns the status.
static struct race_seen race;       // (1.5 KB: not on the stack)
static int race_run(bool kill, struct ktrace_query *q, int *capture_ok)
{
    int st = -1, s, k = 0;
    memset(&race, 0, sizeof(race));
    int a = capture_begin(&s);
    int pid = ProcSpawn("kt_attack", 10, ATK_URING_RACE | (kill ? 1u : 0u) << 8);
    if (kill) {
        ThreadSleep(2000000u);
        k = ProcKill(pid);
    }
    int w = pid > 0 ? ProcWait(pid, &st) : -1;
    capture_end(q, race_scan, &race);
    *capture_ok = a >= 0 && s == 0 && k == 0 && w == pid;
    return st;
}

static void attack_uring_race(void)
{
    struct ktrace_query q;
    int ok;
    printf("# attack %u: %s\n", ATK_URING_RACE, "threads on several CPUs fill one ring");
    int st = race_run(false, &q, &ok);
    const unsigned total = URING_RACE_THREADS * URING_RACE_EVENTS;
    tap_check(ok && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "attack %u: every insert was taken (status %#x)", ATK_URING_RACE, st);
    tap_check(race.got == total && race.dups == 0 && race.strays == 0 && q.dropped == 0 &&
              q.rejected == 0 && q.generated == q.recorded,
          "threads of a process filling its ring on several CPUs: every event arrives once, none "
          "lost or rejected (%u of %u, %u strays; recorded %lu, lost %lu, rejected %lu)", race.got,
          total, race.strays, (unsigned long)q.recorded, (unsigned long)q.dropped,
          (unsigned long)q.rejected);
    // killed while they insert: each thread's events up to the kill arrive, each once, or are
    // counted (a record reserved and not committed: rejected); nothing lost
    printf("# attack %u: %s\n", ATK_URING_RACE, "killed while its threads fill its ring");
    st = race_run(true, &q, &ok);
    tap_check(ok && KW_SIGNALED(st) && race.got > 0, "attack %u: killed while it inserted (status "
          "%#x, %u events)", ATK_URING_RACE, st, race.got);
    unsigned missing = race_missing(&race);
    tap_check(missing <= q.rejected && race.dups == 0 && race.strays == 0 && q.dropped == 0 &&
              q.rejected <= URING_RACE_THREADS,
          "its threads' events up to the kill arrive, each once, or are counted (%u missing, "
          "%u twice, %u strays; lost %lu, rejected %lu)", missing, race.dups, race.strays,
          (unsigned long)q.dropped, (unsigned long)q.rejected);
}

// ---- another's child, and pointers the calls must refuse --------------------------------
static void attack_foreign_calls(void)
{
    int st = -1;
    int child = ProcSpawn("kt_hoarder", 1, 0);      // ours: it takes its share and ends
    run_attack(ATK_FOREIGN_CALLS, (uint32_t)child, 10, 0, "wait for another's child; kernel "
               "and code addresses as the pointers of calls");
    int w = child > 0 ? ProcWait(child, &st) : -1;
    tap_check(child > 0 && w == child && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "our child was still ours to wait for (%d %d, status %#x)", child, w, st);
}

// ---- a capture starting while a process's ring holds records -------------------------------
struct start_seen {
    uint32_t pid;
    unsigned old, bad;
};

static void start_scan(const struct kev_slot *s, void *ctx)
{
    struct start_seen *f = ctx;
    unsigned cls = kev_hdr_class(s->header), ev = kev_hdr_event(s->header);
    f->old += cls == KEV_C_USER && ev == URING_CODE_OLD;
    f->bad += cls == KEV_C_SYSTEM && ev == KEV_SYS_URING_BAD && s->data[1] == f->pid;
}

static void attack_uring_start(void)
{
    struct ktrace_query q;
    struct start_seen f = { 0, 0, 0 };
    int st = -1, s;
    printf("# attack %u: %s\n", ATK_URING_START, "records pending in a ring while a capture starts");
    int pid = ProcSpawn("kt_attack", 10, ATK_URING_START);
    ThreadSleep(2000000u);                  // its records are pending, it sleeps
    int a = capture_begin(&s);
    int w = pid > 0 ? ProcWait(pid, &st) : -1;
    f.pid = (uint32_t)pid;
    capture_end(&q, start_scan, &f);
    tap_check(a >= 0 && s == 0 && w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "attack %u: starting a capture left a process's ring untouched (capture %d %d, "
          "status %#x)", ATK_URING_START, a, s, st);
    tap_check(f.old == 0 && f.bad == 0 && q.rejected == 0 && q.dropped == 0,
          "records stamped before the capture are not its events: none delivered, rejected or "
          "lost (%u, %u URING_BAD, rejected %lu, lost %lu)", f.old, f.bad, (unsigned long)q.rejected,
          (unsigned long)q.dropped);
}

void hostile_rerun(void)
{
    printf("# kt_hostile: attacks 17 to 24\n");
    attack_fpu_control();
    run_attack(ATK_CONSOLE_C1, 0, 10, 0, "C1 controls, backspace, a forgery past the line "
               "bound, a line of two paths, lines of threads on several CPUs");
    attack_uring_stuck();
    attack_pulse_chan_fill();
    attack_stack_kernel_sp();
    attack_uring_race();
    attack_foreign_calls();
    attack_uring_start();
}
