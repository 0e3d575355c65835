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
//   text and words; a fault "fault SIGSEGV" with the signal, kind, pc, address, the function
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
//   not place (PRIO_CHANGE, SYNC_WAIT, USDT, TIMER, KPANIC, process events, SIGNAL, an
//   interrupt handler's entry and exit, ...) as instants on the thread's track; both with
//   the event's fields as the event table names them (trace/kev_events.h) as args.
// - thread states other than running and ready (which the sched events give) as slices on a
//   "state" track under the thread's, from the state event to the thread's next: "blocked:
//   REPLY", "stopped", "dead", with the event's fields as args;
// - counters the analysis model knows: each thread's priority (QNX's number) on a "priority"
//   counter track under its thread's, the number of ready threads on a global one.
// Wire format: protobuf varints and length-delimited fields, written by the small encoder
// below. Field numbers (perfetto.protos): Trace.packet 1; TracePacket: ftrace_events 1,
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
#include <string.h>

#include <kevhost/conv_fault.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_pb.h>
#include <kevhost/kx_pf_stacks.h>
#include <kevhost/tool_syms.h>
#include <trace/kev_events.h>
#include <kevhost/kx_funcs.h>
#include <kevhost/kx_msg.h>
#include <kevhost/kx_digits.h>
#include <kevhost/kx_fields.h>
#include <trace/kev_text.h>
#include <trace/kev_userreg.h>

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

// ---- the conversion ------------------------------------------------------------------------------

#define EVENTS_PER_BUNDLE 512u
#define SENT_WORDS 8u // words kept of a send until its receive (a SND_* event has 2)

// A send, kept until its message is received (then it is a flow's start): one never received
// is placed as an instant with its fields (sent_place).
struct sent_msg {
    struct kev_event e;
    uint32_t w[SENT_WORDS];
    int th;          // the thread current on its CPU when it was written
    uint8_t pending; // not yet placed
};

struct conv {
    FILE *f;
    struct kx_model *m;
    uint64_t hz;
    struct pb bundle[KEV_MAX_CPUS]; // FtraceEvent fields (2) of the CPU's open bundle
    unsigned nbundle[KEV_MAX_CPUS];
    uint8_t lost_pending[KEV_MAX_CPUS]; // events were lost before the CPU's next bundle
    uint64_t lost[KEV_MAX_CPUS];        // DROPPED counts seen per CPU
    struct pb ev, sub, pkt;
    struct pb out;                      // packets not yet written to f (out_flush)
    uint64_t written, packets;
    int werr;
    struct kx_msgs *q;
    uint8_t described[KX_MAX_THREADS + 1]; // a TrackDescriptor was written (last: irq tracks)
    uint8_t irq_described[1024];
    int seq_started;                       // the track-event sequence has begun
    uint64_t flows;                        // flow events written
    int16_t last_cpu[KX_MAX_THREADS];      // CPU each thread last ran on + 1 (0: not yet seen)
    struct kx_stacks stacks;               // stack samples, written as callstacks at the end
    int oom;
    struct cf_faults faults;               // a FAULT waits for its STACK (conv_fault.h)
    struct kev_userreg ureg;               // user event names and formats the trace declares
    uint64_t instants;                     // user event and fault instants written
    struct kx_funcs *funcs;                // fbt's function calls, paired (NULL: none yet)
    struct kx_sink func_sink;
    struct kx_func_row *rows;              // the calls, written as slices at the end
    int exit_paired;                       // the FUNC_EXIT being read ended a call (func_keep)
    size_t nrows, caprows;
    uint8_t cpu_described[KEV_MAX_CPUS];   // a CPU's function track was described
    uint64_t slices;                       // function slices written
    struct sent_msg sent[KX_MSG_MAX];      // by the message's record in the matching's pool
    uint16_t kc_open[KX_MAX_THREADS + 1];  // the call (+1) whose slice is open on the thread's
                                           // kernel-call track (last: no thread known)
    uint8_t kc_described[KX_MAX_THREADS + 1];
    uint64_t kcalls;                       // kernel-call slices written
    int16_t prio_out[KX_MAX_THREADS];      // priority + 1 last on the thread's counter (0: none)
    uint8_t ready[KX_MAX_THREADS];         // the thread is counted among the ready threads
    int ready_n, ready_out;                // ready threads now; last written (-1: none yet)
    uint64_t ready_t;                      // when ready_n last changed
    uint8_t state_open[KX_MAX_THREADS];    // a slice is open on the thread's state track
    uint8_t state_described[KX_MAX_THREADS];
    uint64_t counters, states;             // counter values and state slices written
};

#define SEQ_TRACKS 200u // trusted_packet_sequence_id of the track descriptors and events

// (in 64 bits while cycles * 10^9 fits them: 18 s of a 1 GHz clock; 128 after)
static uint64_t ns(const struct conv *c, uint64_t cycles)
{
    if (cycles <= UINT64_MAX / 1000000000u)
        return cycles * 1000000000u / c->hz;
    return (uint64_t)((unsigned __int128)cycles * 1000000000u / c->hz);
}

// The thread Linux calls current on a CPU: the model's (kx_cpu_thread: the running one, or
// mid-switch the one the CPU's last ONCPU named), else, in a capture without ONCPU, the one
// that left the CPU and no RUNNING has replaced yet (idle, 0, when neither is known).
static int current_of(const struct kx_model *m, unsigned cpu)
{
    int th = kx_cpu_thread(m, cpu);
    return th >= 0 ? th : m->prev[cpu];
}

#define OUT_FLUSH (1u << 18) // bytes of packets gathered in c->out before a write

static void out_flush(struct conv *c)
{
    if (c->out.len && fwrite(c->out.p, 1, c->out.len, c->f) != c->out.len)
        c->werr = 1;
    c->out.len = 0;
}

// Adds the Trace.packet of content parts (in order, n bytes in all) to the output: its tag
// and length, then the parts as they are, so no packet is copied to be wrapped.
static void put_parts(struct conv *c, const struct pb *const *part, unsigned nparts, size_t n)
{
    pb_reserve(&c->out, 11 + n);
    pb_varint(&c->out, 1 << 3 | 2); // Trace.packet
    pb_varint(&c->out, n);
    for (unsigned i = 0; i < nparts; i++) {
        if (part[i]->len) // (an empty part may have no buffer)
            memcpy(c->out.p + c->out.len, part[i]->p, part[i]->len);
        c->out.len += part[i]->len;
    }
    if (c->out.len >= OUT_FLUSH)
        out_flush(c);
    c->packets++;
}

