// SPDX-License-Identifier: MIT
// kev2json: converts a .kev trace into Chrome trace-event JSON, which Perfetto's UI and
// chrome://tracing load. Tracks: one per thread (named "process/thread"), one per interrupt
// (process "Interrupts"), one per CPU showing which thread runs (process "CPUs").
// Every non-CONTROL .kev event becomes exactly one record whose "cat" starts with "kev.":
//   kernel call entry/exit  -> "B"/"E" slice on the calling thread (an exit with no open
//                              entry is an instant)
//   INT entry/handler/exit  -> "B"/"E" slices on the interrupt's track
//   COMM events             -> a zero-length "X" slice on the thread, and flow arrows
//                              send -> receive -> reply back at the client ("cat":"ipc")
//   thread states and the rest -> instants on the thread's track
// Derived records (CPU slices, flows, names, lost-event markers) use other categories, and the
// ends written for slices whose end was lost carry "args":{"derived":1}, so a test can count
// the kev.* records against the .kev.
// Read by Perfetto's JSON importer rules (src/trace_processor/importers/json/, SliceTracker,
// FlowTracker): an "E" closes the innermost open slice of its thread with the same cat and
// name, so every end, derived ones included, repeats its begin's cat and name; a slice still
// open when its end was lost is closed when the next begins (kernel call, interrupt) and
// every slice open at the end of the trace is closed there. A flow event binds to the slice
// open on its track, so each flow point gets a zero-length "ipc" slice of its own just before
// it (same time: the importer keeps file order for equal times), and a message's flow is
// written only once it was received (send and receive together), so no flow has only a start;
// "bp":"e" only on flow ends, the one phase it applies to.
// Lost events (DROPPED, and the trailer's losses after the last buffer) are global instants.
// Our SYSTEM events carry named args beside their fields: a fault (named "fault SIGSEGV",
// on the faulting thread's track, written when its stack follows: conv_fault.c) its signal,
// kind, pc, address, the function holding the pc and the stack's frames; a STACK its kind and
// frames; PRIO_CHANGE, SYNC_WAIT and IMAGE their fields. Every instant, kernel-call entry and
// COMM record also carries "fields": the event's fields as the event table names them. An
// event's words are read once, by the table (kev_fields_decode into conv.fs): its "fields",
// the named args beside them and the thread a state or PRIO_CHANGE names come from that one
// reading, none from the words by hand (a fault, a STACK and an IMAGE: from trace/'s decoders
// of those events, which check their lengths). Code addresses are named from the ELF files the
// capture ran, found by build id (tools/common/tool_syms.c).
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conv_args.h"
#include <kevhost/conv_fault.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_ids.h>
#include <kevhost/kx_msg.h>
#include <kevhost/kx_pass.h>
#include <kevhost/tool_syms.h>
#include <kevhost/syms_usdt.h>
#include <kevhost/kx_digits.h>
#include <kevhost/json_out.h>
#include <kevhost/tool_append.h>
#include <trace/kev_events.h>
#include <trace/kev_image.h>
#include <trace/kev_userreg.h>
#include <trace/kev_text.h>

static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "FILE", "output file (default: standard output)", NULL },
    { .also = syms_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kev2json", "[--symbols DIR]... [-o FILE.json] FILE.kev",
    "Converts a .kev trace into Chrome trace-event JSON (load it in Perfetto's UI).\n"
    "Code addresses are named from the ELF files the capture ran, found by build id.\n",
    opts, "Exit status: 0 ok, 1 damaged or unreadable input or write error, 2 bad usage.\n",
};

#define PID_IRQ   1000000u
#define PID_CPU   1000001u
#define TID_IRQ0  1000000000u
#define TID_CPU0  1001000000u
#define MAX_IRQ   1024u

// The output: a large buffer written out in one call when nearly full (stdio's per-call
// cost was a third of the run time).
struct out {
    FILE *f;
    char *b;
    size_t n, cap;
    int err;
};

static void o_flush(struct out *o)
{
    if (o->n && fwrite(o->b, 1, o->n, o->f) != o->n)
        o->err = 1;
    o->n = 0;
}

static void o_room(struct out *o, size_t n)
{
    if (o->cap - o->n < n)
        o_flush(o);
}

