// SPDX-License-Identifier: MIT
// smpstress's test 11: MsgError takes the message fast path (the big-reader lock's shared
// side, kernel/kentry_shared.h), as MsgReply does, so that a server answering with errors on
// one CPU does not stop the kernel on the others. A client and a server bound to CPU 1 do
// ROUNDS round trips answered by MsgReply, then ROUNDS answered by MsgError; the kernel's count
// of exclusive entries (SysInfo KSYSINFO_KENTRIES_EXCLUSIVE) is read around each run. Every
// exclusive entry of the reply run is the ticks' and the CPUs' own (no call of it is
// exclusive), so the error run may have at most ROUNDS / 8 more (an eighth of the reply run's
// where that run took more than ROUNDS, as under fbt): an exclusive MsgError would add ROUNDS. Each error round trip also checks what the client got: MsgSend fails with the
// server's own number, and the reply run's answers are its own.
#include "st_error.h"
#include "st_msg.h"
#include <kern.h>
#include <stdio.h>

#define ROUNDS 400u

static int err_chid;
static volatile uint32_t err_bad, err_use_error;

static int err_server(void *arg)
{
    (void)arg;
    ThreadCtl(KTCTL_RUNMASK, (void *)2u);
    for (;;) {
        union request rq = { 0 };
        int rcvid = MsgReceive(err_chid, &rq, sizeof(rq), NULL);
        uint32_t v = rq.v;
        if (rcvid <= 0) {
            err_bad++;
            continue;
        }
        uint32_t answer = v + 7u;
        if (v && err_use_error)
            MsgError(rcvid, (int)(1u + v % 4000u));
        else
            MsgReply(rcvid, 0, &answer, sizeof(answer));
        if (!v)
            return 0;
    }
}

// ROUNDS round trips; the exclusive entries they took.
static uint32_t run(int coid, bool errors)
{
    err_use_error = errors;
    uint32_t e0 = exclusive_entries();
    for (uint32_t v = 1; v <= ROUNDS; v++) {
        uint32_t answer = 0;
        int32_t r = MsgSend_r(coid, &v, sizeof(v), &answer, sizeof(answer));
        if (errors ? r != -(int32_t)(1u + v % 4000u) : r != 0 || answer != v + 7u)
            err_bad++;
    }
    return exclusive_entries() - e0;
}

bool error_test(uint32_t ncpu, unsigned testno, void *stack, size_t stack_size,
                bool virtual_time)
{
    if (ncpu < 2) {
        printf("ok %u - # SKIP MsgError's side: one CPU, no lock\n", testno);
        return true;
    }
    ThreadCtl(KTCTL_RUNMASK, (void *)2u);
    err_chid = ChannelCreate(0);
    int tid = ThreadCreate(err_server, NULL, stack, stack_size, 60, 0);
    int coid = ConnectAttach(0, err_chid);
    uint32_t replies = run(coid, false), errors = run(coid, true);
    uint32_t quit = 0, answer;
    err_use_error = 0;
    MsgSend(coid, &quit, sizeof(quit), &answer, sizeof(answer));
    bool joined = tid > 0 && ThreadJoin(tid, NULL) == 0;
    ConnectDetach(coid);
    ChannelDestroy(err_chid);
    ThreadCtl(KTCTL_RUNMASK, (void *)1u);
    // The runs' own exclusive entries (the ticks') vary with their length: under fbt on every
    // function a run of 400 took 515 and the next 569. The margin is an eighth of the reply
    // run's count, or of ROUNDS when that is more: an exclusive MsgError adds ROUNDS.
    uint32_t more = replies > ROUNDS ? replies / 8u : ROUNDS / 8u;
    bool ok = joined && !err_bad && (!virtual_time || errors <= replies + more);
    printf("%s %u - MsgError on the shared side: %u round trips on CPU 1 took %lu exclusive "
           "entries answered by MsgReply, %lu by MsgError (at most %lu more allowed); %lu "
           "answers wrong\n", ok ? "ok" : "not ok", testno, ROUNDS, (unsigned long)replies,
           (unsigned long)errors, (unsigned long)more, (unsigned long)err_bad);
    return ok;
}
