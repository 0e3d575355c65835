#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs a test image: its programs print TAP lines; the image's exit status must be 0.
# A hung kernel is killed by the timeout (QEMU_TIMEOUT, default 90 s) and fails the test.
set -u
out=$(QEMU_TIMEOUT=${QEMU_TIMEOUT:-90} "$(dirname "$0")/qemu-run.sh" "$@" 2>&1)
rc=$?
# The processes' TAP lines, without their console source prefix (scripts/console.sh).
. "$(dirname "$0")/console.sh"
printf '%s\n' "$out" | con_tap
if [ $rc != 0 ]; then
    echo "not ok - image $1 exited with status $rc"
    exit 1
fi
exit 0
