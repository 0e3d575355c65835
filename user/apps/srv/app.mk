# SPDX-License-Identifier: MIT
# srv: the demo's server (user/module.mk reads this file: docs/applications.md).
PRIO := 12
