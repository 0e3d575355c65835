# SPDX-License-Identifier: MIT
# worker: the demo's CPU-bound worker (user/module.mk reads this file: docs/applications.md).
PRIO := 5
