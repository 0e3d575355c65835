# SPDX-License-Identifier: MIT
# irqrate: the board's device timer at a programmed rate through the normal driver path, for
# the interrupt-rate test (test/qemu/test_irqrate.sh; docs/interrupts.md).
PRIO  := 50
FLAGS := KAPP_F_IO
EXTRA := user/lib/pulse_chan.c   # its interrupt's pulse channel (pulse_chan.h)
MMIO  := $(BOARD_DEVTIMER_WINDOW)

# Its boot image for the test: appinit starts it under a capture (as make run APPS=irqrate).
IMAGES       += irqtest
irqtest_APPS := appinit irqrate tracelogger

# Its image under dtrace: D's interrupt devices (struct dev_info, `devnamesp) counted live and
# over the same boot's capture against irqrate's own count (test/qemu/test_d_irqdev.sh).
IMAGES          += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,irqdevtest)
irqdevtest_APPS := dtrace appinit irqrate tracelogger
