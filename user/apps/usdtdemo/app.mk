# SPDX-License-Identifier: MIT
# usdtdemo: a program with USDT probes and its own count of each site's passes (docs/usdt.md;
# test/qemu/test_usdt.sh). Its image: the board's dtrace, which starts appinit, which starts it
# and the tracelogger (a capture of the same run).
IMAGES     += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,usdt)
usdt_APPS  := dtrace appinit usdtdemo tracelogger
