# SPDX-License-Identifier: MIT
# kevrow: writes the event table's test-only row through the kernel's emit helper of a row with
# a D probe of its own, for test/qemu/test_kevrow_live.sh (user/module.mk reads this file:
# docs/applications.md).
PRIO  := 100
FLAGS := 0

# The test's image: kevrow under the target's dtrace (its object compiled on the host by a
# dcompile that has the row, $(HT)/evrow/dcompile), appinit starting the tracelogger; its
# kernel alone has the row and the site (kernel/kdebug_row.h).
IMAGES            += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,kevrowlive)
kevrowlive_APPS   := dtrace appinit kevrow tracelogger
kevrowlive_KOBJS  := test/tools/test_event_row.c test/tools/test_event_row_kernel.c
