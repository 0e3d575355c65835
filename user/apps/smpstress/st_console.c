// SPDX-License-Identifier: MIT
// smpstress's test 20: the console's calls on every CPU at once, on the big lock's shared side
// under the console's own lock (kernel/kconsole.c; kernel/kentry_shared.h
// shared_console_call). A thread bound to each of CPUs 1..n-1 writes CON_LINES whole lines
// with DebugWrite, each one call:
//     st_con cpu=C line=I <CON_PAYLOAD>
// All the threads are of this one process, so they share its console line: a DebugWrite line
// goes out whole (one call, one hold of the lock). Then main alone prints CON_LINES / 10 lines
// through picolibc's printf, a character a call (semihosting's SYS_WRITEC): a printf of
// several threads of one process at once would mix their characters in the process's one
// line, by design, so that part runs alone. What the program checks itself: every call
// answered as asked, and, under -icount, the kernel's count of exclusive entries during each
// part within what the ticks and the threads' ends take (with the calls exclusive it would
// grow by one a call, a character for printf). What the console must show, checked by
// test/qemu/test_console_cpus.sh: every DebugWrite line of every CPU exactly once, whole,
// with its process's prefix, and main's printf lines.
#include "st_console.h"
#include "st_gang.h"
#include "st_msg.h"
#include <kern.h>
#include <trace/kev_digits.h>
#include <stdio.h>
#include <string.h>

#define CON_MAXCPU 4
#define CON_PAYLOAD "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"

struct con_worker {
    struct st_gang_thread g;    // (first: st_gang.h)
    uint32_t bad;
    volatile uint32_t done;
};

static struct con_worker cworkers[CON_MAXCPU];
static struct st_gang con_gang;

static int con_worker_main(void *arg)
{
    struct con_worker *w = arg;
    st_gang_wait(&con_gang, &w->g);
    char line[96];
    for (uint32_t i = 0; i < CON_LINES; i++) {
        unsigned n = 0;
        memcpy(line, "st_con cpu=", 11);
        n = 11;
        n += kev_put_dec(line + n, w->g.cpu);
        memcpy(line + n, " line=", 6);
        n += 6;
        n += kev_put_dec(line + n, i);
        line[n++] = ' ';
        memcpy(line + n, CON_PAYLOAD, sizeof(CON_PAYLOAD) - 1);
        n += sizeof(CON_PAYLOAD) - 1;
        line[n++] = '\n';
        w->bad += DebugWrite(line, n) != (int)n;
    }
    w->done = 1;
    return 0;
}

bool console_test(uint32_t ncpu, unsigned testno, void *stacks, uint32_t stack_size,
                  bool virtual_time)
{
    uint32_t n = ncpu > CON_MAXCPU ? CON_MAXCPU : ncpu;
    uint32_t started = st_gang_start(&con_gang, n, con_worker_main, cworkers, sizeof(cworkers[0]),
                                     stacks, stack_size);
    uint32_t t0 = 0, t1 = 0, e0 = 0;
    st_gang_go(&con_gang, &t0, &e0);
    for (uint32_t c = 1; c < n; c++)
        while (!cworkers[c].done)
            ThreadSleep(200000);
    uint32_t e1 = exclusive_entries();
    SysInfo(KSYSINFO_TICKS, &t1);
    uint32_t bad = 0, finished = 0;
    for (uint32_t c = 1; c < n; c++) {
        struct con_worker *w = &cworkers[c];
        finished += w->g.tid > 0 && ThreadJoin(w->g.tid, NULL) == 0;
        bad += w->bad;
    }
    uint32_t ticks = t1 - t0, entries = e1 - e0;
    // As test 19's: the ticks (a quarter more), the threads' ends, 8 spare.
    uint32_t bound = ticks + ticks / 4u + 2u * (n - 1u) + 8u;
    // main's printf lines, alone: each a call a character
    uint32_t pt0 = 0, pt1 = 0, chars = 0;
    SysInfo(KSYSINFO_TICKS, &pt0);
    uint32_t pe0 = exclusive_entries();
    for (uint32_t i = 0; i < CON_LINES / 10u; i++)
        chars += (uint32_t)printf("st_conc line=%lu " CON_PAYLOAD "\n", (unsigned long)i);
    uint32_t pe1 = exclusive_entries();
    SysInfo(KSYSINFO_TICKS, &pt1);
    uint32_t pticks = pt1 - pt0, pentries = pe1 - pe0, pbound = pticks + pticks / 4u + 8u;
    bool ok = n > 1 && started == n - 1u && finished == started && !bad &&
              (!virtual_time || (entries <= bound && pentries <= pbound));
    printf("%s %u - the console's calls on CPUs 1..%lu at once (%lu whole lines by DebugWrite): "
           "%lu answered wrong; %lu exclusive entries in %lu ticks (at most %lu); then %lu "
           "characters by printf, a call each: %lu exclusive entries in %lu ticks (at most %lu)%s\n",
           ok ? "ok" : "not ok", testno, (unsigned long)(n - 1u),
           (unsigned long)((n - 1u) * CON_LINES), (unsigned long)bad, (unsigned long)entries,
           (unsigned long)ticks, (unsigned long)bound, (unsigned long)chars,
           (unsigned long)pentries, (unsigned long)pticks, (unsigned long)pbound,
           virtual_time ? "" : "; not checked: the host's clock");
    return ok;
}
