#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench`: runs every benchmark command (arguments; a '|' inside one stands for a space)
# and prints their "BENCH <name> <value> <unit>" lines. Fails if any benchmark fails.
#   scripts/run-bench.sh 'COMMAND|ARG|...' ...
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
status=0
for b in "$@"; do
    cmd=${b//|/ }
    echo "# $cmd" >&2
    out=$(bash -c "$cmd" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -E '^BENCH '
    if [ $rc != 0 ]; then
        echo "bench: '$cmd' failed with status $rc" >&2
        printf '%s\n' "$out" | tail -20 >&2
        status=1
    fi
done
exit $status
