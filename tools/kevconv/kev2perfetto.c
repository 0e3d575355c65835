// SPDX-License-Identifier: MIT
// kev2perfetto: converts a .kev trace into Perfetto's protobuf trace format, shaped the way
// Perfetto's trace processor imports a Linux ftrace capture, so its CPU, thread-state and
// process views are built from our events by the same rules:
// - per-CPU FtraceEventBundle packets of sched_switch (one per RUNNING after the START
//   snapshot), sched_waking (READY of a blocked thread: trace processor builds the runnable
//   state and the waker only from sched_waking), irq_handler_entry / irq_handler_exit;
//   FtraceEvent.pid is the thread current on that CPU (a thread that blocked stays current
//   until the next switch, as in Linux), the waker for sched_waking;
// - losses: the bundle after a DROPPED (and one after the last buffer when the trailer
//   counts more) has lost_events set (stat ftrace_cpu_has_data_loss), and FtraceStats at the
//   start and end give each CPU's lost count as overrun (stat ftrace_cpu_overrun_delta);
// - a ClockSnapshot: trace time is BOOTTIME (ns since boot, ftrace's default clock), with
//   REALTIME = the header's BOOT_DATE at 0, so wall-clock time reaches the UI; SystemInfo
//   (utsname, CPUs); a ProcessTree with the same ids as every converter (kx_ids.h).
// - messages as track events: a zero-length (instant) TrackEvent on the sender's thread track
//   at the send, on the server's at the receive and on the client's at the reply, joined by
//   the message's flow id (terminated at the reply, or at the receive of a pulse), on thread
//   tracks described by TrackDescriptors with the same pid and tid as the scheduling events;
//   written once the message is received, so no flow has only a start; a send never
//   received, and a receive or reply no recorded send explains, as an instant with its
//   fields (below).
// - the stack samples (SYSTEM STACK, tracelogger -p HZ) as perf samples with interned
//   callstacks on a sequence of their own (kx_pf_stacks.c), frames named from the ELF files
//   the capture ran (found by build id: tools/common/tool_syms.c);
// - user events and faults as instant TrackEvents with args (debug annotations) on the
//   thread's track: a user event named as every tool names it ("NAME: value") with its code,
//   text and words; a USDT firing named provider:probe from its program's note, with its
//   probe's parts, program, function, site and arguments (arg0.., signed where the note says); a fault "fault SIGSEGV" with the signal, kind, pc, address, the function
//   holding the pc and the stack the kernel recorded after it (conv_fault.c);
// - the function calls fbt and pid recorded (FUNC_ENTER/EXIT, paired by
//   tools/analysis/kx_funcs.c) as slices, begin and end, nested as they ran: a kernel
//   function's on a track per CPU ("cpu N kernel functions"), a program's on its thread's
//   track: the UI's function-graph view; named from the ELF files found by build id, with
//   the caller's return address, the return value and the returning instruction's offset as
//   args.
// - kernel calls as slices, entry to exit, on a "kernel calls" track under the calling
//   thread's (a call whose exit is missing - the thread died in it, or it was lost - ends at
//   the thread's next call, its death, or the end of the trace); the events the above does
//   not place (PRIO_CHANGE, SYNC_WAIT, TIMER, KPANIC, process events, SIGNAL, an
//   interrupt handler's entry and exit, ...) as instants on the thread's track; both with
//   the event's fields as the event table names them (trace/kev_events.h) as args.
// - thread states other than running and ready (which the sched events give) as slices on a
//   "state" track under the thread's, from the state event to the thread's next: "blocked:
//   REPLY", "stopped", "dead", with the event's fields as args;
// - counters the analysis model knows: each thread's priority (QNX's number) on a "priority"
//   counter track under its thread's, the number of ready threads on a global one.
// Each view is a file of its own (kev2perfetto.h names them); this one reads the capture into
// the analysis model and hands each event to the views that place it.
// Wire format: protobuf varints and length-delimited fields, written by the small encoder
// (kx_pb.h) and the writer (kev2perfetto_writer.c). Field numbers (perfetto.protos): Trace.packet 1; TracePacket: ftrace_events 1,
// process_tree 2, clock_snapshot 6, timestamp 8, trusted_packet_sequence_id 10,
// ftrace_stats 34, system_info 45; FtraceEventBundle: cpu 1, event 2, lost_events 3;
// FtraceEvent: timestamp 1, pid 2, sched_switch 4, sched_waking 20, irq_handler_entry 36,
// irq_handler_exit 37; SchedSwitch: prev_comm 1, prev_pid 2, prev_prio 3, prev_state 4,
// next_comm 5, next_pid 6, next_prio 7; SchedWaking: comm 1, pid 2, prio 3, success 4,
// target_cpu 5; IrqHandlerEntry: irq 1, name 2; IrqHandlerExit: irq 1, ret 2; ProcessTree:
// processes 1 {pid 1, ppid 2, cmdline 3}, threads 2 {tid 1, name 2, tgid 3}; ClockSnapshot:
// clocks 1 {clock_id 1, timestamp 2}, primary_trace_clock 2 (REALTIME 1, BOOTTIME 6);
// FtraceStats: phase 1 (START 1, END 2), cpu_stats 2 {cpu 1, overrun 3}; SystemInfo:
// utsname 1 {sysname 1, version 2, release 3, machine 4}, num_cpus 8; TracePacket
// track_event 11, sequence_flags 13 (1: incremental state cleared), track_descriptor 60;
// TrackDescriptor: uuid 1, name 2, thread 4 {pid 1, tid 2, thread_name 5}, parent_uuid 5,
// counter 8 (CounterDescriptor: unit 3, UNIT_COUNT 2); TrackEvent: debug_annotations 4, type 9
// (SLICE_BEGIN 1, SLICE_END 2, INSTANT 3, COUNTER 4), track_uuid 11, categories 22, name 23,
// counter_value 30, flow_ids 47 and terminating_flow_ids 48 (fixed64); DebugAnnotation:
// uint_value 3, int_value 4, string_value 6, pointer_value 7, name 10 (debug_annotation.proto;
// trace processor's debug_annotation_parser.cc needs a name on each and takes one value).
#include <stdlib.h>

