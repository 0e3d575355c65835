// SPDX-License-Identifier: MIT
// kt_attack's side of the hostile suite's attacks 17 to 24 (docs/hostile.md): new angles on
// the weaknesses attacks 13 to 16 cover. kt_hostile's rerun.c says what each proves and
// checks what this process cannot forge (its own registers, the trace, the console as the
// kernel wrote it); the exit status here only says that the calls behaved as expected.
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <board_user.h>
#include "../kt_hostile/hostile.h"
#include "rerun.h"

// ---- FP state (weakness 1) ----------------------------------------------------------------
// x86: an x87 control word with exceptions unmasked, a pending zero-divide, a value in mm1,
// MXCSR changed and a value in xmm7. AArch64: every vector register and FPCR/FPSR. Cortex-M:
// the FPU is off; an FP instruction, or enabling the FPU through CPACR, must end the process.
// param 0: set, sleep, and check its own state came back; param 1: set and spin, touching the
// FPU (so that it owns the FPU when the runner kills it); param 2 (Cortex-M): CPACR.
#if defined(__i386__)
static void fpu_set(void)
{
    uint16_t cw = FPU_X87_CW_HOSTILE;
    uint32_t mx = FPU_MXCSR_HOSTILE;
    uint64_t v = FPU_MMX_SECRET;
    uint64_t zero = 0;                  // 0.0 as a double
    __asm__ volatile("fninit\n\tfldcw %0\n\tfld1\n\tfdivl %1" :: "m"(cw), "m"(zero)); // 1/0
    __asm__ volatile("movq %0, %%mm1" :: "m"(v));
    __asm__ volatile("ldmxcsr %0\n\tmovq %1, %%xmm7" :: "m"(mx), "m"(v));
}
static int fpu_mine(void)
{
    uint16_t cw = 0, sw = 0;
    uint32_t mx = 0;
    uint64_t mm = 0, x = 0;
    __asm__ volatile("fnstcw %0\n\tfnstsw %1" : "=m"(cw), "=m"(sw));
    __asm__ volatile("movq %%mm1, %0\n\tstmxcsr %1\n\tmovq %%xmm7, %2" : "=m"(mm), "=m"(mx), "=m"(x));
    return (cw != FPU_X87_CW_HOSTILE) << 0 | !(sw & 0x80u) << 1 | (mm != FPU_MMX_SECRET) << 2 |
           ((mx & 0xffc0u) != (FPU_MXCSR_HOSTILE & 0xffc0u)) << 3 | (x != FPU_MMX_SECRET) << 4;
}
static void fpu_touch(void)
{
    uint16_t cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));   // no wait: the pending exception stays pending
}
#elif defined(__aarch64__)
#define DUP(n) "dup v" #n ".2d, %0\n\t"
static void fpu_set(void)
{
    uint64_t v = FPU_MMX_SECRET, cr = FPU_A64_FPCR_HOSTILE, sr = FPU_A64_FPSR_HOSTILE;
    __asm__ volatile(".arch_extension simd\n\t"
                     DUP(0) DUP(1) DUP(2) DUP(3) DUP(4) DUP(5) DUP(6) DUP(7) DUP(8) DUP(9)
                     DUP(10) DUP(11) DUP(12) DUP(13) DUP(14) DUP(15) DUP(16) DUP(17) DUP(18)
                     DUP(19) DUP(20) DUP(21) DUP(22) DUP(23) DUP(24) DUP(25) DUP(26) DUP(27)
                     DUP(28) DUP(29) DUP(30) DUP(31)
                     "msr fpcr, %1\n\tmsr fpsr, %2" :: "r"(v), "r"(cr), "r"(sr));
}
static int fpu_mine(void)
{
    uint64_t v0, v31, cr, sr;
    __asm__ volatile(".arch_extension simd\n\tumov %0, v0.d[0]\n\tumov %1, v31.d[1]\n\t"
                     "mrs %2, fpcr\n\tmrs %3, fpsr" : "=r"(v0), "=r"(v31), "=r"(cr), "=r"(sr));
    return (v0 != FPU_MMX_SECRET) << 0 | (v31 != FPU_MMX_SECRET) << 1 |
           (cr != FPU_A64_FPCR_HOSTILE) << 2 | (sr != FPU_A64_FPSR_HOSTILE) << 3;
}
static void fpu_touch(void) {}
#endif

