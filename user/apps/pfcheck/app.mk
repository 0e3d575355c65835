# SPDX-License-Identifier: MIT
# pfcheck: the printf family against the host's (test/qemu/test_printf.sh), alone in its image.
PRIO  := 10
FLAGS := 0

IMAGES       += pfcheck
pfcheck_APPS := pfcheck
