// SPDX-License-Identifier: MIT
// The spawn rules' table (trace/kev_derived.c kev_derived_spawned, kev_derived_spawn_failed),
// written once from docs/d-probes.md and held against both places that fire them: the kernel's
// path (test_kdtrace.c, every case: a first run through ktrace_switched and a failed ProcSpawn's
// kdt_fire_spawn_failed into kernel/kdt_fire.c and a loaded D program; test_kev_emit.c: the
// emit helper kev_emit_oncpu's firings as it hands them over) and dtrace -i's over a capture of
// the same events (test_dtrace_spawn.c, every case). Each case: the thread
// (pid 8, "worker", spawned by pid 2, "init") and its firings in order, each a probe, the
// context it fires in, its arguments (SPAWN_WHO: the thread's who) and, for exec, its args[0]
// text: Solaris's fork and exec at once, start and exec as the child before its exec (under its
// parent's name), exec-success as itself, then lwp-start; a failed spawn's exec and
// exec-failure in the spawner's context (no child exists), exec's text the program it named,
// which the kernel has and a capture does not ("" over it).
#ifndef TEST_SPAWN_CASES_H
#define TEST_SPAWN_CASES_H

#include <stdint.h>
#include <d/dutext.h>

#define SPAWN_PID 8u
#define SPAWN_PPID 2u               // its parent, "init", the failed spawn's spawner (tid 1)
#define SPAWN_PRIO 14u
#define SPAWN_WHO 0xffffffffu       // the case's thread's who, in an argument
#define SPAWN_ERR 2u                // ENOENT

enum spawn_ctx {
    SPAWN_AS_PARENT,    // the spawned thread, under its parent's name
    SPAWN_AS_SELF,      // the spawned thread as itself
    SPAWN_AS_SPAWNER,   // the thread that called ProcSpawn (the site's)
};

struct spawn_firing {
    const char *probe;  // proc:::<probe>; NULL ends the list
    enum spawn_ctx as;
    unsigned n;
    uint64_t a[4];
    const char *text;   // exec's args[0]: the program's name, NULL the one the spawn named
};

struct spawn_case {
    const char *name;
    uint32_t tid;       // the first-run thread's (pid SPAWN_PID); 0: a failed spawn
    struct spawn_firing f[5];
};

static const struct spawn_case spawn_cases[] = {
    { "a spawned process's first thread's first run", 1,
      { { "start", SPAWN_AS_PARENT, 3, { SPAWN_WHO, SPAWN_PID, SPAWN_PRIO }, NULL },
        { "exec", SPAWN_AS_PARENT, 1, { DUTEXT_ADDR }, "worker" },
        { "exec-success", SPAWN_AS_SELF, 1, { SPAWN_PID }, NULL },
        { "lwp-start", SPAWN_AS_SELF, 4, { SPAWN_WHO, SPAWN_PID, SPAWN_PRIO, 0 }, NULL },
        { NULL, 0, 0, { 0 }, NULL } } },
    { "its second thread's first run", 2,
      { { "lwp-start", SPAWN_AS_SELF, 4, { SPAWN_WHO, SPAWN_PID, SPAWN_PRIO, 0 }, NULL },
        { NULL, 0, 0, { 0 }, NULL } } },
    { "a spawn that fails", 0,
      { { "exec", SPAWN_AS_SPAWNER, 1, { DUTEXT_ADDR }, NULL },
        { "exec-failure", SPAWN_AS_SPAWNER, 1, { SPAWN_ERR }, NULL },
        { NULL, 0, 0, { 0 }, NULL } } },
};
#define SPAWN_NCASES (sizeof(spawn_cases) / sizeof(spawn_cases[0]))

#endif
