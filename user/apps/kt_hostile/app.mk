# SPDX-License-Identifier: MIT
# kt_hostile: the hostile-process suite's runner and victim (docs/hostile.md); pid 1 of the
# hostile image (user/module.mk reads this file: docs/applications.md).
PRIO  := 100
# KAPP_F_TRACE: the user-event ring attack is checked on a capture.
FLAGS := KAPP_F_IO|KAPP_F_PRIV|KAPP_F_TRACE
EXTRA := user/lib/tap.c

IMAGES       += hostile
hostile_APPS := kt_hostile kt_attack kt_hoarder kt_hoarder2 kt_hoarder3

# The same suite under the board's dtrace with every fbt probe placed (docs/fbt.md,
# test/qemu/test_fbt_all.sh). Not on a board without the dtrace image.
IMAGES           += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,fbthostile)
fbthostile_APPS  := dtrace kt_hostile kt_attack kt_hoarder kt_hoarder2 kt_hoarder3
