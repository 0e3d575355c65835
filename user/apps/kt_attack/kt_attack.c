// SPDX-License-Identifier: MIT
// kt_attack: commits the attack ProcArg() & 0xff names (user/apps/kt_hostile/hostile.h), with
// parameter ProcArg() >> 8, and exits 0 when every hostile call was refused as it should be
// (or is killed, when the attack is a fault). kt_hostile runs it once per attack.
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <board_user.h>
#include "../kt_hostile/hostile.h"
#include "rerun.h"
#include "names.h"

static KSTACK(stack2, 384);      // (each stack 128 bytes less for its guard: the
                                  // program fills its 16 KB slot on netduinoplus2)
static int mtx, cnd;

static int finish_at_once(void *arg)
{
    (void)arg;
    return 7;
}

static int cond_waiter(void *arg)
{
    (void)arg;
    MutexLock(mtx);
    CondWait(cnd, mtx);
    MutexUnlock(mtx);
    return 0;
}

static int exit_later(void *arg)
{
    (void)arg;
    ThreadSleep(10000000u);
    ProcExit(0);
}

// A finished, never-joined thread on the list when the process ends (normally or by a fault).
static int unjoined(bool fault)
{
    ThreadCreate(finish_at_once, NULL, stack2, sizeof(stack2), 20, 0);
    ThreadSleep(2000000u);
    if (fault)
        *(volatile uint32_t *)BOARD_KERNEL_RAM_ADDR = 0xdead;
    return 0;
}

// MutexDestroy while a CondWait waiter will take the mutex back: EBUSY, and nothing breaks.
static int mutex_destroy(void)
{
    mtx = MutexCreate();
    cnd = CondCreate();
    int tid = ThreadCreate(cond_waiter, NULL, stack2, sizeof(stack2), 20, 0);
    ThreadSleep(2000000u);                  // the waiter is in CondWait now
    errno = 0;
    int r = MutexDestroy(mtx);
    int bad = !(r == -1 && errno == EBUSY);
    errno = 0;
    r = CondDestroy(cnd);
    bad |= !(r == -1 && errno == EBUSY);
    CondSignal(cnd);
    int m2 = MutexCreate();                 // would reuse a wrongly freed slot
    MutexLock(m2);
    ThreadJoin(tid, NULL);
    MutexUnlock(m2);
    bad |= MutexDestroy(m2) != 0 || MutexDestroy(mtx) != 0 || CondDestroy(cnd) != 0;
    return bad;
}

// TimerCreate on a connection id the process does not own.
static int timer_foreign(int coid)
{
    errno = 0;
    int id = TimerCreate(coid, 5, 0);
    if (id == -1 && errno == EBADF)
        return 0;
    if (id > 0) {
        TimerSettime(id, 1, 1);
        ThreadSleep(100000000u);
        TimerDestroy(id);
    }
    return 1;
}

// The runner's pid: the process that started this one (kt_hostile: pid 1 in the hostile
// image, pid 2 where the board's dtrace runs the suite, docs/fbt.md).
int hostile_runner(void)
{
    static int runner;
    struct kproc_info pi;
    int self = ProcSelf();
    for (unsigned slot = 0; !runner; slot++) {
        if (ProcInfo(slot, &pi) == 0) {
            if (pi.pid == self)
                runner = pi.ppid;
        } else if (errno != ESRCH) {
            break;      // past the table's end
        }
    }
    return runner > 0 ? runner : 1;
}

// As many pulses as the kernel takes on the runner's channel `chid`, then exit.
static int pulse_flood(int chid)
{
    int coid = ConnectAttach(hostile_runner(), chid);
    if (coid < 0)
        return 2;
    for (int i = 0; i < 200; i++)
        if (MsgSendPulse(coid, 10, 1, i) != 0)
            break;
    return 0;
}

// A message to the runner's server, whose process ends (exit 0 from another thread) while this
// thread is REPLY-blocked.
static int dead_client(int chid)
{
    int coid = ConnectAttach(hostile_runner(), chid);
    char m[4] = "hi", r[4];
    ThreadCreate(exit_later, NULL, stack2, sizeof(stack2), 60, 0);
    MsgSend(coid, m, sizeof(m), r, sizeof(r));
    return 3;       // never: the server replies after we are gone
}

// x86: load the null selector into fs and gs and let another process run; they must not
// reach it (kt_hostile checks its own). Other architectures have no segments: nothing to do.
static int segments(void)
{
#if defined(__i386__)
    __asm__ volatile("movl %0, %%fs\n\tmovl %0, %%gs" :: "r"(0));
    ThreadSleep(2000000u);
    __asm__ volatile("movl %0, %%fs\n\tmovl %0, %%gs" :: "r"(0));
#endif
    return 0;
}

