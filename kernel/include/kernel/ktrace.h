// SPDX-License-Identifier: MIT
// Trace hooks of the kernel. A class hook is an inline test of one byte (ktrace_cls_on, a
// mirror of ktrace.tr_active kept by ktrace_sync: a literal load, a byte load and a cbnz when
// the class is off) and an out-of-line call that builds the event when it is on. Work done
// once per kernel entry (kernel-call entry and exit events, raising the synthetic
// interrupt, telling the ring who runs) hangs off one test of ktrace_kernel_on at entry.
// KTRACE_DISABLED compiles every hook away: it exists only to measure what the hooks cost
// when tracing is off (make bench).
#ifndef KERNEL_KTRACE_H
#define KERNEL_KTRACE_H

#include <kernel/kernel.h>
#include <trace/trace_ring.h>
#include <uapi/ktrace.h>

struct thread;
struct proc;

extern struct trace_ring ktrace;

// One time per site (kdtrace.h kdt_hold): a hook that records an event and fires D probes
// reads this CPU's last slot stamp before it writes its event (ktrace_stamp_here), then
// ktrace_site_take(before) gives the event's own stamp to the probes it fires; nothing when
// no slot was written (the class not recorded, the event filtered or lost: the probes keep
// the time the hold began). Inline, so that no fbt probe lies between the two reads.
void kdt_site_set(uint32_t ts32);
static inline uint32_t ktrace_stamp_here(void)
{
    return ktrace.tr_cpu[trace_port_cpu()].tc_last;
}
static inline void ktrace_site_take(uint32_t before)
{
    uint32_t now = ktrace_stamp_here();
    if (now != before)
        kdt_site_set(now);
}

// Mirror of ktrace.tr_active, one byte a class: the hooks' test.
extern uint8_t ktrace_cls_on[KEV_NCLASS];
// Non-zero while tracing runs or notifications wait: the exception entry's one test, which
// picks kernel_entry_traced over kernel_entry.
extern uint32_t ktrace_kernel_on;

#ifdef KTRACE_DISABLED
#define KTRACE_ON(cls) 0
#define KTRACE_HOOKS 0
#else
#define KTRACE_ON(cls) unlikely(ktrace_cls_on[(cls)] != 0)
#define KTRACE_HOOKS 1
#endif

void ktrace_init(void);
// The TraceEvent kernel call.
int ktrace_call(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c);
// TraceEvent's three inserts (KTRACE_INSERTSUSEREVENT, _INSERTCUSEREVENT, _INSERTUSRSTREVENT):
// cmd, the event's code and its two arguments as the call gave them (ktrace.c).
int ktrace_insert_user(struct thread *t, uint32_t cmd, uint32_t code, uint32_t a, uint32_t b);
// The end of a traced kernel entry: before choosing the next thread (raises the synthetic
// interrupt for buffers that filled, rare), and after (ktrace_exit_end, ktrace_kcall.h).
// What the traced entry's inline paths read (ktrace_kcall.h), together so that they reach
// it through one address.
struct ktrace_hot {
    uint32_t kc_limit;  // KEV_KC_MAX while kernel-call events take the inline path, else 0:
                        // the entry's one compare also keeps the call number in range
    uint32_t fast;      // classes on the inline path: recorded, fast mode, no filter, no D
    uint32_t plain;     // the same in either mode (kernel-call exits are simple even when wide)
    unsigned notes;     // a bit per CPU with buffer-full notifications (or the ring's own
                        // stop) waiting for its kernel exit (ktrace.c)
};
extern struct ktrace_hot ktrace_hot;

void ktrace_exit_notify(void);
static inline void ktrace_exit_begin(void)
{
    if (__builtin_expect(ktrace_hot.notes != 0, 0))
        ktrace_exit_notify();
}
// A shared entry's notifications wait for an exclusive one (kernel/kentry_shared.h).
void ktrace_notes_defer(void);
// A D firing on the shared side ran exit(): a notification, delivered exclusive (ktrace.c).
void ktrace_kdt_exited(void);
// A D program starts (KDT_GO) while `running` runs here: D's view of who is on each CPU.
void ktrace_kdt_go(const struct thread *running);
// After the D provider switched its probes on or off.
void ktrace_resync(void);
void ktrace_proc_gone(struct proc *p);
// The dynamic filter (the D engine's predicates): fn decides, per event of the classes in
// cls_mask, whether it is recorded. fn NULL detaches. Kernel code only.
void ktrace_set_filter(uint32_t cls_mask, trace_dyn_filter_fn fn, void *arg);

// Out-of-line halves of the hooks (ktrace.c).
void ktrace_state_ev(const struct thread *t);
// D's side of a thread chosen to run on this CPU, within its RUNNING event's site
// (kev_emit_thread_state, kernel/ktrace.c): off-cpu for the thread going off.
void ktrace_kdt_switch(struct thread *next);
void ktrace_thread_ev(const struct thread *t, unsigned ev);
void ktrace_thread_name_ev(const struct thread *t);
void ktrace_proc_ev(const struct proc *p, unsigned ev);
void ktrace_int_ev(unsigned ev, uint32_t irq, uint32_t who);
void ktrace_int_handler_ev(uint32_t irq, uint32_t pid, uintptr_t ip, uintptr_t area);
void ktrace_comm_ev(unsigned ev, uint32_t a, uint32_t b);
void ktrace_msg_ev(unsigned ev, uint32_t rcvid, uint32_t b, const struct thread *client);
void ktrace_timer_ev(uint32_t id, uint32_t pid);

// Ownership and priority (kernel/ktrace_sync.c): the SYSTEM events and their D probes.
void ktrace_prio_ev(const struct thread *t, unsigned prio, unsigned cause);
void ktrace_sync_wait_ev(struct thread *t, uint32_t obj, const struct thread *owner);
void ktrace_sync_call_entry(struct thread *t, uint32_t n, const uint32_t *a);
void ktrace_sync_call_return(struct thread *t, unsigned n, int32_t result);
// lockstat's per-thread memory while a D program runs (KDT_GO / unload).
int ktrace_sync_d_start(void);
void ktrace_sync_d_stop(void);

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

// A message event (SND_MESSAGE, REC_MESSAGE, REPLY_MESSAGE, MSG_ERROR: [rcvid, b]) and D's msg
// probe, from the one site that holds the message's client (ipc.c): D's arguments are the
// event's words and what the client carries, read there (ktrace.c msg_emit, kev_emit.h).
static inline void ktrace_msg(unsigned ev, uint32_t rcvid, uint32_t b,
                              const struct thread *client)
{
    if (KTRACE_ON(KEV_C_COMM))
        ktrace_msg_ev(ev, rcvid, b, client);
}

static inline void ktrace_timer(uint32_t id, uint32_t pid)
{
    if (KTRACE_ON(KEV_C_SYSTEM))
        ktrace_timer_ev(id, pid);
}

#endif
