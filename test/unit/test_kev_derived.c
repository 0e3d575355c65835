// SPDX-License-Identifier: MIT
// The derived D probes' rules (trace/kev_derived.c), which the kernel fires live and dtrace -i
// over a capture, held to what docs/d-probes.md says each probe is, as a table test: each
// transition in, its firings out. The specification is written here apart from the module:
// the transition map (which probes a change fires, by the kind of state it leaves and enters,
// in order) and each blocked state's probe and object, from docs/d-probes.md's list; every
// pair of states the event table has (and a state not seen) is run through the rule and held
// to the map, and a table of cases with values checks every argument and context. The rules'
// probes are held against the event table too: each names a probe the thread states' rows
// list, by its name (d/dprobes.h), so that a rule cannot fire a probe the table does not say.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <trace/kev_derived.h>
#include <trace/kev_events.h>
#include <trace/kev.h>
#include <d/dprobes.h>
#include <d/dutext.h>

// ---- the specification ---------------------------------------------------------------------

// Each blocked state (docs/d-probes.md sched:::sleep: "SEND, RECEIVE, REPLY, MUTEX, CONDVAR,
// SEM, NANOSLEEP, JOIN"), its block-* probe and whether arg3 is its object ("the connection
// (send, reply), the channel (receive), the thread or process waited for (join); 0 for the
// others").
static const struct {
    unsigned state;
    const char *probe;
    int object;
} spec_blocked[] = {
    { KEV_TH_SEND, "block-send", 1 },     { KEV_TH_RECEIVE, "block-receive", 1 },
    { KEV_TH_REPLY, "block-reply", 1 },   { KEV_TH_MUTEX, "block-mutex", 0 },
    { KEV_TH_CONDVAR, "block-cond", 0 },  { KEV_TH_SEM, "block-sem", 0 },
    { KEV_TH_NANOSLEEP, "block-sleep", 0 }, { KEV_TH_JOIN, "block-join", 1 },
};
#define NBLOCKED (sizeof(spec_blocked) / sizeof(spec_blocked[0]))

// The kinds of state a change leaves and enters.
enum kind { K_RUNNING, K_READY, K_DEAD, K_BLOCKED, K_OTHER, K_UNSEEN, NKINDS };

static enum kind kind_of(unsigned st)
{
    if (st == KEV_DSTATE_UNKNOWN)
        return K_UNSEEN;
    if (st == KEV_TH_RUNNING)
        return K_RUNNING;
    if (st == KEV_TH_READY)
        return K_READY;
    if (st == KEV_TH_DEAD)
        return K_DEAD;
    for (unsigned i = 0; i < NBLOCKED; i++)
        if (spec_blocked[i].state == st)
            return K_BLOCKED;
    return K_OTHER;
}