// A breakpoint instruction, which no debugger takes here: never returns.
static int breakpoint(void)
{
#if defined(__arm__)
    __asm__ volatile("bkpt #1" ::: "memory");
#elif defined(__aarch64__)
    __asm__ volatile("brk #1" ::: "memory");
#else
    __asm__ volatile("int3" ::: "memory");
#endif
    return 1;
}

// x86 (attack 14): leaves a value on the x87 stack and in xmm0, and sleeps while the
// runner looks for them in its own registers; its own must be intact when it wakes.
static int fpu_leak(void)
{
#if defined(__i386__)
    uint64_t x87 = FPU_X87_SECRET, xmm = FPU_XMM_SECRET, got87 = 0, gotxmm = 0;
    __asm__ volatile("fldl %0" :: "m"(x87));
    __asm__ volatile("movq %0, %%xmm0" :: "m"(xmm));
    ThreadSleep(5000000u);
    __asm__ volatile("fstpl %0" : "=m"(got87));
    __asm__ volatile("movq %%xmm0, %0" : "=m"(gotxmm));
    return (got87 != x87) << 0 | (gotxmm != xmm) << 1;
#else
    return 0;
#endif
}

// Attack 15: lines that imitate the kernel, the tracelogger and a TAP pass;
// control characters (CR, clear-screen, terminal reset, a NUL inside a line); a partial line
// left open while the runner prints one of its own. The console must show each as this
// process's text (test/qemu/test_hostile.sh reads it); here only the calls must succeed.
static int dw(const char *s, size_t n) { return DebugWrite(s, n) != (int)n; }
#define DW(lit) dw(lit, sizeof(lit) - 1)
static int console_forge(void)
{
    int bad = 0;
    bad |= DW("kernel: process 1 (rt_init) killed: MPU violation at 0x00000000\n") << 0;
    bad |= DW("tracelogger: no events lost\n") << 1;
    bad |= (printf("\nkernel: pid 1 exited with status 0; halting\nok 99 - forged pass\n") <= 0) << 2;
    static const char nul_line[] = "stdio: [\0]kept after a NUL\n";     // semihosting's path
    bad |= (fwrite(nul_line, 1, sizeof(nul_line) - 1, stdout) != sizeof(nul_line) - 1) << 6;
    fflush(stdout);
    bad |= DW("ctl: [\r][\x1b[2J][\x1b" "c][\0]after-nul\n") << 3;
    bad |= DW("PARTIAL-") << 4;
    ThreadSleep(5000000u);          // the runner prints a line meanwhile
    bad |= DW("END\n") << 5;
    return bad;
}

// Long console writes in a loop from a low priority: the kernel's work per call is bounded,
// so the priority-250 victim keeps its deadlines.
static char text[4096];

static int console_flood(void)
{
    for (unsigned i = 0; i < sizeof(text); i++)
        text[i] = i % 64 == 63 ? '\n' : '.';
    for (int k = 0; k < 8; k++)
        if (DebugWrite(text, sizeof(text)) != (int)sizeof(text))
            return 1;
    return 0;
}

// Above its rights (attack 9): priorities over its ceiling for itself, a new thread
// and a program it starts, a privileged program, ProcKill; a pulse at 255 arrives capped.
static KSTACK(stack3, 384);
static int prio_raise(void)
{
    int bad = 0;
    errno = 0;
    bad |= !(ThreadSetPrio(0, 255, 0) == -1 && errno == EPERM) << 0;
    bad |= (ThreadSetPrio(0, HOSTILE_CEILING, 0) != 0) << 1;   // up to the ceiling: allowed
    errno = 0;
    bad |= !(ThreadCreate(finish_at_once, NULL, stack3, sizeof(stack3), 200, 0) == -1 &&
             errno == EPERM) << 2;
    errno = 0;
    bad |= !(ProcSpawn("kt_attack", 255, 0) == -1 && errno == EPERM) << 3;
    errno = 0;
    bad |= !(ProcSpawn("kt_hostile", 0, 0) == -1 && errno == EPERM) << 4; // has KAPP_F_IO
    errno = 0;
    bad |= !(ProcKill(hostile_runner()) == -1 && errno == EPERM) << 5;
    int chid = ChannelCreate(0), coid = ConnectAttach(0, chid);
    struct kpulse p = { 0, 0, 0, 0 };
    bad |= (MsgSendPulse(coid, 255, 3, 0) != 0 || MsgReceive(chid, &p, sizeof(p), NULL) != 0 ||
            p.priority > HOSTILE_CEILING) << 6;
    return bad;
}

