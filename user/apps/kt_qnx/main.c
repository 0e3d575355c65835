// SPDX-License-Identifier: MIT
// kt_qnx: QNX's TraceEvent() interface (user/include/sys/trace.h, user/lib/trace_qnx.c). This
// file is written as QNX instrumentation is, with QNX's names only, and must compile unchanged
// and do what QNX's documentation says: buffers, class and event filters by QNX's numbering,
// the three user-event inserts, start/stop and the event count. The ring is read back with
// this kernel's own calls (scan.c). Prints "# kt_qnx: ok|FAILED ..." lines; exit status =
// failures (ktest checks it).
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/trace.h>
#include "kt_qnx.h"

static int failures;

static void check(bool ok, const char *what)
{
    printf("# kt_qnx: %s %s\n", ok ? "ok" : "FAILED", what);
    failures += !ok;
}
// A failed check also prints its message, with the values it saw.
#define CHECK(cond, ...)                                                                     \
    do {                                                                                     \
        bool ok_ = (cond);                                                                   \
        check(ok_, #cond);                                                                   \
        if (!ok_) {                                                                          \
            printf("# kt_qnx:   ");                                                          \
            printf(__VA_ARGS__);                                                             \
            printf("\n");                                                                    \
        }                                                                                    \
    } while (0)
#define CHECK_ERR(expr, err) do { errno = 0; check((expr) == -1 && errno == (err), #expr " fails with " #err); } while (0)

int main(void)
{
    if (ProcArg() == 1 || ProcArg() == 2)
        return intrude(ProcArg() == 2);
    struct qnx_seen s;
    void *addr = (void *)1;
    unsigned words[3] = { 0x11, 0x22, 0x33 };

    CHECK(TraceEvent(_NTO_TRACE_QUERYSUPPORT) == _NTO_TRACE_SUPPINSTR,
          "QNX API: _NTO_TRACE_QUERYSUPPORT says instrumented");
    CHECK(TraceEvent(_NTO_TRACE_ALLOCBUFFER, 2, &addr) == 0 && addr == NULL,
          "QNX API: _NTO_TRACE_ALLOCBUFFER with QNX's arguments");
    TraceEvent(_NTO_TRACE_DELALLCLASSES);
    CHECK(TraceEvent(_NTO_TRACE_ADDCLASS, _NTO_TRACE_USER) == 0, "QNX API: ADDCLASS USER");
    // Thread states RUNNING and READY only, and kernel-call entries only (QNX's classes
    // that are halves of ours).
    CHECK(TraceEvent(_NTO_TRACE_ADDEVENT, _NTO_TRACE_THREAD,
                     _NTO_TRACE_THRUNNING | _NTO_TRACE_THREADY) == 0,
          "QNX API: ADDEVENT THREAD with a state mask");
    CHECK(TraceEvent(_NTO_TRACE_ADDCLASS, _NTO_TRACE_KERCALLENTER) == 0,
          "QNX API: ADDCLASS KERCALLENTER");
    CHECK_ERR(TraceEvent(_NTO_TRACE_ADDCLASS, _NTO_TRACE_VTHREAD), ENOTSUP);
    CHECK_ERR(TraceEvent(_NTO_TRACE_ADDEVENT, _NTO_TRACE_INTENTER, 8), ENOTSUP);
    CHECK_ERR(TraceEvent(_NTO_TRACE_ADDEVENTHANDLER, _NTO_TRACE_USER, 1, NULL, NULL), ENOTSUP);
    CHECK(TraceEvent(_NTO_TRACE_STARTNOSTATE) == 0, "QNX API: STARTNOSTATE");
    CHECK(TraceEvent(_NTO_TRACE_INSERTSUSEREVENT, 42, 0xabc, 0xdef) == 0,
          "QNX API: INSERTSUSEREVENT");
    CHECK(TraceEvent(_NTO_TRACE_INSERTUSRSTREVENT, 42, "hello from QNX code") == 0,
          "QNX API: INSERTUSRSTREVENT");
    CHECK(TraceEvent(_NTO_TRACE_INSERTCUSEREVENT, 42, words, 3) == 0,
          "QNX API: INSERTCUSEREVENT");
    ThreadSleep(1000000); // a state change: NANOSLEEP (not asked for), READY, RUNNING
    int n = TraceEvent(_NTO_TRACE_QUERYEVENTS);
    CHECK(n >= 4, "QNX API: QUERYEVENTS counts the events recorded (%d)", n);
    CHECK(TraceEvent(_NTO_TRACE_STOP) == 0, "QNX API: STOP");
    TraceEvent(_NTO_TRACE_FLUSHBUFFER);
    scan_qnx_events(42, 0xabc, 0xdef, &s);
    CHECK(s.user2 == 1 && s.user_str == 1 && s.user_buf == 1,
          "QNX API: the three user events are in the ring (%u %u %u)", s.user2, s.user_str,
          s.user_buf);
    CHECK(s.prth > 0, "QNX API: RUNNING/READY recorded (%u)", s.prth);
    CHECK(s.kercall_entry > 0 && s.kercall_exit == 0,
          "QNX API: KERCALLENTER gives entries and no exits (%u, %u)", s.kercall_entry,
          s.kercall_exit);
    CHECK(TraceEvent(_NTO_TRACE_DEALLOCBUFFER) == 0, "QNX API: DEALLOCBUFFER");
    return failures;
}