static inline void o_mem(struct out *o, const void *p, size_t n)
{
    if (n >= o->cap) { // never, with our short pieces; kept correct anyway
        o_flush(o);
        if (fwrite(p, 1, n, o->f) != n)
            o->err = 1;
        return;
    }
    o_room(o, n);
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static inline void o_str(struct out *o, const char *s)
{
    o_mem(o, s, strlen(s));
}

static void o_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void o_printf(struct out *o, const char *fmt, ...)
{
    o_room(o, 1024);
    va_list ap;
    va_start(ap, fmt);
    tool_vappend(o->b, o->cap, &o->n, fmt, ap);
    va_end(ap);
}

static void o_sink(void *user, const char *p, size_t n)
{
    o_mem(user, p, n);
}

// s as a JSON string, by the host's one rule (json_out.h).
static void o_json_str(struct out *o, const char *s)
{
    json_str_to(o_sink, o, s, 0);
}

struct conv {
    struct out o;
    struct kev_userreg ureg;  // user event names and formats the trace declares
    const struct kev_reader *r;
    struct kx_model *m;
    struct kx_msgs *q;
    uint64_t hz;
    uint64_t events;
    uint16_t open_call[KX_MAX_THREADS + 1]; // call + 1 open on a thread (last: unknown thread)
    // Per CPU: the same interrupt can run on two CPUs at once, and a track's slices must nest.
    uint8_t irq_depth[KEV_MAX_CPUS][MAX_IRQ]; // 1 interrupt open, 2 its handler too
    uint8_t irq_seen[KEV_MAX_CPUS][MAX_IRQ + 1];
    int cpu_th[KEV_MAX_CPUS];               // thread of the open CPU slice, or -1
    uint64_t cpu_t0[KEV_MAX_CPUS];
    uint64_t lost_seen[KEV_MAX_CPUS];
    uint8_t cpu_seen[KEV_MAX_CPUS];
    struct cf_faults faults;                // a FAULT waits for its STACK (conv_fault.h)
    int sync_for[KEV_MAX_CPUS];             // the thread a SYNC_WAIT on this CPU is about:
                                            // the last to block on a mutex, semaphore or
                                            // condvar here (+1; 0: the CPU's current one)
    struct kev_fields fs;                   // the event being written, as the table decodes
                                            // it: its "fields" and every value read from it
};

// Decimal digits of v (printf's float and integer paths are most of the run time otherwise),
// two at a time.
static void put_u64(struct out *f, uint64_t v)
{
    static const char pairs[] = "000102030405060708091011121314151617181920212223242526272829"
                                "303132333435363738394041424344454647484950515253545556575859"
                                "606162636465666768697071727374757677787980818283848586878889"
                                "90919293949596979899";
    char b[24];
    int i = sizeof(b);
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        b[--i] = pairs[2 * d + 1], b[--i] = pairs[2 * d];
    }
    if (v >= 10)
        b[--i] = pairs[2 * v + 1], b[--i] = pairs[2 * v];
    else
        b[--i] = (char)('0' + v);
    o_mem(f, b + i, sizeof(b) - (size_t)i);
}

// A time in microseconds with three decimals (nanoseconds), from cycles. (The nanoseconds
// fit 64 bits for 584 years; 128-bit division stays for what does not.)
static void put_ts(struct conv *c, uint64_t cycles)
{
    unsigned __int128 ns = cycles <= UINT64_MAX / 1000000000u // (64-bit arithmetic if it fits)
                               ? cycles * 1000000000u / c->hz
                               : (unsigned __int128)cycles * 1000000000u / c->hz;
    unsigned frac;
    if (ns <= UINT64_MAX) {
        uint64_t n = (uint64_t)ns;
        put_u64(&c->o, n / 1000);
        frac = (unsigned)(n % 1000);
    } else {
        put_u64(&c->o, (uint64_t)(ns / 1000));
        frac = (unsigned)(ns % 1000);
    }
    char b[4] = { '.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10),
                  (char)('0' + frac % 10) };
    o_mem(&c->o, b, 4);
}

// ,"key": (key needs no escape: the event table's names and ours)
static void o_key(struct out *o, const char *key)
{
    o_mem(o, ",\"", 2);
    o_str(o, key);
    o_mem(o, "\":", 2);
}

static void rec_begin(struct conv *c, const char *ph, const char *cat, uint32_t pid,
                      uint32_t tid, uint64_t t)
{
    struct out *f = &c->o;
    o_str(f, ",\n{\"ph\":\"");
    o_str(f, ph);
    o_str(f, "\",\"cat\":\"");
    o_str(f, cat);
    o_str(f, "\",\"pid\":");
    put_u64(f, pid);
    o_str(f, ",\"tid\":");
    put_u64(f, tid);
    o_str(f, ",\"ts\":");
    put_ts(c, t);
}

// Track ids: Linux pid and tid by the converters' common mapping (kx_ids.h); idle is 0/0.
static void thread_ids(const struct conv *c, int th, uint32_t *pid, uint32_t *tid)
{
    *pid = (uint32_t)kx_lpid(c->m, th);
    *tid = (uint32_t)kx_ltid(c->m, th);
}

// A record on thread th's track; the caller adds fields and closes it with "}".
static void on_thread(struct conv *c, const char *ph, const char *cat, int th, uint64_t t)
{
    uint32_t pid, tid;
    thread_ids(c, th, &pid, &tid);
    rec_begin(c, ph, cat, pid, tid, t);
}

static void name_field(struct conv *c, const char *name)
{
    o_str(&c->o, ",\"name\":");
    o_json_str(&c->o, name);
}

// ---- CPU tracks (derived) ----------------------------------------------------------------------

static void cpu_close(struct conv *c, unsigned cpu, uint64_t t)
{
    int th = c->cpu_th[cpu];
    if (th < 0)
        return;
    char label[80];
    rec_begin(c, "X", "sched", PID_CPU, TID_CPU0 + cpu, c->cpu_t0[cpu]);
    o_str(&c->o, ",\"dur\":");
    put_ts(c, t - c->cpu_t0[cpu]);
    name_field(c, kx_label(c->m, th, label, sizeof(label)));
    o_str(&c->o, "}");
    c->cpu_th[cpu] = -1;
}

// ---- events --------------------------------------------------------------------------------------