// Raises itself to its ceiling and spins: only a privileged process's ProcKill ends it.
static int spin(void)
{
    ThreadSetPrio(0, HOSTILE_CEILING, 0);
    for (volatile int forever = 1; forever;)
        __asm__ volatile("" ::: "memory");
    return 1;
}

// Host files without KAPP_F_HOSTFS (attack 11): creating, opening and removing one are
// refused with EPERM (ENOSYS where the board has no host); the console stays open to all.
static int host_files(void)
{
    int bad = 0;
    errno = 0;
    FILE *f = fopen("build/hostile-attack.txt", "w");
    bad |= (f != NULL || (errno != EPERM && errno != ENOSYS)) << 0;
    if (f)
        fclose(f);
    errno = 0;
    bad |= (fopen("kernel/main.c", "r") != NULL || (errno != EPERM && errno != ENOSYS)) << 1;
    errno = 0;
    bad |= (remove("Makefile") == 0 || (errno != EPERM && errno != ENOSYS)) << 2;
    bad |= (printf("# kt_attack: the console still works\n") <= 0) << 3;
    return bad;
}

// Takes as many of each kernel object as it is given (attack 12): each kind must stop at
// the process's limit with EAGAIN, and the runner must still get its own while these are held.
static KSTACK(hoard_stacks[HOSTILE_LIM_THREADS], 128);
static int count_until_eagain(int (*make)(int), int most)
{
    int n = 0;
    for (int k = 0; k < most; k++) {
        errno = 0;
        if (make(k) < 0)
            return errno == EAGAIN ? n : -1;
        n++;
    }
    return n;
}
static int hoard_chid;
static int mk_thread(int k)
{
    return ThreadCreate(finish_at_once, NULL, hoard_stacks[k % HOSTILE_LIM_THREADS],
                        sizeof(hoard_stacks[0]), 1, 0);
}
static int mk_channel(int k) { (void)k; int c = ChannelCreate(0); if (c > 0 && !hoard_chid) hoard_chid = c; return c; }
static int mk_conn(int k) { (void)k; return ConnectAttach(0, hoard_chid); }
static int hoard_coid;
static int mk_timer(int k) { (void)k; return TimerCreate(hoard_coid, 1, 0); }
static int mk_mutex(int k) { (void)k; return MutexCreate(); }
static int mk_cond(int k) { (void)k; return CondCreate(); }
static int mk_sem(int k) { (void)k; return SemCreate(0); }
static int hoard(void)
{
    int bad = 0;
    bad |= (count_until_eagain(mk_thread, 64) != HOSTILE_LIM_THREADS - 1) << 0; // + main
    bad |= (count_until_eagain(mk_channel, 64) != HOSTILE_LIM_CHANNELS) << 1;
    hoard_coid = ConnectAttach(0, hoard_chid);
    bad |= (count_until_eagain(mk_timer, 64) != HOSTILE_LIM_TIMERS) << 3;
    bad |= (count_until_eagain(mk_conn, 128) != HOSTILE_LIM_CONNECTIONS - 1) << 2;
    bad |= (count_until_eagain(mk_mutex, 64) != HOSTILE_LIM_SYNC) << 4;
    bad |= (count_until_eagain(mk_cond, 64) != HOSTILE_LIM_SYNC) << 5;
    bad |= (count_until_eagain(mk_sem, 64) != HOSTILE_LIM_SYNC) << 6;
    ThreadSleep(HOSTILE_HOARD_NS); // the runner takes its own now
    return bad;
}

