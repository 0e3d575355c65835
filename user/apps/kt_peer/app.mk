# SPDX-License-Identifier: MIT
# kt_peer: ktest's and kbench's partner process (user/module.mk reads this file: docs/applications.md).
PRIO := 50
