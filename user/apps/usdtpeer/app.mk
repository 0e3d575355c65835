# SPDX-License-Identifier: MIT
# usdtpeer: the program a trace-only pidself may not write into through USDT (docs/usdt.md,
# "Who may"; test/qemu/test_usdt_perm.sh). pidself starts it (the usdtperm image, pidself's
# app.mk); it needs no flag. Its bait reads its own loaded USDT notes (trace/d/dusdt_note.c).
PRIO  := 20
FLAGS := 0
usdtpeer_EXTRA := trace/d/dusdt_note.c
