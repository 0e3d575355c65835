# SPDX-License-Identifier: MIT
# ticker: the demo's periodic timer task (user/module.mk reads this file: docs/applications.md).
PRIO := 30
