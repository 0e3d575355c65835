#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every kernel function's entry, the DTraceToolkit's modcalls.d (fbt:::entry { @calls[probemod]
# = count(); }), run as a user runs it: make dtrace S=modcalls.d APPS="acq worker" with make
# dtrace's own defaults (scripts/run-dtrace.sh: QEMU_TIMEOUT 120 s, the host's clock), on a
# board whose kernel has the fbt provider. Truths: the boot ends by itself within that timeout
# (qemu-run.sh kills it and says so otherwise) with the workload's own verdicts (acq's "done,
# ok", worker's primes, appinit's "0 failures"), and the kernel's row is the count dtrace -i
# gives over the same boot's capture (its FUNC_ENTER events), or, where the capture lost events
# (x86-pc's UART stream), fewer, with the loss said. Prints the boot's time on the host.
#   test/qemu/test_fbt_modcalls.sh BOARD HOSTDIR
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $out"
trap '[ -n "${KEEP:-}" ] || rm -rf "$out"' EXIT
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
echo "1..3"
printf 'fbt:::entry { @calls[probemod] = count(); }\n' > "$out/modcalls.d"
start=$(date +%s)
(unset QEMU_TIMEOUT QEMU_ICOUNT; TRACE_FILE=$out/trace.kev make -s BOARD=$board dtrace \
    APPS="acq worker" S="$out/modcalls.d") > "$out/run.log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
echo "# $board: make dtrace S=modcalls.d took $secs s of the host's time (its timeout: 120 s)"
grep -E '^kernel: |^dtrace: |^  kernel ' "$out/run.log" | sed 's/^/# /' | tail -8
check "every fbt:::entry under make dtrace's defaults: the boot ends by itself, exit 0 ($rc, $secs s)" \
    "[ $rc = 0 ] && ! grep -q 'did not finish within' '$out/run.log'"
check "... the workload ran to its end under the probes (acq done, worker's primes, appinit's 0 failures)" \
    "grep -qE '^[0-9]+/acq: acq: done, ok$' '$out/run.log' && grep -qE '^[0-9]+/worker: worker: [0-9]+ primes below' '$out/run.log' && grep -qE '^[0-9]+/appinit: appinit: done, 0 failures$' '$out/run.log'"
live=$(sed -n 's/^  kernel  *\([0-9]*\)$/\1/p' "$out/run.log")
cap=$("$h/dtrace" -i "$out/trace.kev" -s "$out/modcalls.d" 2>"$out/cap.err" | sed -n 's/^  kernel  *\([0-9]*\)$/\1/p')
# A board whose capture streams over a UART (x86-pc) loses most of every-function fbt's events
# (the tracelogger counts them): there the capture counts fewer and dtrace -i says how many
# events it lost, the tracelogger's own count.
lost=$(sed -n 's/.*tracelogger: \([0-9]*\) events lost in.*/\1/p' "$out/run.log" | head -1)
if [ -z "$lost" ]; then
    check "the kernel's row live is the count over the same boot's capture (${live:-none} and ${cap:-none})" \
        "[ -n '$live' ] && [ '$live' -gt 0 ] && [ '$live' = '$cap' ]"
else
    check "the capture lost $lost events (the tracelogger's count): dtrace -i says so and counts fewer (${cap:-none} of ${live:-none})" \
        "[ -n '$live' ] && [ -n '$cap' ] && [ '$cap' -lt '$live' ] && grep -q 'the capture lost $lost events' '$out/cap.err'"
fi
