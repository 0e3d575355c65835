// SPDX-License-Identifier: MIT
// kt_hostile: the hostile-process suite, run as pid 1 (pid 2 under the board's dtrace: the
// fbthostile image). Each attack runs in a process of its own (kt_attack, ProcArg() = attack
// | parameter << 8), so that one attack's damage cannot hide another's result; after each
// one this runner checks, as TAP lines, that
//   - the attack was refused or contained (the attacker's exit status says what it saw),
//   - the kernel still runs (this process gets control back and the next attack starts),
//   - a priority-250 victim thread in this process kept its 1 ms deadlines within
//     HOSTILE_LATENCY_NS (docs/hostile.md gives the measured figures).
// A kernel that hangs ends the TAP stream: QEMU's timeout fails the test and the last
// "# attack" line names the culprit. The list of attacks and what each proves: docs/hostile.md.
#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev.h>
#include "hostile.h"
#include "rerun.h"
#include "capture.h"
#include "../kt_attack/names.h"
#include <sys/dispatch.h>

// The victim: a priority-250 thread sleeping 1 ms at a time; it records how late it woke.
static volatile uint64_t victim_worst_ns;
static volatile uint32_t victim_wakeups;
static volatile bool victim_stop;
static KSTACK(victim_stack, 1024);

static int victim(void *arg)
{
    (void)arg;
    while (!victim_stop) {
        uint64_t t0 = ClockTime();
        ThreadSleep(1000000u);
        uint64_t late = ClockTime() - t0 - 1000000u;
        if (late > victim_worst_ns)
            victim_worst_ns = late;
        victim_wakeups++;
    }
    return 0;
}

static int my_prio(void)
{
    struct kthread_info ti;
    int pid = ProcSelf(), tid = ThreadSelf();
    for (unsigned s = 0; ThreadInfo(s, &ti) == 0; s++)
        if (ti.pid == pid && ti.tid == tid)
            return ti.priority;
    return -1;
}

int drain_pulses(int chid, uint64_t timeout_ns, int code, int value, int *matched)
{
    struct kpulse p;
    int n = 0;
    *matched = 0;
    for (;;) {
        TimerTimeout(timeout_ns);
        if (MsgReceive(chid, &p, sizeof(p), NULL) != 0)
            return n;
        n++;
        *matched += p.code == code && (value == -1 || p.value == value);
    }
}

// Runs attack `mode` in its own process at priority `prio` and checks its end: exit status 0
// (the attacker saw every refusal it expected), or killed by signal `sig` when sig != 0.
int run_attack(unsigned mode, uint32_t param, int prio, int sig, const char *what)
{
    int st = -1;
    printf("# attack %u: %s\n", mode, what);
    victim_worst_ns = 0;
    uint32_t w0 = victim_wakeups;
    int pid = ProcSpawn("kt_attack", prio, mode | param << 8);
    int w = pid > 0 ? ProcWait(pid, &st) : -1;
    tap_check(w == pid && (sig ? KW_SIGNALED(st) && KW_TERMSIG(st) == sig
                           : KW_EXITED(st) && KW_EXITSTATUS(st) == 0),
          "attack %u (%s) was refused or contained (status %#x)", mode, what, st);
    // The victim runs a few more deadlines after the attack. Its 1 ms sleep ends at the second
    // tick (2 periods a wake-up), and one of its wake-ups may come at the same tick as ours, on
    // another CPU: whether we count that one is a race (a reschedule IPI taken on the shared
    // side brings us back before the victim has counted it). 4 ms holds two whole periods of it
    // however the race goes.
    ThreadSleep(4000000u);
    uint64_t worst = victim_worst_ns;
    tap_check(worst <= HOSTILE_LATENCY_NS && victim_wakeups - w0 >= 2,
          "attack %u: the priority-250 victim kept its 1 ms deadlines (%lu wakeups, worst %lu us late)",
          mode, (unsigned long)(victim_wakeups - w0), (unsigned long)(worst / 1000u));
    return st;
}

// Attack: a client at priority 60 dies REPLY-blocked on our server thread (priority 30); the
// reply then fails with ESRCH and must not leave the server at the dead client's priority.
static int srv_chid;
static volatile int srv_prio_after, srv_reply_err;
static KSTACK(srv_stack, 1024);

static int server(void *arg)
{
    (void)arg;
    char buf[16];
    int rcvid = MsgReceive(srv_chid, buf, sizeof(buf), NULL);
    ThreadSleep(30000000u);     // the client's process dies meanwhile
    errno = 0;
    if (MsgReply(rcvid, 0, NULL, 0) == -1)
        srv_reply_err = errno;
    srv_prio_after = my_prio();
    return 0;
}

