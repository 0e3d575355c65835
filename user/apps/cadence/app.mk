# SPDX-License-Identifier: MIT
# cadence: a periodic task that overruns its period a known number of times, measuring each
# job itself, for the task-instance analysis (main.c; docs/analysis.md, "Task instances";
# test/qemu/test_tasks.sh).
# PRIO: main starts the others (clock 220, worker 210: above the tracelogger), then waits for
# them from below (200).
PRIO  := 230
EXTRA := user/lib/busy.c   # the calibrated busy loop and CPU 0 binding (busy.h)

# The image of test/qemu/test_tasks.sh: cadence and relay under appinit, captured by the
# tracelogger (one boot: the task instances and the wait chain).
IMAGES          += tasktest
tasktest_APPS   := appinit cadence relay tracelogger
