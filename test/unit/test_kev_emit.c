// SPDX-License-Identifier: MIT
// The kernel's emit helpers (kernel/include/kernel/kev_emit.h) held against the event table
// (trace/kev_events.c), so that the two cannot drift: every row whose D column says its emit
// helper fires D (KEV_D_EMIT) is emitted here through its helper into a real ring, the capture
// is read back with the table's own decoder (kev_fields_decode), and each D firing the helper
// made is compared with the row: the probe by its name (d/dprobes.h's), each argument with the
// decoded field the row names, or the value the site passed; the firing's stamp with the
// event's. Without D a helper writes the same event and fires nothing. The table's D column is
// checked on its own too: a row names probes exactly when it says how they are fired, and an
// emit row's arguments are its fields.
// The D side here is a recorder (kdt_fire_n_in and the D lock's hold); the ring, the capture
// and the decoder are the real ones.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>
#include <trace/trace_ring.h>
#include <d/dprobes.h>
#include <d/dutext.h>
#include <uapi/kcall.h>
#include <kevhost/kev_capture.h>
#undef errno    // MSG_ERROR's field is QNX's `errno` (kev_emit.h)
// Each generated helper called from an array of values (tools/emitgen, KEV_EMIT_GEN_TEST):
// params are its parameters after `how`, the row's fields, then ?NAME for a site value.
struct kev_emit_gen_case {
    unsigned cls, ev;
    void (*call)(unsigned how, const uint64_t *v, const char *s);
    const char *params[16];
};
#define KEV_EMIT_GEN_TEST 1
#include <kernel/kev_emit.h>
#include <kev_emit_gen_added.h>     // the test-only row's generated helper (tools/emitgen -a)
#include "../tools/test_event_row.h"
#include "spawn_cases.h"
#include <kevhost/row_probes.h>

// ---- the D side, recorded ---------------------------------------------------------------------

#define NARGS 6u          // a firing's arguments (kdt_fire_n_in's)
struct firing {
    uint32_t id;
    const struct thread *as;    // the thread whose context it fires in (NULL: k_current's)
    uint64_t a[NARGS];
    uint32_t site;      // the site's stamp when it fired (kdt_site_set's)
    uint8_t bytes[128]; // a user event's payload as the kernel gave it (kdt_fire_payload)
    uint32_t err;       // the firing's errno (kdt_fire_n_in)
    uint8_t parent;     // a spawn's, under the thread's parent's name (kdt_fire_spawn)
    uint8_t program;    // a spawn's, exec's text `text` (kdt_fire_spawn)
    const char *text;   // ... the program kdt_fire_spawn was given (NULL: the thread's process's)
};
static struct firing fired[8];
static unsigned nfired, holds, nstacks;
static uint32_t site_ts;

struct trace_ring ktrace;
bool kdt_active;
static uint32_t not_wanted;     // a probe the running program does not enable (DPROBE_NONE: all)

bool kdt_wanted(uint32_t id)
{
    return id != not_wanted;
}

void kdt_hold(void)
{
    holds++;
    site_ts = 0;
}

void kdt_release(void)
{
    assert_int_equal(holds, 1);
    holds--;
}

void kdt_site_set(uint32_t ts32)
{
    site_ts = ts32;
}

void kdt_fire_n_in(const struct thread *t, uint32_t id, const uint64_t *a, unsigned n,
                   uint32_t err)
{
    assert_int_equal(holds, 1);     // within the event's hold
    assert_true(nfired < 8 && n <= NARGS);
    struct firing *f = &fired[nfired++];
    memset(f, 0, sizeof(*f));
    f->id = id;
    f->as = t;
    f->site = site_ts;
    f->err = err;
    for (unsigned i = 0; i < n; i++)
        f->a[i] = a[i];
}

// A spawn's firings under the parent's name or with the program's (kdt_fire.c kdt_fire_spawn):
// recorded as any firing in that thread's context, with the name and text it is given, and
// counted (which of a rule's firings go there is the rule's: trace/kev_derived.h).
static unsigned nspawned;

void kdt_fire_spawn(const struct thread *t, const struct kev_dfire *f, const char *program)
{
    kdt_fire_n_in(t, f->id, f->a, f->n, 0);
    fired[nfired - 1].parent = f->as == KEV_DAS_PARENT;
    fired[nfired - 1].program = (uint8_t)kev_dfire_program(f);
    fired[nfired - 1].text = program;
    nspawned++;
}

// lockstat's view of a SYNC_* call, which the kernel-call helpers hand on within their site:
// what it was given.
static struct {
    unsigned n;
    const struct thread *t;
    uint32_t call, a0;
    int32_t result;
} sync_seen;

void klockstat_call_entry(struct thread *t, uint32_t n, const uint32_t *a)
{
    assert_int_equal(holds, 1);
    sync_seen.n++;
    sync_seen.t = t;
    sync_seen.call = n;
    sync_seen.a0 = a[0];
}

void klockstat_call_return(struct thread *t, unsigned n, int32_t result)
{
    assert_int_equal(holds, 1);
    sync_seen.n++;
    sync_seen.t = t;
    sync_seen.call = n;
    sync_seen.result = result;
}

// The switch to a thread chosen to run (off-cpu's side, kernel/ktrace.c): whom it was given.
static const struct thread *switched_to;
static unsigned nswitched;

void ktrace_kdt_switch(struct thread *next)
{
    assert_int_equal(holds, 1);
    switched_to = next;
    nswitched++;
}

// user:::event with a payload: args as kdtrace_text.c gives them (the window, its size).
void kdt_fire_payload(uint32_t code, const void *bytes, unsigned nwords)
{
    const uint64_t a[3] = { code, DUTEXT_ADDR, dutext_size(nwords) };
    kdt_fire_n(DPROBE_USER_EVENT, a, 3);
    assert_true(dutext_size(nwords) <= sizeof(fired[0].bytes));
    memcpy(fired[nfired - 1].bytes, bytes, dutext_size(nwords));
}