static void attack_dead_client(void)
{
    srv_prio_after = srv_reply_err = -1;
    int tid = ThreadCreate(server, NULL, srv_stack, sizeof(srv_stack), 30, 0);
    run_attack(ATK_DEAD_CLIENT, (uint32_t)srv_chid, 60, 0, "client dies while its server holds its priority");
    ThreadJoin(tid, NULL);
    tap_check(srv_reply_err == ESRCH && srv_prio_after == 30,
          "MsgReply to a dead client fails with ESRCH (%d) and drops its priority (now %d)",
          srv_reply_err, srv_prio_after);
}

// Attack: a process fills our channel with pulses and exits; an interrupt attached to the
// same channel must still be delivered.
static void attack_pulse_flood(void)
{
    int coid = ConnectAttach(0, srv_chid);
    int id = InterruptAttachEvent(HOSTILE_IRQ, coid, 9);
    run_attack(ATK_PULSE_FLOOD, (uint32_t)srv_chid, 10, 0, "pulse flood on a channel it does not own");
    InterruptTrigger(HOSTILE_IRQ);
    int irq_seen = 0, n = drain_pulses(srv_chid, 2000000u, 9, HOSTILE_IRQ, &irq_seen);
    tap_check(irq_seen == 1, "the interrupt's pulse was delivered after the flood (%d pulses queued)",
          n);
    tap_check(n <= HOSTILE_PULSES_PER_PROC + 1, "one sender queued at most %d pulses (%d)",
          HOSTILE_PULSES_PER_PROC, n - irq_seen);
    InterruptDetach(id);
    ConnectDetach(coid);
}

// Attack (x86): the attacker loads null selectors into fs and gs and sleeps while we run;
// ours must still be the flat data selector the kernel gives every process.
static void attack_segments(void)
{
    run_attack(ATK_SEGMENTS, 0, 10, 0, "null selectors in fs and gs across a switch");
#if defined(__i386__)
    uint32_t fs, gs;
    ThreadSleep(1000000u);
    __asm__ volatile("movl %%fs, %0\n\tmovl %%gs, %1" : "=r"(fs), "=r"(gs));
    tap_check(fs != 0 && gs != 0, "another process's fs and gs did not reach us (fs %#lx, gs %#lx)",
          (unsigned long)fs, (unsigned long)gs);
#endif
}

// Attack 14 (x86): the attacker leaves values on the x87 stack and in xmm0 and
// sleeps; we run on the same CPU and must find neither in our registers (a thread's first FPU
// state is a clean one). Then we leave our own and sleep: the attacker checks that its values
// came back intact (its exit status).
static void attack_fpu(void)
{
#if defined(__i386__)
    int st = -1;
    printf("# attack %u: %s\n", ATK_FPU_LEAK, "x87 and SSE values left for the next process");
    int pid = ProcSpawn("kt_attack", 10, ATK_FPU_LEAK);
    ThreadSleep(1000000u);                  // it loads its values and sleeps
    uint64_t got87 = 0, gotxmm = 0, mine = 0x3ff0000000000000ull; // 1.0
    __asm__ volatile("fstpl %0" : "=m"(got87));     // our x87 stack is empty: a NaN
    tap_check(got87 != FPU_X87_SECRET, "another process's x87 value did not reach us (%#llx)",
          (unsigned long long)got87);
    __asm__ volatile("movq %%xmm0, %0" : "=m"(gotxmm));
    tap_check(gotxmm != FPU_XMM_SECRET, "another process's xmm0 did not reach us (%#llx)",
          (unsigned long long)gotxmm);
    __asm__ volatile("fldl %0\n\tmovq %0, %%xmm0" :: "m"(mine));
    int w = ProcWait(pid, &st);
    __asm__ volatile("fstpl %0" : "=m"(got87));
    tap_check(w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 0 && got87 == mine,
          "attack %u: each process got its own x87 and SSE state back (status %#x)",
          ATK_FPU_LEAK, st);
#endif
}

// Attack 15: the attacker imitates kernel, tracelogger and TAP lines,
// writes control characters, and leaves a partial line open while we print a whole one. The
// console is checked by test/qemu/test_hostile.sh (what the kernel wrote, not what we see).
static void attack_console(void)
{
    int st = -1;
    printf("# attack %u: %s\n", ATK_CONSOLE_FORGE, "forged lines, control characters, a partial line");
    int pid = ProcSpawn("kt_attack", 10, ATK_CONSOLE_FORGE);
    ThreadSleep(2000000u);                  // its partial line is open now
    printf("# kt_hostile: a line while kt_attack's is partial\n");
    int w = ProcWait(pid, &st);
    tap_check(w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "attack %u: its console writes were taken (status %#x); the console is checked by "
          "its reader", ATK_CONSOLE_FORGE, st);
}