#include "conv_args.h"
#include "kev2perfetto.h"
#include <kevhost/kx_fields.h>
#include <kevhost/kx_pass.h>
#include <kevhost/kx_pf_stacks.h>
#include <kevhost/tool_syms.h>

static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "FILE", "output file", NULL },
    { .also = syms_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kev2perfetto", "[--symbols DIR]... -o FILE.perfetto-trace FILE.kev",
    "Converts a .kev trace into a Perfetto protobuf trace (scheduling, wake-ups,\n"
    "interrupts and losses as ftrace events, process tree, boot clock, message\n"
    "flows, user events and faults as instants with args, kernel calls and blocked\n"
    "states as slices, priorities and ready threads as counters, the stack samples of\n"
    "tracelogger -p HZ as perf samples with callstacks: the UI's flame graph).\n"
    "Code addresses are named from the ELF files the capture ran, found by build id.\n",
    opts, "Exit status: 0 ok, 1 damaged or unreadable input or write error, 2 bad usage.\n",
};

// After the model took event e: the counters of the threads it changed, the state slices of a
// destroyed process's threads.
static void model_after(void *user, const struct kev_reader *r, const struct kev_event *e,
                        struct kx_model *m)
{
    (void)r;
    struct conv *c = user;
    int th = c->state_th;
    if (th >= 0) { // a thread state event's thread
        pf_prio_note(c, th, e->t64);
        pf_ready_note(c, th, e->t64);
    } else if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_PRIO_CHANGE && e->nw >= 2) {
        uint32_t who = kev_field(e, kx_fields()->prio_who);
        pf_prio_note(c, kx_thread(m, kev_who_pid(who), kev_who_tid(who)), e->t64);
    } else if (e->cls == KEV_C_SYSTEM && kx_snapshot_cpu(e) >= 0) { // "CPU c runs who"
        uint32_t who = kev_field(e, kx_fields()->snap_who);
        if (who)
            pf_ready_note(c, kx_thread(m, kev_who_pid(who), kev_who_tid(who)), e->t64);
    } else if (e->cls == KEV_C_PR_TH && e->nw >= 2 &&
               (e->ev == KEV_PR_DESTROY || e->ev == KEV_PR_DESTROY_NAME)) {
        for (unsigned i = 0, pid = kx_pr_pid(e); i < m->nth; i++) // (rare: a scan is fine)
            if (m->th[i].pid == pid) {
                pf_state_close(c, (int)i, e->t64, STATE_NEXT);
                pf_ready_note(c, (int)i, e->t64);
            }
    }
}

