// SPDX-License-Identifier: MIT
// dtrace -c CMD and -p PID on the host, without a capture: the process $target names, started
// held (as dtrace(1M) creates it stopped) and let go once tracing runs, or one already running.
#ifndef DTRACE_CMDPROC_H
#define DTRACE_CMDPROC_H

#include <sys/types.h>

/* cmdproc_create: forks CMD (split on blanks, found on PATH) held before exec; returns its
 * pid, or -1 after printing why. cmdproc_go lets it run. */
pid_t cmdproc_create(const char *cmd);
void cmdproc_go(void);
/* cmdproc_grab: checks that pid is a process this user may watch; 0, or -1 after saying why */
int cmdproc_grab(pid_t pid);
/* cmdproc_exited: 1 once the process has exited (reaped if it is our child; "dtrace: pid N
 * has exited" printed, as dtrace(1M) does), else 0. */
int cmdproc_exited(pid_t pid, int child);

#endif