// The derived end of the kernel call open on thread th (slot: its open_call index), at t.
static void kcall_close(struct conv *c, int th, unsigned slot, uint64_t t)
{
    char nb[16];
    on_thread(c, "E", "kev.kcall", th, t);
    name_field(c, kx_kcall_name(c->open_call[slot] - 1u, nb, sizeof(nb)));
    o_str(&c->o, ",\"args\":{\"derived\":1}}");
    c->open_call[slot] = 0;
}

// ,"event":"NAME","fields":{...}: the event's name and fields as the event table gives them
// (trace/kev_events.h):
// numbers as numbers, addresses and ids as "0x..." strings, enums and errnos with their
// names beside ("cause":2,"cause_name":"mutex inheritance"), strings, arrays.
static void o_hex(struct out *o, uint64_t v) // "0x..." (a JSON string)
{
    char b[24];
    unsigned i = sizeof(b);
    b[--i] = 0;
    b[--i] = '"';
    do
        b[--i] = "0123456789abcdef"[v & 15u];
    while ((v >>= 4) && i > 4);
    b[--i] = 'x', b[--i] = '0', b[--i] = '"';
    o_str(o, b + i);
}

// e decoded by the event table into c->fs: the one reading of its words that its record's
// "fields" and named args are written from.
static void fields_decode(struct conv *c, const struct kev_event *e)
{
    kev_fields_decode(c->r, e, &c->fs);
}

// The value of the decoded event's field name (0 when it has none).
static uint64_t field(const struct conv *c, const char *name)
{
    uint64_t v = 0;
    kev_field_num(kev_field_get(&c->fs, name), &v);
    return v;
}

// "event" and "fields" (the decoded event's fields as the table names them), after sep.
static void fields_write(struct conv *c, const char *sep)
{
    const struct kev_fields *fs = &c->fs;
    o_str(&c->o, sep);
    o_str(&c->o, "\"event\":");
    o_json_str(&c->o, fs->name);
    o_str(&c->o, ",\"fields\":{");
    for (unsigned i = 0; i < fs->n; i++) {
        const struct kev_field *f = &fs->f[i];
        o_str(&c->o, i ? ",\"" : "\""); // table names are identifiers: no escaping
        o_str(&c->o, f->name);
        o_str(&c->o, "\":");
        if (f->kind == KEV_K_STRING) {
            char safe[512];
            kev_text_safe(safe, sizeof(safe), (const uint8_t *)f->str, strlen(f->str));
            o_json_str(&c->o, safe);
        } else if (KEV_K_IS_ARRAY(f->kind)) {
            o_str(&c->o, "[");
            for (unsigned k = 0; k < f->n; k++) {
                if (k)
                    o_str(&c->o, ",");
                o_hex(&c->o, f->arr[k]);
            }
            o_str(&c->o, "]");
        } else if (f->kind == KEV_K_HEX || f->kind == KEV_K_ADDR || f->kind == KEV_K_WHO) {
            o_hex(&c->o, f->v);
        } else if (f->kind == KEV_K_S32 && (int64_t)f->v < 0) {
            o_str(&c->o, "-");
            put_u64(&c->o, (uint64_t)-(int64_t)f->v);
        } else {
            put_u64(&c->o, f->v);
            const char *nm = kev_field_text(f);
            if (nm) {
                o_str(&c->o, ",\"");
                o_str(&c->o, f->name);
                o_str(&c->o, "_name\":");
                o_json_str(&c->o, nm);
            }
        }
    }
    o_str(&c->o, "}");
}

// e's "event" and "fields" (decoded here), after a comma.
static void fields_arg(struct conv *c, const struct kev_event *e)
{
    fields_decode(c, e);
    fields_write(c, ",");
}

static void kcall_event(struct conv *c, const struct kev_event *e)
{
    int th = kx_cpu_thread(c->m, e->cpu);
    unsigned slot = th >= 0 ? (unsigned)th : KX_MAX_THREADS;
    enum kev_kcall_part part = kev_kcall_part(e);
    unsigned call = kev_kcall_no(e);
    char nb[16];
    const char *name = kx_kcall_name(call, nb, sizeof(nb));
    if (part == KEV_KCALL_ENTRY) {
        if (c->open_call[slot]) // its exit was lost: close it here
            kcall_close(c, th, slot, e->t64);
        on_thread(c, "B", "kev.kcall", th, e->t64);
        name_field(c, name);
        o_str(&c->o, ",\"args\":{"); // every word named (kev_fields_decode), none raw
        fields_decode(c, e);
        fields_write(c, "");
        o_str(&c->o, "}}");
        c->open_call[slot] = (uint16_t)(call + 1);
    } else if (part == KEV_KCALL_EXIT || part == KEV_KCALL_INTR) {
        int open = c->open_call[slot] == call + 1;
        if (c->open_call[slot] && !open) // another call's exit: that one's was lost
            kcall_close(c, th, slot, e->t64);
        on_thread(c, open ? "E" : "i", "kev.kcall", th, e->t64);
        if (open) {
            name_field(c, name);
        } else {
            char label[48];
            snprintf(label, sizeof(label), "%s exit", name);
            name_field(c, label);
            o_str(&c->o, ",\"s\":\"t\"");
        }
        int32_t ret = 0;
        uint32_t err = 0;
        kev_kcall_exit(e, &ret, &err); // [-1, errno] on failure; interrupted: its exit's
        o_str(&c->o, ret < 0 ? ",\"args\":{\"ret\":-" : ",\"args\":{\"ret\":");
        put_u64(&c->o, ret < 0 ? (uint64_t)-(int64_t)ret : (uint64_t)ret);
        if (err) {
            o_str(&c->o, ",\"errno\":");
            put_u64(&c->o, err);
            if (kev_errno_name(err))
                o_printf(&c->o, ",\"errno_name\":\"%s\"", kev_errno_name(err));
        }
        fields_arg(c, e);
        o_str(&c->o, part == KEV_KCALL_INTR ? ",\"interrupted\":1}}" : "}}");
        c->open_call[slot] = 0;
    } else {
        on_thread(c, "i", "kev.kcall", th, e->t64);
        o_printf(&c->o, ",\"s\":\"t\",\"name\":\"KER_CALL %u\"}", e->ev);
    }
}

