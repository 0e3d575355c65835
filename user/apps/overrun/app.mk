# SPDX-License-Identifier: MIT
# overrun: a 500 Hz periodic task that misses one deadline, saying by its own clock which period
# and when (the incident test, test/qemu/test_incident.sh; docs/incidents.md) (user/module.mk
# reads this file: docs/applications.md).
# Above the consumer and the logger (dtrace 150, tracelogger 200): a real-time task, whose only
# miss is the one it makes itself.
PRIO  := 220
FLAGS := 0
EXTRA := user/lib/pulse_chan.c   # its timer's pulse channel (pulse_chan.h)

# The incident test's image: the board's dtrace with a D trigger over it and the faulting
# stackfault, the tracelogger as a flight recorder (-K).
IMAGES         += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,incident)
incident_APPS  := dtrace appinit overrun stackfault tracelogger