// Wrap c->pkt's content as one Trace.packet and write it.
static void put_packet(struct conv *c)
{
    const struct pb *part = &c->pkt;
    put_parts(c, &part, 1, c->pkt.len);
    c->pkt.len = 0;
}

// The CPU's bundle as a packet: FtraceEventBundle {cpu, lost_events, the events} and the
// sequence id, the bundle's events written from where they were gathered.
static void flush_bundle(struct conv *c, unsigned cpu)
{
    if (!c->nbundle[cpu] && !c->lost_pending[cpu])
        return;
    c->sub.len = 0;
    pb_int(&c->sub, 1, cpu);
    if (c->lost_pending[cpu])
        pb_int(&c->sub, 3, 1);
    c->lost_pending[cpu] = 0;
    size_t inner = c->sub.len + c->bundle[cpu].len;
    c->ev.len = 0;
    pb_int(&c->ev, 10, 1 + cpu);
    c->pkt.len = 0;
    pb_varint(&c->pkt, 1 << 3 | 2); // TracePacket.ftrace_events, its length
    pb_varint(&c->pkt, inner);
    const struct pb *part[] = { &c->pkt, &c->sub, &c->bundle[cpu], &c->ev };
    put_parts(c, part, 4, c->pkt.len + inner + c->ev.len);
    c->pkt.len = 0;
    c->bundle[cpu].len = 0;
    c->nbundle[cpu] = 0;
}

// Begins FtraceEvent {timestamp, pid, <field> = {...}} in the CPU's bundle: the caller writes
// the field's content into the buffer returned, then calls event_end with at.
static struct pb *event_begin(struct conv *c, unsigned cpu, uint64_t t, int32_t pid,
                              unsigned field, size_t at[2])
{
    struct pb *b = &c->bundle[cpu];
    at[0] = pb_open(b, 2);
    pb_int(b, 1, (int64_t)ns(c, t));
    pb_int(b, 2, pid);
    at[1] = pb_open(b, field);
    return b;
}

static void event_end(struct conv *c, unsigned cpu, const size_t at[2])
{
    pb_close(&c->bundle[cpu], at[1]);
    pb_close(&c->bundle[cpu], at[0]);
    c->written++;
    if (++c->nbundle[cpu] >= EVENTS_PER_BUNDLE)
        flush_bundle(c, cpu);
}

static int64_t linux_state(unsigned st)
{
    if (st == KEV_TH_RUNNING || st == KEV_TH_READY || st == KX_STATE_UNKNOWN)
        return 0;      // R: preempted
    return st == KEV_TH_DEAD ? 64 : 1; // dead, else S: sleeping
}

// sched_waking of thread th by cur (the CPU's current thread: the waker trace processor shows).
// target_cpu is the run queue the woken thread goes to, the CPU it last ran on (the waker's
// CPU only for a thread not seen running yet), as Linux's select_task_rq() result.
static void waking(struct conv *c, const struct kev_event *e, int th, int32_t prio, int cur)
{
    size_t at[2];
    struct pb *b = event_begin(c, e->cpu, e->t64, kx_ltid(c->m, cur), 20, at);
    pb_str(b, 1, kx_lcomm(c->m, th));
    pb_int(b, 2, kx_ltid(c->m, th));
    pb_int(b, 3, prio);
    pb_int(b, 4, 1);
    pb_int(b, 5, c->last_cpu[th] ? (unsigned)(c->last_cpu[th] - 1) : e->cpu);
    event_end(c, e->cpu, at);
}

// (th: the event's thread, kx_thread's)
static void thread_event(struct conv *c, const struct kev_event *e, int th)
{
    struct kx_model *m = c->m;
    if (th < 0 || m->in_snapshot)
        return;
    int32_t prio = kx_kernel_prio(e->nw >= 4 ? (int)e->w[2] : kx_qprio(m, th));
    int cur = current_of(m, e->cpu);
    const struct kx_thread *t = &m->th[th];
    if (e->ev == KEV_TH_RUNNING) // (a waking written now targets this CPU)
        c->last_cpu[th] = (int16_t)(e->cpu + 1);
    if (e->ev == KEV_TH_RUNNING && cur != th && !kx_is_idle(m, th) && t->cpu < 0 &&
        t->state != KEV_TH_READY && t->state != KEV_TH_RUNNING && t->state != KX_STATE_UNKNOWN)
        waking(c, e, th, prio, cur); // its READY was not recorded (or lost): woken by now
    if (e->ev == KEV_TH_RUNNING) {
        size_t at[2];
        struct pb *b = event_begin(c, e->cpu, e->t64, kx_ltid(m, cur), 4, at);
        pb_str(b, 1, kx_lcomm(m, cur));
        pb_int(b, 2, kx_ltid(m, cur));
        pb_int(b, 3, kx_kernel_prio(kx_qprio(m, cur)));
        pb_int(b, 4, cur >= 0 && !kx_is_idle(m, cur) ? linux_state(m->th[cur].state) : 0);
        pb_str(b, 5, kx_lcomm(m, th));
        pb_int(b, 6, kx_ltid(m, th));
        pb_int(b, 7, prio);
        event_end(c, e->cpu, at);
    } else if (e->ev == KEV_TH_READY && t->cpu < 0 && t->state != KEV_TH_READY &&
               !kx_is_idle(m, th)) {   // (idle is Linux's swapper, tid 0: never woken)
        waking(c, e, th, prio, cur);
    }
}

// "irq<n>" at out (room for 14 bytes), as printf's "irq%u" writes it: its length.
static size_t irq_name(char *out, uint32_t irq)
{
    memcpy(out, "irq", 3);
    return 3 + kx_put_dec(out + 3, irq);
}

static void int_event(struct conv *c, const struct kev_event *e)
{
    if (e->ev != KEV_INT_ENTER && e->ev != KEV_INT_EXIT)
        return;
    size_t at[2];
    struct pb *b = event_begin(c, e->cpu, e->t64, kx_ltid(c->m, current_of(c->m, e->cpu)),
                               e->ev == KEV_INT_ENTER ? 36 : 37, at);
    pb_int(b, 1, (int32_t)e->w[0]);
    if (e->ev == KEV_INT_ENTER) {
        char name[16];
        pb_bytes(b, 2, name, irq_name(name, e->w[0]));
    } else {
        pb_int(b, 2, 1);
    }
    event_end(c, e->cpu, at);
}

