// SPDX-License-Identifier: MIT
// Trace hooks of the kernel: what the core calls in the tracing layer (with the emit helpers,
// kev_emit.h and ktrace_kcall.h; the state they test, ktrace_state.h). A class hook is an inline test of one byte (ktrace_cls_on, a
// mirror of ktrace.tr_active kept by ktrace_sync: a literal load, a byte load and a cbnz when
// the class is off) and an out-of-line call that builds the event when it is on. Work done
// once per kernel entry (kernel-call entry and exit events, raising the synthetic
// interrupt, telling the ring who runs) hangs off one test of ktrace_kernel_on at entry.
// KTRACE_DISABLED compiles every hook away: it exists only to measure what the hooks cost
// when tracing is off (make bench).
#ifndef KERNEL_KTRACE_H
#define KERNEL_KTRACE_H

#include <kernel/ktrace_state.h>
#include <trace/kev_probe.h>

struct thread;
struct proc;


void ktrace_init(void);
// The incident region looked at once at boot, the console up (kernel/kincident.c): a record
// refused is said and cleared, one an earlier boot wrote and no reader took is announced and held.
void kincident_boot(void);
// kpanic's recorder (kernel/kpanic.h; kernel/ktrace_panic.c): the KPANIC event.
struct arch_fault_where;
bool ktrace_panic(const struct arch_fault_where *f, uint64_t pc, const char *msg);
// KTRACE_BENCH's loops (kernel/ktrace_bench.c): kind's n runs, or -EINVAL.
int ktrace_bench(uint32_t kind, uint32_t n);
// The TraceEvent kernel call.
int ktrace_call(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c);
// TraceEvent's three inserts (KTRACE_INSERTSUSEREVENT, _INSERTCUSEREVENT, _INSERTUSRSTREVENT):
// cmd, the event's code and its two arguments as the call gave them (ktrace.c).
int ktrace_insert_user(struct thread *t, uint32_t cmd, uint32_t code, uint32_t a, uint32_t b);
// The end of a traced kernel entry: before choosing the next thread (raises the synthetic
// interrupt for buffers that filled, rare), and after (ktrace_exit_end, ktrace_kcall.h).
// The notifications are the core's to deliver: `raise` (kernel/irq.c irq_raise_synthetic)
// raises the synthetic line with each one's value, which sends its pulse to the logger.
typedef void (*ktrace_raise_fn)(unsigned irq, int32_t value);
void ktrace_exit_notify(ktrace_raise_fn raise);     // (ktrace_exit_begin: ktrace_kcall.h)
// kernel/ktrace_notes.c: this CPU's notes raised (and its bit cleared), all of them forgotten
// (a new ring).
void ktrace_notes_raise(ktrace_raise_fn raise);
void ktrace_notes_reset(void);
// A shared entry's notifications wait for an exclusive one (kernel/kentry_shared.h).
void ktrace_notes_defer(void);
// A D firing on the shared side ran exit(): a notification, delivered exclusive (ktrace.c).
void ktrace_kdt_exited(void);
// The quiet ring's owner woken with a pulse of no buffer (uapi/ktrace.h, KTRACE_PROBE): its
// capture stopped.
void ktrace_notes_wake(void);
// ktrace_sync out of line (ktrace_state.h), after the D provider switched its probes on or off.
void ktrace_resync(void);
// A D program starts (KDT_GO) while `running` runs here: D's view of who is on each CPU.
void ktrace_kdt_go(const struct thread *running);
void ktrace_proc_gone(struct proc *p);
// The dynamic filter (the D engine's predicates): fn decides, per event of the classes in
// cls_mask, whether it is recorded. fn NULL detaches. Kernel code only.
void ktrace_set_filter(uint32_t cls_mask, trace_dyn_filter_fn fn, void *arg);

