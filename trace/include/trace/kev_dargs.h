// SPDX-License-Identifier: MIT
// The kernel's side of the event table's D column: for each event whose emit helper fires D
// (KEV_D_EMIT rows of trace/kev_events.c), the probes it fires and their arguments in order.
// KEV_D_<EVENT>_<PROBE>(P, F, S) expands to P(probe, id, arguments...), each argument F(field),
// a field of the event's row named as the row names it, or S(value), a value the site has
// beside the event's words (the row's "?value"). The kernel's emit helpers
// (kernel/include/kernel/kev_emit.h) expand them with F and S giving the helper's parameters of
// those names, so the firing takes the values the ring's words took. The row's D column says
// the same in the form every reader reads (dtrace -i fires it over a capture); test_kev_emit
// fires every helper and holds each firing against the row, so the two cannot drift.
// Arguments after the last one written are 0. A probe family's id is computed by the site
// (interrupt::irqN:entry). Adding a probe to an event: its entry in the row, a macro here, one
// line in the helper.
#ifndef TRACE_KEV_DARGS_H
#define TRACE_KEV_DARGS_H

#include <d/dprobes.h>

// ---- KER_CALL -----------------------------------------------------------------------------------
// kercall::<call>:entry ($words): the call's six arguments (the event's words: two of them in
// fast mode). kercall::<call>:return ($result $call): the result, -errno on failure, and the
// call's number; the firing's errno the error (0 on success and for a raw call).
#define KEV_D_KER_CALL_ENTRY(P, F, S) \
    P("kercall::<call>:entry", DPROBE_KCALL_ENTRY(call), S(a[0]), S(a[1]), S(a[2]), S(a[3]), \
      S(a[4]), S(a[5]))
#define KEV_D_KER_EXIT_RETURN(P, F, S) \
    P("kercall::<call>:return", DPROBE_KCALL_RETURN(call), S(result), S(call))

// ---- INT ----------------------------------------------------------------------------------------
#define KEV_D_INT_ENTR_IRQ(P, F, S) \
    P("interrupt::irqN:entry", DPROBE_IRQ_ENTRY(irq), F(irq))
#define KEV_D_INT_ENTR_TICK(P, F, S) \
    P("sched:::tick", DPROBE_SCHED_TICK, S(cur_who), S(cur_pid), S(cur_prio))
#define KEV_D_INT_EXIT_IRQ(P, F, S) \
    P("interrupt::irqN:exit", DPROBE_IRQ_EXIT(irq), F(irq))

// ---- PR_TH --------------------------------------------------------------------------------------
// A thread's state change (the THxxx rows: their D column says these in words, derived, for a
// reader keeps the state left and the run queue): arg0 the thread's who, arg1 its pid, arg2 its
// priority, arg3 what the change adds: the state it sleeps in (sleep), the object it waits on
// (block-*: `block` the probe of its state, obj the connection, the channel or the thread
// joined, else 0), the state it left (wakeup), the CPU whose run queue it joins or leaves
// (enqueue, dequeue).
#define KEV_D_THSTATE_SLEEP(P, F, S) \
    P("sched:::sleep", DPROBE_SCHED_SLEEP, S(who), F(pid), S(prio), S(state))
#define KEV_D_THSTATE_BLOCK(P, F, S) \
    P("sched:::block-*", block, S(who), F(pid), S(prio), S(obj))
#define KEV_D_THSTATE_WAKEUP(P, F, S) \
    P("sched:::wakeup", DPROBE_SCHED_WAKEUP, S(who), F(pid), S(prio), S(prev))
#define KEV_D_THSTATE_PREEMPT(P, F, S) \
    P("sched:::preempt", DPROBE_SCHED_PREEMPT, S(who), F(pid), S(prio), 0)
#define KEV_D_THSTATE_ENQUEUE(P, F, S) \
    P("sched:::enqueue", DPROBE_SCHED_ENQUEUE, S(who), F(pid), S(prio), S(rq_cpu))
#define KEV_D_THSTATE_DEQUEUE(P, F, S) \
    P("sched:::dequeue", DPROBE_SCHED_DEQUEUE, S(who), F(pid), S(prio), S(rq_cpu))
