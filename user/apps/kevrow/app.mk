# SPDX-License-Identifier: MIT
# kevrow: writes the event table's test-only row through the kernel's emit helper generated from
# that row (a D probe of its own), for test/qemu/test_kevrow_live.sh (user/module.mk reads this file:
# docs/applications.md).
PRIO  := 100
FLAGS := 0

# The test's image: kevrow under the target's dtrace (its object compiled on the host by a
# dcompile that has the row, $(HT)/evrow/dcompile), appinit starting the tracelogger; its
# kernel alone has the site (kernel/kdebug_row.h) and the row's helper, generated from the row
# (tools/emitgen -a); the kernel links no table.
IMAGES            += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,kevrowlive)
kevrowlive_APPS   := dtrace appinit kevrow tracelogger
kevrowlive_KOBJS  := test/tools/test_event_row_kernel.c
$(B)/obj/test/tools/test_event_row_kernel.c.o: KCFLAGS += -I$(dir $(KEV_EMIT_GEN_ADDED_H))
$(B)/obj/test/tools/test_event_row_kernel.c.o: | $(KEV_EMIT_GEN_ADDED_H)
