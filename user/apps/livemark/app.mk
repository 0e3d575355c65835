# SPDX-License-Identifier: MIT
# livemark: pid 1 of the livemark image, for make bench's event-to-screen figure
# (scripts/bench-live.sh): it prints a console line and runs at the same moment, again and again,
# while the trace streams live (user/module.mk reads this file: docs/applications.md).
PRIO  := 20
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

IMAGES        += livemark
livemark_APPS := livemark tracelogger
