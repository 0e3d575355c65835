# SPDX-License-Identifier: MIT
# tracelogger: the trace capture program (docs/tracelogger.md) (user/module.mk reads this file: docs/applications.md).
PRIO  := 200
FLAGS := KAPP_F_TRACE|KAPP_F_IO|KAPP_F_HOSTFS
MMIO  := $(BOARD_TRACE_UART_WINDOW)
EXTRA := trace/kev_file.c trace/kev_stream.c trace/kev_crc32.c trace/kev_wire.c user/lib/utc_date.c \
         $(if $(BOARD_NO_INCIDENT),,trace/kev_incident.c trace/kev_incident_kev.c \
                                    trace/kev_incident_core.c)
# The stream's encoder takes each event's wire encoding from the table tools/emitgen generates
# from the event table (kev_emit_gen.h, in the build's gen directory: wire.c).
$(B)/apps/tracelogger/obj/tracelogger/wire.c.o: UCFLAGS += -I$(H)/gen
# Its main stack: 4 KB, not the boards' 8 KB default (its buffers, 25 KB of .bss on mps2-an385,
# leave less in a 32 KB slot): the stream's RTT path (rtt.c put) ran past 2 KB on AArch64, whose
# frames are larger; netduinoplus2's 2 KB default where the slots are 8 KB.
STACK := $(if $(filter 0x800,$(BOARD_APP_STACK)),,0x1000)
# Its RAM: where the board's slots are 32 KB (mps2-an385) two of them, for the RTT channel's
# ring (a buffer's frames, 17.7 KB), the stream's encoder and the incident writer beside its
# stack and the header's copy (the link said 1,408 bytes over one slot).
RAM := $(if $(filter 0x00008000,$(APP_RAM_SLOT)),0x10000)
# It inserts no 2-word user events itself: no ring (its RAM is tight on netduinoplus2).
URING := 0
