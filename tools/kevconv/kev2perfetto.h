// SPDX-License-Identifier: MIT
// kev2perfetto's conversion state and what its files share (kev2perfetto.c reads the capture
// and hands each event to them): the writer of packets, track descriptors and track events
// (kev2perfetto_writer.c), the scheduling events as ftrace bundles (kev2perfetto_sched.c),
// the slices of a thread's kernel calls and blocked states (kev2perfetto_slices.c), the
// function calls' slices (kev2perfetto_funcs.c), the instants - messages' flows, user events,
// faults, the events no other view places (kev2perfetto_instants.c), the counters
// (kev2perfetto_counters.c) and the system's description (kev2perfetto_system.c).
// One struct conv for the run, single-threaded; each file keeps to its own fields below.
#ifndef KEV2PERFETTO_H
#define KEV2PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include <kevhost/conv_fault.h>
#include <kevhost/kx_funcs.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_msg.h>
#include <kevhost/kx_pb.h>
#include <kevhost/kx_stacks.h>
#include <trace/kev_events.h>
#include <trace/kev_userreg.h>

#define SENT_WORDS 8u   // words kept of a send until its receive (a SND_* event has 2)
#define SEQ_TRACKS 200u // trusted_packet_sequence_id of the track descriptors and events

// Track uuids, one range each: a thread's track 0x1_0000_0000 + its Linux tid, an interrupt's
// (the pulses it sent) 0x2_0000_0000 + irq + 1, a CPU's kernel functions 0x3_0000_0000 + cpu,
// a thread's child tracks: kernel calls 0x4.., priority 0x5.., state 0x6.. + its Linux tid;
// the ready threads' counter 0x7_0000_0000.
#define PRIO_TRACK(c, th)  (0x500000000ull + (uint32_t)kx_ltid((c)->m, th))
#define STATE_TRACK(c, th) (0x600000000ull + (uint32_t)kx_ltid((c)->m, th))
#define READY_TRACK        0x700000000ull

// A send, kept until its message is received (then it is a flow's start): one never received
// is placed as an instant with its fields (pf_sent_place).
struct sent_msg {
    struct kev_event e;
    uint32_t w[SENT_WORDS];
    int th;          // the thread current on its CPU when it was written
    uint8_t pending; // not yet placed
};

struct conv {
    // the input: the analysis model the capture is read into, its clock
    struct kx_model *m;
    uint64_t hz;
    int oom;                               // an allocation failed
    int state_th;                          // on_event's thread state event's thread, or -1
    // the writer (kev2perfetto_writer.c)
    FILE *f;
    struct pb out;                         // packets not yet written to f (pf_out_flush)
    struct pb ev, sub, pkt;                // a packet being built, and its parts
    int werr;
    int seq_started;                       // the track-event sequence has begun
    uint8_t described[KX_MAX_THREADS + 1]; // a TrackDescriptor was written (last: irq tracks)
    uint8_t irq_described[1024];
    // scheduling (kev2perfetto_sched.c)
    struct pb bundle[KEV_MAX_CPUS];        // FtraceEvent fields (2) of the CPU's open bundle
    unsigned nbundle[KEV_MAX_CPUS];
    uint8_t lost_pending[KEV_MAX_CPUS];    // events were lost before the CPU's next bundle
    uint64_t lost[KEV_MAX_CPUS];           // DROPPED counts seen per CPU
    int16_t last_cpu[KX_MAX_THREADS];      // CPU each thread last ran on + 1 (0: not yet seen)
    // kernel-call and state slices (kev2perfetto_slices.c)
    uint16_t kc_open[KX_MAX_THREADS + 1];  // the call (+1) whose slice is open on the thread's
                                           // kernel-call track (last: no thread known)
    uint8_t kc_described[KX_MAX_THREADS + 1];
    uint8_t state_open[KX_MAX_THREADS];    // a slice is open on the thread's state track
    uint8_t state_described[KX_MAX_THREADS];
    // function calls (kev2perfetto_funcs.c)
    struct kx_funcs *funcs;                // fbt's function calls, paired (NULL: none yet)
    struct kx_sink func_sink;
    struct kx_func_row *rows;              // the calls, written as slices at the end
    int exit_paired;                       // the FUNC_EXIT being read ended a call (func_keep)
    size_t nrows, caprows;
    uint8_t cpu_described[KEV_MAX_CPUS];   // a CPU's function track was described
    // instants (kev2perfetto_instants.c)
    struct kx_msgs *q;
    struct sent_msg sent[KX_MSG_MAX];      // by the message's record in the matching's pool
    struct cf_faults faults;               // a FAULT waits for its STACK (conv_fault.h)
    struct kev_userreg ureg;               // user event names and formats the trace declares
    // counters (kev2perfetto_counters.c)
    int16_t prio_out[KX_MAX_THREADS];      // priority + 1 last on the thread's counter (0: none)
    uint8_t ready[KX_MAX_THREADS];         // the thread is counted among the ready threads
    int ready_n, ready_out;                // ready threads now; last written (-1: none yet)
    uint64_t ready_t;                      // when ready_n last changed
    // the stack samples, written as callstacks at the end (kx_pf_stacks.c)
    struct kx_stacks stacks;
};

