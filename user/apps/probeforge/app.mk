# SPDX-License-Identifier: MIT
# probeforge: an unprivileged program that forges the probe path's capture, for the test of
# what kevprobe's scan believes (test/qemu/test_probe_forge.sh, docs/probe-path.md) (user/module.mk
# reads this file: docs/applications.md).
PRIO  := 20
FLAGS := 0

# The forger beside deadline (the capture kevprobe must take) and a passive tracelogger.
IMAGES          += probeforge
probeforge_APPS := appinit probeforge deadline tracelogger
