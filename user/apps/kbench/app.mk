# SPDX-License-Identifier: MIT
# kbench: the kernel benchmarks (make bench) (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
FLAGS := KAPP_F_IO|KAPP_F_TRACE|KAPP_F_PRIV

IMAGES += kbench kbench_notrace
kbench_APPS := kbench kt_peer
kbench_notrace_APPS := kbench kt_peer
kbench_notrace_KLIB := kernel-notrace
