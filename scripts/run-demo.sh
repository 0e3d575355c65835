#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make run`: boots the demo system in QEMU with the tracelogger capturing to trace.kev on the
# host, then shows the start of the trace and a summary of it.
#   scripts/run-demo.sh IMAGE.elf TRACEPRINTER
set -u
img=$1
tp=$2
trace=${TRACE_FILE:-trace.kev}
rm -f "$trace"
echo "run: booting $img in QEMU; the tracelogger writes $trace"
QEMU_ARGS="tracelogger -d1 -k 32 -f $trace" QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    "$(dirname "$0")/qemu-run.sh" "$img"
rc=$?
echo "run: the demo system exited with status $rc"
if [ -s "$trace" ]; then
    echo
    echo "run: the first events of $trace ($tp $trace | less for all of them):"
    "$tp" "$trace" | head -40
    echo "..."
    echo
    echo "run: events by class:"
    "$tp" -p '%Z' "$trace" | awk '$1 ~ /^[A-Z_]+$/ && NF == 1' | sort | uniq -c | sort -rn
    "$tp" "$trace" | tail -4
fi
exit $rc