void ktrace_stack_user(const struct thread *t, unsigned kind)
{
    (void)t;
    assert_int_equal(kind, KEV_STACK_FAULT);
    nstacks++;
}

// ---- one emit: the ring's event read back, the firings --------------------------------------

static struct kev_slot mem[2 * KEV_BUF_SLOTS];
static struct kcap cap;
static struct kev_reader rd;
static struct kev_event ev;     // the one event the emit wrote
static uint32_t ev_words[64];   // ... its payload
static struct kev_fields fs;    // ... decoded by the table
// A thread the helpers only pass on (to ktrace_stack_user, or test for NULL): never read.
static const struct thread *th = (const struct thread *)(uintptr_t)0x1000u;

static void ring_up(void)
{
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    trace_host_port.now = 0x1234500ull;     // (the USER case below starts after it)
    assert_int_equal(trace_ring_init(&ktrace, mem, sizeof(mem), 2), 0);
    trace_filter_all(&ktrace, 1);
    assert_int_equal(trace_ring_start(&ktrace), 0);
    kcap_begin(&cap, 0, 1000000);
    nfired = holds = nstacks = nspawned = 0;
    memset(&sync_seen, 0, sizeof(sync_seen));
    switched_to = NULL;
    nswitched = 0;
}

// Stops the ring and reads back its one event (not CONTROL) into ev and fs.
static void read_back(unsigned cls, unsigned evno)
{
    kcap_finish(&cap, &ktrace);
    assert_int_equal(kev_open(&rd, cap.data, cap.len), 0);
    unsigned n = 0;
    struct kev_event e;
    int r;
    while ((r = kev_next(&rd, &e)) == 1) {
        if (e.cls == KEV_C_CONTROL)
            continue;
        ev = e;     // (its words are valid until the next call: decoded now, kept)
        assert_true(e.nw <= sizeof(ev_words) / sizeof(ev_words[0]));
        memcpy(ev_words, e.w, e.nw * sizeof(uint32_t));
        ev.w = ev_words;
        kev_fields_decode(&rd, &e, &fs);
        n++;
    }
    assert_int_equal(r, 0);
    assert_int_equal(n, 1);
    assert_int_equal(ev.cls, cls);
    assert_int_equal(ev.ev, evno);
    assert_non_null(fs.desc);
}

// A value the site passes beside the event's words (a "?name" argument of the D column).
struct site_val {
    const char *name;
    uint64_t v;
};

// Does one probe of a D column entry ("sched:::thread-create, proc:::lwp-create"; a family
// "interrupt::irq<irq>:entry") name the probe fired as id?
static int probe_matches(const char *list, uint32_t id)
{
    struct dprobe_desc d;
    char name[96], want[96];
    if (dprobe_get(id, &d) != 0)
        return 0;
    snprintf(name, sizeof(name), "%s:%s:%s:%s", d.prov, d.mod, d.func, d.name);
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        size_t w = 0;
        for (size_t i = 0; i < len && w + 1 < sizeof(want); i++) {
            if (s[i] == '<') {          // <field>: any value
                want[w++] = '*';
                while (i < len && s[i] != '>')
                    i++;
            } else {
                want[w++] = s[i];
            }
        }
        want[w] = 0;
        if (dprobe_glob(want, name))
            return 1;
        s += len;
        while (*s == ',' || *s == ' ')
            s++;
    }
    return 0;
}

// The value an argument of the D column gives: a field, FIELD.pid (a who field's process),
// ?NAME (a value the site passes), or a number.
static uint64_t arg_value(const char *arg, const struct site_val *sv, unsigned nsv)
{
    if (arg[0] == '?') {
        for (unsigned i = 0; i < nsv; i++)
            if (strcmp(sv[i].name, arg + 1) == 0)
                return sv[i].v;
        fail_msg("the test gives no site value %s", arg);
    }
    if (arg[0] >= '0' && arg[0] <= '9')
        return strtoull(arg, NULL, 0);
    char field[48];
    snprintf(field, sizeof(field), "%s", arg);
    char *dot = strstr(field, ".pid");
    if (dot)
        *dot = 0;
    const struct kev_field *f = kev_field_get(&fs, field);
    if (!f)
        fail_msg("%s: no field %s decoded", fs.name, field);
    return dot ? kev_who_pid(f->v) : f->v;
}

// The values one argument of the D column gives, into want[k..NARGS); returns how many. The
// $ arguments read the event as the row says (trace/include/trace/kev_events.h) dtrace -i
// reads it: $ev its number, $user a USER event's two words or its payload's window and size.
static unsigned arg_values(const char *arg, const struct site_val *sv, unsigned nsv,
                           uint64_t *want, unsigned k)
{
    if (!strcmp(arg, "$words")) {   // a call's six arguments: those the event does not hold
        assert_true(k + 6 <= NARGS); // are the site's ?a2..?a5
        for (unsigned i = 0; i < 6; i++) {
            char name[8];
            snprintf(name, sizeof(name), "?a%u", i);
            want[k + i] = i < ev.nw ? ev.w[i] : arg_value(name, sv, nsv);
        }
        return 6;
    }
    if (!strcmp(arg, "$result")) {  // the result, -errno on failure (the decoder's reading)
        int32_t ret;
        uint32_t err;
        assert_true(kev_kcall_exit(&ev, &ret, &err));
        want[k] = err ? (uint64_t)-(int64_t)err : (uint64_t)(int64_t)ret;
        return 1;
    }
    if (!strcmp(arg, "$call")) {
        want[k] = ev.ev % KEV_KC_MAX;
        return 1;
    }
    if (!strcmp(arg, "$ev")) {
        want[k] = ev.ev;
        return 1;
    }
    if (!strcmp(arg, "$user")) {
        assert_true(k + 2 <= NARGS);
        want[k] = ev.nslots > 1 ? DUTEXT_ADDR : ev.nw > 0 ? ev.w[0] : 0;
        want[k + 1] = ev.nslots > 1 ? 4u * ev.nw : ev.nw > 1 ? ev.w[1] : 0;
        return 2;
    }
    want[k] = arg_value(arg, sv, nsv);
    return 1;
}

