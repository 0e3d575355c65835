# SPDX-License-Identifier: MIT
# usdtdemo: a program with USDT probes and its own count of each site's passes (docs/usdt.md;
# test/qemu/test_usdt.sh). Its image: the board's dtrace, which starts appinit, which starts it
# and the tracelogger (a capture of the same run).
IMAGES     += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,usdt)
usdt_APPS  := dtrace appinit usdtdemo tracelogger
# On a board with several CPUs, pidsmp: appinit starts usdtdemo (a thread calling step_plain
# on each CPU, "usdtdemo smp") and then dtrace, whose pid probes are placed and taken off
# while those threads run (test/qemu/test_pid_smp.sh).
IMAGES     += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,$(call smp_only,pidsmp))
pidsmp_APPS := appinit usdtdemo dtrace