// Out-of-line halves of the hooks (ktrace_ev.c); while KTRACE_START writes its snapshot
// (ktrace.c): the state it records is not news, D fires nothing.
extern bool ktrace_in_snapshot;
void ktrace_state_ev(const struct thread *t);
// D's side of a thread chosen to run on this CPU, within its RUNNING event's site
// (kev_emit.h kev_emit_thread_state; kernel/kdt_fire.c): off-cpu for the thread going off.
void ktrace_kdt_switch(struct thread *next);
void ktrace_thread_ev(const struct thread *t, unsigned ev);
void ktrace_thread_name_ev(const struct thread *t);
void ktrace_proc_ev(const struct proc *p, unsigned ev);
void ktrace_int_ev(unsigned ev, uint32_t irq, uint32_t who);
void ktrace_int_handler_ev(uint32_t irq, uint32_t pid, uintptr_t ip, uintptr_t area);
void ktrace_comm_ev(unsigned ev, uint32_t a, uint32_t b);
// The message events' general path, one per event (kernel/ktrace_ev.c; ktrace_kcall.h).
void ktrace_snd_message_ev(uint32_t rcvid, uint32_t pid, const struct thread *client);
void ktrace_rec_message_ev(uint32_t rcvid, uint32_t who, const struct thread *client);
void ktrace_reply_message_ev(uint32_t rcvid, uint32_t status, const struct thread *client);
void ktrace_msg_error_ev(uint32_t rcvid, uint32_t err, const struct thread *client);
void ktrace_timer_ev(uint32_t id, uint32_t pid);
void ktrace_timer_lost_ev(uint32_t timer_id, uint32_t pid, uint32_t lost);

// Ownership and priority (kernel/ktrace_sync.c): the SYSTEM events and their D probes.
void ktrace_prio_ev(const struct thread *t, unsigned prio, unsigned cause);
void ktrace_sync_wait_ev(struct thread *t, uint32_t obj, const struct thread *owner);

// t's effective priority is about to become prio (cause: KEV_PRIO_*, trace/kev.h).
static inline void ktrace_prio(const struct thread *t, unsigned prio, unsigned cause)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_prio_ev(t, prio, cause);
}

// t blocked on a mutex, semaphore or condvar (obj: the SYNC_* call's first argument) behind
// owner (NULL: none known); right after t's state event.
static inline void ktrace_sync_wait(struct thread *t, uint32_t obj, const struct thread *owner)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_sync_wait_ev(t, obj, owner);
}

static inline void ktrace_state(const struct thread *t)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_state_ev(t);
}

static inline void ktrace_thread(const struct thread *t, unsigned ev)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_thread_ev(t, ev);
}

static inline void ktrace_thread_name(const struct thread *t)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_thread_name_ev(t);
}

static inline void ktrace_proc(const struct proc *p, unsigned ev)
{
    if (KTRACE_ON(KEV_C_PR_TH))
        ktrace_proc_ev(p, ev);
}

// What a process runs (SYSTEM IMAGE, kernel/ktrace_image.c): p's program, or with p NULL the
// kernel's own image. Written once a process: at its creation, and in the START snapshot.
void ktrace_image_ev(const struct proc *p);
static inline void ktrace_image(const struct proc *p)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_image_ev(p);
}

static inline void ktrace_int(unsigned ev, uint32_t irq, uint32_t who)
{
    if (KTRACE_ON(KEV_C_INT))
        ktrace_int_ev(ev, irq, who);
}

// A reschedule IPI taken (KIRQ_IPI): its INT pair, from the exclusive entry (kernel/main.c)
// and the shared one (kernel/arch/<arch>/cpu.c) alike, so that a capture shows every IPI a
// CPU took (kevstat's irq section: an IPI storm, a CPU interrupted for nothing).
static inline void ktrace_ipi(void)
{
    ktrace_int(KEV_INT_ENTER, KIRQ_IPI, 0);
    ktrace_int(KEV_INT_EXIT, KIRQ_IPI, 0);
}

// A handler's start, laid out as QNX's INT_HANDLER_ENTR: [pid, irq, handler address, area]
// (a 4-word combine event; the address and area are 0 for a pulse-delivering attach).
static inline void ktrace_int_handler(uint32_t irq, uint32_t pid, uintptr_t ip, uintptr_t area)
{
    if (KTRACE_ON(KEV_C_INT))
        ktrace_int_handler_ev(irq, pid, ip, area);
}

static inline void ktrace_comm(unsigned ev, uint32_t a, uint32_t b)
{
    if (KTRACE_ON(KEV_C_COMM))
        ktrace_comm_ev(ev, a, b);
}

static inline void ktrace_timer(uint32_t id, uint32_t pid)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_timer_ev(id, pid);
}

static inline void ktrace_timer_lost(uint32_t timer_id, uint32_t pid, uint32_t lost)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_timer_lost_ev(timer_id, pid, lost);
}

