# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
MATRIX_TESTS_qemu-virt-a53 := ktest demo tracelogger rtt stream live probe-live probe-forge ring-lies flight incident hostile dtrace parity smpstress sync-apps uslots
# ktest boots with instruction-counted time (QEMU_ICOUNT=exact, scripts/qemu-run.sh), as on
# x86-pc: kt_tick holds a timer's end and the tick to the generic timer's counter within a few
# 1 ms periods, and under the default shift=auto a loaded host stalls the CPUs' thread while
# the counter runs on: 3 full make test runs in 5 failed it (a 20 ms timer ended after
# 33,092 us; ticks and counter 2.1 periods apart). Under exact the run is the same every time
# (the timer ends after 20,892 us, 21 ticks in 20,893 us), whatever the host's load.
MATRIX_KTEST_ENV_qemu-virt-a53 := QEMU_ICOUNT=exact