// What a firing's arg3 is, in the map.
enum a3 { A3_ZERO, A3_RQ, A3_PREV, A3_NEXT, A3_OBJ };
// A step of the map: a probe ("block" for the entered state's block-*; "switch" the switch
// step) and its arg3.
struct step {
    const char *probe;
    enum a3 a3;
};
#define MAXSTEPS 2u
// The transition map: for each kind entered, by each kind left, the steps in order
// (docs/d-probes.md: dequeue when chosen to run, then off-cpu at the switch; lwp-exit at the
// end; wakeup, or preempt from RUNNING, then enqueue into READY, none for a requeue; sleep
// then block-* into a blocked state; the others nothing).
static const struct {
    enum kind next, prev;
    struct step steps[MAXSTEPS];
} spec_map[] = {
    { K_RUNNING, K_RUNNING, { { "dequeue", A3_RQ }, { "switch", A3_ZERO } } },
    { K_RUNNING, K_READY, { { "dequeue", A3_RQ }, { "switch", A3_ZERO } } },
    { K_RUNNING, K_DEAD, { { "dequeue", A3_RQ }, { "switch", A3_ZERO } } },
    { K_RUNNING, K_BLOCKED, { { "dequeue", A3_RQ }, { "switch", A3_ZERO } } },
    { K_RUNNING, K_OTHER, { { "dequeue", A3_RQ }, { "switch", A3_ZERO } } },
    { K_RUNNING, K_UNSEEN, { { "dequeue", A3_RQ }, { "switch", A3_ZERO } } },
    { K_READY, K_RUNNING, { { "preempt", A3_ZERO }, { "enqueue", A3_RQ } } },
    { K_READY, K_READY, { { NULL, A3_ZERO } } },
    { K_READY, K_DEAD, { { "wakeup", A3_PREV }, { "enqueue", A3_RQ } } },
    { K_READY, K_BLOCKED, { { "wakeup", A3_PREV }, { "enqueue", A3_RQ } } },
    { K_READY, K_OTHER, { { "wakeup", A3_PREV }, { "enqueue", A3_RQ } } },
    { K_READY, K_UNSEEN, { { "wakeup", A3_ZERO }, { "enqueue", A3_RQ } } },
    { K_DEAD, K_RUNNING, { { "lwp-exit", A3_ZERO } } },
    { K_DEAD, K_READY, { { "lwp-exit", A3_ZERO } } },
    { K_DEAD, K_DEAD, { { "lwp-exit", A3_ZERO } } },
    { K_DEAD, K_BLOCKED, { { "lwp-exit", A3_ZERO } } },
    { K_DEAD, K_OTHER, { { "lwp-exit", A3_ZERO } } },
    { K_DEAD, K_UNSEEN, { { "lwp-exit", A3_ZERO } } },
    { K_BLOCKED, K_RUNNING, { { "sleep", A3_NEXT }, { "block", A3_OBJ } } },
    { K_BLOCKED, K_READY, { { "sleep", A3_NEXT }, { "block", A3_OBJ } } },
    { K_BLOCKED, K_DEAD, { { "sleep", A3_NEXT }, { "block", A3_OBJ } } },
    { K_BLOCKED, K_BLOCKED, { { "sleep", A3_NEXT }, { "block", A3_OBJ } } },
    { K_BLOCKED, K_OTHER, { { "sleep", A3_NEXT }, { "block", A3_OBJ } } },
    { K_BLOCKED, K_UNSEEN, { { "sleep", A3_NEXT }, { "block", A3_OBJ } } },
};

// ---- helpers -----------------------------------------------------------------------------------

// The probe id of name in provider sched or proc (d/dprobes.h's list), 0 when none.
static uint32_t probe_named(const char *name)
{
    struct dprobe_desc d;
    for (uint32_t id = DPROBE_NONE + 1u; id < DPROBE_COUNT; id++)
        if (dprobe_get(id, &d) == 0 && (!strcmp(d.prov, "sched") || !strcmp(d.prov, "proc")) &&
            !strcmp(d.name, name))
            return id;
    return 0;
}

static const char *name_of(uint32_t id)
{
    static char buf[64];
    struct dprobe_desc d;
    if (id == KEV_DSTEP_SWITCH)
        return "switch";
    if (dprobe_get(id, &d) != 0)
        return "?";
    snprintf(buf, sizeof(buf), "%s", d.name);
    return buf;
}

static const char *spec_block(unsigned st, int *object)
{
    for (unsigned i = 0; i < NBLOCKED; i++)
        if (spec_blocked[i].state == st) {
            *object = spec_blocked[i].object;
            return spec_blocked[i].probe;
        }
    return NULL;
}

// ---- every pair of states through the map --------------------------------------------------