static int on_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                    struct kx_model *m)
{
    struct conv *c = user;
    (void)m; // (c->m)
    struct cf_fault done;
    int th = -1; // a thread state event's thread
    if (cf_event(&c->faults, e, &done))
        pf_fault_instant(c, &done);
    if (e->cls == KEV_C_KER_CALL)
        pf_kcall_event(c, r, e);
    else if (e->cls == KEV_C_PR_TH && (e->ev == KEV_TH_DEAD || e->ev == KEV_TH_DESTROY) && e->nw >= 2)
        pf_kcall_close(c, kx_thread(c->m, kx_th_pid(e), kx_th_tid(e)), e->t64); // died in a call
    else if ((e->cls == KEV_C_PR_TH && e->ev > KEV_TH_DESTROY) ||
             (e->cls == KEV_C_COMM && e->ev == KEV_COMM_SIGNAL) ||
             (e->cls == KEV_C_INT && (e->ev == KEV_INT_HANDLER_ENTER || e->ev == KEV_INT_HANDLER_EXIT)) ||
             (e->cls == KEV_C_SYSTEM && e->ev != KEV_SYS_STACK && e->ev != KEV_SYS_FAULT &&
              e->ev != KEV_SYS_FUNC_ENTER && e->ev != KEV_SYS_FUNC_EXIT && e->ev != KEV_SYS_USDT))
        pf_table_instant(c, r, e, pf_current_of(c->m, e->cpu)); // (then as below, as every event)
    else if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_USDT)
        pf_usdt_instant(c, r, e, pf_current_of(c->m, e->cpu));
    if (e->cls == KEV_C_USER)
        pf_user_event(c, r, e);
    else if (e->cls == KEV_C_PR_TH && e->ev <= KEV_TH_DESTROY && e->nw >= 2) {
        th = kx_thread(c->m, kx_th_pid(e), kx_th_tid(e));
        pf_state_event(c, r, e, th);
        pf_sched_thread(c, e, th);
    }
    else if (e->cls == KEV_C_INT && e->nw >= 1)
        pf_sched_irq(c, e);
    else if (e->cls == KEV_C_COMM)
        pf_comm_event(c, r, e);
    else if (e->cls == KEV_C_SYSTEM && (e->ev == KEV_SYS_FUNC_ENTER || e->ev == KEV_SYS_FUNC_EXIT ||
                                        e->ev == KEV_SYS_IMAGE))
        pf_func_event(c, r, e);
    else if (kx_stacks_event(&c->stacks, c->m, e) < 0)
        c->oom = 1;
    else if (e->cls == KEV_C_CONTROL && e->ev == KEV_CTL_DROPPED && e->nw >= 1) {
        pf_sched_lost(c, e);
        for (unsigned i = 0; i < c->m->nth; i++) // a lost event may have ended any state
            pf_state_close(c, (int)i, e->t64, STATE_EVENTS_LOST);
    }
    c->state_th = th;
    return c->werr || c->oom;
}

