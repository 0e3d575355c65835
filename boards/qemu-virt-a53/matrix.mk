# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
MATRIX_TESTS_qemu-virt-a53 := ktest demo tracelogger rtt stream live probe-live flight hostile dtrace parity smpstress sync-apps uslots