// ---- the core's other hooks into the tracing layer --------------------------------------------
// Besides the event hooks above and the emit helpers (kernel/kev_emit.h, ktrace_kcall.h), the
// core calls the tracing layer only here (docs/ARCHITECTURE.md, "The kernel's layers").

// The DTrace kernel call (kdt_active, a D program runs: ktrace_state.h).
int kdt_call(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c);
// A process ends: its user-event ring's last records (kuring.c), the ring's and D's hold on it.
void kuring_proc_gone(struct proc *p);
void kdt_proc_gone(struct proc *p);
// A thread's slot is freed: the same for its own ring.
void kuring_thread_gone(struct thread *t);
// A process of a program was just loaded (its memory fresh from the image): the semaphores
// of its placed USDT sites are raised in it (docs/usdt.md, "Is-enabled").
void kusdt_proc_start(const struct proc *p);
// From the thread-fault path: true when thread t's fault was a placed USDT site's trap (its
// probe fired, the thread resumes after the site), or a placed pid site's (its probe fired if t
// is the probe's process, the displaced instruction run, the thread resumed after it); false
// for any other fault.
bool kusdt_fault(struct thread *t);
bool kpid_fault(struct thread *t);
// A thread of a process faulted (kernel/main.c): the FAULT event and the thread's STACK into
// the ring, and proc:::fault for D, at this one site (kernel/ktrace_fault.c).
struct arch_fault_where;
void ktrace_fault(struct thread *t, int sig, const struct arch_fault_where *where);
// KENTRY_PROFILE on this CPU: the samples and probes due, then the timer armed for the next
// (kernel/kprof.c). A timer interrupt of this CPU (kernel_tick_is: it took the kernel's tick)
// in the traced tick path: the same work where the board has no profile timer; nothing where
// it has one.
void kprof_expired(void);
void kprof_tick(bool kernel_tick_is);
// D's probe with no event of its own (kernel/kdtrace.c), fired while a program runs:
// proc:::exec and exec-failure in the spawner's context when ProcSpawn of program `name` (""
// when it could not be read) fails with -err. The decisions' events while SYSTEM is traced
// (ring or D), and their probes (ktrace_ev.c): SIGNAL_SEND, proc:::signal-send, in the
// killer's context when a process's thread `victim` (its process pid) is killed with
// KSIG_KILL; SURRENDER, sched:::surrender, when this CPU interrupts CPU `cpu`, running `cur`,
// for a more urgent thread (sched.c); STEAL, when this CPU's choice takes thread t to run from
// CPU `from`'s queue (sched.c steal_taken), before t's RUNNING, whose dequeue names `from`.
void kdt_fire_spawn_failed(const char *name, int err);
void ktrace_signal_send_ev(const struct thread *victim, uint32_t pid);
void ktrace_surrender_ev(const struct thread *cur, unsigned cpu);
void ktrace_steal_ev(const struct thread *t, unsigned from);
static inline void ktrace_signal_send(const struct thread *victim, uint32_t pid)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_signal_send_ev(victim, pid);
}
static inline void ktrace_surrender(const struct thread *cur, unsigned cpu)
{
    if (KTRACE_ON(KEV_C_SYSTEM) && cur)
        ktrace_surrender_ev(cur, cpu);
}
static inline void ktrace_steal(const struct thread *t, unsigned from)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_steal_ev(t, from);
}

// The probe block (kernel/ktrace_probe.c, trace/kev_probe.h) and the traced tick's test of it:
// a reader outside the target moved pb_flush_req on (written while the target was halted,
// hence the volatile loads; around a data cache, hence the fetch, nothing where none stands
// between); ktrace_probe_flush closes the buffers holding events and serves the request. Two
// loads and a compare a tick, only while tracing (kbench's trace_probe_tick_insns).
extern struct kev_probe_block kev_probe_block;
void ktrace_probe_flush(void);
static inline void ktrace_probe_tick(void)
{
    trace_port_fetch(&kev_probe_block.pb_flush_req, 2 * sizeof(uint32_t));
    if (__builtin_expect(*(volatile uint32_t *)&kev_probe_block.pb_flush_req !=
                             *(volatile uint32_t *)&kev_probe_block.pb_flush_done, 0))
        ktrace_probe_flush();
}

#endif
