# SPDX-License-Identifier: MIT
# kbench: the kernel benchmarks (make bench) (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
FLAGS := KAPP_F_IO|KAPP_F_TRACE|KAPP_F_PRIV

IMAGES += kbench kbench_notrace
kbench_APPS := kbench kt_peer
kbench_notrace_APPS := kbench kt_peer
kbench_notrace_KLIB := kernel-notrace
# The same on the kernel built without the fbt provider (kernel/module.mk kernel-nofbt): what
# "fbt built in, no probe enabled" is held to (test/qemu/test_fbt_zero.sh, docs/fbt.md).
IMAGES += kbench_nofbt
kbench_nofbt_APPS := kbench kt_peer
kbench_nofbt_KLIB := kernel-nofbt
# kbench under the board's dtrace (`dtrace -c kbench PROGRAM`): an enabled probe's whole
# firing read off kbench's own figures (scripts/bench-fbt.sh, fbt_entry_count_insns).
IMAGES += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,kbench_dtrace)
kbench_dtrace_APPS := dtrace kbench kt_peer
