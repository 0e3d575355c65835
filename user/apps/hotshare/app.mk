# SPDX-License-Identifier: MIT
# hotshare: a periodic interrupt-driven thread whose hot function takes a known share of each
# period, for the profile test (test/stacks/test_hotshare.sh; docs/profiling.md).
PRIO  := 50
FLAGS := KAPP_F_IO
EXTRA := user/lib/pulse_chan.c   # its interrupt's pulse channel (pulse_chan.h)
MMIO  := $(BOARD_DEVTIMER_WINDOW)

# The test's image, where the board runs dtrace: D live over hotshare and a capture of the
# same boot (as make dtrace APPS=hotshare).
IMAGES         += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,hotsharetest)
hotsharetest_APPS := dtrace appinit hotshare tracelogger