// Track uuid of a thread (by its Linux tid) or of an interrupt that sent a pulse.
static uint64_t track_uuid(const struct conv *c, int th, unsigned irq)
{
    return irq ? 0x200000000ull + irq : 0x100000000ull + (uint32_t)kx_ltid(c->m, th);
}

// A TrackDescriptor packet (d: its fields, freed here) on the track events' sequence, the first
// one saying the sequence's state is cleared.
static void put_descriptor(struct conv *c, struct pb *d)
{
    c->pkt.len = 0;
    pb_bytes(&c->pkt, 60, d->p, d->len);
    pb_int(&c->pkt, 10, SEQ_TRACKS);
    if (!c->seq_started)
        pb_int(&c->pkt, 13, 1), c->seq_started = 1;
    put_packet(c);
    free(d->p);
}

// Begins a TrackEvent packet at t in c->pkt: the fields that vary by kind of event - its args
// (debug annotations), flow ids, a counter's value - are appended to c->pkt, then te_end adds
// the fields every event has and writes it: the one way a TrackEvent is written (field order
// within a message means nothing to protobuf). Nothing else may write a packet in between
// (describe a track first).
static size_t te_begin(struct conv *c, uint64_t t)
{
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, (int64_t)ns(c, t));
    return pb_open(&c->pkt, 11);
}

// Ends the TrackEvent begun at at: of type (1 begin, 2 end, 3 instant, 4 counter) on track
// uuid, of category cat and named name (either NULL: none), and writes its packet.
static void te_end(struct conv *c, size_t at, uint64_t uuid, unsigned type, const char *cat,
                   const char *name)
{
    struct pb *te = &c->pkt;
    pb_int(te, 9, type);
    pb_int(te, 11, (int64_t)uuid);
    if (cat)
        pb_str(te, 22, cat);
    if (name)
        pb_str(te, 23, name);
    pb_close(te, at);
    pb_int(te, 10, SEQ_TRACKS);
    put_packet(c);
}

// The track's TrackDescriptor, once, before its first event.
static void describe(struct conv *c, int th, unsigned irq)
{
    uint8_t *done = irq ? &c->irq_described[(irq - 1) % 1024u]
                        : &c->described[th >= 0 ? (unsigned)th : KX_MAX_THREADS];
    if (*done)
        return;
    *done = 1;
    struct pb d = { 0 };
    pb_int(&d, 1, (int64_t)track_uuid(c, th, irq));
    if (irq) {
        char name[24];
        snprintf(name, sizeof(name), "irq %u", irq - 1);
        pb_str(&d, 2, name);
    } else {
        c->sub.len = 0;
        pb_int(&c->sub, 1, kx_lpid(c->m, th));
        pb_int(&c->sub, 2, kx_ltid(c->m, th));
        pb_str(&c->sub, 5, kx_lcomm(c->m, th));
        pb_bytes(&d, 4, c->sub.p, c->sub.len);
    }
    put_descriptor(c, &d);
}

// A child track of thread th's track (its kernel calls, its states), named name, described
// once (*done), after th's own.
static void describe_child(struct conv *c, int th, uint64_t uuid, const char *name, uint8_t *done)
{
    if (*done)
        return;
    *done = 1;
    describe(c, th, 0);
    struct pb d = { 0 };
    pb_int(&d, 1, (int64_t)uuid);
    pb_str(&d, 2, name);
    pb_int(&d, 5, (int64_t)track_uuid(c, th, 0));
    put_descriptor(c, &d);
}

// One flow point of message g: an instant on the track with the flow id (field 47, or 48
// to terminate the flow).
// (name: "msg send", "pulse receive", ...)
static void flow_point(struct conv *c, const struct kx_msg *g, int th, unsigned irq, uint64_t t,
                       const char *name, unsigned flow_field)
{
    describe(c, th, irq);
    size_t at = te_begin(c, t);
    pb_fixed64(&c->pkt, flow_field, g->id);
    te_end(c, at, track_uuid(c, th, irq), 3, NULL, name);
    c->flows++;
}

// A CPU's track of kernel function slices, described before its first slice.
static uint64_t cpu_track(struct conv *c, unsigned cpu)
{
    uint64_t uuid = 0x300000000ull + cpu;
    if (!c->cpu_described[cpu]) {
        c->cpu_described[cpu] = 1;
        struct pb d = { 0 };
        char name[40];
        snprintf(name, sizeof(name), "cpu %u kernel functions", cpu);
        pb_int(&d, 1, (int64_t)uuid);
        pb_str(&d, 2, name);
        put_descriptor(c, &d);
    }
    return uuid;
}

static void arg_uint(struct pb *te, const char *name, uint64_t v, int pointer);

// A function call (kx_funcs.c's row), kept: the slices (and the instants of calls whose
// return was not recorded) are written at the end in time order, so that a reader that sorts
// by time alone (a stable sort, as trace processor's) keeps them nested where times are equal
// (func_order).
static void func_keep(void *user, const struct kx_func_row *r)
{
    struct conv *c = user;
    if (r->t1)
        c->exit_paired = 1;
    if (c->nrows == c->caprows) {
        size_t cap = c->caprows ? 2 * c->caprows : 1024;
        struct kx_func_row *t = realloc(c->rows, cap * sizeof(*t));
        if (!t) {
            c->oom = 1;
            return;
        }
        c->rows = t, c->caprows = cap;
    }
    c->rows[c->nrows++] = *r;
}

// A slice's begin or end: the row and which. At one time: ends of longer calls first (inner
// before outer), then begins (outer before inner), then the ends of calls that took no time
// (inner before outer), so every end closes the slice it belongs to.
struct func_point {
    uint64_t t;
    unsigned cls;   // 0 end, 1 begin, 2 end of a call of no time
    int depth;      // the order within the class (ends: deeper first)
    size_t row;
};

