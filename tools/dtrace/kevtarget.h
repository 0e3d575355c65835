// SPDX-License-Identifier: MIT
// $target over a capture (dtrace -i trace.kev -p PID | -c NAME): the process a capture knows.
#ifndef DTRACE_KEVTARGET_H
#define DTRACE_KEVTARGET_H

#include <stddef.h>
#include <stdint.h>

/* kev_capture_target: with name NULL, checks that the capture knows process *pid; else finds
 * the process named name (its whole name, or the part after the last '/') and sets *pid, the
 * first such process when several share the name. Returns 0, or -1 after printing why. */
int kev_capture_target(const char *path, const char *name, int64_t *pid);

/* kev_capture_procs: the capture's processes that ran one of the n programs named (n 0: all
 * of them): their number, the first one's pid in *pid, and "name (pid N), ..." in list (at
 * most listn bytes); -1 after printing why the capture cannot be read. */
int kev_capture_procs(const char *path, const char *const *names, unsigned n, int64_t *pid,
                      char *list, size_t listn);

/* kev_capture_consumer: the pid of the board's dtrace whose run the capture holds (the consumer
 * of its first DPROG go event: what $pid is over the capture); 1 with *pid set, 0 when the
 * capture holds no D program's span, -1 after printing why it cannot be read. */
int kev_capture_consumer(const char *path, int64_t *pid);

#endif