// The track of interrupt irq on a CPU (irqs from MAX_IRQ up share one).
static uint32_t irq_tid(unsigned cpu, uint32_t irq)
{
    return TID_IRQ0 + cpu * (MAX_IRQ + 1) + (irq < MAX_IRQ ? irq : MAX_IRQ);
}

// "irq <n>" at out (room for 15 bytes), as printf's "irq %u" writes it.
static void irq_name(char *out, uint32_t irq)
{
    memcpy(out, "irq ", 4);
    out[4 + kx_put_dec(out + 4, irq)] = 0;
}

// A slice's name on interrupt irq's track: "irq N" (what 1) or "handler" (2).
static void irq_slice_name(char name[32], uint32_t irq, unsigned what)
{
    if (what == 2)
        snprintf(name, 32, "handler");
    else
        irq_name(name, irq);
}

// A record's args from the interrupt event e: its line, then its fields; the record ends.
static void irq_args(struct conv *c, uint32_t irq, const struct kev_event *e)
{
    o_str(&c->o, ",\"args\":{\"irq\":"), put_u64(&c->o, irq);
    fields_arg(c, e);
    o_str(&c->o, "}}");
}

// An end on interrupt irq's track for its open slice: "irq N" (what 1) or "handler" (2).
// e: the event that ends it (its fields become the end's args), NULL for a derived end.
static void irq_end(struct conv *c, uint32_t irq, uint32_t tid, unsigned what, int derived,
                    uint64_t t, const struct kev_event *e)
{
    char name[32];
    rec_begin(c, "E", "kev.int", PID_IRQ, tid, t);
    irq_slice_name(name, irq, what);
    name_field(c, name);
    if (derived)
        o_str(&c->o, ",\"args\":{\"derived\":1}}");
    else if (e)
        irq_args(c, irq, e);
    else
        o_str(&c->o, "}");
}

// The begin of a slice on interrupt irq's track ("irq N" what 1, "handler" 2) at event e.
static void irq_begin(struct conv *c, uint32_t irq, uint32_t tid, unsigned what,
                      const struct kev_event *e)
{
    char name[32];
    rec_begin(c, "B", "kev.int", PID_IRQ, tid, e->t64);
    irq_slice_name(name, irq, what);
    name_field(c, name);
    irq_args(c, irq, e);
}

// Derived ends at t for the slices open on irq's track (depth's bits: 1 "irq N", 2 the handler
// inside it), the handler first; none is open after.
static void irq_close_open(struct conv *c, uint32_t irq, uint32_t tid, uint8_t *depth,
                           uint64_t t)
{
    if (*depth & 2)
        irq_end(c, irq, tid, 2, 1, t, NULL);
    if (*depth & 1)
        irq_end(c, irq, tid, 1, 1, t, NULL);
    *depth = 0;
}

// Interrupt slices: "irq N" from entry to exit, "handler" inside it (or alone when the
// handler runs without an INT_ENTER). irq_depth: bit 0 "irq N" open, bit 1 handler open.
static void int_event(struct conv *c, const struct kev_event *e)
{
    uint32_t irq = kx_int_irq(e);
    unsigned cpu = e->cpu % KEV_MAX_CPUS;
    uint32_t tid = irq_tid(cpu, irq);
    uint8_t *depth = irq < MAX_IRQ ? &c->irq_depth[cpu][irq] : NULL;
    char name[32];
    c->irq_seen[cpu][irq < MAX_IRQ ? irq : MAX_IRQ] = 1;
    switch (e->ev) {
    case KEV_INT_ENTER:
        if (depth) // an earlier exit was lost: close what is open
            irq_close_open(c, irq, tid, depth, e->t64);
        irq_begin(c, irq, tid, 1, e);
        if (depth)
            *depth = 1;
        return;
    case KEV_INT_HANDLER_ENTER:
        if (depth && (*depth & 2)) // the handler's exit was lost
            irq_end(c, irq, tid, 2, 1, e->t64, NULL);
        irq_begin(c, irq, tid, 2, e);
        if (depth)
            *depth |= 2;
        return;
    case KEV_INT_HANDLER_EXIT:
        if (depth && (*depth & 2)) {
            irq_end(c, irq, tid, 2, 0, e->t64, e);
            *depth &= (uint8_t)~2u;
            return;
        }
        break;
    case KEV_INT_EXIT:
        if (depth && (*depth & 1)) {
            if (*depth & 2)
                irq_end(c, irq, tid, 2, 1, e->t64, NULL);
            irq_end(c, irq, tid, 1, 0, e->t64, e);
            *depth = 0;
            return;
        }
        break;
    default:
        break;
    }
    rec_begin(c, "i", "kev.int", PID_IRQ, tid, e->t64);
    const char *n = kev_int_name(e->ev);
    snprintf(name, sizeof(name), "%s %u", n ? n : "INT", irq);
    name_field(c, name);
    o_str(&c->o, ",\"s\":\"t\"");
    irq_args(c, irq, e);
}