static void every_transition_follows_the_map(void **state)
{
    (void)state;
    unsigned checked = 0;
    const uint32_t who = 0x50003, pid = 5, prio = 33;
    const uint64_t obj = 0x40000007, rq = 2;
    for (unsigned prev = 0; prev <= KEV_TH_NSTATES; prev++) {
        const unsigned from = prev == KEV_TH_NSTATES ? KEV_DSTATE_UNKNOWN : prev;
        for (unsigned next = 0; next < KEV_TH_NSTATES; next++) {
            const struct kev_dchange c = { from, next, who, pid, prio, obj, rq };
            struct kev_dfire f[KEV_DFIRE_MAX];
            memset(f, 0xa5, sizeof(f));
            unsigned n = kev_derived_change(f, &c);
            enum kind kn = kind_of(next), kp = kind_of(from);
            const struct step *steps = NULL;
            for (unsigned m = 0; m < sizeof(spec_map) / sizeof(spec_map[0]); m++)
                if (spec_map[m].next == kn && spec_map[m].prev == kp)
                    steps = spec_map[m].steps;
            unsigned want = 0;
            while (steps && want < MAXSTEPS && steps[want].probe)
                want++;
            if (n != want)
                fail_msg("%u -> %u: %u firings, the map says %u", from, next, n, want);
            for (unsigned k = 0; k < n; k++) {
                int object = 0;
                const char *probe = !strcmp(steps[k].probe, "block")
                                        ? spec_block(next, &object) : steps[k].probe;
                uint32_t id = !strcmp(probe, "switch") ? KEV_DSTEP_SWITCH : probe_named(probe);
                assert_int_not_equal(id, 0);
                if (f[k].id != id)
                    fail_msg("%u -> %u: firing %u is %s, the map says %s", from, next, k,
                             name_of(f[k].id), probe);
                assert_int_equal(f[k].as, KEV_DAS_SITE);
                if (id == KEV_DSTEP_SWITCH)
                    continue;
                uint64_t a3 = steps[k].a3 == A3_RQ ? rq : steps[k].a3 == A3_PREV ? from
                              : steps[k].a3 == A3_NEXT ? next
                              : steps[k].a3 == A3_OBJ && object ? obj : 0;
                assert_int_equal(f[k].n, 4);
                assert_int_equal(f[k].a[0], who);
                assert_int_equal(f[k].a[1], pid);
                assert_int_equal(f[k].a[2], prio);
                if (f[k].a[3] != a3)
                    fail_msg("%u -> %u: %s arg3 0x%llx, the map says 0x%llx", from, next, probe,
                             (unsigned long long)f[k].a[3], (unsigned long long)a3);
            }
            checked++;
        }
    }
    assert_int_equal(checked, (KEV_TH_NSTATES + 1u) * KEV_TH_NSTATES);
}

// The blocked states' table (kev_derived_block) is the specification's for QNX's states, no
// more, no less (a state of this kernel's own, past them, is its row's and its rule's); a
// state with an object names the calls whose first argument it is (dtrace -i's source).
static void the_blocked_states_are_the_specification(void **state)
{
    (void)state;
    unsigned n = 0;
    for (unsigned st = 0; st < KEV_TH_NSTATES; st++) {
        const struct kev_dblock *b = kev_derived_block(st);
        int object = 0;
        const char *probe = spec_block(st, &object);
        if (!probe) {
            if (b)
                fail_msg("state %u has a rule the specification does not give", st);
            continue;
        }
        assert_non_null(b);
        assert_int_equal(b->state, st);
        assert_int_equal(b->probe, probe_named(probe));
        assert_int_equal(b->call != 0, object);
        n++;
    }
    assert_int_equal(n, NBLOCKED);
    // MsgSend (11) for SEND and REPLY, MsgReceive (14) for RECEIVE, ThreadJoin (50) or
    // ProcWait (62) for JOIN (uapi/kcall.h)
    assert_int_equal(kev_derived_block(KEV_TH_SEND)->call, 11);
    assert_int_equal(kev_derived_block(KEV_TH_REPLY)->call, 11);
    assert_int_equal(kev_derived_block(KEV_TH_RECEIVE)->call, 14);
    assert_int_equal(kev_derived_block(KEV_TH_JOIN)->call, 50);
    assert_int_equal(kev_derived_block(KEV_TH_JOIN)->call2, 62);
}

// ---- the other rules, case by case -------------------------------------------------------------

struct want {
    const char *probe;      // a probe's name
    unsigned as, n;
    uint64_t a[4];
};
struct rule_case {
    const char *name;
    unsigned (*run)(struct kev_dfire *out);
    struct want want[KEV_DFIRE_MAX];
};

static unsigned tick_line(struct kev_dfire *o) { return kev_derived_tick(o, 0x100, 0x30002, 3, 17); }
static unsigned tick_share(struct kev_dfire *o) { return kev_derived_tick(o, 0x101, 0x40001, 4, 9); }
static unsigned tick_ipi(struct kev_dfire *o) { return kev_derived_tick(o, 0x102, 0x40001, 4, 9); }
static unsigned tick_device(struct kev_dfire *o) { return kev_derived_tick(o, 5, 0x40001, 4, 9); }
static unsigned run_spawned(struct kev_dfire *o) { return kev_derived_first_run(o, 0x80001, 8, 14); }
static unsigned run_thread(struct kev_dfire *o) { return kev_derived_first_run(o, 0x80003, 8, 14); }
static unsigned run_kernel(struct kev_dfire *o) { return kev_derived_first_run(o, 0x00001, 0, 0); }
static unsigned created(struct kev_dfire *o) { return kev_derived_thcreate(o, 0x40002, 4, 21); }
static unsigned destroyed(struct kev_dfire *o) { return kev_derived_thdestroy(o, 0x40003, (uint64_t)-9); }
static unsigned faulted(struct kev_dfire *o) { return kev_derived_fault(o, 11); }
static unsigned off_cpu(struct kev_dfire *o) { return kev_derived_offcpu(o, 0x20001, 2, 40, KEV_TH_SEND); }
static unsigned spawn_failed(struct kev_dfire *o) { return kev_derived_spawn_failed(o, 2); }