static unsigned ndprobes(const struct kev_event_desc *row)
{
    unsigned n = 0;
    while (row->dprobes && row->dprobes[n].probe)
        n++;
    return n;
}

// The next argument of a D column entry's list into tok; returns the rest, or NULL at the end.
static const char *next_arg(const char *s, char *tok, size_t n)
{
    while (*s == ' ')
        s++;
    if (!*s)
        return NULL;
    size_t len = strcspn(s, " ");
    snprintf(tok, n, "%.*s", (int)len, s);
    return s + len;
}

// Every firing is one of the row's probes, with the row's arguments' values (a derived entry's
// arguments are words: its probe only), at the event's stamp; returns a bit per entry fired.
static unsigned check_firings(const struct site_val *sv, unsigned nsv)
{
    const struct kev_event_desc *row = fs.desc;
    unsigned seen = 0, nd = ndprobes(row);
    for (unsigned k = 0; k < nfired; k++) {
        const struct firing *f = &fired[k];
        unsigned p = 0;
        while (p < nd && !probe_matches(row->dprobes[p].probe, f->id))
            p++;
        if (p == nd)
            fail_msg("%s fired probe id %u, which its row does not name", row->name, f->id);
        seen |= 1u << p;
        assert_int_equal(f->site, ev.t32);   // one stamp: the event's
        if (row->dprobes[p].derived)
            continue;
        uint64_t want[NARGS] = { 0 };
        const char *from[NARGS] = { 0 };
        char tok[NARGS][48];
        unsigned n = 0;
        for (const char *s = row->dprobes[p].args; n < NARGS &&
                                                   (s = next_arg(s, tok[n], sizeof(tok[n])));) {
            unsigned got = arg_values(tok[n], sv, nsv, want, n);
            for (unsigned i = n; i < n + got; i++)
                from[i] = tok[n];
            n += got;
        }
        for (unsigned i = 0; i < NARGS; i++)
            if (f->a[i] != want[i])
                fail_msg("%s %s arg%u: fired 0x%llx, the row's %s is 0x%llx", row->name,
                         row->dprobes[p].probe, i, (unsigned long long)f->a[i],
                         from[i] ? from[i] : "(none)", (unsigned long long)want[i]);
    }
    return seen;
}

// ---- each emit row's helper, with D and without ----------------------------------------------

static unsigned rows_done[64];
static unsigned nrows_done;

static void done(const struct kev_event_desc *row, unsigned seen)
{
    assert_int_equal(seen, (1u << ndprobes(row)) - 1u);   // every entry of the row fired
    rows_done[nrows_done++] = (unsigned)(row - kev_event_table);
}

// One emit of a helper with d true: emit is called between ring_up and read_back.
#define EMIT_CASE(cls, evno, call, ...)                                                 \
    do {                                                                                \
        const struct site_val sv[] = { { "", 0 }, __VA_ARGS__ };                        \
        ring_up();                                                                      \
        call;                                                                           \
        assert_int_equal(holds, 0);                                                     \
        read_back(cls, evno);                                                           \
        seen |= check_firings(sv, sizeof(sv) / sizeof(sv[0]));                          \
        kcap_free(&cap);                                                                \
    } while (0)
// The same with d false: the same event, no firing, no hold.
#define PLAIN_CASE(cls, evno, call)                                                     \
    do {                                                                                \
        ring_up();                                                                      \
        call;                                                                           \
        read_back(cls, evno);                                                           \
        assert_int_equal(nfired, 0);                                                    \
        kcap_free(&cap);                                                                \
    } while (0)

// generated: the table's row i has a generated helper (every_generated_helper_against_its_row
// emits it; a case above is the hand helpers' and a few generated ones' with values of note).
static int generated(unsigned i)
{
    for (const struct kev_emit_gen_case *c = kev_emit_gen_cases; c->call; c++)
        if (kev_event_describe(c->cls, c->ev) == &kev_event_table[i])
            return 1;
    return 0;
}