static int func_order(const void *a, const void *b)
{
    const struct func_point *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static void func_slices(struct conv *c)
{
    struct func_point *p = malloc(2 * c->nrows * sizeof(*p) + 1);
    if (!p) {
        c->oom = c->nrows != 0;
        return;
    }
    for (size_t i = 0; i < c->nrows; i++) {
        const struct kx_func_row *r = &c->rows[i];
        int d = (int)r->depth;
        p[2 * i] = (struct func_point){ r->t0, 1, d, i };
        p[2 * i + 1] = (struct func_point){ r->t1, r->t1 == r->t0 ? 2u : 0u, -d, i };
    }
    qsort(p, 2 * c->nrows, sizeof(*p), func_order);
    for (size_t k = 0; k < 2 * c->nrows; k++) {
        const struct kx_func_row *r = &c->rows[p[k].row];
        int end = p[k].cls != 1;
        if (!r->t1 && end) // no return recorded: the call is its entry's instant alone
            continue;
        uint64_t uuid;
        if (r->user) {   // a program's function: on its thread's track
            describe(c, r->th, 0);
            uuid = track_uuid(c, r->th, 0);
        } else {
            uuid = cpu_track(c, r->cpu % KEV_MAX_CPUS);
        }
        size_t te_at = te_begin(c, p[k].t);
        struct pb *te = &c->pkt;
        char at[160], fn[128];
        if (!end) {
            if (!syms_pc(r->fn, 0, at, sizeof(at), fn, sizeof(fn)) || !fn[0])
                snprintf(fn, sizeof(fn), "0x%llx", (unsigned long long)r->fn);
            if (r->t1) {
                arg_uint(te, "call_site", r->call_site, 1);
            } else { // (the row keeps no call site for a call that did not return)
                arg_uint(te, "this_fn", r->fn, 1);
                arg_uint(te, "return_missing", 1, 0);
                c->instants++;
            }
        } else {
            arg_uint(te, "return_value", r->value, 0);
            arg_uint(te, "return_offset", r->ret_off, 0);
            c->slices++;
        }
        te_end(c, te_at, uuid, end ? 2 : r->t1 ? 1 : 3, NULL, end ? NULL : fn);
    }
    free(p);
}

// Item j of a list of numbers, at out (room for 20 bytes), as printf's "%s0x%llx" writes it
// with " " before every item but the first: its length.
static size_t hex_item(char *out, unsigned j, uint64_t v)
{
    size_t k = 0;
    if (j)
        out[k++] = ' ';
    return k + kx_put_hex(out + k, v);
}

// A debug annotation of a TrackEvent (field 4), written in place: its name and one value.
static void arg_str(struct pb *te, const char *name, const char *v)
{
    size_t at = pb_open(te, 4);
    pb_str(te, 10, name);
    pb_str(te, 6, v);
    pb_close(te, at);
}

static void arg_uint(struct pb *te, const char *name, uint64_t v, int pointer)
{
    size_t at = pb_open(te, 4);
    pb_str(te, 10, name);
    pb_int(te, pointer ? 7 : 3, (int64_t)v);
    pb_close(te, at);
}

// A user event on the track of the thread that wrote it: "NAME: value" as every tool names
// it, with its code, its text (or its words through the registered format) and its words as
// "data" (the event table's name for them).
static void user_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e)
{
    int th = kx_cpu_thread(c->m, e->cpu);
    uint32_t pid = th >= 0 ? c->m->th[th].pid : 0;
    char name[300], value[256], words[12 * 16 + 4];
    kx_user_text(r, &c->ureg, pid, e, 0, value, sizeof(value)); // (the registry follows)
    const struct kev_ureg_entry *u = kev_userreg_find(&c->ureg, pid, e->ev);
    if (u) // "NAME: value", as kx_user_text's with the name (value is shorter than name)
        snprintf(name, sizeof(name), "%s: %s", u->name, value);
    else if (!kx_user_string(r, e, name, sizeof(name)))
        snprintf(name, sizeof(name), "user %u", e->ev);
    size_t k = 0;
    words[0] = 0;
    for (unsigned i = 0; i < e->nw && i < 16; i++) // (11 bytes at most each: they fit)
        k += hex_item(words + k, i, e->w[i]);
    words[k] = 0;
    describe(c, th, 0);
    size_t at = te_begin(c, e->t64);
    arg_uint(&c->pkt, "code", e->ev, 0);
    arg_str(&c->pkt, "value", value);
    arg_str(&c->pkt, "data", words);
    te_end(c, at, track_uuid(c, th, 0), 3, "user", name);
    c->instants++;
}

// A fault on the faulting thread's track: "fault SIGSEGV", with what the FAULT says, the
// function holding its pc, and the stack the kernel recorded after it, frames named.
static void fault_instant(struct conv *c, const struct cf_fault *x)
{
    const struct kev_fault *f = &x->f;
    int th = kx_thread(c->m, f->pid, f->tid);
    char name[64], fn[512], stack[8192];
    snprintf(name, sizeof(name), "fault %s", kev_signal_name(f->sig));
    describe(c, th, 0);
    size_t at = te_begin(c, x->t);
    struct pb *te = &c->pkt;
    arg_str(te, "signal", kev_signal_name(f->sig));
    arg_uint(te, "signo", f->sig, 0);
    arg_str(te, "kind", kev_fault_kind_name(f->kind));
    arg_uint(te, "pc", f->pc, 1);
    if (f->addr_valid)
        arg_uint(te, "addr", f->addr, 1);
    syms_pc(f->pc, 0, fn, sizeof(fn), NULL, 0);
    arg_str(te, "function", fn);
    if (x->have_stack) {
        syms_stack(x->s.pcs, x->s.depth, "\n", stack, sizeof(stack));
        arg_str(te, "stack", stack);
    }
    te_end(c, at, track_uuid(c, th, 0), 3, "fault", name);
    c->instants++;
}

static void table_instant(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                          int cur);

// The send kept in record i, if it was never placed, as an instant with its fields.
static void sent_place(struct conv *c, const struct kev_reader *r, unsigned i)
{
    struct sent_msg *s = &c->sent[i];
    if (!s->pending)
        return;
    s->pending = 0;
    s->e.w = s->w;
    table_instant(c, r, &s->e, s->th);
}

