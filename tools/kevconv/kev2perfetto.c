// SPDX-License-Identifier: MIT
// kev2perfetto: converts a .kev trace into Perfetto's protobuf trace format with the kernel
// scheduler events Perfetto draws as CPU tracks: ftrace sched_switch, sched_wakeup and
// irq_handler_entry / irq_handler_exit, in per-CPU FtraceEventBundle packets, and a
// ProcessTree packet naming every process and thread. Other events (kernel calls, messages)
// are in kev2json's output; this file is for the CPU view.
// Thread ids follow kev2ctf: tid = pid * 1000 + QNX tid, a process is pid * 1000 + 1, and the
// idle thread (process 0 or a thread named "idle") is Linux's tid 0 so Perfetto shows it idle.
// Wire format: protobuf varints and length-delimited fields, written by the small encoder
// below. Field numbers (perfetto.protos): Trace.packet 1; TracePacket: ftrace_events 1,
// process_tree 2, timestamp 8, trusted_packet_sequence_id 10; FtraceEventBundle: cpu 1,
// event 2; FtraceEvent: timestamp 1, pid 2, sched_switch 4, sched_wakeup 17,
// irq_handler_entry 36, irq_handler_exit 37; SchedSwitch: prev_comm 1, prev_pid 2,
// prev_prio 3, prev_state 4, next_comm 5, next_pid 6, next_prio 7; SchedWakeup: comm 1,
// pid 2, prio 3, success 4, target_cpu 5; IrqHandlerEntry: irq 1, name 2; IrqHandlerExit:
// irq 1, ret 2; ProcessTree: processes 1 {pid 1, ppid 2, cmdline 3}, threads 2 {tid 1,
// name 2, tgid 3}.
#include <stdlib.h>
#include <string.h>

#include "kx.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: kev2perfetto -o FILE.perfetto-trace FILE.kev\n"
               "Converts a .kev trace into a Perfetto protobuf trace (scheduling, wake-ups and\n"
               "interrupts as ftrace events: Perfetto's CPU tracks).\n"
               "  -o FILE    output file\n"
               "  -h, --help this text\n"
               "Exit status: 0 ok, 1 damaged or unreadable input or write error, 2 bad usage.\n");
}

// ---- a minimal protobuf encoder --------------------------------------------------------------

struct pb {
    uint8_t *p;
    size_t len, cap;
};

static void pb_reserve(struct pb *b, size_t n)
{
    if (b->cap - b->len >= n)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < n)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        fprintf(stderr, "kev2perfetto: out of memory\n");
        exit(1);
    }
    b->p = p;
    b->cap = cap;
}

static void pb_varint(struct pb *b, uint64_t v)
{
    pb_reserve(b, 10);
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        b->p[b->len++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
}

// A varint field (int32/int64 negative values are ten-byte two's complement, as protobuf says).
static void pb_int(struct pb *b, unsigned field, int64_t v)
{
    pb_varint(b, (uint64_t)field << 3);
    pb_varint(b, (uint64_t)v);
}

static void pb_bytes(struct pb *b, unsigned field, const void *p, size_t n)
{
    pb_varint(b, (uint64_t)field << 3 | 2);
    pb_varint(b, n);
    pb_reserve(b, n);
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void pb_str(struct pb *b, unsigned field, const char *s)
{
    pb_bytes(b, field, s, strlen(s));
}

// ---- the conversion ------------------------------------------------------------------------------

#define EVENTS_PER_BUNDLE 512u

struct conv {
    FILE *f;
    struct kx_model *m;
    uint64_t hz;
    struct pb bundle[KEV_MAX_CPUS]; // FtraceEvent fields (2) of the CPU's open bundle
    unsigned nbundle[KEV_MAX_CPUS];
    struct pb ev, sub, pkt;
    uint64_t written, packets;
    int werr;
};

static uint64_t ns(const struct conv *c, uint64_t cycles)
{
    return (uint64_t)((unsigned __int128)cycles * 1000000000u / c->hz);
}

static int idle_thread(const struct kx_model *m, int th)
{
    return th < 0 || m->th[th].pid == 0 || !strcmp(m->th[th].name, "idle");
}

static int32_t tid_of(const struct kx_model *m, int th)
{
    return idle_thread(m, th) ? 0 : (int32_t)(m->th[th].pid * 1000u + m->th[th].tid);
}

static const char *comm_of(const struct kx_model *m, int th)
{
    if (idle_thread(m, th))
        return "swapper";
    const struct kx_thread *t = &m->th[th];
    return t->name[0] && t->tid > 1 ? t->name : t->comm[0] ? t->comm : t->name;
}

static int32_t prio_of(const struct kx_model *m, int th)
{
    return th >= 0 && m->th[th].prio >= 0 ? m->th[th].prio : 0;
}

// Wrap c->pkt's content as one Trace.packet and write it.
static void put_packet(struct conv *c)
{
    struct pb out = { 0 };
    pb_bytes(&out, 1, c->pkt.p, c->pkt.len);
    if (fwrite(out.p, 1, out.len, c->f) != out.len)
        c->werr = 1;
    free(out.p);
    c->pkt.len = 0;
    c->packets++;
}

static void flush_bundle(struct conv *c, unsigned cpu)
{
    if (!c->nbundle[cpu])
        return;
    c->sub.len = 0;
    pb_int(&c->sub, 1, cpu);
    pb_reserve(&c->sub, c->bundle[cpu].len);
    memcpy(c->sub.p + c->sub.len, c->bundle[cpu].p, c->bundle[cpu].len);
    c->sub.len += c->bundle[cpu].len;
    c->pkt.len = 0;
    pb_bytes(&c->pkt, 1, c->sub.p, c->sub.len);
    pb_int(&c->pkt, 10, 1 + cpu);
    put_packet(c);
    c->bundle[cpu].len = 0;
    c->nbundle[cpu] = 0;
}

// Add FtraceEvent {timestamp, pid, <field> = c->sub} to the CPU's bundle.
static void add_event(struct conv *c, unsigned cpu, uint64_t t, int32_t pid, unsigned field)
{
    c->ev.len = 0;
    pb_int(&c->ev, 1, (int64_t)ns(c, t));
    pb_int(&c->ev, 2, pid);
    pb_bytes(&c->ev, field, c->sub.p, c->sub.len);
    pb_bytes(&c->bundle[cpu], 2, c->ev.p, c->ev.len);
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

static void thread_event(struct conv *c, const struct kev_event *e)
{
    struct kx_model *m = c->m;
    int th = kx_thread(m, e->w[0], e->w[1]);
    if (th < 0 || m->in_snapshot)
        return;
    int32_t prio = e->nw >= 4 ? (int32_t)e->w[2] : prio_of(m, th);
    if (e->ev == KEV_TH_RUNNING) {
        int p = m->cur[e->cpu] >= 0 ? m->cur[e->cpu] : m->prev[e->cpu];
        c->sub.len = 0;
        pb_str(&c->sub, 1, comm_of(m, p));
        pb_int(&c->sub, 2, tid_of(m, p));
        pb_int(&c->sub, 3, prio_of(m, p));
        pb_int(&c->sub, 4, p >= 0 ? linux_state(m->th[p].state) : 0);
        pb_str(&c->sub, 5, comm_of(m, th));
        pb_int(&c->sub, 6, tid_of(m, th));
        pb_int(&c->sub, 7, prio);
        add_event(c, e->cpu, e->t64, tid_of(m, p), 4);
    } else if (e->ev == KEV_TH_READY && m->th[th].cpu < 0 && m->th[th].state != KEV_TH_READY) {
        c->sub.len = 0;
        pb_str(&c->sub, 1, comm_of(m, th));
        pb_int(&c->sub, 2, tid_of(m, th));
        pb_int(&c->sub, 3, prio);
        pb_int(&c->sub, 4, 1);
        pb_int(&c->sub, 5, e->cpu);
        add_event(c, e->cpu, e->t64, tid_of(m, m->cur[e->cpu]), 17);
    }
}

static void int_event(struct conv *c, const struct kev_event *e)
{
    char name[24];
    if (e->ev != KEV_INT_ENTER && e->ev != KEV_INT_EXIT)
        return;
    c->sub.len = 0;
    pb_int(&c->sub, 1, (int32_t)e->w[0]);
    if (e->ev == KEV_INT_ENTER) {
        snprintf(name, sizeof(name), "irq%u", e->w[0]);
        pb_str(&c->sub, 2, name);
    } else {
        pb_int(&c->sub, 2, 1);
    }
    add_event(c, e->cpu, e->t64, tid_of(c->m, c->m->cur[e->cpu]),
              e->ev == KEV_INT_ENTER ? 36 : 37);
}

static int on_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)r;
    struct conv *c = user;
    if (e->cls == KEV_C_PR_TH && e->ev <= KEV_TH_DESTROY && e->nw >= 2)
        thread_event(c, e);
    else if (e->cls == KEV_C_INT && e->nw >= 1)
        int_event(c, e);
    kx_model_update(c->m, e);
    return c->werr;
}

static void process_tree(struct conv *c)
{
    const struct kx_model *m = c->m;
    struct pb tree = { 0 };
    for (unsigned i = 0; i < m->nth; i++) {
        const struct kx_thread *t = &m->th[i];
        if (idle_thread(m, (int)i))
            continue;
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = m->th[j].pid == t->pid;
        if (!seen) {
            c->sub.len = 0;
            pb_int(&c->sub, 1, t->pid * 1000 + 1);
            pb_int(&c->sub, 2, 0);
            pb_str(&c->sub, 3, t->comm[0] ? t->comm : t->name);
            pb_bytes(&tree, 1, c->sub.p, c->sub.len);
        }
        char label[80];
        c->sub.len = 0;
        pb_int(&c->sub, 1, tid_of(m, (int)i));
        pb_str(&c->sub, 2, kx_label(m, (int)i, label, sizeof(label)));
        pb_int(&c->sub, 3, t->pid * 1000 + 1);
        pb_bytes(&tree, 2, c->sub.p, c->sub.len);
    }
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, (int64_t)ns(c, m->first_t));
    pb_bytes(&c->pkt, 2, tree.p, tree.len);
    pb_int(&c->pkt, 10, 100);
    put_packet(c);
    free(tree.p);
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (kx_arg_file("kev2perfetto", a, &in, usage) != 0) {
            return 2;
        }
    }
    if (!in || !out) {
        fprintf(stderr, "kev2perfetto: %s\n", in ? "-o FILE is required" : "no FILE given");
        usage(stderr);
        return 2;
    }
    struct kx_file f;
    if (kx_open("kev2perfetto", in, &f))
        return 1;
    static struct conv c;
    static struct kx_model m;
    c.f = fopen(out, "wb");
    if (!c.f) {
        perror(out);
        kx_close(&f);
        return 1;
    }
    kx_model_init(&m, f.r);
    c.m = &m;
    c.hz = f.r->kr_cycles_per_sec ? f.r->kr_cycles_per_sec : 1000000000u;
    int rc = kx_decode_sorted("kev2perfetto", &f, on_event, &c);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        flush_bundle(&c, cpu);
    process_tree(&c);
    if (fclose(c.f) || c.werr) {
        fprintf(stderr, "kev2perfetto: %s: write error\n", out);
        rc = 1;
    }
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        free(c.bundle[cpu].p);
    free(c.ev.p), free(c.sub.p), free(c.pkt.p);
    kx_close(&f);
    return rc;
}