// Attack: a process spins at its priority ceiling (63); we (privileged, 100) end it with
// ProcKill. The victim at 250 is never delayed, and the attacker ends as killed.
static void attack_spin_kill(void)
{
    int st = -1;
    printf("# attack %u: %s\n", ATK_SPIN, "spin at the ceiling until killed");
    victim_worst_ns = 0;
    uint32_t w0 = victim_wakeups;
    int pid = ProcSpawn("kt_attack", 10, ATK_SPIN);
    ThreadSleep(20000000u);
    int k = ProcKill(pid);
    int w = ProcWait(pid, &st);
    tap_check(pid > 0 && k == 0 && w == pid && KW_SIGNALED(st) && KW_TERMSIG(st) == KSIG_KILL,
          "a spinning process is ended by ProcKill (status %#x)", st);
    errno = 0;
    tap_check(ProcKill(pid) == -1 && errno == ESRCH, "ProcKill of a gone process fails with ESRCH");
    ThreadSleep(3000000u);
    // Over these 23 ms the victim wakes every 2 ticks on one CPU (10 or more times); on
    // several under QEMU's -icount, which runs the virtual CPUs in turn, a wake-up also waits
    // for the other CPUs' turns (up to 4 ms seen with 4 CPUs): 5 shows it kept running.
    tap_check(victim_worst_ns <= HOSTILE_LATENCY_NS && victim_wakeups - w0 >= 5,
          "attack %u: the priority-250 victim kept its 1 ms deadlines (%lu wakeups, worst %lu us late)",
          ATK_SPIN, (unsigned long)(victim_wakeups - w0), (unsigned long)(victim_worst_ns / 1000u));
}

// Attack: a process takes as many of each kernel object as it can and holds them; it must
// stop at its limits, and we (privileged, but drawing on the same pools) still get ours.
static int short_nap(void *arg)
{
    (void)arg;
    ThreadSleep(1000000u);
    return 0;
}

static void attack_hoard(void)
{
    int st = -1;
    printf("# attack %u: %s\n", ATK_HOARD, "take every kernel object it can and hold them");
    int pid = ProcSpawn("kt_attack", 10, ATK_HOARD);
    ThreadSleep(HOSTILE_HOARD_NS / 2);  // it has taken what it could and holds it
    int ch = ChannelCreate(0), co = ch > 0 ? ConnectAttach(0, ch) : -1;
    int tm = co > 0 ? TimerCreate(co, 1, 0) : -1;
    int mx = MutexCreate(), cv = CondCreate(), sm = SemCreate(0);
    int th = ThreadCreate(short_nap, NULL, srv_stack, sizeof(srv_stack), 1, 0);
    tap_check(ch > 0 && co > 0 && tm > 0 && mx > 0 && cv > 0 && sm > 0 && th > 0,
          "while a process hoards, another still gets a channel, connection, timer, mutex, "
          "condvar, semaphore and thread (%d %d %d %d %d %d %d)", ch, co, tm, mx, cv, sm, th);
    int w = ProcWait(pid, &st);
    tap_check(w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "attack %u: each kind stopped at the process's limit with EAGAIN (status %#x)",
          ATK_HOARD, st);
    TimerDestroy(tm), MutexDestroy(mx), CondDestroy(cv), SemDestroy(sm);
    ThreadJoin(th, NULL);
    ConnectDetach(co);
    ChannelDestroy(ch);
}