// param 3: the pending exception is taken (a waiting x87 instruction); param 4: an unmasked
// SSE divide by zero. The kernel must end the process (#MF, #XM) and nothing else; AArch64
// does not trap FP exceptions (A53): the same divide goes on.
#if defined(__i386__) || defined(__aarch64__)
static int fpu_raise(bool x87)
{
#if defined(__i386__)
    uint32_t one = 0x3f800000u;         // 1.0f
    if (x87)
        __asm__ volatile("fwait");
    uint32_t mx = 0;
    __asm__ volatile("ldmxcsr %1\n\txorps %%xmm0, %%xmm0\n\tmovss %2, %%xmm1\n\t"
                     "divss %%xmm0, %%xmm1\n\tstmxcsr %0"
                     : "=m"(mx) : "m"((uint32_t){ 0x0000u }), "m"(one));
    return !(mx & 4u);          // not trapped (QEMU's TCG): at least flagged, zero divide
#elif defined(__aarch64__)
    (void)x87;
    __asm__ volatile(".arch_extension fp\n\tfmov d1, #1.0\n\tmovi d2, #0\n\tfdiv d0, d1, d2");
#endif
    return 0;
}
#endif

static int fpu_control(int param)
{
#if defined(__i386__) || defined(__aarch64__)
    fpu_set();
    if (param == 3 || param == 4)
        return fpu_raise(param == 3);
    if (param == 1)
        for (;;)
            fpu_touch();        // the runner kills it here
    ThreadSleep(5000000u);      // the runner looks at its own state meanwhile
    return fpu_mine();
#elif defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
    if (param == 2)
        *(volatile uint32_t *)0xe000ed88u |= 0xfu << 20;   // CPACR: CP10, CP11 full access
    else
        __asm__ volatile(".inst.w 0xee000a10" ::: "memory");  // vmov s0, r0
    return 1;                   // never: killed
#else
    (void)param;
    return 0;
#endif
}

// ---- the console (weaknesses 5, 6) ---------------------------------------------------------
static int dw(const char *s, size_t n) { return DebugWrite(s, n) != (int)n; }
#define DW(lit) dw(lit, sizeof(lit) - 1)

static KSTACK(mt_stacks[CON_MT_THREADS], 640);     // (128 bytes less for the guard: kt_attack.c)
static int mt_writer(void *arg)
{
    int k = (int)(uintptr_t)arg;
    char line[80];
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << (k + 1)));  // another CPU where any
    memcpy(line, "MT0:", 4);
    line[2] = (char)('0' + k);
    memset(line + 4, 'a' + k, 60);
    line[64] = '\n';
    int bad = 0;
    for (int i = 0; i < CON_MT_LINES; i++)
        bad |= dw(line, 65);
    return bad;
}

static int console_c1(void)
{
    int bad = 0;
    // C1 controls: CSI as UTF-8 (U+009B) and as a raw byte, NEL (U+0085), an em dash that
    // must stay intact, backspaces over a TAP word
    bad |= DW("c1: [\xc2\x9b" "2J][\x9b" "2J][\xc2\x85][\xe2\x80\x94][ok\b\b\b]\n");
    // a kernel line past the bound of a process's line: the rest must carry the prefix again
    static char fill[300];
    memset(fill, 'F', sizeof(fill));
    for (size_t off = 0; off < 254; off += 127)
        bad |= dw(fill, 254 - off < 127 ? 254 - off : 127);
    bad |= DW("kernel: forged past the bound\n");
    // DebugWrite and stdout on one line: each part keeps its source
    bad |= DW("MIX-");
    bad |= (printf("kernel: forged after a DebugWrite\n") <= 0);
    fflush(stdout);
    // lines of several threads at once (on several CPUs where the board has them)
    int tid[CON_MT_THREADS];
    for (int k = 0; k < CON_MT_THREADS; k++)
        tid[k] = ThreadCreate(mt_writer, (void *)(uintptr_t)k, mt_stacks[k], sizeof(mt_stacks[k]),
                              10, 0);
    for (int k = 0; k < CON_MT_THREADS; k++) {
        int st = 1;
        bad |= tid[k] < 0 || ThreadJoin(tid[k], &st) != 0 || st != 0;
    }
    return bad;
}

