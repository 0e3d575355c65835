# SPDX-License-Identifier: MIT
# cyccheck: ClockCycles() in user mode against the kernel's clock (test/qemu/test_cycles.sh),
# in an image with appinit and the tracelogger so that the capture shows its kernel calls.
PRIO  := 15
FLAGS := 0

IMAGES        += cyctest
cyctest_APPS  := appinit cyccheck tracelogger
