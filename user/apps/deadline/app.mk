# SPDX-License-Identifier: MIT
# deadline: a 500 Hz periodic task with programmed overruns that counts, by its own cycle
# counter, the periods it missed and the timer pulses it never got (test/qemu/test_probe_live.sh,
# docs/live.md) (user/module.mk reads this file: docs/applications.md).
PRIO  := 30
FLAGS := 0
ARGS  := 600 6

# appinit, it and a passive tracelogger, as `make run APPS=deadline` builds.
IMAGES         += deadlines
deadlines_APPS := appinit deadline tracelogger
