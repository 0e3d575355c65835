// SPDX-License-Identifier: MIT
// Host capture and synthetic workload (see kev_capture.h).
#include <kevhost/kev_capture.h>
#include <kevhost/tool_grow.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uapi/kcall.h>

static void reserve(struct kcap *c, size_t n)
{
    size_t failed = tool_grow(&c->data, &c->cap, c->len + n, 1, 1u << 16);
    if (failed) {
        fprintf(stderr, "kev_capture: out of memory (%zu bytes)\n", failed);
        exit(2);
    }
}

static const char *const procs[] = { "procnto", "init", "server", "client", "logger" };
#define NPROCS (sizeof(procs) / sizeof(procs[0]))

void kcap_begin(struct kcap *c, int big_endian, uint64_t cycles_per_sec)
{
    memset(c, 0, sizeof(*c));
    c->big = big_endian;
    uint8_t sp[4096];
    struct kev_out o;
    kev_out_init(&o, sp, sizeof(sp), big_endian);
    const struct kev_sp_machine m = { KEV_SP_QNX_ARM, 1, cycles_per_sec, 0, 25, "Cortex-M3",
                                      "mps2-an385", "armle" };
    kev_sp_begin(&o, &m);
    kev_sp_board(&o, "mps2-an385", (uint32_t)cycles_per_sec, 1);
    kev_sp_mem(&o, 0x20000000u, 0x00400000u, "sram");
    for (unsigned p = 0; p < NPROCS; p++) {
        kev_sp_proc(&o, p + 1, p ? 1 : 0, procs[p]);
        kev_sp_thread(&o, p + 1, 1, KEV_TH_READY, 10, "main");
    }
    size_t splen = kev_sp_end(&o);
    if (o.ko_err) {
        fprintf(stderr, "kev_capture: system page overflow\n");
        exit(2);
    }
    reserve(c, 8192 + splen);
    struct kev_out h;
    kev_out_init(&h, c->data, c->cap, big_endian);
    const struct kev_hdr_std std = {
        .hs_file_name = "tracebuffer.kev", .hs_date = "Sat Nov 21 05:00:00 2026",
        .hs_boot_date = "Sat Nov 21 04:59:00 2026", .hs_cycles_per_sec = cycles_per_sec,
        .hs_cpu_num = 1, .hs_sysname = "QNX-like", .hs_nodename = "localhost",
        .hs_sys_release = "0.1", .hs_sys_version = "kevgen", .hs_machine = "armv7m",
        .hs_syspage_len = splen,
    };
    kev_hdr_standard(&h, &std);
    kev_hdr_item(&h, "GENERATOR", "kev_capture");
    kev_hdr_end(&h);
    kev_out_bytes(&h, sp, splen);
    if (h.ko_err) {
        fprintf(stderr, "kev_capture: cannot write the header: %s\n", h.ko_why);
        exit(2);
    }
    c->len = h.ko_len;
}

void kcap_drain(struct kcap *c, struct trace_ring *r)
{
    unsigned idx, n;
    uint32_t seq;
    while (trace_ring_take(r, &idx) == 0) {
        const struct kev_slot *s = trace_ring_buffer(r, idx, &n, &seq);
        unsigned cpu = kev_hdr_cpu(s[0].header) % TRACE_MAX_CPUS;
        uint32_t events = s[n - 1].data[2];
        if (c->skip_every && (seq + 1) % c->skip_every == 0) {
            c->tot[cpu].lost += events; // a logger that failed to store this one says so
            c->flags |= KEV_TRL_LOGGER_LOSS;
        } else {
            reserve(c, (size_t)n * KEV_SLOT_BYTES);
            struct kev_out o;
            kev_out_init(&o, c->data + c->len, c->cap - c->len, c->big);
            kev_out_slots(&o, s, n);
            c->len += o.ko_len;
            c->nbufs++;
            c->tot[cpu].events += events;
        }
        trace_ring_release(r, idx);
    }
}

void kcap_finish(struct kcap *c, struct trace_ring *r)
{
    trace_ring_stop(r);
    kcap_drain(c, r);
    for (unsigned cpu = 0; cpu < TRACE_MAX_CPUS; cpu++) {
        struct trace_counts cnt;
        trace_ring_counts(r, cpu, &cnt);
        c->tot[cpu].lost += cnt.dropped + cnt.overwritten;
    }
    uint32_t flags = c->flags;
    if (r->tr_filled)
        flags |= KEV_TRL_FILLED;
    if (r->tr_policy == TRACE_POLICY_RING)
        flags |= KEV_TRL_RING;
    uint64_t lost = 0;
    for (unsigned cpu = 0; cpu < TRACE_MAX_CPUS; cpu++)
        lost += c->tot[cpu].lost;
    reserve(c, kev_trailer_len(TRACE_MAX_CPUS) + 16u * 8u);
    struct kev_out o;
    kev_out_init(&o, c->data + c->len, c->cap - c->len, c->big);
    if (lost) // as the tracelogger does (kev_file.h)
        kev_loss_note(&o, (uint32_t)trace_host_port.now, lost);
    kev_trailer(&o, c->nbufs, flags, c->tot, TRACE_MAX_CPUS);
    c->len += o.ko_len;
}

