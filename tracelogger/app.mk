# SPDX-License-Identifier: MIT
# tracelogger: the trace capture program (docs/tracelogger.md) (user/module.mk reads this file: docs/applications.md).
PRIO  := 200
FLAGS := KAPP_F_TRACE|KAPP_F_IO|KAPP_F_HOSTFS
MMIO  := $(BOARD_TRACE_UART_WINDOW)
EXTRA := trace/kev_file.c trace/kev_stream.c trace/kev_crc32.c user/lib/utc_date.c \
         $(if $(BOARD_NO_INCIDENT),,trace/kev_incident.c trace/kev_incident_kev.c \
                                    trace/kev_incident_core.c)
# Its main stack: the stream's RTT path (rtt.c put) ran past 2 KB on AArch64, whose frames are
# larger, and faulted at the guard below the stack; 4 KB there (where the slot is 64 KB).
STACK := $(if $(filter aarch64,$(ARCH)),0x1000,)
# It inserts no 2-word user events itself: no ring (its RAM is tight on netduinoplus2).
URING := 0