static void every_emit_row_against_its_helper(void **state)
{
    (void)state;
    unsigned seen;

    seen = 0;
    EMIT_CASE(KEV_C_INT, KEV_INT_ENTER, kev_emit_int(true, KEV_INT_ENTER, 5, 0, th, 0, 0, 0));
    EMIT_CASE(KEV_C_INT, KEV_INT_ENTER,
              kev_emit_int(true, KEV_INT_ENTER, KIRQ_TICK, 0, th, 0x30002, 3, 17),
              { "cur_who", 0x30002 }, { "cur_pid", 3 }, { "cur_prio", 17 });
    PLAIN_CASE(KEV_C_INT, KEV_INT_ENTER, kev_emit_int(false, KEV_INT_ENTER, 5, 0, th, 0, 0, 0));
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_INT, KEV_INT_EXIT, kev_emit_int(true, KEV_INT_EXIT, 7, 0, th, 0, 0, 0));
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_PR_TH, KEV_TH_CREATE, kev_emit_thcreate(true, 4, 2, 0x40002, 21),
              { "who", 0x40002 }, { "prio", 21 });
    PLAIN_CASE(KEV_C_PR_TH, KEV_TH_CREATE, kev_emit_thcreate(false, 4, 2, 0x40002, 21));
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_PR_TH, KEV_TH_DESTROY, kev_emit_thdestroy(true, 4, 3, 0x40003, -9),
              { "who", 0x40003 }, { "status", (uint64_t)-9 });
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_PR_TH, KEV_PR_CREATE_NAME, kev_emit_proccreate_name(true, 1, 6, "gw"));
    PLAIN_CASE(KEV_C_PR_TH, KEV_PR_CREATE_NAME, kev_emit_proccreate_name(false, 1, 6, "gw"));
    assert_string_equal(kev_field_get(&fs, "name")->str, "gw");
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_PR_TH, KEV_PR_DESTROY_NAME, kev_emit_procdestroy_name(true, 1, 6, "gw", 3),
              { "status", 3 });
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE,
              kev_emit_prio_change(KEV_D, 0x50002, 30, 10, KEV_PRIO_MUTEX));
    PLAIN_CASE(KEV_C_SYSTEM, KEV_SYS_PRIO_CHANGE,
               kev_emit_prio_change(KEV_RING, 0x50002, 30, 10, KEV_PRIO_MUTEX));
    assert_int_equal(kev_field_get(&fs, "old_prio")->v, 10);
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_SYSTEM, KEV_SYS_FAULT,
              kev_emit_fault(true, true, th, 0x60001, 11, KEV_FAULT_ACCESS, true, 0x8123, 0x20000010));
    assert_int_equal(nstacks, 1);   // its STACK, within the site
    assert_int_equal(kev_field_get(&fs, "addr")->v, 0x20000010);
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_COMM, KEV_COMM_SND_MESSAGE, kev_emit_snd_message(true, 0x10002, 7, 0x40000001, 48),
              { "coid", 0x40000001 }, { "bytes", 48 });
    PLAIN_CASE(KEV_C_COMM, KEV_COMM_SND_MESSAGE, kev_emit_snd_message(false, 0x10002, 7, 1, 48));
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_COMM, KEV_COMM_REC_MESSAGE, kev_emit_rec_message(true, 0x10002, 0x70001, 3, 48),
              { "coid", 3 }, { "bytes", 48 });
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, kev_emit_reply_message(true, 0x10002, -1, 3),
              { "coid", 3 }, { "bytes", 0 });
    assert_int_equal(fired[0].a[3], 0xffffffffu);     // the status as the event's word
    // the traced entry's inline path is the same helper: the same event, no probe
    PLAIN_CASE(KEV_C_COMM, KEV_COMM_REPLY_MESSAGE, kev_emit_reply_message(KEV_INLINE, 0x10002, 5, 3));
    assert_int_equal(kev_field_get(&fs, "status")->v, 5);
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_COMM, KEV_COMM_MSG_ERROR, kev_emit_msg_error(true, 0x10002, 22, 3, 48),
              { "coid", 3 }, { "bytes", 48 });
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_COMM, KEV_COMM_SND_PULSE, kev_emit_snd_pulse(true, 0x40000002, 0x1234, 9));
    assert_int_equal(kev_field_get(&fs, "chid")->v, 9);
    done(fs.desc, seen);

    // ONCPU: on-cpu in the context of the thread coming on, at the event's stamp; at its first
    // run lwp-start after it (a process's first thread: its start before), in that context too
    seen = 0;
    EMIT_CASE(KEV_C_SYSTEM, KEV_SYS_ONCPU,
              kev_emit_oncpu(true, (struct thread *)th, 0x80002, 3, 14, false), { "prio", 14 });
    assert_int_equal(nfired, 1);
    assert_int_equal(fired[0].id, DPROBE_SCHED_ONCPU);
    assert_ptr_equal(fired[0].as, th);
    assert_int_equal(kev_field_get(&fs, "cpu")->v, 3);
    EMIT_CASE(KEV_C_SYSTEM, KEV_SYS_ONCPU,
              kev_emit_oncpu(true, (struct thread *)th, 0x80001, 0, 14, true), { "prio", 14 });
    assert_int_equal(nfired, 5);
    assert_int_equal(nspawned, 2);              // start and exec: as the parent, exec's program
    assert_int_equal(fired[1].id, DPROBE_PROC_START);
    assert_int_equal(fired[2].id, DPROBE_PROC_EXEC);
    assert_int_equal(fired[2].a[0], DUTEXT_ADDR);
    assert_int_equal(fired[3].id, DPROBE_PROC_EXEC_SUCCESS);
    assert_int_equal(fired[3].a[0], 8);
    assert_int_equal(fired[4].id, DPROBE_PROC_LWP_START);
    for (unsigned k = 0; k < 5; k++)
        assert_ptr_equal(fired[k].as, th);
    assert_int_equal(fired[4].a[0], 0x80001);   // lwp-start (derived): the thread, its pid, prio
    assert_int_equal(fired[4].a[1], 8);
    assert_int_equal(fired[4].a[2], 14);
    EMIT_CASE(KEV_C_SYSTEM, KEV_SYS_ONCPU,
              kev_emit_oncpu(true, (struct thread *)th, 0x80003, 1, 14, true), { "prio", 14 });
    assert_int_equal(nspawned, 0);
    assert_int_equal(fired[nfired - 1].id, DPROBE_PROC_LWP_START);
    PLAIN_CASE(KEV_C_SYSTEM, KEV_SYS_ONCPU,
               kev_emit_oncpu(false, (struct thread *)th, 0x80002, 3, 14, true));
    assert_int_equal(kev_field_get(&fs, "who")->v, 0x80002);
    done(fs.desc, seen);

    // KER_CALL: the entry in fast mode (two words: the other four the site's) and in wide
    // mode (six); the exit of a call that succeeded, one that failed (the firing's errno the
    // event's) and a raw one (its registers as they are, never a failure); lockstat's view
    // given the same call and result within the site
    static const uint32_t args[6] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66 };
    const unsigned kc = 9;
    seen = 0;
    EMIT_CASE(KEV_C_KER_CALL, KEV_KC_ENTRY(kc),
              kev_emit_kcall_entry(true, true, (struct thread *)th, kc, KEV_KC_ENTRY(kc), args),
              { "a2", 0x33 }, { "a3", 0x44 }, { "a4", 0x55 }, { "a5", 0x66 });
    assert_int_equal(ev.nw, 2);
    assert_int_equal(sync_seen.n, 1);
    assert_ptr_equal(sync_seen.t, th);
    assert_int_equal(sync_seen.call, kc);
    assert_int_equal(sync_seen.a0, 0x11);
    EMIT_CASE(KEV_C_KER_CALL, KEV_KC_ENTRY(kc),
              (trace_mode_event(&ktrace, KEV_C_KER_CALL, KEV_KC_ENTRY(kc), 1),
               kev_emit_kcall_entry(true, true, (struct thread *)th, kc, KEV_KC_ENTRY(kc), args)));
    assert_int_equal(ev.nw, 6);
    PLAIN_CASE(KEV_C_KER_CALL, KEV_KC_ENTRY(kc),
               kev_emit_kcall_entry(false, true, (struct thread *)th, kc, KEV_KC_ENTRY(kc), args));
    assert_int_equal(sync_seen.n, 0);
    done(fs.desc, seen);

    seen = 0;
    EMIT_CASE(KEV_C_KER_CALL, KEV_KC_EXIT(kc),
              kev_emit_kcall_exit(true, true, (struct thread *)th, kc, 5, 0, false));
    assert_int_equal(fired[0].err, 0);
    assert_int_equal(sync_seen.result, 5);
    EMIT_CASE(KEV_C_KER_CALL, KEV_KC_EXIT(kc),
              kev_emit_kcall_exit(true, true, (struct thread *)th, kc, 0xffffffffu, 17, false));
    assert_int_equal(fired[0].a[0], (uint64_t)-17);
    assert_int_equal(fired[0].err, 17);
    assert_int_equal(sync_seen.result, -17);
    assert_int_equal(sync_seen.n, 1);
    EMIT_CASE(KEV_C_KER_CALL, KEV_KC_EXIT(KC_ClockCycles),
              kev_emit_kcall_exit(true, true, (struct thread *)th, KC_ClockCycles, 0x89abcdefu,
                                  0x1234, true));
    assert_int_equal(fired[0].a[0], (uint64_t)(int64_t)(int32_t)0x89abcdefu);
    assert_int_equal(fired[0].err, 0);
    PLAIN_CASE(KEV_C_KER_CALL, KEV_KC_EXIT(kc),
               kev_emit_kcall_exit(false, true, (struct thread *)th, kc, 5, 0, false));
    assert_int_equal(sync_seen.n, 0);
    seen |= 2u;     // (its lockstat entry: derived, handed on to klockstat_call_return above)
    done(fs.desc, seen);

    // USER: the code its number; a one-slot event's words; a payload (the probe's bytes the
    // ring's), from the three inserts and a user-event ring's record
    seen = 0;
    EMIT_CASE(KEV_C_USER, 17, kev_emit_user(true, 17, 0x11, 0x22));
    PLAIN_CASE(KEV_C_USER, 17, kev_emit_user(false, 17, 0x11, 0x22));
    {
        uint32_t w[8] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xee, 0xee, 0xee };
        EMIT_CASE(KEV_C_USER, 18, kev_emit_user_words(true, 18, w, 1));
        assert_int_equal(fired[0].a[1], 0xa1);
        EMIT_CASE(KEV_C_USER, 19, kev_emit_user_words(true, 19, w, 5));
        assert_int_equal(ev.nw, 6);     // three slots, the last word the pad
        assert_int_equal(fired[0].a[2], 24);
        assert_memory_equal(fired[0].bytes, ev.w, 24);
        assert_int_equal(ev.w[4], 0xa5);
        assert_int_equal(ev.w[5], 0);
        PLAIN_CASE(KEV_C_USER, 19, kev_emit_user_words(false, 19, w, 5));
    }
    {
        char text[32] = "frame 42 routed";
        memset(text + 16, 'x', sizeof(text) - 16);  // what a stack held after the text
        EMIT_CASE(KEV_C_USER, 20, kev_emit_user_string(true, 20, text, sizeof(text)));
        assert_int_equal(fired[0].a[2], 16);
        assert_memory_equal(fired[0].bytes, ev.w, 16);
        assert_string_equal((const char *)fired[0].bytes, "frame 42 routed");
    }
    {
        // a record stamped before the drain's clock: the probe at the slot's time, which the
        // helper returns (the time the ring gives a record: test_trace_ring)
        const uint32_t start = 0x1234500u, ts = start + 30u;
        uint32_t now = start + 100u, at = 0;
        EMIT_CASE(KEV_C_USER, 21,
                  (trace_host_port.now = now, at = kev_emit_user_at(true, 21, ts, &now, 0x31, 0x32)));
        assert_int_equal(ev.t32, at);
        PLAIN_CASE(KEV_C_USER, 21, kev_emit_user_at(false, 21, ts, &now, 1, 2));
    }
    done(fs.desc, seen);

    // every row the table says its emit helper fires D for was emitted above, once
    for (unsigned i = 0; i < kev_event_table_len; i++) {
        unsigned n = 0;
        for (unsigned k = 0; k < nrows_done; k++)
            n += rows_done[k] == i;
        if (kev_event_table[i].dsite == KEV_D_EMIT && n != 1 && !(n == 0 && generated(i)))
            fail_msg("%s: the table says its emit helper fires D; this test emits it %u times",
                     kev_event_table[i].name, n);
    }
}