// A message's send, receive and reply as flow points; a receive or reply no message of the
// capture explains (its send not recorded, its threads not known, or a COMM event the
// matching does not follow) as an instant with its fields instead, so that none is dropped.
// A send waits for its receive (no flow has only a start); one never received - its record
// taken by a later send, or still waiting at the end - is an instant with its fields.
static void comm_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e)
{
    const struct kx_msg *g;
    enum kx_msg_step step = kx_msgs_event(c->q, c->m, e, &g);
    unsigned i = step != KX_MSG_NONE ? (unsigned)(g - c->q->m) % KX_MSG_MAX : 0;
    if (step == KX_MSG_SEND) {
        sent_place(c, r, i); // the record's last send, dropped by the matching unreceived
        struct sent_msg *s = &c->sent[i];
        s->e = *e;
        s->e.nw = e->nw < SENT_WORDS ? e->nw : SENT_WORDS;
        memcpy(s->w, e->w, s->e.nw * sizeof(s->w[0]));
        s->th = current_of(c->m, e->cpu);
        s->pending = !c->m->in_snapshot;
    } else if (step == KX_MSG_RECV && g->server >= 0 && (g->client >= 0 || g->irq)) {
        c->sent[i].pending = 0;
        flow_point(c, g, g->client, g->irq, g->t_send, g->pulse ? "pulse send" : "msg send", 47);
        flow_point(c, g, g->server, 0, e->t64, g->pulse ? "pulse receive" : "msg receive",
                   g->pulse ? 48 : 47);
    } else if (step == KX_MSG_REPLY) {
        if (g->client >= 0 && g->server >= 0)
            flow_point(c, g, g->client, 0, e->t64, g->pulse ? "pulse reply" : "msg reply", 48);
        else
            table_instant(c, r, e, current_of(c->m, e->cpu));
        kx_msgs_release(c->q, g);
    } else if (e->ev != KEV_COMM_SIGNAL) { // (SIGNAL: on_event's)
        if (step == KX_MSG_RECV)
            sent_place(c, r, i); // received, but no flow could be drawn
        table_instant(c, r, e, current_of(c->m, e->cpu));
    }
}

// The event's fields, as the event table names them, as debug annotations of te: integers
// as uint or int values, addresses as pointers, strings and arrays ("0x.. 0x..") as strings.
// (fs: the event's fields, decoded by the caller)
static void table_args(const struct kev_fields *fs, struct pb *te)
{
    for (unsigned i = 0; i < fs->n; i++) {
        const struct kev_field *f = &fs->f[i];
        if (f->kind == KEV_K_STRING) {
            char safe[512];
            kev_text_safe(safe, sizeof(safe), (const uint8_t *)f->str, strlen(f->str));
            arg_str(te, f->name, safe);
        } else if (KEV_K_IS_ARRAY(f->kind)) {
            char list[1024]; // "0x.. 0x..", as printf's "%s0x%llx" would write it
            size_t k = 0;
            for (unsigned j = 0; j < f->n && k + 24 < sizeof(list); j++)
                k += hex_item(list + k, j, f->arr[j]);
            list[k] = 0;
            arg_str(te, f->name, list);
        } else if (f->kind == KEV_K_S32) {
            size_t at = pb_open(te, 4);
            pb_str(te, 10, f->name);
            pb_int(te, 4, (int64_t)f->v);
            pb_close(te, at);
        } else {
            arg_uint(te, f->name, f->v, f->kind == KEV_K_ADDR);
        }
    }
}

// The kernel-call track of thread th: a child of its thread track, described once.
static uint64_t kcall_track(struct conv *c, int th)
{
    uint64_t uuid = 0x400000000ull + (uint32_t)kx_ltid(c->m, th);
    describe_child(c, th, uuid, "kernel calls",
                   &c->kc_described[th >= 0 ? (unsigned)th : KX_MAX_THREADS]);
    return uuid;
}

// Close th's open kernel-call slice at t (its exit is missing).
static void kcall_close(struct conv *c, int th, uint64_t t)
{
    unsigned slot = th >= 0 ? (unsigned)th : KX_MAX_THREADS;
    if (!c->kc_open[slot])
        return;
    uint64_t uuid = kcall_track(c, th);
    size_t at = te_begin(c, t);
    arg_uint(&c->pkt, "exit_missing", 1, 0);
    te_end(c, at, uuid, 2, NULL, NULL);
    c->kc_open[slot] = 0;
    c->kcalls++;
}

// A kernel call's entry begins a slice named for the call, its exit ends it (an exit without
// its entry is an instant); the fields of each are the slice's args.
static void kcall_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e)
{
    int th = current_of(c->m, e->cpu);
    enum kev_kcall_part part = kev_kcall_part(e);
    if (c->m->in_snapshot || part == KEV_KCALL_NONE)
        return;
    unsigned slot = th >= 0 ? (unsigned)th : KX_MAX_THREADS, call = kev_kcall_no(e);
    char nb[48];
    const char *name = kev_kcall_name(call);
    if (!name)
        name = kev_event_title(e->cls, e->ev, nb, sizeof(nb));
    uint64_t uuid = kcall_track(c, th);
    static struct kev_fields fs;
    kev_fields_decode(r, e, &fs);
    int ends = part != KEV_KCALL_ENTRY && c->kc_open[slot] == call + 1; // the open slice's exit
    if (!ends) // (an entry, or an exit of another call: the open slice's exit is missing)
        kcall_close(c, th, e->t64);
    size_t at = te_begin(c, e->t64);
    table_args(&fs, &c->pkt);
    if (part == KEV_KCALL_INTR) // QNX's interrupted call ends it as its exit does
        arg_uint(&c->pkt, "interrupted", 1, 0);
    if (part == KEV_KCALL_ENTRY) {
        te_end(c, at, uuid, 1, "kcall", name);
        c->kc_open[slot] = (uint16_t)(call + 1);
    } else if (ends) {
        te_end(c, at, uuid, 2, NULL, NULL);
        c->kc_open[slot] = 0;
        c->kcalls++;
    } else {
        char label[64];
        snprintf(label, sizeof(label), "%s exit", name);
        te_end(c, at, uuid, 3, "kcall", label);
    }
}

// "kev.<class name>" (kev.? for a class without one), made once a class.
static const char *class_cat(unsigned cls)
{
    static char cat[KEV_NCLASS + 1][16];
    unsigned i = cls < KEV_NCLASS ? cls : KEV_NCLASS;
    if (!cat[i][0])
        snprintf(cat[i], sizeof(cat[i]), "kev.%s", i < KEV_NCLASS && kev_class_name(i)
                                                       ? kev_class_name(i) : "?");
    return cat[i];
}

