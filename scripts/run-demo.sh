#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make run`: boots the demo system in QEMU and reports how it ended.
set -u
img=$1
echo "run: booting $img in QEMU (Ctrl-A X quits)"
QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$(dirname "$0")/qemu-run.sh" "$img"
rc=$?
echo "run: the demo system exited with status $rc"
exit $rc