// ---- every generated helper, from its row alone ---------------------------------------------------

// gen_value: a made-up value for parameter k of case m that the row's field holds whole
// (below 2^31 for a word: an S32 reads back as written), never 0 (an `unless` of 0 holds not).
static uint64_t gen_value(const struct kev_field_desc *fd, unsigned m, unsigned k)
{
    uint64_t v = 0x01020304u * (k + 1u) + 0x111u * m;
    if (!fd)
        return v;                                   // a site value
    if (fd->layout != KEV_L_WORD)
        return 0x0000000812345678ull + v;           // a 64-bit field
    unsigned bits = fd->bits && fd->bits < 31u ? fd->bits : 31u;
    v &= (1ull << bits) - 1u;
    return v ? v : 1u;
}

// Each helper the build generated (tools/emitgen), the table's and the test-only row's, is
// called without D and with D: its event read back by the table's decoder gives each field the
// value passed, and with D its firings are the row's D column over those values (check_firings),
// every probe of the row fired; without D none. A row added with a generated helper is in this
// test with no line of its own.
static void every_generated_helper_against_its_row(void **state)
{
    (void)state;
    const struct kev_emit_gen_case *sets[2] = { kev_emit_gen_cases, kev_emit_gen_cases_added };
    unsigned m = 0, ntest_only = 0;
    row_probes_use("test_kev_emit");
    for (unsigned set = 0; set < 2; set++)
        for (const struct kev_emit_gen_case *c = sets[set]; c->call; c++, m++) {
            const struct kev_event_desc *row = kev_event_describe(c->cls, c->ev);
            assert_non_null(row);
            ntest_only += c->ev == KEV_SYS_TEST_ONLY;
            uint64_t v[16];
            struct site_val sv[17] = { { "", 0 } };
            const struct kev_field_desc *fd[16];
            unsigned nsv = 1, np = 0;
            for (; c->params[np]; np++) {
                const char *p = c->params[np];
                fd[np] = p[0] == '?' ? NULL : kev_field_desc_get(c->cls, c->ev, p);
                assert_true(p[0] == '?' || fd[np]);
                v[np] = gen_value(fd[np], m, np);
                if (!fd[np])
                    sv[nsv++] = (struct site_val){ p + 1, v[np] };
            }
            for (unsigned how = KEV_RING; how <= KEV_D; how++) {
                ring_up();
                c->call(how, v, "gen");
                assert_int_equal(holds, 0);
                read_back(c->cls, c->ev);
                for (unsigned k = 0; k < np; k++) {
                    if (!fd[k])
                        continue;
                    const struct kev_field *f = kev_field_get(&fs, fd[k]->name);
                    assert_non_null(f);
                    if (fd[k]->layout == KEV_L_STRING)
                        assert_string_equal(f->str, "gen");
                    else if (f->v != v[k])
                        fail_msg("%s %s: decoded 0x%llx, passed 0x%llx", row->name, fd[k]->name,
                                 (unsigned long long)f->v, (unsigned long long)v[k]);
                }
                if (how == KEV_D)
                    assert_int_equal(check_firings(sv, nsv), (1u << ndprobes(row)) - 1u);
                else
                    assert_int_equal(nfired, 0);
                kcap_free(&cap);
            }
        }
    assert_true(m >= 10);
    assert_int_equal(ntest_only, 1);    // the row a test build adds, generated as the table's
}

