# SPDX-License-Identifier: MIT
# worker: the demo's CPU-bound worker (user/module.mk reads this file: docs/applications.md).
PRIO := 5
# CPU-bound, no deadline: the tracelogger's stream is sent above it, below the other programs.
BACKGROUND := 1
