# SPDX-License-Identifier: MIT
# loadgen: a known number of runnable threads for a known time, for the load-average test
# (test/qemu/test_loadavg.sh).
PRIO  := 40
# its thread stacks (KSTACK) are two 4 KB pages each where the guard is a page: with the 8 KB
# main stack, more than a 64 KB slot there
RAM   := $(call paged_guard,,0x20000)

# The test's image, on the boards the test runs on (test/qemu/module.mk): the board's dtrace
# over loadgen, reading `avenrun at its user events.
IMAGES          += $(if $(filter mps2-an385 qemu-virt-a53,$(BOARD)),loadavgd)
loadavgd_APPS   := dtrace loadgen