// Attack 16: a process and the programs it starts take every object each is
// given and hold them; we (privileged) must still get one of each kind, and the tree's
// threads stay within one process's quota.
static void attack_tree_hoard(void)
{
    int st = -1;
    printf("# attack %u: %s\n", ATK_TREE_HOARD, "a process and the programs it starts hoard");
    int pid = ProcSpawn("kt_attack", 10, ATK_TREE_HOARD);
    ThreadSleep(HOSTILE_HOARD_NS / 2);
    struct kthread_info ti;
    // The process that started this one is not of the tree (the board's dtrace when it runs the
    // suite under D, test/qemu/test_fbt_all.sh; none in the hostile image).
    int tree_threads = 0, starter = ProcParent();
    for (unsigned s = 0; ThreadInfo(s, &ti) == 0; s++)
        tree_threads += ti.pid > 0 && ti.pid != ProcSelf() && ti.pid != starter;
    int ch = ChannelCreate(0), co = ch > 0 ? ConnectAttach(0, ch) : -1;
    int tm = co > 0 ? TimerCreate(co, 1, 0) : -1;
    int mx = MutexCreate(), cv = CondCreate(), sm = SemCreate(0);
    int th = ThreadCreate(short_nap, NULL, srv_stack, sizeof(srv_stack), 1, 0);
    int pu = co > 0 ? MsgSendPulse(co, 10, 2, 0) : -1;
    tap_check(ch > 0 && co > 0 && tm > 0 && mx > 0 && cv > 0 && sm > 0 && th > 0 && pu == 0,
          "while a tree of processes hoards, a privileged one still gets a channel, connection, "
          "timer, mutex, condvar, semaphore, thread and pulse (%d %d %d %d %d %d %d %d)",
          ch, co, tm, mx, cv, sm, th, pu);
    tap_check(tree_threads <= HOSTILE_LIM_THREADS,
          "the tree's threads stay within one process's quota (%d of %d)", tree_threads,
          HOSTILE_LIM_THREADS);
    int w = ProcWait(pid, &st);
    tap_check(w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 0,
          "attack %u: every refusal was EAGAIN (status %#x)", ATK_TREE_HOARD, st);
    TimerDestroy(tm), MutexDestroy(mx), CondDestroy(cv), SemDestroy(sm);
    ThreadJoin(th, NULL);
    ConnectDetach(co);
    ChannelDestroy(ch);
}

// Attack 13: a process writes garbage into its own user-event ring
// while we capture. Its good events arrive, its bad record and the records it claimed are
// rejected, never counted lost (it cannot inflate the system's loss count), the kernel says
// so (SYSTEM URING_BAD events naming it), and our own user events (through our ring, before
// and after) all arrive in order: recorded + lost == generated holds, with lost 0.
struct uring_seen {
    unsigned events, ours_before, ours_after, first, pending, after, bad, order_ok;
    uint32_t bad_pid, bad_rejected, bad_given_up;
};

static void uring_scan(const struct kev_slot *s, void *ctx)
{
    struct uring_seen *f = ctx;
    unsigned cls = kev_hdr_class(s->header), ev = kev_hdr_event(s->header);
    const uint32_t *d = s->data;
    f->events++;
    if (cls == KEV_C_USER && ev == 200 && d[1] == f->ours_before)
        f->ours_before++;
    else if (cls == KEV_C_USER && ev == 201 && d[1] == f->ours_after)
        f->ours_after++;
    else if (cls == KEV_C_USER && ev == URING_CODE_FIRST && d[1] == 1 && d[2] == 2)
        f->first++;
    else if (cls == KEV_C_USER && ev == URING_CODE_PENDING && d[1] == f->pending)
        f->pending++;
    else if (cls == KEV_C_USER && ev == URING_CODE_AFTER && d[1] == 3 && d[2] == 4)
        f->after++;
    else if (cls == KEV_C_SYSTEM && ev == KEV_SYS_URING_BAD) {
        f->bad++;
        f->bad_pid = d[1];
        f->bad_rejected += d[2] & ~KEV_URING_GIVEN_UP;
        f->bad_given_up += (d[2] & KEV_URING_GIVEN_UP) != 0;
        f->order_ok += f->pending == URING_PENDING && f->after == 0;
    }
}

static void attack_uring_garbage(void)
{
    struct uring_seen f;
    struct ktrace_query q;
    memset(&f, 0, sizeof(f));
    int s;
    int a = capture_begin(&s);      // a buffer per CPU: ours may run on any (capture.c)
    tap_check(a >= 0 && s == 0, "a capture for the ring attack (%d %d)", a, s);
    for (uint32_t i = 0; i < 5; i++)
        TraceEvent(KTRACE_INSERTSUSEREVENT, 200, i, 0);
    run_attack(ATK_URING_GARBAGE, 0, 10, 0, "garbage in its own user-event ring");
    for (uint32_t i = 0; i < 5; i++)
        TraceEvent(KTRACE_INSERTSUSEREVENT, 201, i, 0);
    capture_end(&q, uring_scan, &f);
    tap_check(f.ours_before == 5 && f.ours_after == 5,
          "our own ring's events all arrived, in order (%u + %u of 5 + 5)", f.ours_before,
          f.ours_after);
    tap_check(f.first == 1 && f.pending == URING_PENDING && f.after == 1,
          "the attacker's good events arrived (%u, %u of %u, %u after it lost its ring)", f.first,
          f.pending, URING_PENDING, f.after);
    tap_check(f.bad == 2 && f.bad_given_up == 1 && f.bad_pid != (uint32_t)ProcSelf() &&
              f.bad_pid != 0 && f.order_ok == 2,
          "the kernel said it rejected the attacker's records and gave its ring up (URING_BAD "
          "pid %lu, %u events, %lu rejected)", (unsigned long)f.bad_pid, f.bad,
          (unsigned long)f.bad_rejected);
    tap_check(q.rejected == f.bad_rejected && q.rejected >= 2 && q.rejected < URING_BAD_HEAD,
          "its bad record and claimed records are rejected (%lu, the trace says %lu), at most "
          "the ring's size", (unsigned long)q.rejected, (unsigned long)f.bad_rejected);
    tap_check(q.recorded == f.events && q.dropped == 0 && q.overwritten == 0 &&
              q.generated == q.recorded + q.dropped,
          "a process cannot fake a loss: recorded %lu + lost %lu == generated %lu, lost 0",
          (unsigned long)q.recorded, (unsigned long)q.dropped, (unsigned long)q.generated);
}

