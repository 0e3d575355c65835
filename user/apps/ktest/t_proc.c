// SPDX-License-Identifier: MIT
// Processes: spawn errors, normal exit, and every kind of fault kt_fault can commit. Each
// faulting process is killed and reported; the kernel and this test keep running. A
// process's RAM and stack are never executable. netduinoplus2 fits ktest in its 32 KB flash
// slot with a few bytes to spare: keep the strings short.
#include "ktest.h"

// A breakpoint instruction's signal: on x86 a general protection fault (int3's gate is DPL 0).
#if defined(__i386__)
#define BREAKPOINT_SIG KSIG_SEGV
#else
#define BREAKPOINT_SIG KSIG_ILL
#endif

static const struct {
    int mode;
    int sig;            // 0: expect a normal exit with status 42
    const char *what;
} faults[] = {
    { 1, KSIG_SEGV, "write to kernel RAM" },
    { 2, KSIG_SEGV, "read another process's RAM" },
    { 3, KSIG_SEGV, "execute from its own RAM" },
    { 4, KSIG_SEGV, "kernel call with its stack in kernel memory" },
    { 5, KSIG_ILL, "divide by zero" },
    { 6, KSIG_SEGV, "touch a device without a device window" },
    { 7, KSIG_SEGV, "second thread faults while the main thread sleeps" },
    { 8, 0, "return 42 from main" },
    { 9, KSIG_SEGV, "write to code memory" },
    { 11, KSIG_SEGV, "read kernel RAM" },
    { 12, KSIG_SEGV, "execute from its own stack" },
    // Not a fault: a D object the kernel refused leaves nothing of itself in its memory, read
    // back through the next trace ring there (42; 77: it read the object, 1-3: no setup).
    { 14, 0, "refused D object not in next ring" },
    { 15, BREAKPOINT_SIG, "breakpoint" },
};

void test_proc(void)
{
    printf("# processes\n");
    CHECK_ERR(ProcSpawn("no_such_prog", 0, 0), ENOENT);
    CHECK_ERR(ProcSpawn("ktest", 0, 0), EBUSY);
    CHECK_ERR(ProcWait(-1, NULL), ECHILD);
    CHECK_ERR(ProcSpawn("kt_peer", 300, 0), EINVAL);

    for (unsigned i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
        int st = -1;
        int pid = ProcSpawn("kt_fault", 0, (uint32_t)faults[i].mode);
        int w = ProcWait(pid, &st);
        if (faults[i].sig)
            CHECK(w == pid && KW_SIGNALED(st) && KW_TERMSIG(st) == faults[i].sig,
                  "kt_fault %s: killed by signal %d (status %#x)", faults[i].what,
                  faults[i].sig, st);
        else
            CHECK(w == pid && KW_EXITED(st) && KW_EXITSTATUS(st) == 42,
                  "kt_fault %s (status %#x)", faults[i].what, st);
    }
    // Reaping any child, and the same program again after it was reaped.
    int a = ProcSpawn("kt_fault", 0, 8);
    int st = 0;
    CHECK(ProcWait(-1, &st) == a && KW_EXITSTATUS(st) == 42, "ProcWait(-1) reaps any child");
    CHECK(ProcSelf() == 1, "ktest is still pid 1 and running");
}
