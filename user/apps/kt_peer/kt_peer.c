// SPDX-License-Identifier: MIT
// kt_peer: a server in its own process for the kernel tests and benchmarks. ProcArg(): low
// 16 bits = the parent's channel to say hello on (the process that spawned it); bit 16 = die after receiving the
// first request without replying; bit 17 = try to attach an interrupt and exit with errno;
// bit 18 = try to allocate trace buffers and exit with errno; bit 19 (with 17) = first unmask
// and mask the line in bits 0-7 with the id in bits 8-15 (attached by the parent, not by this
// process), and wrong ids and lines, and exit with 100 + the number of answers that were not
// EINVAL when there are any. A "UEVT" n request times n
// 2-word user events inserted by this unprivileged process (kbench's user_event_insns). A
// "SYNC" id request tries to lock mutex id and post semaphore id of the client's process and
// replies with the two errnos (a sync object is its process's own: docs/applications.md).
#include <kern.h>
#include <errno.h>
#include <string.h>

int main(void)
{
    uint32_t arg = ProcArg();
    if (arg & 0x40000u)     // not built with KAPP_F_TRACE: may only insert events
        return TraceEvent(KTRACE_ALLOCBUFFER, 2, 0, 0) < 0 ? errno : 0;
    if (arg & 0x80000u) {
        unsigned line = arg & 0xffu;
        int id = (int)(arg >> 8 & 0xffu), wrong = 0;
        const struct { unsigned line; int id; } bad[] = {
            { line, id }, { line, id + 1 }, { line + 1, id }, { 0xffffffffu, id }, { line, 0 },
            { line, -1 },
        };
        for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            errno = 0;
            wrong += !(InterruptUnmask(bad[i].line, bad[i].id) == -1 && errno == EINVAL);
            errno = 0;
            wrong += !(InterruptMask(bad[i].line, bad[i].id) == -1 && errno == EINVAL);
        }
        if (wrong)
            return 100 + wrong;
    }
    if (arg & 0x20000u) {
        int chid = ChannelCreate(0);
        int coid = ConnectAttach(0, chid);
        return InterruptAttachEvent(24, coid, 1) < 0 ? errno : 0;
    }
    int chid = ChannelCreate(0);
    int parent = ConnectAttach(ProcParent(), (int)(arg & 0xffff));
    int32_t hello[4] = { 0x48454c4f, chid, 0, 0 };
    if (MsgSend(parent, hello, sizeof(hello), NULL, 0) < 0)
        return 1;
    for (;;) {
        char buf[64];
        struct kmsg_info info;
        int rcvid = MsgReceive(chid, buf, sizeof(buf), &info);
        if (rcvid <= 0)
            continue;
        if (arg & 0x10000u)
            return 0;           // exit holding the client: it must get ESRCH
        if (info.msglen == 4 && *(int32_t *)buf == 0x51554954) {
            MsgReply(rcvid, 0, NULL, 0);
            return 0;
        }
        if (info.msglen == 8 && *(int32_t *)buf == 0x55455654) {   // "UEVT" n: kbench
            uint32_t n = ((uint32_t *)buf)[1];
            uint64_t t0 = ClockCycles();
            for (uint32_t i = 0; i < n; i++)
                TraceEvent(KTRACE_INSERTSUSEREVENT, 3, i, 0);
            uint64_t c = ClockCycles() - t0;
            MsgReply(rcvid, 0, &c, sizeof(c));
            continue;
        }
        if (info.msglen == 8 && *(int32_t *)buf == 0x53594e43) {   // "SYNC" id
            int id = ((int32_t *)buf)[1];
            int32_t errs[2];
            errno = 0;
            errs[0] = MutexLock(id) == -1 ? errno : 0;
            errno = 0;
            errs[1] = SemPost(id) == -1 ? errno : 0;
            MsgReply(rcvid, 0, errs, sizeof(errs));
            continue;
        }
        if (info.msglen == 0) {         // benchmark: empty round trip
            MsgReply(rcvid, 0, NULL, 0);
            continue;
        }
        size_t n = strnlen(buf, sizeof(buf) - 1);
        char out[64];
        for (size_t i = 0; i < n; i++)
            out[i] = buf[n - 1 - i];
        out[n] = '\0';
        MsgReply(rcvid, (int)n, out, n + 1);
    }
}