// An event no view above places: an instant named as the table names it, on the track of the
// thread it is about (its "who", or pid and tid) or else cur (the thread current on its CPU
// when it was written).
static void table_instant(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                          int cur)
{
    static struct kev_fields fs;
    if (c->m->in_snapshot)
        return;
    kev_fields_decode(r, e, &fs);
    int th = -1;
    const struct kev_field *who = kev_field_get(&fs, "who");
    const struct kev_field *pid = kev_field_get(&fs, "pid"), *tid = kev_field_get(&fs, "tid");
    if (who && who->v)
        th = kx_thread(c->m, kev_who_pid(who->v), kev_who_tid(who->v));
    else if (pid && tid)
        th = kx_thread(c->m, (uint32_t)pid->v, (uint32_t)tid->v);
    if (th < 0)
        th = cur;
    describe(c, th, 0);
    size_t at = te_begin(c, e->t64);
    table_args(&fs, &c->pkt);
    te_end(c, at, track_uuid(c, th, 0), 3, class_cat(e->cls), fs.name);
    c->instants++;
}

// ---- counters and thread states ----------------------------------------------------------------
// Counter tracks (TrackDescriptor.counter, TYPE_COUNTER events with counter_value) carry what
// the analysis model knows after each event: a thread's priority and the number of ready
// threads. A value is written only when it differs from the track's last, so a track holds one
// value per change.

#define PRIO_TRACK(c, th)  (0x500000000ull + (uint32_t)kx_ltid((c)->m, th))
#define STATE_TRACK(c, th) (0x600000000ull + (uint32_t)kx_ltid((c)->m, th))
#define READY_TRACK        0x700000000ull

// A counter track's descriptor: named name, a child of parent (0: none), values in unit
// (CounterDescriptor.unit: 2 UNIT_COUNT; 0 none).
static void describe_counter(struct conv *c, uint64_t uuid, uint64_t parent, const char *name,
                             unsigned unit)
{
    struct pb d = { 0 };
    pb_int(&d, 1, (int64_t)uuid);
    pb_str(&d, 2, name);
    if (parent)
        pb_int(&d, 5, (int64_t)parent);
    c->sub.len = 0;
    if (unit)
        pb_int(&c->sub, 3, unit);
    pb_bytes(&d, 8, c->sub.p, c->sub.len);
    put_descriptor(c, &d);
}

static void counter_value(struct conv *c, uint64_t uuid, uint64_t t, int64_t v)
{
    size_t at = te_begin(c, t);
    pb_int(&c->pkt, 30, v);
    te_end(c, at, uuid, 4, NULL, NULL);
    c->counters++;
}

// Thread th's priority as the model has it after the event at t (PRIO_CHANGE's new priority, a
// wide state event's), QNX's number, on the "priority" counter under its thread track.
static void prio_note(struct conv *c, int th, uint64_t t)
{
    int p = th >= 0 ? c->m->th[th].prio : -1;
    if (p < 0 || c->prio_out[th] == p + 1 || kx_is_idle(c->m, th)) // (most: no change)
        return;
    if (!c->prio_out[th]) {
        describe(c, th, 0);
        describe_counter(c, PRIO_TRACK(c, th), track_uuid(c, th, 0), "priority", 0);
    }
    c->prio_out[th] = (int16_t)(p + 1);
    counter_value(c, PRIO_TRACK(c, th), t, p);
}

// The "ready threads" counter's value as of ready_t, if it changed since last written.
static void ready_flush(struct conv *c)
{
    if (c->ready_n == c->ready_out)
        return;
    if (c->ready_out < 0)
        describe_counter(c, READY_TRACK, 0, "ready threads", 2);
    c->ready_out = c->ready_n;
    counter_value(c, READY_TRACK, c->ready_t, c->ready_n);
}

// Thread th counted among the ready threads (idle aside) while the model's state for it is
// READY, after the event at t. Changes at one time are written as one value: a preemption's
// READY and the next thread's RUNNING leave the count as it was. (The trace does not say
// which CPU's queue a READY thread waits on - another CPU may pull it - so the count is the
// system's, not a CPU's.)
static void ready_note(struct conv *c, int th, uint64_t t)
{
    if (th < 0)
        return;
    uint8_t r = c->m->th[th].state == KEV_TH_READY && !kx_is_idle(c->m, th);
    if (r == c->ready[th])
        return;
    if (t != c->ready_t) {
        if (c->ready_out >= 0 || c->ready_n) // (the first value written is not a 0)
            ready_flush(c);
        c->ready_t = t;
    }
    c->ready[th] = r;
    c->ready_n += r ? 1 : -1;
}

// Thread th's "state" track, a child of its thread track, described once.
static uint64_t state_track(struct conv *c, int th)
{
    uint64_t uuid = STATE_TRACK(c, th);
    describe_child(c, th, uuid, "state", &c->state_described[th]);
    return uuid;
}

// Ends th's open state slice at t; why, when not at the thread's next state, as an arg
// (STATE_*).
enum { STATE_NEXT, STATE_TRACE_ENDED, STATE_EVENTS_LOST };
static void state_close(struct conv *c, int th, uint64_t t, int why)
{
    if (th < 0 || !c->state_open[th])
        return;
    uint64_t uuid = state_track(c, th);
    size_t at = te_begin(c, t);
    if (why != STATE_NEXT)
        arg_uint(&c->pkt, why == STATE_TRACE_ENDED ? "trace_ended" : "events_lost", 1, 0);
    te_end(c, at, uuid, 2, NULL, NULL);
    c->state_open[th] = 0;
    c->states++;
}

// A thread state event: the thread's state slice ends, and a state other than running or ready
// (those are the scheduling events') begins one, from this event to the thread's next state
// event (or a loss of events, which may have held it): "blocked: REPLY" (the event table's name without its TH), "stopped", "dead", with
// the event's fields as args. Perfetto's own thread states come from sched_switch's Linux
// letters only (S, D, ...), which cannot say what a QNX thread waits for.
static void state_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                        int th)
{
    if (th < 0 || kx_is_idle(c->m, th))
        return;
    state_close(c, th, e->t64, STATE_NEXT);
    if (e->ev == KEV_TH_RUNNING || e->ev == KEV_TH_READY || e->ev == KEV_TH_CREATE ||
        e->ev == KEV_TH_DESTROY)
        return;
    static struct kev_fields fs;
    kev_fields_decode(r, e, &fs);
    char name[48];
    const char *st = strncmp(fs.name, "TH", 2) ? fs.name : fs.name + 2;
    if (e->ev == KEV_TH_DEAD)
        snprintf(name, sizeof(name), "dead");
    else if (e->ev == KEV_TH_STOPPED)
        snprintf(name, sizeof(name), "stopped");
    else
        snprintf(name, sizeof(name), "blocked: %s", st);
    uint64_t uuid = state_track(c, th);
    size_t at = te_begin(c, e->t64);
    table_args(&fs, &c->pkt);
    te_end(c, at, uuid, 1, "thread_state", name);
    c->state_open[th] = 1;
}