// A record on the track of whoever runs on e's CPU: the interrupt, else the current thread.
static void on_context(struct conv *c, const char *ph, const char *cat, const struct kev_event *e)
{
    unsigned irq = c->m->irq[e->cpu];
    if (irq)
        rec_begin(c, ph, cat, PID_IRQ, irq_tid(e->cpu % KEV_MAX_CPUS, irq - 1), e->t64);
    else
        on_thread(c, ph, cat, kx_cpu_thread(c->m, e->cpu), e->t64);
}

// A flow point of message g at t on a track: a zero-length "ipc" slice for it to bind to,
// then the flow record (ph "s", "t" or "f"; an end binds to that slice: "bp":"e").
static void flow_point(struct conv *c, const struct kx_msg *g, const char *ph, int th,
                       unsigned irq, uint64_t t, const char *what)
{
    const char *name = g->pulse ? "pulse" : "msg";
    for (int pass = 0; pass < 2; pass++) {
        const char *p = pass ? ph : "X";
        if (irq)
            rec_begin(c, p, "ipc", PID_IRQ, irq_tid(g->send_cpu % KEV_MAX_CPUS, irq - 1), t);
        else
            on_thread(c, p, "ipc", th, t);
        if (!pass) {
            o_str(&c->o, ",\"name\":\""), o_str(&c->o, name), o_str(&c->o, " ");
            o_str(&c->o, what), o_str(&c->o, "\",\"dur\":0}");
        }
    }
    o_str(&c->o, ",\"name\":\""), o_str(&c->o, name), o_str(&c->o, "\",\"id\":");
    put_u64(&c->o, g->id);
    o_str(&c->o, ph[0] == 'f' ? ",\"bp\":\"e\"}" : "}");
}

static void comm_event(struct conv *c, const struct kev_event *e)
{
    const char *n = kev_comm_name(e->ev);
    on_context(c, "X", "kev.comm", e);
    name_field(c, n ? n : "COMM");
    o_str(&c->o, ",\"dur\":0,\"args\":{");
    fields_decode(c, e);
    fields_write(c, "");
    o_str(&c->o, "}}");
    const struct kx_msg *g;
    enum kx_msg_step step = kx_msgs_event(c->q, c->m, e, &g);
    if (step == KX_MSG_RECV) { // the send's point now that the flow will have a second one
        flow_point(c, g, "s", g->client, g->irq, g->t_send, "send");
        flow_point(c, g, g->pulse ? "f" : "t", g->server, 0, e->t64, "receive");
    } else if (step == KX_MSG_REPLY) {
        flow_point(c, g, "f", g->client, g->irq, e->t64, "reply");
        kx_msgs_release(c->q, g);
    }
}

// An instant on thread th's track whose args begin with the decoded event's "event" and
// "fields" (c->fs: its words as the table names them); the caller adds its named args (each
// starting with a comma, each from c->fs) and closes it with instant_end.
static void instant_open(struct conv *c, uint64_t t, int th, const char *cat, const char *name)
{
    on_thread(c, "i", cat, th, t);
    name_field(c, name);
    o_str(&c->o, ",\"s\":\"t\",\"args\":{");
    fields_write(c, "");    // the event's words by the table's names, none raw
}

// The same for e, decoded here.
static void instant_begin(struct conv *c, const struct kev_event *e, uint64_t t, int th,
                          const char *cat, const char *name)
{
    fields_decode(c, e);
    instant_open(c, t, th, cat, name);
}

static void instant_end(struct conv *c)
{
    o_str(&c->o, "}}");
}

static void instant(struct conv *c, const struct kev_event *e, int th, const char *cat,
                    const char *name)
{
    instant_begin(c, e, e->t64, th, cat, name);
    instant_end(c);
}

// Named args: ,"key":"string" and ,"key":number.
static void arg_str(struct conv *c, const char *key, const char *v)
{
    o_key(&c->o, key);
    o_json_str(&c->o, v);
}

static void arg_hex(struct conv *c, const char *key, uint64_t v)
{
    o_key(&c->o, key);
    o_hex(&c->o, v);
}

// ,"frames":[...]: a recorded stack's frames named (tool_syms.h), innermost first.
static void arg_frames(struct conv *c, const struct kev_stack *s)
{
    o_str(&c->o, ",\"frames\":[");
    for (unsigned i = 0; i < s->depth; i++) {
        char f[512];
        syms_pc(s->pcs[i], i > 0, f, sizeof(f), NULL, 0);
        if (i)
            o_str(&c->o, ",");
        o_json_str(&c->o, f);
    }
    o_str(&c->o, "]");
}

