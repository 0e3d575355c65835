#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make run`: boots the demo system in QEMU with the tracelogger capturing to trace.kev on the
# host, then shows the start of the trace and a summary of it, and writes the HTML report. On a board with semihosting the
# logger writes the file itself; on one without (TRACE_STORAGE=uart) it streams the trace on
# its UART and kevcapture rebuilds the file.
#   scripts/run-demo.sh IMAGE.elf TRACEPRINTER [KEVCAPTURE [KEVREPORT]]
# RUN_ARGS: the other programs' part of the command line (make run APPS=: "appinit a b");
# TL_OPTS: more tracelogger options (make run TL_OPTS=-w: wide events, with priorities).
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
img=$1
tp=$2
trace=${TRACE_FILE:-trace.kev}
rm -f "$trace"
# A killed process's console line names its pc; stacksym adds the function and line from the
# image's ELF files (docs/profiling.md), so the board carries no symbols.
symbolize() {
    local sym
    sym=$(dirname "$tp")/stacksym
    if [ -x "$sym" ]; then "$sym" -k "$img" "${img%.elf}"/*.elf; else cat; fi
}
echo "run: booting $img in QEMU; the tracelogger writes $trace"
if [ "${TRACE_STORAGE:-semihost}" = uart ]; then
    uart=$(dirname "$img")/trace.uart
    args=${RUN_ARGS:-}
    [ -n "${TL_OPTS:-}" ] && args="${args:+$args ;; }tracelogger -d1 -u $TL_OPTS"
    QEMU_ARGS=$args QEMU_UART1=$uart QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$(dirname "$0")/qemu-run.sh" "$img" |
        symbolize
    rc=${PIPESTATUS[0]}
    "${3:?kevcapture is needed on this board}" -q -o "$trace" "$uart" || rc=1
else
    QEMU_ARGS="${RUN_ARGS:+$RUN_ARGS ;; }tracelogger -d1 ${TL_OPTS:-} -f $trace" QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
        "$(dirname "$0")/qemu-run.sh" "$img" | symbolize
    rc=${PIPESTATUS[0]}
fi
echo "run: the system exited with status $rc"
"$(dirname "$0")/run-report.sh" "$trace" "$tp" "${4:-}"
exit $rc
