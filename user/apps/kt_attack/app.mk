# SPDX-License-Identifier: MIT
# kt_attack: the unprivileged attacker the hostile suite starts, one attack per run
# (user/module.mk reads this file: docs/applications.md).
PRIO := 10
