# SPDX-License-Identifier: MIT
# init: pid 1 of the demo system (user/module.mk reads this file: docs/applications.md).
PRIO  := 20
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

# The demo system (make run without APPS): init starts the others.
IMAGES    += demo
demo_APPS := init srv client ticker driver worker tracelogger
