# SPDX-License-Identifier: MIT
# uartnode: a UART telemetry node, the shape of a device program (test/qemu/test_uart_node.sh,
# docs/boards.md "Devices for programs"; user/module.mk reads this file: docs/applications.md).
# Its UART is the board's UART for programs (BOARD_USER_UART_WINDOW: mps2-an385's UART 2);
# where a board has none it says so and exits 2.
PRIO  := 10
FLAGS := KAPP_F_IO
MMIO  := $(BOARD_USER_UART_WINDOW)
EXTRA := user/lib/busy.c   # the loop's calibrated work (busy.h)
ARGS  := 600 6

# appinit, it and a passive tracelogger, as `make run APPS=uartnode` builds, where the board has
# a UART for programs.
IMAGES         += $(if $(BOARD_USER_UART_WINDOW),uartnodes)
uartnodes_APPS := appinit uartnode tracelogger
