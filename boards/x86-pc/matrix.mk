# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
# ktest and the demo (without the tracelogger); the tracelogger tests need the tracelogger,
# which takes its options through semihosting and writes host files (see docs/x86.md).
MATRIX_TESTS_x86-pc := ktest demo
