// SPDX-License-Identifier: MIT
// The unit tests' way to run dtrace -i (tools/dtrace/kevreplay.c) over a capture they wrote with
// the ring: a D program compiled and replayed over the file, the consumer's output and error
// text kept (dtrace_replay.c).
#ifndef TEST_DTRACE_REPLAY_H
#define TEST_DTRACE_REPLAY_H

#include <stddef.h>
#include <trace/kev_decode.h>

// A consumer's text, cut at the buffer's size.
struct replay_text {
    char s[8192];
    size_t n;
};

// A capture begun: ring (over mem, len bytes: two buffers) records every class from the
// host's time 1000 on, into c.
struct trace_ring;
struct kcap;
void replay_capture_begin(struct trace_ring *ring, void *mem, size_t len, struct kcap *c);
// The capture ended and written to a temporary file, its path in path[n].
void replay_capture_file(struct trace_ring *ring, struct kcap *c, char *path, size_t n);
// Compiles prog (strsize: -x strsize, 0 the default) and replays the capture at path through it
// on one CPU, quiet; out and err get the consumer's text; the file is removed after.
void replay_run(const char *path, const char *prog, unsigned strsize, struct replay_text *out,
                struct replay_text *err);

#endif
