#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The end of `make run` (scripts/run-demo.sh): the start of a capture, its events by class and
# its summary, and the HTML report, whose path is printed whenever kevreport wrote it. A capture
# cut short (a run ended by QEMU_TIMEOUT, killed while the tracelogger wrote) still gives a
# report of what it holds: kevreport says where the file ends and exits 1, and the path is
# printed with that said, never left out.
#   scripts/run-report.sh TRACE TRACEPRINTER [KEVREPORT]
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
trace=$1
tp=$2
[ -s "$trace" ] || exit 0
echo
echo "run: the first events of $trace ($tp $trace | less for all of them):"
"$tp" "$trace" | head -40
echo "..."
echo
echo "run: events by class:"
"$tp" -p '%Z' "$trace" | awk '$1 ~ /^[A-Z_]+$/ && NF == 1' | sort | uniq -c | sort -rn
"$tp" "$trace" | tail -4
[ -n "${3:-}" ] || exit 0
report=${trace%.kev}.html
rm -f "$report"
"$3" -o "$report" "$trace"
krc=$?
if [ -s "$report" ]; then
    echo
    if [ $krc = 0 ]; then
        echo "run: the report (timeline, CPU time, kernel calls, interrupts, messages, losses):"
    else
        echo "run: the report of what the capture holds (it is cut short: kevreport above):"
    fi
    echo "     $(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
fi