// A fault, written when its stack came (or could no longer come): on the faulting thread's
// track at the FAULT's time, with its fields named and the function holding its pc.
static void fault_record(struct conv *c, const struct cf_fault *x)
{
    const struct kev_fault *f = &x->f;
    char name[48], fn[512];
    snprintf(name, sizeof(name), "fault %s", kev_signal_name(f->sig));
    struct kev_event fe = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_FAULT, .cpu = x->cpu, .w = x->w,
                            .nw = 6, .nslots = 3, .t64 = x->t };
    instant_begin(c, &fe, x->t, kx_thread(c->m, f->pid, f->tid), "kev.system", name);
    arg_str(c, "signal", kev_signal_name(f->sig));
    o_printf(&c->o, ",\"signo\":%u,\"pid\":%u,\"tid\":%u", f->sig, f->pid, f->tid);
    arg_str(c, "kind", kev_fault_kind_name(f->kind));
    arg_hex(c, "pc", f->pc);
    if (f->addr_valid)
        arg_hex(c, "addr", f->addr);
    syms_pc(f->pc, 0, fn, sizeof(fn), NULL, 0);
    arg_str(c, "function", fn);
    if (x->have_stack)
        arg_frames(c, &x->s);
    instant_end(c);
}

// A USDT firing (docs/usdt.md) on the firing thread's track, named provider:probe from its
// program's note (syms_usdt.h; "USDT" when no file names its site), with the probe's parts,
// its program and function, and each argument as the program passed it (signed where the note
// says so): "arg0", "arg1", ... as D names them.
static void usdt_record(struct conv *c, const struct kev_event *e, int th)
{
    struct syms_usdt_firing f;
    fields_decode(c, e);
    if (syms_usdt_firing(&c->fs, &f) != 0) {
        instant_open(c, e->t64, th, "kev.system", "USDT");
        instant_end(c);
        return;
    }
    instant_open(c, e->t64, th, "usdt", f.p ? f.p->probe : "USDT");
    if (f.p) {
        arg_str(c, "provider", f.p->provider);
        arg_str(c, "probe", f.p->name);
        arg_str(c, "module", f.p->module);
        arg_str(c, "function", f.p->function);
    }
    for (unsigned k = 0; k < f.nargs; k++) {
        char v[24];
        syms_usdt_arg_text(&f, k, v, sizeof(v));
        o_printf(&c->o, ",\"arg%u\":%s", k, v);
    }
    instant_end(c);
}

// Our SYSTEM events with their fields named (a FAULT is held for its stack: fault_record).
static void system_event(struct conv *c, const struct kev_event *e)
{
    struct kev_stack st;
    struct kev_fault f;
    struct kev_image im;
    char name[64], text[2 * KEV_IMAGE_ID_MAX + 1];
    int cur = kx_cpu_thread(c->m, e->cpu);
    const char *cn = kev_system_name(e->ev);
    if (e->ev == KEV_SYS_FAULT && kev_fault_decode(e->w, e->nw, &f) == 0)
        return;     // held (cf_event): written by fault_record
    if (e->ev == KEV_SYS_STACK && kev_stack_decode(e->w, e->nw, &st) == 0) {
        snprintf(name, sizeof(name), "stack %s", kev_stack_kind_name(st.kind));
        instant_begin(c, e, e->t64, kx_thread(c->m, st.pid, st.tid), "kev.system", name);
        arg_str(c, "kind", kev_stack_kind_name(st.kind));
        if (st.ended)
            arg_str(c, "cut_short", kev_stack_ended_name(st.ended));
        arg_frames(c, &st);
        instant_end(c);
    } else if (e->ev == KEV_SYS_PRIO_CHANGE && e->nw >= 2) {
        fields_decode(c, e);
        uint32_t who = (uint32_t)field(c, "who");
        unsigned prio = (unsigned)field(c, "new_prio"), old = (unsigned)field(c, "old_prio");
        const char *cs = kev_prio_cause_name((unsigned)field(c, "cause"));
        snprintf(name, sizeof(name), "prio %u -> %u", old, prio);
        instant_open(c, e->t64, kx_thread(c->m, kev_who_pid(who), kev_who_tid(who)),
                     "kev.system", name);
        o_printf(&c->o, ",\"pid\":%u,\"tid\":%u,\"prio\":%u,\"old_prio\":%u", kev_who_pid(who),
                 kev_who_tid(who), prio, old);
        arg_str(c, "cause", cs ? cs : "?");
        instant_end(c);
    } else if (e->ev == KEV_SYS_SYNC_WAIT && e->nw >= 2) {
        int th = c->sync_for[e->cpu] ? c->sync_for[e->cpu] - 1 : cur;
        instant_begin(c, e, e->t64, th, "kev.system", "sync wait");
        uint32_t owner = (uint32_t)field(c, "owner");
        o_printf(&c->o, ",\"object\":%u", (unsigned)field(c, "object"));
        if (owner)
            o_printf(&c->o, ",\"owner_pid\":%u,\"owner_tid\":%u", kev_who_pid(owner),
                     kev_who_tid(owner));
        instant_end(c);
    } else if (e->ev == KEV_SYS_USDT) {
        usdt_record(c, e, cur);
    } else if (e->ev == KEV_SYS_IMAGE && kev_image_decode(c->r, e, &im) == 0) {
        char safe[2 * KEV_IMAGE_NAME_MAX];
        kev_text_safe(safe, sizeof(safe), (const uint8_t *)im.name, strlen(im.name));
        instant_begin(c, e, e->t64, cur, "kev.system", "image");
        o_printf(&c->o, ",\"pid\":%u", im.pid);
        kev_image_id_hex(im.id, im.id_len, text, sizeof(text));
        arg_str(c, "build_id", text);
        arg_hex(c, "load", im.base);
        arg_str(c, "name", safe);
        instant_end(c);
    } else {
        snprintf(name, sizeof(name), "%s", cn ? cn : "event");
        instant(c, e, cur, "kev.system", name);
    }
    if (e->ev == KEV_SYS_SYNC_WAIT)
        c->sync_for[e->cpu] = 0;
}