void kcap_free(struct kcap *c)
{
    free(c->data);
    memset(c, 0, sizeof(*c));
}

// The kernel calls the workload makes (their real numbers, uapi/kcall.h).
#define KCAP_CALL_NUM(num, name, nargs) num,
static const uint8_t kcap_calls[] = { KCALL_LIST(KCAP_CALL_NUM) };
#undef KCAP_CALL_NUM

// A small deterministic generator (xorshift).
static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

uint64_t kcap_workload(struct trace_ring *r, struct kcap *c, uint64_t n, unsigned seed,
                       unsigned drain_every)
{
    uint32_t s = seed * 2654435761u + 1u;
    uint64_t emitted = 0;
    // Start-up: name every process and its first thread, as START's snapshot would.
    for (unsigned p = 0; p < NPROCS && emitted < n; p++) {
        uint32_t w[2] = { p ? 1u : 0u, p + 1 };
        trace_emit_string(r, KEV_C_PR_TH, KEV_PR_CREATE_NAME, w, 2, procs[p]);
        emitted++;
    }
    uint32_t pid = 1, tid = 1;
    while (emitted < n) {
        uint32_t k = rnd(&s) % 100;
        uint32_t p = 1 + rnd(&s) % NPROCS;
        if (k < 30) { // kernel call entry and exit
            uint32_t call = kcap_calls[rnd(&s) % (sizeof(kcap_calls) - KCALL_ADDED_LATER)];
            uint32_t v = c && c->calls_vary ? rnd(&s) % 8 : 8;
            if (v == 0) { // wide: all six argument words
                uint32_t a[6] = { rnd(&s) % 64, 0x2000f000u, 3, 0x6c6c6568u, 0x0000216fu, 0 };
                trace_emit_words(r, KEV_C_KER_CALL, KEV_KC_ENTRY(call), a, 6);
            } else {
                trace_emit_simple(r, KEV_C_KER_CALL, KEV_KC_ENTRY(call), rnd(&s) % 64, 0);
            }
            if (v % 4 == 1) // failed: [-1, errno], as QNX's exit events
                trace_emit_simple(r, KEV_C_KER_CALL, KEV_KC_EXIT(call), 0xffffffffu, 11u);
            else
                trace_emit_simple(r, KEV_C_KER_CALL, KEV_KC_EXIT(call), 0, 0);
            emitted += 2;
        } else if (k < 60) { // a context switch
            trace_emit_simple(r, KEV_C_PR_TH, KEV_TH_READY, pid, tid);
            pid = p;
            tid = 1;
            trace_ring_set_current(r, pid, tid);
            trace_emit_simple(r, KEV_C_PR_TH, KEV_TH_RUNNING, pid, tid);
            emitted += 2;
        } else if (k < 75) { // message passing
            trace_emit_simple(r, KEV_C_COMM, KEV_COMM_SND_MESSAGE, 3, p);
            trace_emit_simple(r, KEV_C_COMM, KEV_COMM_REC_MESSAGE, 1, pid);
            trace_emit_simple(r, KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, 1, p);
            emitted += 3;
        } else if (k < 90) { // an interrupt; every other one with a process's handler
            trace_emit_simple(r, KEV_C_INT, KEV_INT_ENTER, 8, 0);
            if (k & 1) { // QNX's INT_HANDLER_ENTR [pid, irq, IP, area]; EXIT [irq, ...]
                uint32_t h[4] = { 4, 8, 0, 0 };
                trace_emit_words(r, KEV_C_INT, KEV_INT_HANDLER_ENTER, h, 4);
                trace_emit_simple(r, KEV_C_INT, KEV_INT_HANDLER_EXIT, 8, 4);
                emitted += 2;
            }
            trace_emit_simple(r, KEV_C_INT, KEV_INT_EXIT, 8, 0);
            emitted += 2;
        } else if (k < 97) { // a wide thread event (combine: 4 words)
            uint32_t w[4] = { pid, tid, 10, 2 };
            trace_emit_words(r, KEV_C_PR_TH, KEV_TH_SEM, w, 4);
            emitted++;
        } else if (k < 99) { // a user string event
            trace_emit_string(r, KEV_C_USER, 7, NULL, 0, "user checkpoint");
            emitted++;
        } else { // a user buffer event: 10 words, 5 slots
            uint32_t w[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
            trace_emit_words(r, KEV_C_USER, 8, w, 10);
            emitted++;
        }
        trace_host_port.now += 1 + rnd(&s) % 50;
        if (c && drain_every && emitted % drain_every < 3)
            kcap_drain(c, r);
    }
    return emitted;
}
