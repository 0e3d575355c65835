# SPDX-License-Identifier: MIT
# period: a 1 ms periodic thread that measures its own period while the tracelogger saves the
# trace (test/qemu/test_period.sh) (user/module.mk reads this file: docs/applications.md).
PRIO  := 20
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

IMAGES        += periodic
periodic_APPS := period tracelogger