// What is open when the trace ends ends with it (faults being gathered, the CPUs' bundles,
// kernel calls, sends never received, states, ready counts, function calls); then the trace's
// closing packets: the loss after the last buffers (complete: the pass read the whole file),
// the ftrace stats, the process tree, the function slices and the stack samples.
static void close_at_end(struct conv *c, const struct kev_reader *r, unsigned ncpu, int complete)
{
    struct cf_fault done;
    while (cf_flush(&c->faults, &done))
        pf_fault_instant(c, &done);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        pf_flush_bundle(c, cpu);
    if (complete)
        pf_trailing_losses(c, r, ncpu);
    for (unsigned th = 0; th <= KX_MAX_THREADS; th++) // calls still open end with the trace
        if (c->kc_open[th])
            pf_kcall_close(c, th < KX_MAX_THREADS ? (int)th : -1, c->m->last_t);
    for (unsigned i = 0; i < KX_MSG_MAX; i++) // sends never received
        pf_sent_place(c, r, i);
    for (unsigned th = 0; th < KX_MAX_THREADS; th++) // states still held when the trace ended
        pf_state_close(c, (int)th, c->m->last_t, STATE_TRACE_ENDED);
    pf_ready_flush(c);
    pf_ftrace_stats(c, 2, c->m->last_t, ncpu);
    pf_process_tree(c);
    kx_funcs_finish(c->funcs, &c->func_sink); // calls still open: their entries' instants
    pf_func_slices(c);
    kx_pf_stacks(&c->stacks, c->hz, pf_put_stack_packet, c);
}

// The converter's buffers.
static void conv_free(struct conv *c)
{
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        free(c->bundle[cpu].p);
    free(c->ev.p), free(c->sub.p), free(c->pkt.p), free(c->out.p);
    kx_stacks_free(&c->stacks);
    kx_funcs_free(c->funcs);
    free(c->rows);
}

int main(int argc, char **argv)
{
    const char *in, *out;
    int exit_now = conv_args(&cmd, argc, argv, &in, &out);
    if (exit_now >= 0)
        return exit_now;
    if (!out)
        return tool_usage_error(&cmd, "-o FILE is required");
    struct kx_file f;
    if (kx_open("kev2perfetto", in, &f))
        return 1;
    static struct conv c;
    c.ready_out = -1;
    static struct kx_model m;
    static struct kx_msgs q;
    kx_msgs_init(&q);
    c.q = &q;
    c.f = fopen(out, "wb");
    if (!c.f) {
        perror(out);
        kx_close(&f);
        return 1;
    }
    kx_model_init(&m, f.r);
    syms_trace("kev2perfetto", f.data, f.len);
    c.m = &m;
    c.func_sink = (struct kx_sink){ .user = &c, .func = pf_func_keep };
    c.hz = f.r->kr_cycles_per_sec ? f.r->kr_cycles_per_sec : 1000000000u;
    unsigned ncpu = f.r->kr_have_trailer ? f.r->kr_trl_ncpu : f.r->kr_board_ncpu;
    if (ncpu == 0 || ncpu > KEV_MAX_CPUS)
        ncpu = KEV_MAX_CPUS;
    pf_clock_snapshot(&c, f.r);
    pf_system_info(&c, f.r);
    pf_ftrace_stats(&c, 1, 0, ncpu);
    int rc = kx_pass_run("kev2perfetto", &f, &(struct kx_pass){ .m = &m, .on_event = on_event,
                                                                .after = model_after, .user = &c });
    close_at_end(&c, f.r, ncpu, !rc);
    if (kx_stacks_said("kev2perfetto", &c.stacks, c.oom))
        rc = 1;
    pf_out_flush(&c);
    if (fclose(c.f) || c.werr) {
        fprintf(stderr, "kev2perfetto: %s: write error\n", out);
        rc = 1;
    }
    conv_free(&c);
    syms_end();
    kx_close(&f);
    return rc;
}
