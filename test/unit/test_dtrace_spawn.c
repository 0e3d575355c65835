// SPDX-License-Identifier: MIT
// The spawn rules' table (spawn_cases.h), which test_kev_emit.c holds the kernel's path to,
// along dtrace -i's (tools/dtrace/kevreplay.c): a capture written by the ring with the events the
// kernel writes for each case (the spawned process's creation, its threads' creation, RUNNING
// and ONCPU; a ProcSpawn that returns ENOENT), replayed through a D program that prints every
// proc probe of the table with its context (pid, tid, execname), its arguments and exec's
// args[0] text; the lines must be the table's, case after case, in its order. The capture holds
// no name for a program that failed to start: exec's text is "" there (the kernel's: the name).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <trace/trace_ring.h>
#include <uapi/kcall.h>
#include <kevhost/kev_capture.h>
#include "spawn_cases.h"
#include "dtrace_replay.h"

#define INIT_PID SPAWN_PPID     // the spawner, running on CPU 0 from the snapshot on

static struct kev_slot mem[4 * KEV_BUF_SLOTS];
static struct trace_ring ring;

// A thread's state, as the kernel writes it in wide mode (pid, tid, priority, policy).
static void state(unsigned st, uint32_t pid, uint32_t tid, uint32_t prio)
{
    const uint32_t w[4] = { pid, tid, prio, 2 };
    trace_host_port.now += 1000;
    trace_emit_words(&ring, KEV_C_PR_TH, st, w, 4);
}

static void named(unsigned ev, uint32_t a, uint32_t b, const char *name)
{
    const uint32_t w[2] = { a, b };
    trace_host_port.now += 1000;
    trace_emit_string(&ring, KEV_C_PR_TH, ev, w, 2, name);
}

static void simple(unsigned cls, unsigned ev, uint32_t a, uint32_t b)
{
    trace_host_port.now += 1000;
    trace_emit_simple(&ring, cls, ev, a, b);
}

// A first run of thread (SPAWN_PID, tid) as the kernel traces it: chosen (RUNNING), then the
// exit into it (ONCPU).
static void first_run(uint32_t tid)
{
    state(KEV_TH_RUNNING, SPAWN_PID, tid, SPAWN_PRIO);
    simple(KEV_C_SYSTEM, KEV_SYS_ONCPU, SPAWN_PID << 16 | tid, 0);
}

// The capture: init (pid 2) running from the snapshot on; then each case of the table.
static void write_capture(char *path, size_t n)
{
    struct kcap c;
    replay_capture_begin(&ring, mem, sizeof(mem), &c);
    simple(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 0, 0);
    named(KEV_PR_CREATE_NAME, 1, INIT_PID, "init");
    simple(KEV_C_PR_TH, KEV_TH_CREATE, INIT_PID, 1);
    state(KEV_TH_RUNNING, INIT_PID, 1, 10);
    simple(KEV_C_SYSTEM, KEV_SYS_SNAPSHOT, 1, 0);
    for (unsigned k = 0; k < SPAWN_NCASES; k++) {
        const struct spawn_case *sc = &spawn_cases[k];
        if (!sc->tid) {     // init spawns a program that does not exist
            state(KEV_TH_RUNNING, INIT_PID, 1, 10);
            simple(KEV_C_SYSTEM, KEV_SYS_ONCPU, INIT_PID << 16 | 1u, 0);
            simple(KEV_C_KER_CALL, KEV_KC_ENTRY(KC_ProcSpawn), 0x20001000u, 10);
            simple(KEV_C_KER_CALL, KEV_KC_EXIT(KC_ProcSpawn), 0xffffffffu, SPAWN_ERR);
            continue;
        }
        if (sc->tid == 1)   // the process, created by init (its first thread counted)
            named(KEV_PR_CREATE_NAME, INIT_PID, SPAWN_PID, "worker");
        simple(KEV_C_PR_TH, KEV_TH_CREATE, SPAWN_PID, sc->tid);
        state(KEV_TH_READY, SPAWN_PID, sc->tid, SPAWN_PRIO);
        first_run(sc->tid);
    }
    replay_capture_file(&ring, &c, path, n);
}

static const char prog[] =
    "proc:::start, proc:::exec-success, proc:::exec-failure, proc:::lwp-start\n"
    "{ printf(\"%s %d %d %s %d %d %d %d\\n\", probename, pid, tid, execname, arg0, arg1, arg2,"
    " arg3); }\n"
    "proc:::exec { printf(\"%s %d %d %s %d [%s]\\n\", probename, pid, tid, execname, arg0,"
    " copyinstr(arg0)); }\n";

// The table's firings as the program prints them.
static void want_lines(char *buf, size_t n)
{
    size_t k = 0;
    for (unsigned c = 0; c < SPAWN_NCASES; c++) {
        const struct spawn_case *sc = &spawn_cases[c];
        const uint64_t who = SPAWN_PID << 16 | sc->tid;
        for (const struct spawn_firing *w = sc->f; w->probe; w++) {
            uint64_t a[4];
            for (unsigned i = 0; i < 4; i++)
                a[i] = i >= w->n ? 0 : w->a[i] == SPAWN_WHO ? who : w->a[i];
            unsigned pid = w->as == SPAWN_AS_SPAWNER ? INIT_PID : SPAWN_PID;
            unsigned tid = w->as == SPAWN_AS_SPAWNER ? 1 : sc->tid;
            const char *exec = w->as == SPAWN_AS_SELF ? "worker" : "init";
            if (!strcmp(w->probe, "exec"))
                k += (size_t)snprintf(buf + k, n - k, "exec %u %u %s %llu [%s]\n", pid, tid, exec,
                                      (unsigned long long)a[0], w->text ? w->text : "");
            else
                k += (size_t)snprintf(buf + k, n - k, "%s %u %u %s %llu %llu %llu %llu\n",
                                      w->probe, pid, tid, exec, (unsigned long long)a[0],
                                      (unsigned long long)a[1], (unsigned long long)a[2],
                                      (unsigned long long)a[3]);
        }
    }
    snprintf(buf + k, n - k, "\n");  // (dtrace's last newline)
}

static void the_spawn_table_along_the_replays_path(void **state)
{
    (void)state;
    static struct replay_text out, err;
    static char want[8192];
    char path[64];
    write_capture(path, sizeof(path));
    replay_run(path, prog, 0, &out, &err);
    want_lines(want, sizeof(want));
    assert_string_equal(out.s, want);
    assert_string_equal(err.s, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_spawn_table_along_the_replays_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