static void prth_event(struct conv *c, const struct kev_event *e)
{
    char name[96], s[KEV_NAME_MAX];
    if (e->ev <= KEV_TH_DESTROY && e->nw >= 2) {
        fields_decode(c, e);
        int th = kx_thread(c->m, (uint32_t)field(c, "pid"), (uint32_t)field(c, "tid"));
        if (e->ev == KEV_TH_RUNNING) {
            c->cpu_seen[e->cpu] = 1;
            cpu_close(c, e->cpu, e->t64);
            c->cpu_th[e->cpu] = th;
            c->cpu_t0[e->cpu] = e->t64;
        } else if (th >= 0 && c->cpu_th[e->cpu] == th) {
            cpu_close(c, e->cpu, e->t64);
        }
        c->sync_for[e->cpu] = (e->ev == KEV_TH_MUTEX || e->ev == KEV_TH_SEM ||
                               e->ev == KEV_TH_CONDVAR) && th >= 0 ? th + 1 : 0;
        const char *st = kev_thread_state_name(e->ev);   // (a state no row names: PR_TH_<n>)
        instant_open(c, e->t64, th, "kev.state",
                     st ? st : kev_event_title(KEV_C_PR_TH, e->ev, name, sizeof(name)));
        instant_end(c);
        return;
    }
    const char *n = kev_process_event_name(e->ev);
    if ((e->ev == KEV_PR_CREATE_NAME || e->ev == KEV_PR_DESTROY_NAME ||
         e->ev == KEV_PR_THREAD_NAME) && e->nw > 2) {
        kev_event_name(c->r, e, 2, s, sizeof(s));
        snprintf(name, sizeof(name), "%s %s", n, s);
    } else {
        snprintf(name, sizeof(name), "%s", n ? n : "PR_TH");
    }
    instant(c, e, kx_cpu_thread(c->m, e->cpu), "kev.proc", name);
}

// An event as its records, with the model's state before it (kx_pass.h: the model takes it
// after).
static int on_event(void *user, const struct kev_reader *r, const struct kev_event *e,
                    struct kx_model *m)
{
    struct conv *c = user;
    (void)m; // (c->m)
    char name[64];
    struct cf_fault done;
    if (cf_event(&c->faults, e, &done))
        fault_record(c, &done);
    if (e->cls == KEV_C_CONTROL) {
        if (e->ev == KEV_CTL_DROPPED) {
            fields_decode(c, e);
            unsigned lost = (unsigned)field(c, "lost");
            rec_begin(c, "i", "loss", 0, 0, e->t64);
            o_printf(&c->o, ",\"s\":\"g\",\"name\":\"lost %u events\",\"args\":{\"cpu\":%u,"
                          "\"lost\":%u}}", lost, e->cpu, lost);
            c->lost_seen[e->cpu] += lost;
        }
        return 0;
    }
    switch (e->cls) {
    case KEV_C_KER_CALL: kcall_event(c, e); break;
    case KEV_C_INT: int_event(c, e); break;
    case KEV_C_COMM: comm_event(c, e); break;
    case KEV_C_PR_TH: prth_event(c, e); break;
    case KEV_C_USER: { // "NAME: value" when registered (trace/kev_userreg.h), else as before
        int th = kx_cpu_thread(c->m, e->cpu);
        uint32_t pid = th >= 0 ? c->m->th[th].pid : 0;
        kx_user_text(r, &c->ureg, pid, e, 1, name, sizeof(name));
        if (!kev_userreg_find(&c->ureg, pid, e->ev) && !kx_user_string(r, e, name, sizeof(name)))
            snprintf(name, sizeof(name), "user %u", e->ev);
        instant(c, e, th, "kev.user", name);
        break;
    }
    case KEV_C_SYSTEM: system_event(c, e); break;
    default:
        instant(c, e, kx_cpu_thread(c->m, e->cpu), "kev.other", "event");
        break;
    }
    c->events++;
    return 0;
}

// What is still open when the trace ends ends with it: the faults being gathered, kernel
// calls, interrupts, the CPUs' slices; then each CPU's loss after its last buffer.
static void close_at_end(struct conv *c, uint64_t end)
{
    struct cf_fault done;
    while (cf_flush(&c->faults, &done))
        fault_record(c, &done);
    for (unsigned i = 0; i <= KX_MAX_THREADS; i++) // slices still open end with the trace
        if (c->open_call[i])
            kcall_close(c, i < KX_MAX_THREADS ? (int)i : KX_NO_THREAD, i, end);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        for (uint32_t irq = 0; irq < MAX_IRQ; irq++)
            irq_close_open(c, irq, irq_tid(cpu, irq), &c->irq_depth[cpu][irq], end);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++) {
        cpu_close(c, cpu, end);
        uint64_t lost = c->r->kr_have_trailer ? c->r->kr_trl_lost[cpu] : 0;
        if (lost > c->lost_seen[cpu]) {
            rec_begin(c, "i", "loss", 0, 0, end);
            o_printf(&c->o, ",\"s\":\"g\",\"name\":\"lost %llu events after the last buffer\","
                          "\"args\":{\"cpu\":%u,\"lost\":%llu}}",
                    (unsigned long long)(lost - c->lost_seen[cpu]), cpu,
                    (unsigned long long)(lost - c->lost_seen[cpu]));
        }
    }
}