// After the model took event e: the counters of the threads it changed, the state slices of a
// destroyed process's threads.
static void model_after(struct conv *c, const struct kev_event *e, int th)
{
    struct kx_model *m = c->m;
    if (th >= 0) { // a thread state event's thread
        prio_note(c, th, e->t64);
        ready_note(c, th, e->t64);
    } else if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_PRIO_CHANGE && e->nw >= 2) {
        uint32_t who = kx_field(e, kx_fields()->prio_who);
        prio_note(c, kx_thread(m, kev_who_pid(who), kev_who_tid(who)), e->t64);
    } else if (e->cls == KEV_C_SYSTEM && kx_snapshot_cpu(e) >= 0) { // "CPU c runs who"
        uint32_t who = kx_field(e, kx_fields()->snap_who);
        if (who)
            ready_note(c, kx_thread(m, kev_who_pid(who), kev_who_tid(who)), e->t64);
    } else if (e->cls == KEV_C_PR_TH && e->nw >= 2 &&
               (e->ev == KEV_PR_DESTROY || e->ev == KEV_PR_DESTROY_NAME)) {
        for (unsigned i = 0; i < m->nth; i++) // (rare: a scan is fine)
            if (m->th[i].pid == e->w[1]) {
                state_close(c, (int)i, e->t64, STATE_NEXT);
                ready_note(c, (int)i, e->t64);
            }
    }
}

static int on_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct conv *c = user;
    struct cf_fault done;
    int th = -1; // a thread state event's thread
    if (cf_event(&c->faults, e, &done))
        fault_instant(c, &done);
    if (e->cls == KEV_C_KER_CALL)
        kcall_event(c, r, e);
    else if (e->cls == KEV_C_PR_TH && (e->ev == KEV_TH_DEAD || e->ev == KEV_TH_DESTROY) && e->nw >= 2)
        kcall_close(c, kx_thread(c->m, e->w[0], e->w[1]), e->t64); // died in a call
    else if ((e->cls == KEV_C_PR_TH && e->ev > KEV_TH_DESTROY) ||
             (e->cls == KEV_C_COMM && e->ev == KEV_COMM_SIGNAL) ||
             (e->cls == KEV_C_INT && (e->ev == KEV_INT_HANDLER_ENTER || e->ev == KEV_INT_HANDLER_EXIT)) ||
             (e->cls == KEV_C_SYSTEM && e->ev != KEV_SYS_STACK && e->ev != KEV_SYS_FAULT &&
              e->ev != KEV_SYS_FUNC_ENTER && e->ev != KEV_SYS_FUNC_EXIT))
        table_instant(c, r, e, current_of(c->m, e->cpu)); // (then as below, as every event)
    if (e->cls == KEV_C_USER)
        user_event(c, r, e);
    else if (e->cls == KEV_C_PR_TH && e->ev <= KEV_TH_DESTROY && e->nw >= 2) {
        th = kx_thread(c->m, e->w[0], e->w[1]);
        state_event(c, r, e, th);
        thread_event(c, e, th);
    }
    else if (e->cls == KEV_C_INT && e->nw >= 1)
        int_event(c, e);
    else if (e->cls == KEV_C_COMM)
        comm_event(c, r, e);
    else if (e->cls == KEV_C_SYSTEM && (e->ev == KEV_SYS_FUNC_ENTER || e->ev == KEV_SYS_FUNC_EXIT ||
                                        e->ev == KEV_SYS_IMAGE)) {
        int th = current_of(c->m, e->cpu);
        if (!c->funcs && !(c->funcs = kx_funcs_new()))
            c->oom = 1;
        else if (e->ev == KEV_SYS_IMAGE)
            kx_funcs_image(c->funcs, r, e);
        else {
            uint64_t dropped = kx_funcs_dropped(c->funcs);
            c->exit_paired = 0;
            kx_funcs_event(c->funcs, e, th, th >= 0 ? c->m->th[th].pid : 0, &c->func_sink);
            if (e->ev == KEV_SYS_FUNC_EXIT && !c->exit_paired &&
                kx_funcs_dropped(c->funcs) == dropped)
                table_instant(c, r, e, th); // a return whose entry was not recorded
        }
    }
    else if (kx_stacks_event(&c->stacks, c->m, e) < 0)
        c->oom = 1;
    else if (e->cls == KEV_C_CONTROL && e->ev == KEV_CTL_DROPPED && e->nw >= 1) {
        flush_bundle(c, e->cpu); // the events before the gap; the next bundle says "lost"
        c->lost[e->cpu] += e->w[0];
        c->lost_pending[e->cpu] = 1;
        for (unsigned i = 0; i < c->m->nth; i++) // a lost event may have ended any state
            state_close(c, (int)i, e->t64, STATE_EVENTS_LOST);
    }
    kx_model_update(c->m, e);
    model_after(c, e, th);
    return c->werr || c->oom;
}

// put_stack_packet: kx_pf_stacks's packets, written as every other one.
static void put_stack_packet(void *ctx, struct pb *pkt)
{
    struct conv *c = ctx;
    struct pb t = c->pkt;
    c->pkt = *pkt;
    put_packet(c);
    *pkt = c->pkt;
    c->pkt = t;
}

static void process_tree(struct conv *c)
{
    const struct kx_model *m = c->m;
    struct pb tree = { 0 };
    for (unsigned i = 0; i < m->nth; i++) {
        const struct kx_thread *t = &m->th[i];
        if (kx_is_idle(m, (int)i))
            continue;
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = m->th[j].pid == t->pid && !kx_is_idle(m, (int)j);
        if (!seen) {
            c->sub.len = 0;
            pb_int(&c->sub, 1, kx_pid_of(t->pid));
            pb_int(&c->sub, 2, kx_lppid(m, t->pid));
            pb_str(&c->sub, 3, t->comm[0] ? t->comm : t->name);
            pb_bytes(&tree, 1, c->sub.p, c->sub.len);
        }
        c->sub.len = 0;
        pb_int(&c->sub, 1, kx_ltid(m, (int)i));
        pb_str(&c->sub, 2, kx_lcomm(m, (int)i));
        pb_int(&c->sub, 3, kx_lpid(m, (int)i));
        pb_bytes(&tree, 2, c->sub.p, c->sub.len);
    }
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, (int64_t)ns(c, m->first_t));
    pb_bytes(&c->pkt, 2, tree.p, tree.len);
    pb_int(&c->pkt, 10, 100);
    put_packet(c);
    free(tree.p);
}