// Attack 13: the process writes garbage into its own user-event ring (user/lib/trace_uring.c):
// a committed record with an event code out of range, then a head far past anything it could
// hold. The kernel must reject the bad record (never count it lost), deliver the good ones,
// give the ring up (nrec 0, corrupt 1, SYSTEM URING_BAD events: kt_hostile checks the trace)
// and still take its events by kernel call; it must refuse a ring outside the process's RAM or of a bad size.
extern uint32_t trace_uring_mem[];
static int uring_garbage(void)
{
    volatile struct kuser_ring *u = (volatile struct kuser_ring *)trace_uring_mem;
    int bad = 0;
    bad |= (TraceEvent(KTRACE_INSERTSUSEREVENT, URING_CODE_FIRST, 1, 2) != 0) << 0;
    ThreadSelf();                               // a kernel entry: drained
    bad |= (u->nrec == 0 || u->tail != u->head) << 1;
    for (uint32_t i = 0; i < URING_PENDING; i++)
        TraceEvent(KTRACE_INSERTSUSEREVENT, URING_CODE_PENDING, i, 0);
    uint32_t h = u->head, n = u->nrec;
    u->rec[h & (n - 1u)].tag = (h & 0xffffu) << 16 | 0xffffu;     // committed, code too big
    u->head = h + 1u;
    ThreadSelf();
    bad |= (u->nrec == 0 || u->tail != h + 1u) << 2;   // consumed, the ring still in use
    u->head += URING_BAD_HEAD;
    ThreadSelf();
    bad |= (u->nrec != 0 || u->corrupt != 1) << 3;     // given up
    bad |= (TraceEvent(KTRACE_INSERTSUSEREVENT, URING_CODE_AFTER, 3, 4) != 0) << 4;
    errno = 0;
    bad |= (TraceEvent(KTRACE_USERRING, BOARD_KERNEL_RAM_ADDR, 16, 0) != -1 || errno != EFAULT) << 5;
    errno = 0;
    bad |= (TraceEvent(KTRACE_USERRING, (uint32_t)(uintptr_t)trace_uring_mem, 3, 0) != -1 ||
            errno != EINVAL) << 6;
    return bad;
}

// Attack 16: this process starts the image's other flagless programs (kt_hoarder,
// kt_hoarder2, kt_hoarder3: each takes every object it is given and holds it) and hoards
// too. A quota per process would let the tree take every pool; one per domain holds the
// tree to one quarter, and a privileged process (the runner) still gets each kind. Exit
// status 0 when every program started and ended well.
static int tree_hoard(void)
{
    static const char *const members[HOSTILE_TREE_MEMBERS] = { "kt_hoarder", "kt_hoarder2",
                                                              "kt_hoarder3" };
    int pid[HOSTILE_TREE_MEMBERS], bad = 0;
    for (int i = 0; i < HOSTILE_TREE_MEMBERS; i++) {
        errno = 0;
        pid[i] = ProcSpawn(members[i], 0, 0);
        bad |= (pid[i] < 0 && errno != EAGAIN) << 0;
    }
    // and takes its own share of each kind (a refusal is expected: counts do not matter here)
    count_until_eagain(mk_thread, 64);
    count_until_eagain(mk_channel, 64);
    if (hoard_chid > 0 && (hoard_coid = ConnectAttach(0, hoard_chid)) > 0) {
        count_until_eagain(mk_timer, 64);
        count_until_eagain(mk_conn, 128);
    }
    count_until_eagain(mk_mutex, 64);
    count_until_eagain(mk_cond, 64);
    count_until_eagain(mk_sem, 64);
    ThreadSleep(HOSTILE_HOARD_NS);
    for (int i = 0; i < HOSTILE_TREE_MEMBERS; i++) {
        int st = -1;
        if (pid[i] > 0)
            bad |= (ProcWait(pid[i], &st) != pid[i] || !KW_EXITED(st) || KW_EXITSTATUS(st)) << 1;
    }
    return bad;
}

int main(void)
{
    uint32_t arg = ProcArg();
    int param = (int)(arg >> 8);

    switch (arg & 0xff) {
    case ATK_NONE:           return 0;
    case ATK_UNJOINED_EXIT:  return unjoined(false);
    case ATK_UNJOINED_FAULT: return unjoined(true);
    case ATK_MUTEX_DESTROY:  return mutex_destroy();
    case ATK_TIMER_FOREIGN:  return timer_foreign(param);
    case ATK_PULSE_FLOOD:    return pulse_flood(param);
    case ATK_DEAD_CLIENT:    return dead_client(param);
    case ATK_SEGMENTS:       return segments();
    case ATK_BREAKPOINT:     return breakpoint();
    case ATK_CONSOLE_FLOOD:  return console_flood();
    case ATK_PRIO_RAISE:     return prio_raise();
    case ATK_SPIN:           return spin();
    case ATK_HOST_FILES:     return host_files();
    case ATK_HOARD:          return hoard();
    case ATK_URING_GARBAGE:  return uring_garbage();
    case ATK_FPU_LEAK:       return fpu_leak();
    case ATK_CONSOLE_FORGE:  return console_forge();
    case ATK_TREE_HOARD:     return tree_hoard();
    case ATK_NAMES:          return names_attack(param);
    }
    return rerun_attack(arg & 0xff, param);     // attacks 17 to 24 (rerun.c)
}