// docs/d-probes.md: tick with the interrupted thread at lines 0x100 and 0x101 alone; a first
// run's start, exec and exec-success (a spawned process's first thread, never the kernel's:
// Solaris's fork and exec, start and exec as the forked child under its parent's name, exec's
// args[0] the program's name, exec-success as itself) before lwp-start, all in the thread's
// context; a failed spawn's exec (the program it named) and exec-failure (the errno) in the
// spawner's; thread-create then lwp-create; thread-exit's status; fault's
// signal; off-cpu with the thread coming on and the state the one going off is left in, in
// the latter's context.
static const struct rule_case rule_cases[] = {
    { "the kernel's tick", tick_line, { { "tick", KEV_DAS_SITE, 3, { 0x30002, 3, 17 } } } },
    { "a CPU's tick share", tick_share, { { "tick", KEV_DAS_SITE, 3, { 0x40001, 4, 9 } } } },
    { "a reschedule IPI", tick_ipi, { { NULL, 0, 0, { 0 } } } },
    { "a device line", tick_device, { { NULL, 0, 0, { 0 } } } },
    { "a spawned process's first run", run_spawned,
      { { "start", KEV_DAS_PARENT, 3, { 0x80001, 8, 14 } },
        { "exec", KEV_DAS_PARENT, 1, { DUTEXT_ADDR } },
        { "exec-success", KEV_DAS_THREAD, 1, { 8 } },
        { "lwp-start", KEV_DAS_THREAD, 4, { 0x80001, 8, 14, 0 } } } },
    { "a failed spawn", spawn_failed,
      { { "exec", KEV_DAS_SITE, 1, { DUTEXT_ADDR } },
        { "exec-failure", KEV_DAS_SITE, 1, { 2 } } } },
    { "a created thread's first run", run_thread,
      { { "lwp-start", KEV_DAS_THREAD, 4, { 0x80003, 8, 14, 0 } } } },
    { "a kernel thread's first run", run_kernel,
      { { "lwp-start", KEV_DAS_THREAD, 4, { 0x00001, 0, 0, 0 } } } },
    { "THCREATE", created, { { "thread-create", KEV_DAS_SITE, 3, { 0x40002, 4, 21 } },
                             { "lwp-create", KEV_DAS_SITE, 3, { 0x40002, 4, 21 } } } },
    { "THDESTROY", destroyed,
      { { "thread-exit", KEV_DAS_SITE, 2, { 0x40003, (uint64_t)-9 } } } },
    { "FAULT", faulted, { { "fault", KEV_DAS_SITE, 1, { 11 } } } },
    { "the switch", off_cpu, { { "off-cpu", KEV_DAS_OFF, 4, { 0x20001, 2, 40, KEV_TH_SEND } } } },
};

static void each_rule_gives_its_firings(void **state)
{
    (void)state;
    for (unsigned c = 0; c < sizeof(rule_cases) / sizeof(rule_cases[0]); c++) {
        const struct rule_case *rc = &rule_cases[c];
        struct kev_dfire f[KEV_DFIRE_MAX];
        memset(f, 0xa5, sizeof(f));
        unsigned n = rc->run(f), want = 0;
        while (want < KEV_DFIRE_MAX && rc->want[want].probe)
            want++;
        if (n != want)
            fail_msg("%s: %u firings, want %u", rc->name, n, want);
        for (unsigned k = 0; k < n; k++) {
            const struct want *w = &rc->want[k];
            uint32_t id = probe_named(w->probe);
            if (f[k].id != id)
                fail_msg("%s: firing %u is %s, want %s", rc->name, k, name_of(f[k].id), w->probe);
            assert_int_equal(f[k].as, w->as);
            assert_int_equal(f[k].n, w->n);
            for (unsigned i = 0; i < KEV_DFIRE_ARGS; i++)
                if (f[k].a[i] != (i < 4 && i < w->n ? w->a[i] : 0))
                    fail_msg("%s: %s arg%u 0x%llx", rc->name, w->probe, i,
                             (unsigned long long)f[k].a[i]);
        }
    }
}

