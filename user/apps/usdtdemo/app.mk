# SPDX-License-Identifier: MIT
# usdtdemo: a program with USDT probes and its own count of each site's passes (docs/usdt.md;
# test/qemu/test_usdt.sh). Its image: the board's dtrace, which starts it (dtrace -c usdtdemo).
IMAGES     += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,usdt)
usdt_APPS  := dtrace usdtdemo
