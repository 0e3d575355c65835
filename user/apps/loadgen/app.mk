# SPDX-License-Identifier: MIT
# loadgen: a known number of runnable threads for a known time, for the load-average test
# (test/qemu/test_loadavg.sh).
PRIO  := 40

# The test's image, on the boards the test runs on (test/qemu/module.mk): the board's dtrace
# over loadgen, reading `avenrun at its user events.
IMAGES          += $(if $(filter mps2-an385 qemu-virt-a53,$(BOARD)),loadavgd)
loadavgd_APPS   := dtrace loadgen
