# SPDX-License-Identifier: MIT
# steal: threads that CPUs take from another CPU's run queue, with the program's own count of
# them, the truth of sched:::dequeue's args[2] live and over the capture
# (test/qemu/test_steal.sh) (user/module.mk reads this file: docs/applications.md).
# Above every other program of its image (the tracelogger's 200, dtrace's 150), so that
# nothing preempts a worker in its run: each dequeue from another CPU's queue is then one the
# worker sees at its wake-up (main.c).
PRIO := 210
# six thread stacks of two 4 KB pages each where the guard is a page
RAM  := $(call paged_guard,,0x20000)

# Only on boards with several CPUs (BOARD_MAX_CPUS in board.mk): the test's image, steal under
# dtrace and appinit, captured by the tracelogger.
IMAGES         += $(call smp_only,$(if $(filter dtrace,$(BOARD_NO_IMAGES)),,stealtest))
stealtest_APPS := dtrace appinit steal tracelogger