// Attack 26: the channels' names. The runner names a channel "kt_hostile"; the attacker
// (kt_attack/names.c) tries to take, remove and misuse names and floods them; then every name
// it held must be gone with it, and the runner's own name and a new one must still work.
static void attack_names(void)
{
    name_attach_t *att = name_attach(NULL, "kt_hostile", 0);
    tap_check(att != NULL, "the runner names its channel kt_hostile (errno %d)", att ? 0 : errno);
    run_attack(ATK_NAMES, att ? (uint32_t)att->chid : 0, 10, 0,
               "names: another's, too long, malformed, on another's channel, a flood");
    int left = 0;
    char name[KNAME_CHAN_MAX];
    for (int i = 0; i <= NAMES_FLOOD_MAX; i++) {
        snprintf(name, sizeof(name), NAMES_FLOOD_FMT, i);
        int c = name_open(name, 0);
        left += c >= 0 || errno != ENOENT;
        if (c >= 0)
            name_close(c);
    }
    int c = name_open("fifteen_letters", 0);
    left += c >= 0 || errno != ENOENT;
    tap_check(left == 0, "attack 26: no name the attacker held outlived it (name_open: ENOENT; %d left)",
          left);
    c = name_open("kt_hostile", 0);
    name_attach_t *after = name_attach(NULL, "kt_after", 0);
    tap_check(c >= 0 && after != NULL,
          "attack 26: the runner's name still opens and a new name still attaches");
    name_close(c);
    if (after)
        name_detach(after, 0);
    if (att)
        name_detach(att, 0);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int self = ProcSelf();    // 1 in the hostile image; 2 under the board's dtrace
    printf("# kt_hostile: pid %d, hostile processes against the kernel\n", self);
    int vt = ThreadCreate(victim, NULL, victim_stack, sizeof(victim_stack), 250, 0);
    tap_check(vt > 0, "victim thread at priority 250 (tid %d)", vt);
    srv_chid = ChannelCreate(0);

    run_attack(ATK_NONE, 0, 10, 0, "none (the victim's baseline)");
    run_attack(ATK_UNJOINED_EXIT, 0, 10, 0, "exit with a finished thread never joined");
    run_attack(ATK_UNJOINED_FAULT, 0, 10, KSIG_SEGV, "fault with a finished thread never joined");
    run_attack(ATK_MUTEX_DESTROY, 0, 10, 0, "destroy a mutex a condvar waiter refers to");
    run_attack(ATK_TIMER_FOREIGN, (uint32_t)ConnectAttach(0, srv_chid), 10, 0,
               "TimerCreate on a connection it does not own");
    attack_pulse_flood();
    attack_dead_client();
    attack_segments();
    attack_fpu();
    attack_console();
    run_attack(ATK_CONSOLE_FLOOD, 0, 1, 0, "4096-byte console writes in a loop at priority 1");
    run_attack(ATK_PRIO_RAISE, 0, 10, 0, "priorities, pulses, spawn and kill above its rights");
    attack_spin_kill();
    run_attack(ATK_HOST_FILES, 0, 10, 0, "create, read and remove host files without the right");
    run_attack(ATK_BREAKPOINT, 0, 10, BREAKPOINT_SIG, "a breakpoint instruction no debugger takes");
    attack_hoard();
    attack_tree_hoard();
    attack_uring_garbage();
    hostile_rerun();            // attacks 17 to 24 (rerun.c)
    attack_names();             // attack 26

    victim_stop = true;
    ThreadJoin(vt, NULL);
    tap_check(self > 0 && ProcSelf() == self, "the kernel survived every attack");
    return tap_done("kt_hostile");
}
