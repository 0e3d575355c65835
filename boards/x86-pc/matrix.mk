# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
MATRIX_TESTS_x86-pc := ktest demo tracelogger hostile period parity acqparity stream-stop
# ktest boots with instruction-counted time (QEMU_ICOUNT=exact, scripts/qemu-run.sh): kt_tick
# holds a timer's end and the tick to the TSC within a few 1 ms periods, and under the default
# shift=auto a loaded host makes each instruction count for up to 1 us (docs/x86.md), so the
# pulse's delivery alone can take milliseconds: 1 run in 60 under two busy loops ended a 20 ms
# timer after 28,755 us; under exact all 50 runs, under the same load, took 20,838 us.
MATRIX_KTEST_ENV_x86-pc := QEMU_ICOUNT=exact
