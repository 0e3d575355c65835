# SPDX-License-Identifier: MIT
# taskedge: tasks where the system misbehaves, each measured by the program itself, for the
# task-instance analysis (main.c; docs/analysis.md, "Task instances"; test/qemu/test_taskedge.sh):
# a periodic thread that loses timer pulses on purpose, one that exits after its last job, and
# a server released by a client's messages.
# PRIO: main makes the others (lossy, exiter, server 210, client 205: above the tracelogger),
# then waits for them from below (200).
PRIO  := 230
ARGS  :=
EXTRA := user/lib/busy.c   # the calibrated busy loop and CPU 0 binding (busy.h)

# The image of test/qemu/test_taskedge.sh: taskedge under appinit, captured by the tracelogger.
IMAGES          += edgetest
edgetest_APPS   := appinit taskedge tracelogger
