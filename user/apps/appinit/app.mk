# SPDX-License-Identifier: MIT
# appinit: pid 1 of `make run APPS=...` and `make dtrace APPS=...` (user/module.mk reads this
# file: docs/applications.md). It starts and stops tracing, so it needs KAPP_F_TRACE.
PRIO  := 20
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV
