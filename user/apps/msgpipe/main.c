// SPDX-License-Identifier: MIT
// msgpipe: messages across CPUs at a known rate, with the program's own count as the truth
// (test/qemu/test_kevweb_whole.sh). A source bound to CPU 0 sends ROUNDS messages, one every
// millisecond, to a channel that WORKERS threads (bound to CPUs 1 .. the last) receive on;
// each worker sends each on to a sink thread (on the last CPU) and replies once the sink has.
// So every round is two messages, one CPU to another and on to a third. At the end the source
// stops each worker and the sink with a message of its own. It prints
// "msgpipe: N messages over M counts".
#include <cpus.h>
#include <kern.h>
#include <stdio.h>
#include <uapi/kapi.h>

#define ROUNDS 1000u
#define WORKERS 3u
#define STACK 1024

static KSTACK(stacks[WORKERS + 1], STACK);
static unsigned ncpus = 1, sent_on[WORKERS];
static int chid_work, chid_sink;

// The sink: takes each message and replies, until a 0.
static int sink(void *arg)
{
    (void)arg;
    cpus_bind(ncpus - 1u);
    for (;;) {
        uint32_t m = 0;
        int rcvid = MsgReceive(chid_sink, &m, sizeof(m), NULL);
        if (rcvid <= 0)
            continue;
        MsgReply(rcvid, 0, NULL, 0);
        if (!m)
            return 0;
    }
}

// A worker: each message from the source sent on to the sink, then replied to; a 0 stops it.
static int worker(void *arg)
{
    unsigned k = (unsigned)(uintptr_t)arg;
    cpus_bind(1u + k % (ncpus > 1 ? ncpus - 1u : 1u));
    int coid = ConnectAttach(ProcSelf(), chid_sink);
    for (;;) {
        uint32_t m = 0;
        int rcvid = MsgReceive(chid_work, &m, sizeof(m), NULL);
        if (rcvid <= 0)
            continue;
        if (m && MsgSend(coid, &m, sizeof(m), NULL, 0) == 0)
            sent_on[k]++;
        MsgReply(rcvid, 0, NULL, 0);
        if (!m)
            return 0;
    }
}

int main(void)
{
    ncpus = cpus_count();
    cpus_bind(0);
    chid_work = ChannelCreate(0);
    chid_sink = ChannelCreate(0);
    int tid[WORKERS + 1], coid = ConnectAttach(ProcSelf(), chid_work);
    for (unsigned k = 0; k < WORKERS; k++)
        tid[k] = ThreadCreate(worker, (void *)(uintptr_t)k, stacks[k], sizeof(stacks[0]), 0, 0);
    tid[WORKERS] = ThreadCreate(sink, NULL, stacks[WORKERS], sizeof(stacks[0]), 0, 0);
    unsigned sent = 0;
    uint64_t t0 = ClockCycles();
    for (uint32_t i = 1; i <= ROUNDS; i++) {
        ThreadSleep(1000000);
        sent += MsgSend(coid, &i, sizeof(i), NULL, 0) == 0;
    }
    uint64_t t1 = ClockCycles();
    uint32_t stop = 0;
    for (unsigned k = 0; k < WORKERS; k++)     // (each worker takes one 0 and ends)
        sent += MsgSend(coid, &stop, sizeof(stop), NULL, 0) == 0;
    int sc = ConnectAttach(ProcSelf(), chid_sink);
    sent += MsgSend(sc, &stop, sizeof(stop), NULL, 0) == 0;
    for (unsigned k = 0; k <= WORKERS; k++)
        ThreadJoin(tid[k], NULL);
    for (unsigned k = 0; k < WORKERS; k++)
        sent += sent_on[k];
    printf("msgpipe: %u messages over %llu counts\n", sent, (unsigned long long)(t1 - t0));
    return sent == 2u * ROUNDS + WORKERS + 1u ? 0 : 1;
}
