// SPDX-License-Identifier: MIT
// livemark: marks for the event-to-screen latency (scripts/bench-live.sh, docs/live.md). It
// starts the tracelogger below itself (passive: the host gives its options, -u for the stream),
// traces every class, and then MARKS times: sleeps MARK_GAP_MS, prints "livemark: mark N" on the
// console and at once runs for MARK_RUN_MS, so that its thread has CPU time in the trace from
// that moment. The host stamps the console line as it comes and the first kevtop frame that
// shows the thread running after it: the difference is the event's way to the screen.
#include <kern.h>
#include <stdio.h>

#define MARKS       8u
#define MARK_GAP_MS 1300u   // not a multiple of kevtop's default 1 s: marks fall all over a frame
#define MARK_RUN_MS 20u
#define LOGGER_PRIO 5       // below this program's 20 (app.mk): a mark is never late for it

int main(void)
{
    int logger = TraceSpawnLogger("livemark", LOGGER_PRIO);
    if (logger < 0)
        return 1;
    for (unsigned i = 1; i <= MARKS; i++) {
        ThreadSleep((uint64_t)MARK_GAP_MS * 1000000u);
        printf("livemark: mark %u\n", i);
        uint64_t until = ClockTime() + (uint64_t)MARK_RUN_MS * 1000000u;
        while (ClockTime() < until)
            ;
    }
    ThreadSleep(500u * 1000000u);   // the last mark's frame closes before the trace ends
    int status = TraceStopLogger(logger);
    printf("livemark: %u marks, done\n", MARKS);
    return status;
}
