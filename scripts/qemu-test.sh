#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs a test image: its programs print TAP lines; the image's exit status must be 0.
#   scripts/qemu-test.sh IMAGE.elf [qemu args...]     (environment: scripts/qemu-run.sh's)
# A hung kernel is killed by the timeout and fails the test. The timeout, in this order:
#  - QEMU_TIMEOUT, when the caller sets it;
#  - else the test's own limit, tests.list's second column, which scripts/run-tests.sh passes
#    as RUN_TESTS_TIMEOUT, less 10 s (half of a limit of 20 s or less; qemu-run.sh's kill
#    takes up to 5 s more), so QEMU is stopped and reported here before the runner kills the
#    whole test;
#  - else 90 s (run by hand).
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
if [ -z "${QEMU_TIMEOUT:-}" ]; then
    lim=${RUN_TESTS_TIMEOUT:-}
    if [[ $lim =~ ^[0-9]+$ ]] && [ "$lim" -gt 0 ]; then
        QEMU_TIMEOUT=$(( lim > 20 ? lim - 10 : (lim + 1) / 2 ))
    else
        QEMU_TIMEOUT=90
    fi
fi
out=$(QEMU_TIMEOUT=$QEMU_TIMEOUT "$(dirname "$0")/qemu-run.sh" "$@" 2>&1)
rc=$?
# The processes' TAP lines, without their console source prefix (scripts/console.sh).
. "$(dirname "$0")/console.sh"
printf '%s\n' "$out" | con_tap
if [ $rc != 0 ]; then
    echo "not ok - image $1 exited with status $rc"
    exit 1
fi
exit 0
