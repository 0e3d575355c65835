// SPDX-License-Identifier: MIT
// Where a live trace comes from (the live tools' INPUT, kev_live.h): standard input ("-" or
// none), a file, a pipe, a pty or serial device (switched to raw mode), or HOST:PORT, a TCP
// server such as a probe's RTT server or QEMU's socket (tried for 10 s: it may start after
// us). A regular file can be followed: read as it grows, from its start, like tail -f (a file
// cut shorter than what was read is read again from its start: its writer began anew); one
// that stands still for 5 s is said to be waited for, and why, once until it grows.
#ifndef TOOLS_KEV_INPUT_H
#define TOOLS_KEV_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct kev_input {
    int fd;
    int regular;       // a regular file
    int follow;        // ... read as it grows: its end is "nothing yet"
    uint64_t off;      // bytes read since it was opened (or read again from its start)
    char name[256];
    char tool[32];     // who says so
    uint64_t grew_ms;  // a followed file: when it last grew (host ms), and whether its
    int said_waiting;  // standing still was said
};

// Open name (NULL or "-": standard input); follow applies to a regular file. 0, or -1 with
// the reason on stderr (prefixed with tool).
int kev_input_open(const char *tool, const char *name, int follow, struct kev_input *in);
// The next bytes, waiting up to timeout_ms (< 0: until some come): > 0 bytes read, 0 none came
// in time, -1 the input ended (its end, or an error said on stderr).
long kev_input_read(struct kev_input *in, void *buf, size_t n, int timeout_ms);
void kev_input_close(struct kev_input *in);
// The input is a finished capture: a regular .kev file that ends in its trailer now (the
// header's and the trailer's checks pass), read whole rather than as it arrives (1, and *cpus
// the CPUs its trailer counts events of, bit n for CPU n; else 0).
int kev_input_finished(const struct kev_input *in, uint32_t *cpus);

#endif
