// SPDX-License-Identifier: MIT
// $target over a capture (dtrace -i trace.kev -p PID | -c NAME): the process a capture knows.
#ifndef DTRACE_KEVTARGET_H
#define DTRACE_KEVTARGET_H

#include <stdint.h>

/* kev_capture_target: with name NULL, checks that the capture knows process *pid; else finds
 * the process named name (its whole name, or the part after the last '/') and sets *pid, the
 * first such process when several share the name. Returns 0, or -1 after printing why. */
int kev_capture_target(const char *path, const char *name, int64_t *pid);

#endif
