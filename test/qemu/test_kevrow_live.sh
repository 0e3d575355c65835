#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A row's own D probe fired live: the kevrowlive image's kernel alone has the event table's
# test-only row (test/tools/test_event_row.c, SYSTEM 0x3f0 TEST_ONLY) and its emit site
# (test/tools/test_event_row_kernel.c: the generated kev_emit_test_only, behind
# ThreadCtl(KTCTL_KDEBUG_ROW)), which kevrow reaches three times with
# values it prints first (user/apps/kevrow). Its probe, kevtest:::test-only, is in no probe list
# of d/dprobes.h: the host's dcompile built with the row (HT/evrow/dcompile) gives it its id from
# the rows, the kernel fires it under the id it walks from the same rows (trace/d/row_probes.c),
# with the row's D-column arguments (the thread, its pid, level, flagged, where) and the time.
# One boot under -icount: the board's dtrace runs the script, appinit starts kevrow and the
# tracelogger. The truths: kevrow's own lines (the values the site wrote, its pid); the capture's
# events as traceprinter (built with the row) names their fields; and the same script over the
# capture with dtrace -i, which must print what the board printed, times included (a probe has
# its event's stamp, docs/d-probes.md "Time"). The builds without the row know no such probe.
# A few seconds.
#   test/qemu/test_kevrow_live.sh BUILD_DIR HOST_DIR HOST_TEST_DIR
set -u
b=$(cd "$1" && pwd) h=$(cd "$2" && pwd) ht=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/tap_lib.sh"
out=$b/test-kevrow-live
rm -rf "$out"
mkdir -p "$out"
cat >"$out/row.d" <<'D'
#pragma D option quiet
kevtest:::test-only
{
    printf("row %d %d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4, timestamp);
}
D
"$ht/evrow/dcompile" -s "$out/row.d" -o "$out/row.dobj" 2>"$out/dcompile.err"
ok $? "dcompile built with the row compiles kevtest:::test-only, which no probe list names"
"$h/dcompile" -s "$out/row.d" -o "$out/plain.dobj" 2>/dev/null
ok $((! $?)) "the dcompile without the row refuses it"

(cd "$out" && QEMU_ARGS="dtrace -c appinit $out/row.dobj ;; appinit kevrow ;; tracelogger -d1 -f $out/t.kev" \
    QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-60} "$root/scripts/qemu-run.sh" "$b/kevrowlive.elf" \
    >"$out/run.log" 2>&1)
rc=$?
[ $rc = 0 ] && grep -q "kevrow: done" "$out/run.log" && grep -q "appinit: done, 0 failures" "$out/run.log"
ok $? "the image ran kevrow under dtrace and exited $rc, kevrow's three rows written"
grep -q 'no events lost' "$out/run.log"
ok $? "the tracelogger lost no event"

# kevrow's lines: "kevrow: pid P level L flagged F where W"; its thread is its first (tid 1)
sed -n 's/.*kevrow: kevrow: pid \([0-9]*\) level \([0-9]*\) flagged \([0-9]*\) where \([0-9]*\)$/\1 \2 \3 \4/p' \
    "$out/run.log" >"$out/truth"
awk '{ printf "%d %d %d %d %s\n", $1 * 65536 + 1, $1, $2, $3, $4 }' "$out/truth" >"$out/want"
sed -n 's/^1\/dtrace: row //p' "$out/run.log" >"$out/live"
cut -d' ' -f1-5 "$out/live" | diff "$out/want" - >"$out/live.diff"
ok $? "live: kevtest:::test-only fired once per row written, with kevrow's values ($(wc -l <"$out/want") rows)"
[ "$(wc -l <"$out/want")" = 3 ]
ok $? "kevrow said it wrote 3 rows"

# the capture's events, named by the row: the same values
"$ht/evrow/traceprinter" "$out/t.kev" >"$out/tp" 2>&1
sed -n 's/.*:TEST_ONLY *who:0x\([0-9a-f]*\) level:\([0-9]*\) flagged:\([0-9]*\) where:0x\([0-9a-f]*\) .*/\1 \2 \3 \4/p' \
    "$out/tp" | while read -r who level flagged where; do
        printf "%d %d %d %d %d\n" $((16#$who)) $((16#$who >> 16)) "$level" "$flagged" $((16#$where))
    done | diff "$out/want" - >"$out/tp.diff"
ok $? "the capture: traceprinter names each TEST_ONLY event's fields with kevrow's values"

# the same script over that capture: the board's output, times included
"$ht/evrow/dtrace" -q -i "$out/t.kev" -s "$out/row.d" 2>"$out/replay.err" | grep . >"$out/replay"
sed 's/^row //' "$out/replay" | diff "$out/live" - >"$out/replay.diff"
ok $? "dtrace -i over the capture prints what the board printed, to the nanosecond"
"$h/dtrace" -q -i "$out/t.kev" -s "$out/row.d" >/dev/null 2>&1
ok $((! $?)) "the dtrace without the row has no such probe"
for f in live.diff tp.diff replay.diff; do [ -s "$out/$f" ] && { echo "# $f:"; sed 's/^/#   /' "$out/$f"; }; done
echo "1..$n"
