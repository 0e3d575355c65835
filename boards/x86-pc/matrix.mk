# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
MATRIX_TESTS_x86-pc := ktest demo tracelogger hostile period parity acqparity