// ---- the user-event ring (weakness 3) ------------------------------------------------------
// Each round reserves URING_STUCK_PER_ROUND records, commits all but the first (so the
// kernel's drain stops at the hole), then unregisters the ring (round 0) or ends (the last).
// The records are the process's: each must reach the trace or be counted rejected for its
// pid, never vanish (the runner counts them).
extern uint32_t trace_uring_mem[];
extern const uint32_t trace_uring_records;
static int uring_stuck(void)
{
    volatile struct kuser_ring *u = (volatile struct kuser_ring *)trace_uring_mem;
    uint32_t addr = (uint32_t)(uintptr_t)trace_uring_mem;
    int bad = 0;
    if (trace_uring_records == 0)
        return 0;
    bad |= TraceEvent(KTRACE_USERRING, addr, trace_uring_records, 0) != 0;
    for (uint32_t round = 0; round < URING_STUCK_ROUNDS; round++) {
        uint32_t h = u->head, mask = u->nrec - 1u;
        u->head = h + URING_STUCK_PER_ROUND;
        for (uint32_t i = 1; i < URING_STUCK_PER_ROUND; i++) {
            volatile struct kuser_rec *r = &u->rec[(h + i) & mask];
            r->ts = 0;
            r->a = round * URING_STUCK_PER_ROUND + i;
            r->b = 0;
            r->tag = ((h + i) & 0xffffu) << 16 | URING_CODE_STUCK;
        }
        ThreadSelf();                               // a drain: it stops at the hole
        bad |= (u->tail != h) << 1;
        if (round + 1u < URING_STUCK_ROUNDS) {
            bad |= (TraceEvent(KTRACE_USERRING, 0, 0, 0) != 0) << 2;
            bad |= (TraceEvent(KTRACE_USERRING, addr, trace_uring_records, 0) != 0) << 3;
        }
    }
    return bad;
}

// ---- pulses (weakness 4) ---------------------------------------------------------------------
// As many pulses as the kernel takes onto the runner's channel `chid`, then exit: they stay
// queued, charged to nobody. Exit 0 when the refusal was EAGAIN within its quota.
static int pulse_chan_fill(int chid)
{
    int coid = ConnectAttach(hostile_runner(), chid), n = 0;
    if (coid < 0)
        return 2;
    for (; n < 64; n++) {
        errno = 0;
        if (MsgSendPulse(coid, 10, 7, n) != 0)
            break;
    }
    return !(errno == EAGAIN && n <= HOSTILE_PULSES_PER_PROC);
}

// ---- stack walks (the STACK events, a new surface) -----------------------------------------
// Stack and frame pointers into the kernel's RAM, then spin: a sampling tick walks this
// stack; the walk must read nothing of the kernel's (it stops at the first frame). On
// Cortex-M the exception entry cannot push its frame there: the kernel ends the process.
static int stack_kernel_sp(void)
{
    uintptr_t k = BOARD_KERNEL_RAM_ADDR + 0x100u;
#if defined(__i386__)
    __asm__ volatile("movl %0, %%esp\n\tmovl %0, %%ebp\n1:\tjmp 1b" :: "r"(k));
#elif defined(__aarch64__)
    __asm__ volatile("mov sp, %0\n\tmov x29, %0\n\tmov x30, %0\n1:\tb 1b" :: "r"(k));
#else
    __asm__ volatile("mov sp, %0\n\tmov r7, %0\n\tmov r11, %0\n\tmov lr, %0\n1:\tb 1b" :: "r"(k));
#endif
    return 1;
}

// ---- the ring on several CPUs (weakness 3) -------------------------------------------------
static KSTACK(race_stacks[URING_RACE_THREADS], 640);
static volatile bool race_forever;
static int race_writer(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)(uintptr_t)(1u << (k + 1u)));   // its own CPU where any
    int bad = 0;
    for (uint32_t i = 0; i < (race_forever ? 0xffffu : URING_RACE_EVENTS); i++) {
        bad |= TraceEvent(KTRACE_INSERTSUSEREVENT, URING_CODE_RACE, k << 16 | i, 0) != 0;
        for (volatile unsigned spin = 0; race_forever && spin < 2000u; spin++)
            ;                       // until killed: a few hundred events a CPU (the capture holds them)
    }
    return bad;
}

// param 1: the threads insert until the runner kills the process (mid-commit, perhaps, on
// another CPU); each thread's events must then arrive without a gap, or be counted.
static int uring_race(int param)
{
    int tid[URING_RACE_THREADS], bad = 0;
    race_forever = param == 1;
    for (int k = 0; k < URING_RACE_THREADS; k++)
        tid[k] = ThreadCreate(race_writer, (void *)(uintptr_t)k, race_stacks[k],
                              sizeof(race_stacks[k]), 10, 0);
    for (int k = 0; k < URING_RACE_THREADS; k++) {
        int st = 1;
        bad |= tid[k] < 0 || ThreadJoin(tid[k], &st) != 0 || st != 0;
    }
    return bad;
}