static void clock_entry(struct pb *b, struct pb *tmp, unsigned id, uint64_t t)
{
    tmp->len = 0;
    pb_int(tmp, 1, id);
    pb_int(tmp, 2, (int64_t)t);
    pb_bytes(b, 1, tmp->p, tmp->len);
}

// Trace time is BOOTTIME (ftrace's clock): 0 at boot, when REALTIME was the boot date.
static void clock_snapshot(struct conv *c, const struct kev_reader *r)
{
    struct pb snap = { 0 };
    int64_t boot = kx_boot_time(r);
    clock_entry(&snap, &c->sub, 6, 0);
    clock_entry(&snap, &c->sub, 1, boot > 0 ? (uint64_t)boot * 1000000000u : 0);
    pb_int(&snap, 2, 6);
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, 0);
    pb_bytes(&c->pkt, 6, snap.p, snap.len);
    pb_int(&c->pkt, 10, 100);
    put_packet(c);
    free(snap.p);
}

static void attr_str(struct pb *b, unsigned field, const struct kev_reader *r, const char *key)
{
    unsigned n;
    const char *v = kev_attr(r, key, &n);
    if (v)
        pb_bytes(b, field, v, n);
}

static void system_info(struct conv *c, const struct kev_reader *r)
{
    struct pb info = { 0 };
    c->sub.len = 0;
    attr_str(&c->sub, 1, r, "SYSNAME");
    attr_str(&c->sub, 2, r, "SYS_VERSION");
    attr_str(&c->sub, 3, r, "SYS_RELEASE");
    attr_str(&c->sub, 4, r, "MACHINE");
    pb_bytes(&info, 1, c->sub.p, c->sub.len);
    unsigned ncpu = r->kr_have_trailer ? r->kr_trl_ncpu : r->kr_board_ncpu;
    pb_int(&info, 8, ncpu ? ncpu : 1);
    c->pkt.len = 0;
    pb_bytes(&c->pkt, 45, info.p, info.len);
    pb_int(&c->pkt, 10, 100);
    put_packet(c);
    free(info.p);
}

// FtraceStats of a phase (1 start, 2 end): each CPU's lost events as the kernel's overrun
// count, so trace processor's ftrace_cpu_overrun_delta is the number lost.
static void ftrace_stats(struct conv *c, unsigned phase, uint64_t t, unsigned ncpu)
{
    struct pb st = { 0 };
    pb_int(&st, 1, phase);
    for (unsigned cpu = 0; cpu < ncpu; cpu++) {
        c->sub.len = 0;
        pb_int(&c->sub, 1, cpu);
        pb_int(&c->sub, 3, phase == 2 ? (int64_t)c->lost[cpu] : 0);
        pb_bytes(&st, 2, c->sub.p, c->sub.len);
    }
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, (int64_t)ns(c, t));
    pb_bytes(&c->pkt, 34, st.p, st.len);
    pb_int(&c->pkt, 10, 100);
    put_packet(c);
    free(st.p);
}

// Losses no DROPPED reported (after the last buffer): an empty bundle saying "lost" and the
// count in the end statistics.
static void trailing_losses(struct conv *c, const struct kev_reader *r, unsigned ncpu)
{
    for (unsigned cpu = 0; cpu < ncpu && r->kr_have_trailer; cpu++)
        if (r->kr_trl_lost[cpu] > c->lost[cpu]) {
            c->lost[cpu] = r->kr_trl_lost[cpu];
            c->lost_pending[cpu] = 1;
            flush_bundle(c, cpu);
        }
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    struct tool_args a = { argc, argv, 0, NULL };
    for (int id; (id = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END;) {
        if (id < 0)
            return tool_opts_exit(id);
        if (id == 'o')
            out = a.val;
        else if (syms_take(cmd.name, id, a.val) < 0)
            return 2;
    }
    if (tool_one_file(&cmd, &a, &in))
        return 2;
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
    c.func_sink = (struct kx_sink){ .user = &c, .func = func_keep };
    c.hz = f.r->kr_cycles_per_sec ? f.r->kr_cycles_per_sec : 1000000000u;
    unsigned ncpu = f.r->kr_have_trailer ? f.r->kr_trl_ncpu : f.r->kr_board_ncpu;
    if (ncpu == 0 || ncpu > KEV_MAX_CPUS)
        ncpu = KEV_MAX_CPUS;
    clock_snapshot(&c, f.r);
    system_info(&c, f.r);
    ftrace_stats(&c, 1, 0, ncpu);
    int rc = kx_decode_sorted("kev2perfetto", &f, on_event, &c);
    struct cf_fault done;
    while (cf_flush(&c.faults, &done))
        fault_instant(&c, &done);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        flush_bundle(&c, cpu);
    if (!rc)
        trailing_losses(&c, f.r, ncpu);
    for (unsigned th = 0; th <= KX_MAX_THREADS; th++) // calls still open end with the trace
        if (c.kc_open[th])
            kcall_close(&c, th < KX_MAX_THREADS ? (int)th : -1, m.last_t);
    for (unsigned i = 0; i < KX_MSG_MAX; i++) // sends never received
        sent_place(&c, f.r, i);
    for (unsigned th = 0; th < KX_MAX_THREADS; th++) // states still held when the trace ended
        state_close(&c, (int)th, m.last_t, STATE_TRACE_ENDED);
    ready_flush(&c);
    ftrace_stats(&c, 2, m.last_t, ncpu);
    process_tree(&c);
    kx_funcs_finish(c.funcs, &c.func_sink); // calls still open: their entries' instants
    func_slices(&c);
    kx_pf_stacks(&c.stacks, c.hz, put_stack_packet, &c);
    if (kx_stacks_said("kev2perfetto", &c.stacks, c.oom))
        rc = 1;
    out_flush(&c);
    if (fclose(c.f) || c.werr) {
        fprintf(stderr, "kev2perfetto: %s: write error\n", out);
        rc = 1;
    }
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        free(c.bundle[cpu].p);
    free(c.ev.p), free(c.sub.p), free(c.pkt.p), free(c.out.p);
    kx_stacks_free(&c.stacks);
    kx_funcs_free(c.funcs);
    free(c.rows);
    syms_end();
    kx_close(&f);
    return rc;
}