#define KEV_D_THSTATE_LWP_EXIT(P, F, S) \
    P("proc:::lwp-exit", DPROBE_PROC_LWP_EXIT, S(who), F(pid), S(prio), 0)
#define KEV_D_THCREATE_CREATE(P, F, S) \
    P("sched:::thread-create", DPROBE_SCHED_CREATE, S(who), F(pid), S(prio))
#define KEV_D_THCREATE_LWP(P, F, S) \
    P("proc:::lwp-create", DPROBE_PROC_LWP_CREATE, S(who), F(pid), S(prio))
#define KEV_D_THDESTROY_EXIT(P, F, S) \
    P("sched:::thread-exit", DPROBE_SCHED_EXIT, S(who), S(status))
#define KEV_D_PROCCREATE_NAME_CREATE(P, F, S) \
    P("proc:::create", DPROBE_PROC_CREATE, F(pid), F(ppid))
#define KEV_D_PROCDESTROY_NAME_EXIT(P, F, S) \
    P("proc:::exit", DPROBE_PROC_EXIT, F(pid), S(status))

// ---- SYSTEM -------------------------------------------------------------------------------------
// Solaris's change-pri fires before the change: args[2] the new priority; ours adds arg3 the
// old one and arg4 the cause.
#define KEV_D_PRIO_CHANGE_CHANGE_PRI(P, F, S) \
    P("sched:::change-pri", DPROBE_SCHED_CHANGE_PRI, F(who), S(pid), F(new_prio), F(old_prio), \
      F(cause))
#define KEV_D_FAULT_FAULT(P, F, S) \
    P("proc:::fault", DPROBE_PROC_FAULT, F(signal))
// The switch's end (ONCPU, in the context of the thread coming on): on-cpu as Solaris's, arg0
// the thread, arg1 its pid, arg2 its priority (the site's: not in the event); at the thread's
// first run lwp-start with the same (derived: a reader keeps which threads have not run yet).
#define KEV_D_ONCPU_ON_CPU(P, F, S) \
    P("sched:::on-cpu", DPROBE_SCHED_ONCPU, F(who), S(pid), S(prio), 0)
#define KEV_D_ONCPU_LWP_START(P, F, S) \
    P("proc:::lwp-start", DPROBE_PROC_LWP_START, F(who), S(pid), S(prio), 0)

// ---- COMM ---------------------------------------------------------------------------------------
// msg's probes: arg0 the client's connection, arg1 the receive id, arg2 the message's bytes (0
// for a reply: its size is not kept), arg3 the event's second word.
#define KEV_D_SND_MESSAGE_SEND(P, F, S) \
    P("msg:::send", DPROBE_MSG_SEND, S(coid), F(rcvid), S(bytes), F(pid))
#define KEV_D_REC_MESSAGE_RECEIVE(P, F, S) \
    P("msg:::receive", DPROBE_MSG_RECEIVE, S(coid), F(rcvid), S(bytes), F(who))
#define KEV_D_REPLY_MESSAGE_REPLY(P, F, S) \
    P("msg:::reply", DPROBE_MSG_REPLY, S(coid), F(rcvid), S(bytes), F(status))
#define KEV_D_MSG_ERROR_ERROR(P, F, S) \
    P("msg:::error", DPROBE_MSG_ERROR, S(coid), F(rcvid), S(bytes), F(errno))
// msg:::pulse: arg0 the sender's connection, arg1 the pulse's code.
#define KEV_D_SND_PULSE_PULSE(P, F, S) \
    P("msg:::pulse", DPROBE_MSG_PULSE, F(coid), F(code))

// ---- USER ---------------------------------------------------------------------------------------
// user:::event ($ev $user): arg0 the event's code (its number), then what the ring stores: a
// one-slot event's two words, or a longer payload's window and size in bytes (d/dutext.h), the
// kernel giving its stored bytes (kdt_fire_payload: S(payload) the bytes, S(nwords) their
// words).
#define KEV_D_USER_EVENT(P, F, S) \
    P("user:::event", DPROBE_USER_EVENT, S(code), S(a), S(b))
#define KEV_D_USER_PAYLOAD(P, F, S) \
    P("user:::event", DPROBE_USER_EVENT, S(code), S(payload), S(nwords))

#endif