// ---- pointers and another's child --------------------------------------------------------
// Each call must be refused with the errno given, and reap or write nothing: `pid` is a child
// of the runner's (it must still be the runner's to wait for), hostile_runner() the runner.
static int refused(int r, int want)
{
    return !(r == -1 && errno == want);
}
static int foreign_calls(int pid)
{
    void *k = (void *)(uintptr_t)(BOARD_KERNEL_RAM_ADDR + 0x40u);
    void *code = (void *)(uintptr_t)&foreign_calls;    // its own program: read-only to it
    int st = 0x5a5a, bad = 0, chid = ChannelCreate(0);
    errno = 0; bad |= refused(ProcWait(pid, &st), ECHILD) << 0;
    errno = 0; bad |= refused(ProcWait(hostile_runner(), &st), ECHILD) << 1;
    errno = 0; bad |= refused(ProcWait(-1, k), EFAULT) << 2;
    errno = 0; bad |= refused(ThreadCtl(KTCTL_RUNMASK_GET_AND_SET, k), EFAULT) << 3;
    errno = 0; bad |= refused(ThreadCtl(KTCTL_RUNMASK_GET_AND_SET, code), EFAULT) << 4;
    errno = 0; bad |= refused(ProcInfo(0, k), EFAULT) << 5;
    errno = 0; bad |= refused(ThreadInfo(0, k), EFAULT) << 6;
    errno = 0; bad |= refused(SysInfo(KSYSINFO_NCPUS, k), EFAULT) << 7;
    errno = 0; bad |= refused(ThreadName(0, k), EFAULT) << 8;
    errno = 0; bad |= refused(ProcSpawn(k, 10, 0), EFAULT) << 9;
    errno = 0; bad |= refused(TraceEvent(KTRACE_USERRING, (uint32_t)(uintptr_t)code, 1, 0), EFAULT) << 10;
    errno = 0; bad |= refused(TraceEvent(KTRACE_USERRING, 0xfffffff0u, 1024, 0), EFAULT) << 11;
    errno = 0; bad |= refused(TraceEvent(KTRACE_INSERTCUSEREVENT, 5, (uint32_t)(uintptr_t)k, 4), EFAULT) << 12;
    errno = 0; bad |= refused(TraceEvent(KTRACE_INSERTUSRSTREVENT, 5, (uint32_t)(uintptr_t)k, 0), EFAULT) << 13;
    errno = 0; bad |= refused(DebugWrite(k, 16), EFAULT) << 14;
    TimerTimeout(1000000u);
    errno = 0; bad |= refused(MsgReceive(chid, k, 16, NULL), EFAULT) << 15;
    bad |= (st != 0x5a5a) << 16;            // nothing written through a refused call
    ChannelDestroy(chid);
    return bad;
}

// ---- a capture starting while its ring holds records (the "trace-start ring sweep") -------
// Committed records stamped long before, then a kernel entry (any drain happens there), a
// copy of the ring, and a sleep during which the runner starts a capture. Starting a capture
// must not touch a process's ring (its memory is its own): the copy must still match when it
// wakes, before any kernel entry. Exit 0 then.
static uint32_t ring_copy[4 + 4 * URING_OLD_RECORDS];
static int uring_start(void)
{
    volatile struct kuser_ring *u = (volatile struct kuser_ring *)trace_uring_mem;
    uint32_t addr = (uint32_t)(uintptr_t)trace_uring_mem;
    if (trace_uring_records == 0 || TraceEvent(KTRACE_USERRING, addr, trace_uring_records, 0) != 0)
        return 1;
    uint32_t h = u->head, mask = u->nrec - 1u;
    u->head = h + URING_OLD_RECORDS;
    for (uint32_t i = 0; i < URING_OLD_RECORDS; i++) {
        volatile struct kuser_rec *r = &u->rec[(h + i) & mask];
        r->ts = 0;                          // long before anything
        r->a = i;
        r->b = 0;
        r->tag = ((h + i) & 0xffffu) << 16 | URING_CODE_OLD;
    }
    ThreadSelf();
    const volatile uint32_t *w = (const volatile uint32_t *)trace_uring_mem;
    unsigned n = 4u + 4u * URING_OLD_RECORDS;
    for (unsigned i = 0; i < n; i++)
        ring_copy[i] = w[i];
    ThreadSleep(6000000u);                  // the runner starts its capture meanwhile
    int bad = 0;
    for (unsigned i = 0; i < n; i++)
        bad |= w[i] != ring_copy[i];
    return bad;
}

int rerun_attack(unsigned mode, int param)
{
    switch (mode) {
    case ATK_FPU_CONTROL:     return fpu_control(param);
    case ATK_CONSOLE_C1:      return console_c1();
    case ATK_URING_STUCK:     return uring_stuck();
    case ATK_PULSE_CHAN_FILL: return pulse_chan_fill(param);
    case ATK_STACK_KERNEL_SP: return stack_kernel_sp();
    case ATK_URING_RACE:      return uring_race(param);
    case ATK_FOREIGN_CALLS:   return foreign_calls(param);
    case ATK_URING_START:     return uring_start();
    }
    return 99;
}