// ---- the table's D column on its own -----------------------------------------------------------

static int row_has_field(const struct kev_event_desc *row, const char *name)
{
    for (unsigned i = 0; i < row->nfields; i++)
        if (strcmp(row->fields[i].name, name) == 0)
            return 1;
    return 0;
}

static void d_column_says_how_each_probe_fires(void **state)
{
    (void)state;
    unsigned emit = 0;
    for (unsigned i = 0; i < kev_event_table_len; i++) {
        const struct kev_event_desc *row = &kev_event_table[i];
        if ((row->probes[0] != 0) != (row->dsite != KEV_D_NONE))
            fail_msg("%s: D probes \"%s\" but how they fire is %u", row->name, row->probes,
                     row->dsite);
        if (row->dsite == KEV_D_EMIT && !ndprobes(row))
            fail_msg("%s: an emit row lists its probes", row->name);
        for (unsigned p = 0; p < ndprobes(row); p++) {
            const struct kev_dprobe *d = &row->dprobes[p];
            if (d->derived)
                continue;
            char tok[48], field[48];
            for (const char *s = d->args; (s = next_arg(s, tok, sizeof(tok))) != NULL;) {
                if (tok[0] == '?' || tok[0] == '$' || (tok[0] >= '0' && tok[0] <= '9'))
                    continue;
                snprintf(field, sizeof(field), "%s", tok);
                char *dot = strstr(field, ".pid");
                if (dot)
                    *dot = 0;
                if (!row_has_field(row, field))
                    fail_msg("%s %s: argument %s is no field of the row", row->name, d->probe,
                             tok);
            }
        }
        emit += row->dsite == KEV_D_EMIT;
    }
    assert_true(emit >= 10);
}

// ---- a thread's state: Solaris's sched probes of the change -------------------------------------

// One state change with D: the event read back, the firings held against the probes Solaris
// documents for the change (sched:::sleep and block-* into a blocked state, wakeup or preempt
// and enqueue into READY, dequeue when chosen to run, lwp-exit at the end), each with the
// thread (arg0 its who, arg1 the event's pid, arg2 its priority) and what the change adds (arg3),
// at the event's stamp; the tracer's view of the thread is the new state after.
struct want_fire {
    uint32_t id;
    uint64_t a3;
};

