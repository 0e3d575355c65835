# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
MATRIX_TESTS_raspi3b := ktest demo tracelogger hostile stream-stop
