# SPDX-License-Identifier: MIT
# deadline: a 500 Hz periodic task with programmed overruns that counts, by its own cycle
# counter, the periods it missed and the timer pulses it never got (test/qemu/test_probe_live.sh,
# docs/live.md) (user/module.mk reads this file: docs/applications.md).
PRIO  := 30
FLAGS := 0
EXTRA := user/lib/pulse_chan.c   # its timer's pulse channel (pulse_chan.h)
ARGS  := 600 6

# appinit, it and a passive tracelogger, as `make run APPS=deadline` builds.
IMAGES         += deadlines
deadlines_APPS := appinit deadline tracelogger

# deadline beside irqrate's interrupt-driven driver under the tracelogger: the task classes
# (test/qemu/test_task_class.sh: the loop periodic with its misses, the driver event-driven).
IMAGES          += taskclass
taskclass_APPS  := appinit deadline irqrate tracelogger

# It under the board's dtrace with a capture (as make dtrace APPS=deadline builds it): its
# truth under a loaded D program is make run's (test/qemu/test_d_truth.sh).
IMAGES          += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,dtdeadline)
dtdeadline_APPS := dtrace appinit deadline tracelogger
