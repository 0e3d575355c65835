#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One .kev through the three converters, each output checked by its consumer's import rules:
# kev2ctf by Trace Compass's (check_ctf.py, babeltrace2 reads it), kev2perfetto by trace
# processor's (check_perfetto.py, with the .kev's loss count), kev2json by Perfetto's JSON
# importer's (check_json.py), and the three agreeing on ids and priorities (check_ids.py);
# kev2perfetto's output decoded by protoc with Perfetto's schema (check_perfetto_protoc.py), its
# counters and thread-state slices held against traceprinter's events (check_perfetto_states.py;
# not with CONSUMERS_NO_PROTOC=1, for a caller that runs those two on the trace itself).
# Prints TAP lines without a plan, numbered from 1 unless TAP_BASE says where to continue;
# exit 1 when any check fails. Used on the QEMU demo trace (test/qemu/test_tracelogger.sh).
# usage: check_consumers.sh HOSTBIN FILE.kev OUTDIR [NCPU]
set -u
bin=$1 kev=$2 out=$3 ncpu=${4:-1}
here=$(dirname "$0")
n=${TAP_BASE:-0} fails=0
mkdir -p "$out"
read -r events lost <<<"$("$bin/traceprinter" "$kev" 2>/dev/null | sed -n '/-- SUMMARY --/,$p' |
    sed -n 's/^events: \([0-9]*\) in .*/\1/p; s/^lost events: \([0-9]*\).*/\1/p' | tr '\n' ' ')"
# run NAME COMMAND...: the command's TAP lines, renumbered and prefixed with NAME.
run() {
    local name=$1 line; shift
    "$@" >"$out/$name.tap" 2>&1
    while IFS= read -r line; do
        case $line in
            "ok "*) n=$((n + 1)); echo "ok $n - $name: ${line#ok * - }" ;;
            "not ok "*) n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $name: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$out/$name.tap"
}
rm -rf "$out/trace.ctf"
"$bin/kev2ctf" -o "$out/trace.ctf" "$kev" && "$bin/kev2perfetto" -o "$out/trace.pftrace" "$kev" &&
    "$bin/kev2json" -o "$out/trace.json" "$kev"
rc=$?
n=$((n + 1)); if [ $rc = 0 ]; then echo "ok $n - the three converters read $kev"; else
    fails=$((fails + 1)); echo "not ok $n - the three converters read $kev"; fi
run ctf python3 "$here/check_ctf.py" "$out/trace.ctf" "$ncpu"
run perfetto python3 "$here/check_perfetto.py" -l "${lost:-0}" -v "$out/trace.view" "$out/trace.pftrace"
if [ "${CONSUMERS_NO_PROTOC:-0}" != 1 ]; then
    run perfetto-protoc python3 "$here/check_perfetto_protoc.py" -c "$out/trace.counters" \
        "$here/perfetto_subset.proto" "$out/trace.pftrace" "$out/trace.view"
    "$bin/traceprinter" -n -m -p '%c|%C|%Z|%z|%a' "$kev" >"$out/trace.tp" 2>/dev/null
    run perfetto-states python3 "$here/check_perfetto_states.py" "$out/trace.tp" "$out/trace.counters"
fi
run json python3 "$here/check_json.py" "$out/trace.json" "${events:-0}" "${lost:-0}"
run ids python3 "$here/check_ids.py" "$out/trace.ctf" "$out/trace.pftrace" "$out/trace.json"
echo "$n" >"$out/count"
[ "$fails" = 0 ]
