# SPDX-License-Identifier: MIT
# stackchain: a known call chain for the stack tests (user/module.mk reads this file:
# docs/applications.md, docs/profiling.md).
PRIO := 10