// A track's name: metadata record NAME ("thread_name", "process_name") for (pid, tid).
static void name_track(struct conv *c, const char *name, uint32_t pid, uint32_t tid,
                       const char *text)
{
    o_printf(&c->o, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
             name, pid, tid);
    o_json_str(&c->o, text);
    o_str(&c->o, "}}");
}

// The threads' tracks and their processes' names (every CPU's idle thread is the one track 0/0).
static void name_threads(struct conv *c)
{
    char label[80];
    int idle_named = 0;
    for (unsigned i = 0; i < c->m->nth; i++) {
        uint32_t pid, tid;
        int idle = kx_is_idle(c->m, (int)i);
        if (idle && idle_named++)
            continue;
        thread_ids(c, (int)i, &pid, &tid);
        name_track(c, "thread_name", pid, tid,
                   idle ? kx_label_plain(c->m, (int)i, label, sizeof(label)) // all CPUs'
                        : kx_label(c->m, (int)i, label, sizeof(label)));
        const struct kx_thread *t = &c->m->th[i];
        if (t->comm[0] && !idle)
            name_track(c, "process_name", pid, tid, t->comm);
    }
}

// The Interrupts and CPUs processes, a track per CPU seen and per interrupt line seen: "irq N",
// or with several CPUs taking interrupts "irq N on CPU c".
static void name_cpus_and_irqs(struct conv *c)
{
    o_printf(&c->o, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":%u,"
                  "\"args\":{\"name\":\"Interrupts\"}}", PID_IRQ, TID_IRQ0);
    o_printf(&c->o, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":%u,"
                  "\"args\":{\"name\":\"CPUs\"}}", PID_CPU, TID_CPU0);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        if (c->cpu_seen[cpu])
            o_printf(&c->o, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,"
                          "\"args\":{\"name\":\"CPU %u\"}}", PID_CPU, TID_CPU0 + cpu, cpu);
    unsigned ncpu = 0; // one CPU: "irq N"; several: "irq N on CPU c", a track per CPU
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        for (unsigned irq = 0; irq <= MAX_IRQ; irq++)
            if (c->irq_seen[cpu][irq]) {
                ncpu++;
                break;
            }
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        for (unsigned irq = 0; irq <= MAX_IRQ; irq++) {
            char where[24] = "";
            if (!c->irq_seen[cpu][irq])
                continue;
            if (ncpu > 1)
                snprintf(where, sizeof(where), " on CPU %u", cpu);
            o_printf(&c->o, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,"
                          "\"args\":{\"name\":\"irq %u%s%s\"}}", PID_IRQ, irq_tid(cpu, irq),
                     irq, irq == MAX_IRQ ? " and above" : "", where);
        }
}

// The end of the file: what is open closed, the tracks' names, the totals.
static void finish(struct conv *c)
{
    close_at_end(c, c->m->last_t);
    name_threads(c);
    name_cpus_and_irqs(c);
    o_printf(&c->o, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"kev_events\":%llu,"
                  "\"kev_lost\":%llu,\"cycles_per_sec\":%llu}}\n",
            (unsigned long long)c->events, (unsigned long long)kev_lost_total(c->r),
            (unsigned long long)c->r->kr_cycles_per_sec);
}

int main(int argc, char **argv)
{
    const char *in, *out;
    int exit_now = conv_args(&cmd, argc, argv, &in, &out);
    if (exit_now >= 0)
        return exit_now;
    struct kx_file f;
    if (kx_open("kev2json", in, &f))
        return 1;
    static struct conv c;
    static struct kx_model m;
    static struct kx_msgs q;
    c.o.f = out ? fopen(out, "w") : stdout;
    c.o.cap = 1u << 20;
    c.o.b = malloc(c.o.cap);
    if (!c.o.f || !c.o.b) {
        perror(out ? out : "kev2json");
        kx_close(&f);
        return 1;
    }
    kx_model_init(&m, f.r);
    kx_msgs_init(&q);
    syms_trace("kev2json", f.data, f.len);
    c.r = f.r;
    c.m = &m;
    c.q = &q;
    c.hz = f.r->kr_cycles_per_sec ? f.r->kr_cycles_per_sec : 1000000;
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        c.cpu_th[cpu] = -1;
    o_str(&c.o, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,"
                "\"tid\":0,\"args\":{\"name\":\"kernel\"}}");
    int rc = kx_pass_run("kev2json", &f, &(struct kx_pass){ .m = &m, .on_event = on_event, .user = &c });
    finish(&c);
    o_flush(&c.o);
    int werr = c.o.err || ferror(c.o.f) != 0;
    free(c.o.b);
    if ((out && fclose(c.o.f)) || (!out && fflush(c.o.f)) || werr) {
        fprintf(stderr, "kev2json: %s: write error\n", out ? out : "stdout");
        rc = 1;
    }
    syms_end();
    kx_close(&f);
    return rc;
}
