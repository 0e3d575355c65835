# SPDX-License-Identifier: MIT
# pidself: a D consumer without KAPP_F_PRIV, for the pid provider's rule of who may trace a
# process (docs/pid.md, "Who may"; test/qemu/test_pid_perm.sh). Its image: itself as pid 1
# and pidpeer, the other program it starts, on the boards that place pid probes (KPID).
PRIO  := 10
FLAGS := KAPP_F_TRACE|KAPP_F_HOSTFS
IMAGES        += $(if $(KPID),pidperm)
pidperm_APPS  := pidself pidpeer
# The same consumer for USDT's rule (docs/usdt.md, "Who may"; test/qemu/test_usdt_perm.sh):
# its own bait (usdtpeer's usdt_bait.c), and usdtpeer, the program it starts, in usdtperm.
pidself_EXTRA := user/apps/usdtpeer/usdt_bait.c trace/d/dusdt_note.c
IMAGES        += $(if $(KUSDT),usdtperm)
usdtperm_APPS := pidself usdtpeer