static void state_case(unsigned state, unsigned prev, uint32_t obj,
                       const struct want_fire *want, unsigned nwant, int wide)
{
    const uint32_t pid = 7, tid = 3, who = 0x70003;
    const unsigned prio = 12, policy = 2;
    uint8_t seen = (uint8_t)prev;
    ring_up();
    if (wide)
        trace_mode_event(&ktrace, KEV_C_PR_TH, state, 1);
    kev_emit_thread_state(true, true, (struct thread *)th, &seen, state, pid, tid, prio, policy,
                          who, obj, 1);
    assert_int_equal(holds, 0);
    read_back(KEV_C_PR_TH, state);
    assert_int_equal(kev_field_get(&fs, "pid")->v, pid);
    assert_int_equal(kev_field_get(&fs, "tid")->v, tid);
    if (wide) {
        assert_int_equal(ev.nw, 4);
        assert_int_equal(kev_field_get(&fs, "prio")->v, prio);
    }
    assert_int_equal(seen, state);
    assert_int_equal(nfired, nwant);
    for (unsigned k = 0; k < nwant; k++) {
        assert_int_equal(fired[k].id, want[k].id);
        assert_int_equal(fired[k].a[0], who);
        assert_int_equal(fired[k].a[1], kev_field_get(&fs, "pid")->v);
        assert_int_equal(fired[k].a[2], prio);
        assert_int_equal(fired[k].a[3], want[k].a3);
        assert_int_equal(fired[k].site, ev.t32);
    }
    assert_int_equal(nswitched, state == KEV_TH_RUNNING);
    if (state == KEV_TH_RUNNING)
        assert_ptr_equal(switched_to, th);
    kcap_free(&cap);
}

static void state_changes_fire_sched_probes(void **state)
{
    (void)state;
    const struct want_fire send[] = { { DPROBE_SCHED_SLEEP, KEV_TH_SEND },
                                      { DPROBE_SCHED_BLOCK_SEND, 0x40000003 } };
    state_case(KEV_TH_SEND, KEV_TH_RUNNING, 0x40000003, send, 2, 0);
    const struct want_fire wake[] = { { DPROBE_SCHED_WAKEUP, KEV_TH_SEND },
                                      { DPROBE_SCHED_ENQUEUE, 1 } };
    state_case(KEV_TH_READY, KEV_TH_SEND, 0, wake, 2, 1);
    const struct want_fire preempt[] = { { DPROBE_SCHED_PREEMPT, 0 },
                                         { DPROBE_SCHED_ENQUEUE, 1 } };
    state_case(KEV_TH_READY, KEV_TH_RUNNING, 0, preempt, 2, 0);
    state_case(KEV_TH_READY, KEV_TH_READY, 0, NULL, 0, 0);  // a requeue: change-pri's
    const struct want_fire run[] = { { DPROBE_SCHED_DEQUEUE, 1 } };
    state_case(KEV_TH_RUNNING, KEV_TH_READY, 0, run, 1, 0);
    const struct want_fire dead[] = { { DPROBE_PROC_LWP_EXIT, 0 } };
    state_case(KEV_TH_DEAD, KEV_TH_RUNNING, 0, dead, 1, 0);
    state_case(KEV_TH_STOPPED, KEV_TH_RUNNING, 0, NULL, 0, 0);  // no probe of its own
    // a blocked state without an object: the site's value is not given (0, as dtrace -i's)
    const struct want_fire mutex[] = { { DPROBE_SCHED_SLEEP, KEV_TH_MUTEX },
                                       { DPROBE_SCHED_BLOCK_MUTEX, 0 } };
    state_case(KEV_TH_MUTEX, KEV_TH_RUNNING, 0x1234, mutex, 2, 0);

    // without D: the same event, no firing, the tracer's view the new state
    uint8_t seen = KEV_TH_RUNNING;
    ring_up();
    kev_emit_thread_state(false, true, (struct thread *)th, &seen, KEV_TH_SEND, 7, 3, 12, 2,
                          0x70003, 1, 0);
    read_back(KEV_C_PR_TH, KEV_TH_SEND);
    assert_int_equal(nfired + holds, 0);
    assert_int_equal(seen, KEV_TH_SEND);
    kcap_free(&cap);
}

// ---- the spawn rules' table along the kernel's path ----------------------------------------

// spawn_cases.h's table as the kernel's emit helper fires it: a first run's rule from
// kev_emit_oncpu (after its on-cpu), each firing in the context the table names (the thread
// coming on), under the parent's name where it says so, exec's text the thread's process's
// (kdt_fire_spawn given no program: it names t's). A failed spawn writes no event and has no
// emit helper: kernel/kdt_fire.c fires its rule (kdt_fire_spawn_failed, the same loop), which
// test_kdtrace.c holds with the rest of the table.
static void the_spawn_table_along_the_kernels_path(void **state)
{
    (void)state;
    for (unsigned c = 0; c < SPAWN_NCASES; c++) {
        const struct spawn_case *sc = &spawn_cases[c];
        const uint32_t who = SPAWN_PID << 16 | sc->tid;
        unsigned k = 0;
        if (!sc->tid)
            continue;
        ring_up();
        kev_emit_oncpu(true, (struct thread *)th, who, 0, SPAWN_PRIO, true);
        assert_int_equal(fired[k++].id, DPROBE_SCHED_ONCPU);
        for (const struct spawn_firing *w = sc->f; w->probe; w++, k++) {
            if (k >= nfired)
                fail_msg("%s: %s did not fire", sc->name, w->probe);
            const struct firing *f = &fired[k];
            struct dprobe_desc d;
            assert_int_equal(dprobe_get(f->id, &d), 0);
            if (strcmp(d.prov, "proc") || strcmp(d.name, w->probe))
                fail_msg("%s: firing %u is %s:::%s, want proc:::%s", sc->name, k, d.prov, d.name,
                         w->probe);
            assert_ptr_equal(f->as, th);
            assert_int_equal(f->parent, w->as == SPAWN_AS_PARENT);
            for (unsigned i = 0; i < NARGS; i++)
                assert_int_equal(f->a[i], i >= w->n ? 0 : w->a[i] == SPAWN_WHO ? who : w->a[i]);
            assert_int_equal(f->program, !strcmp(w->probe, "exec"));
            if (f->program)
                assert_null(f->text);   // the thread's own process's name, the kernel's
        }
        assert_int_equal(nfired, k);
        kcap_finish(&cap, &ktrace);
        kcap_free(&cap);
    }
}

