# SPDX-License-Identifier: MIT
# tracelogger: the trace capture program (docs/tracelogger.md) (user/module.mk reads this file: docs/applications.md).
PRIO  := 200
FLAGS := KAPP_F_TRACE|KAPP_F_IO|KAPP_F_HOSTFS
MMIO  := $(BOARD_TRACE_UART_WINDOW)
EXTRA := trace/kev_file.c trace/kev_stream.c trace/kev_crc32.c user/lib/utc_date.c
# It inserts no 2-word user events itself: no ring (its RAM is tight on netduinoplus2).
URING := 0