// ---- a stolen thread's queue -----------------------------------------------------------------

// docs/d-probes.md's dequeue: args[2] the CPU whose run queue the thread leaves, the chooser's
// own, or for a thread a CPU took from another CPU's queue that CPU (Solaris's steal); over a
// capture the STEAL event just before the RUNNING says which. Each case: the CPU the thread
// runs on, the STEAL's source (KEV_DSTEAL_NONE: none), dequeue's arg3 the map wants.
static void a_stolen_threads_dequeue_names_its_queue(void **state)
{
    (void)state;
    static const struct { unsigned cpu; uint32_t from; uint64_t want; } cases[] = {
        { 0, KEV_DSTEAL_NONE, 0 }, { 3, KEV_DSTEAL_NONE, 3 },   // its own queue
        { 1, 0, 0 }, { 0, 2, 2 }, { 3, 1, 1 },                  // taken from another's
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const struct kev_dchange c = { KEV_TH_READY, KEV_TH_RUNNING, 0x60002, 6, 30, 0,
                                       kev_derived_dequeue_cpu(cases[k].cpu, cases[k].from) };
        struct kev_dfire f[KEV_DFIRE_MAX];
        assert_int_equal(kev_derived_change(f, &c), 2);
        assert_int_equal(f[0].id, probe_named("dequeue"));
        if (f[0].a[3] != cases[k].want)
            fail_msg("on CPU %u, stolen from %u: dequeue's arg3 %llu, want %llu", cases[k].cpu,
                     cases[k].from, (unsigned long long)f[0].a[3],
                     (unsigned long long)cases[k].want);
    }
    // The STEAL row says so: SYSTEM, a later event's probe (dequeue at the RUNNING), the
    // fields the rule takes.
    const struct kev_event_desc *row = kev_event_describe(KEV_C_SYSTEM, KEV_SYS_STEAL);
    assert_non_null(row);
    assert_string_equal(row->name, "STEAL");
    assert_int_equal(row->dsite, KEV_D_LATER);
    assert_non_null(strstr(row->probes, "sched:::dequeue"));
    unsigned named = 0;
    for (unsigned i = 0; i < row->nfields; i++)
        named += !strcmp(row->fields[i].name, "who") || !strcmp(row->fields[i].name, "from");
    assert_int_equal(named, 2);
}

// ---- the rules against the event table ----------------------------------------------------------

// Every probe a rule fires at a thread state is one the state's row lists in its D column
// (by name: "sched::: sleep, block-*, ..."), the row says its site derives them (KEV_D_OWN),
// and every blocked state's row is in the table: a state added with a rule has its row.
static void the_rows_name_the_rules_probes(void **state)
{
    (void)state;
    for (unsigned next = 0; next < 64; next++) {
        const struct kev_event_desc *row = kev_event_describe(KEV_C_PR_TH, next);
        const struct kev_dchange c = { KEV_TH_RUNNING, next, 0x10001, 1, 1, 0, 0 };
        struct kev_dfire f[KEV_DFIRE_MAX];
        unsigned n = kev_derived_change(f, &c);
        if (n && !row)
            fail_msg("state %u fires probes and has no row", next);
        for (unsigned k = 0; k < n; k++) {
            if (KEV_DSTEP(f[k].id))
                continue;
            struct dprobe_desc d;
            assert_int_equal(dprobe_get(f[k].id, &d), 0);
            const char *name = !strncmp(d.name, "block-", 6) ? "block-*" : d.name;
            if (!strstr(row->probes, name))
                fail_msg("%s fires %s:::%s, which its row's D column does not name", row->name,
                         d.prov, d.name);
            assert_int_equal(row->dsite, KEV_D_OWN);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_transition_follows_the_map),
        cmocka_unit_test(the_blocked_states_are_the_specification),
        cmocka_unit_test(each_rule_gives_its_firings),
        cmocka_unit_test(a_stolen_threads_dequeue_names_its_queue),
        cmocka_unit_test(the_rows_name_the_rules_probes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
