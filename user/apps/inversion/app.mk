# SPDX-License-Identifier: MIT
# inversion: a priority inversion on a semaphore and a mutex with inheritance, for the
# analysis tools (main.c; docs/waits.md; test/qemu/test_sync_apps.sh).
# PRIO: main directs the others (low 10, mid 20, mid2 25, high 30) from above them.
PRIO  := 40
# its thread stacks (KSTACK) are two 4 KB pages each where the guard is a page: with the 8 KB
# main stack, more than a 64 KB slot there
RAM   := $(call paged_guard,,0x20000)
EXTRA := user/lib/busy.c   # the spin loop and CPU 0 binding (busy.h)

# The image of test/qemu/test_sync_apps.sh: both analysis programs under appinit, captured by
# the tracelogger (one capture with the inversions, the inheritance and the deadlock).
IMAGES         += syncapps
syncapps_APPS  := appinit inversion deadlock tracelogger
