# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
MATRIX_TESTS_netduinoplus2 := demo ktest tracelogger rtt flight hostile stream-stop
