# SPDX-License-Identifier: MIT
# client: the demo's client (user/module.mk reads this file: docs/applications.md).
PRIO := 10
