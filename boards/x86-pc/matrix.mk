# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
# Only ktest so far: the demo and the tracelogger tests need the tracelogger, which writes
# host files (see docs/x86.md).
MATRIX_TESTS_x86-pc := ktest
