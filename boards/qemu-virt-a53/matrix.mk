# SPDX-License-Identifier: MIT
# The QEMU tests this board runs when `make test` is run for another board (the board matrix).
MATRIX_TESTS_qemu-virt-a53 := ktest demo tracelogger
# make run APPS= (appinit with the tracelogger from the boot command line) does not finish on
# this board yet: the QEMU run hangs until its time limit. Until it does, no qemu-apps test here.
APPS_TEST_SKIP_qemu-virt-a53 := appinit boots with APPS= hang on this board (not yet diagnosed)