// ---- a row whose probe is its own: its id its name's ------------------------------------------

// The test-only row (test/tools/test_event_row.c, added before main as in the host tools' test
// builds): SYSTEM 0x3f0 TEST_ONLY [who, level | flagged << 12, where (high, low), label], its D
// column kevtest:::test-only (who, who.pid, level, flagged, where), a probe no list has. Its id
// is the one the host's dtrace lists (row_probes_use, then dtrace -l's walk, dprobe_next), and
// the helper the build generated from the row (kev_emit_test_only) fires it under that id with
// the values the site passed, at the event's stamp.
static uint32_t listed_id(const char *prov, const char *name)
{
    struct dprobe_desc d;
    for (uint32_t id = dprobe_next(0); id; id = dprobe_next(id))
        if (dprobe_get(id, &d) == 0 && !strcmp(d.prov, prov) && !strcmp(d.name, name))
            return id;
    return DPROBE_NONE;
}

static void a_rows_own_probe_fires_with_the_hosts_id(void **state)
{
    (void)state;
    row_probes_use("test_kev_emit");
    const uint32_t id = listed_id("kevtest", "test-only");
    assert_true(DPROBE_IS_ROW(id));
    assert_int_equal(dprobe_row_id("kevtest:::test-only"), id);
    // the fixed probes keep their ids, and are none of the rows'
    assert_int_equal(listed_id("sched", "change-pri"), DPROBE_SCHED_CHANGE_PRI);
    assert_int_equal(dprobe_row_id("sched:::change-pri"), DPROBE_NONE);
    assert_int_equal(dprobe_row_id("interrupt::irq<irq>:entry"), DPROBE_NONE);

    const uint32_t who = 0x00070002u, level = 0x5a5u, flagged = 1u;
    const uint64_t where = 0x0000000812345678ull;
    const uint64_t want[5] = { who, 7, level, flagged, where };

    ring_up();                          // with D
    kev_emit_test_only(KEV_D, who, level, flagged, where, "lbl");
    read_back(KEV_C_SYSTEM, 0x3f0);
    assert_int_equal(nfired, 1);
    assert_int_equal(holds, 0);
    assert_int_equal(fired[0].id, id);
    assert_int_equal(fired[0].site, ev.t32);
    for (unsigned k = 0; k < 5; k++)
        assert_true(fired[0].a[k] == want[k]);
    uint64_t v;                         // ... the capture's event says the same
    assert_true(kev_field_num(kev_field_get(&fs, "who"), &v) && v == who);
    assert_true(kev_field_num(kev_field_get(&fs, "level"), &v) && v == level);
    assert_true(kev_field_num(kev_field_get(&fs, "flagged"), &v) && v == flagged);
    assert_true(kev_field_num(kev_field_get(&fs, "where"), &v) && v == where);
    assert_string_equal(kev_field_get(&fs, "label")->str, "lbl");
    kcap_free(&cap);

    ring_up();                          // without D: the event alone
    kev_emit_test_only(KEV_RING, who, level, flagged, where, "lbl");
    read_back(KEV_C_SYSTEM, 0x3f0);
    assert_int_equal(nfired + holds, 0);
    kcap_free(&cap);
}

// A row inserted before the test-only one, with a probe of its own: no other probe is
// renumbered (an id is its name's hash, not its place), and the new one has an id of its own.
static const struct kev_field_desc ins_fields[] = {
    { "x", KEV_K_U32, KEV_L_WORD, 0, 0, 0, 0, NULL, "a value" },
};
static const struct kev_dprobe ins_probes[] = {
    { "kevtest:::aaa-inserted", "x", NULL, 0 }, { NULL, NULL, NULL, 0 },
};

static void inserting_a_row_renumbers_no_probe(void **state)
{
    (void)state;
    struct kev_event_desc rows[2] = {
        { KEV_C_SYSTEM, 0x3ef, 0x3ef, "INSERTED", "a test's", ins_fields, 1, 1, 1, 0, NULL,
          "kevtest:::aaa-inserted", KEV_D_EMIT, ins_probes },
        kev_test_rows[0],
    };
    row_probes_use("test_kev_emit");
    const uint32_t before = listed_id("kevtest", "test-only");
    assert_int_equal(listed_id("kevtest", "aaa-inserted"), DPROBE_NONE);
    kev_events_add(rows, 2);
    row_probes_use("test_kev_emit");
    const uint32_t after = listed_id("kevtest", "test-only");
    const uint32_t ins = listed_id("kevtest", "aaa-inserted");
    kev_events_add(kev_test_rows, 1);   // (the test-only row alone again)
    row_probes_use("test_kev_emit");
    assert_true(DPROBE_IS_ROW(before));
    assert_int_equal(after, before);
    assert_true(DPROBE_IS_ROW(ins) && ins != before);
    assert_int_equal(ins, dprobe_row_hash("kevtest", "aaa-inserted"));
    // and every fixed probe keeps its id
    assert_int_equal(listed_id("msg", "send"), DPROBE_MSG_SEND);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(d_column_says_how_each_probe_fires),
        cmocka_unit_test(every_emit_row_against_its_helper),
        cmocka_unit_test(every_generated_helper_against_its_row),
        cmocka_unit_test(state_changes_fire_sched_probes),
        cmocka_unit_test(the_spawn_table_along_the_kernels_path),
        cmocka_unit_test(a_rows_own_probe_fires_with_the_hosts_id),
        cmocka_unit_test(inserting_a_row_renumbers_no_probe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