// A capture time in cycles as trace time, ns (in 64 bits while cycles * 10^9 fits them: 18 s of
// a 1 GHz clock; 128 after).
static inline uint64_t pf_ns(const struct conv *c, uint64_t cycles)
{
    if (cycles <= UINT64_MAX / 1000000000u)
        return cycles * 1000000000u / c->hz;
    return (uint64_t)((unsigned __int128)cycles * 1000000000u / c->hz);
}

// The thread Linux calls current on a CPU: the model's (kx_cpu_thread: the running one, or
// mid-switch the one the CPU's last ONCPU named), else, in a capture without ONCPU, the one
// that left the CPU and no RUNNING has replaced yet (idle, 0, when neither is known).
static inline int pf_current_of(const struct kx_model *m, unsigned cpu)
{
    int th = kx_cpu_thread(m, cpu);
    return th >= 0 ? th : m->prev[cpu];
}

// Track uuid of a thread (by its Linux tid) or of an interrupt that sent a pulse (irq + 1).
static inline uint64_t pf_track_uuid(const struct conv *c, int th, unsigned irq)
{
    return irq ? 0x200000000ull + irq : 0x100000000ull + (uint32_t)kx_ltid(c->m, th);
}

// ---- the writer (kev2perfetto_writer.c) ----------------------------------------------------------
// Packets: gathered in c->out, written to c->f by pf_out_flush.
void pf_out_flush(struct conv *c);
void pf_put_parts(struct conv *c, const struct pb *const *part, unsigned nparts, size_t n);
void pf_put_packet(struct conv *c);
void pf_put_stack_packet(void *ctx, struct pb *pkt);
// Tracks: a thread's or an interrupt's descriptor, a thread's child tracks.
void pf_put_descriptor(struct conv *c, struct pb *d);
void pf_describe(struct conv *c, int th, unsigned irq);
void pf_describe_child(struct conv *c, int th, uint64_t uuid, const char *name, uint8_t *done);
// Track events: pf_te_begin, the event's own fields into c->pkt, pf_te_end.
size_t pf_te_begin(struct conv *c, uint64_t t);
void pf_te_end(struct conv *c, size_t at, uint64_t uuid, unsigned type, const char *cat,
               const char *name);
// Debug annotations (args) of a track event.
void pf_arg_str(struct pb *te, const char *name, const char *v);
void pf_arg_uint(struct pb *te, const char *name, uint64_t v, int pointer);
void pf_arg_int(struct pb *te, const char *name, int64_t v);
void pf_table_args(const struct kev_fields *fs, struct pb *te);
size_t pf_hex_item(char *out, unsigned j, uint64_t v);

// ---- scheduling (kev2perfetto_sched.c) -----------------------------------------------------------
void pf_sched_thread(struct conv *c, const struct kev_event *e, int th);
void pf_sched_irq(struct conv *c, const struct kev_event *e);
void pf_sched_lost(struct conv *c, const struct kev_event *e);
void pf_flush_bundle(struct conv *c, unsigned cpu);
void pf_ftrace_stats(struct conv *c, unsigned phase, uint64_t t, unsigned ncpu);
void pf_trailing_losses(struct conv *c, const struct kev_reader *r, unsigned ncpu);

// ---- kernel-call and state slices (kev2perfetto_slices.c) ----------------------------------------
void pf_kcall_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e);
void pf_kcall_close(struct conv *c, int th, uint64_t t);
void pf_state_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                    int th);
// Ends th's open state slice at t; why, when not at the thread's next state, as an arg.
enum { STATE_NEXT, STATE_TRACE_ENDED, STATE_EVENTS_LOST };
void pf_state_close(struct conv *c, int th, uint64_t t, int why);

// ---- function calls (kev2perfetto_funcs.c) -------------------------------------------------------
void pf_func_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e);
void pf_func_keep(void *user, const struct kx_func_row *r);
void pf_func_slices(struct conv *c);

// ---- instants (kev2perfetto_instants.c) ----------------------------------------------------------
void pf_comm_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e);
void pf_sent_place(struct conv *c, const struct kev_reader *r, unsigned i);
void pf_user_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e);
void pf_fault_instant(struct conv *c, const struct cf_fault *x);
void pf_table_instant(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                      int cur);
void pf_usdt_instant(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                     int cur);

// ---- counters (kev2perfetto_counters.c) ----------------------------------------------------------
void pf_prio_note(struct conv *c, int th, uint64_t t);
void pf_ready_note(struct conv *c, int th, uint64_t t);
void pf_ready_flush(struct conv *c);

// ---- the system (kev2perfetto_system.c) ----------------------------------------------------------
void pf_clock_snapshot(struct conv *c, const struct kev_reader *r);
void pf_system_info(struct conv *c, const struct kev_reader *r);
void pf_process_tree(struct conv *c);

#endif
