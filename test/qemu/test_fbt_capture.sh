#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fbt probes against the kernel's static probes and over a capture (docs/fbt.md, "How it is
# checked"): one boot of the dtparity image (the demo under the board's dtrace, init's
# tracelogger capturing), the D program below live on the board and, with the host's dtrace
# -i --kernel, over that boot's capture, which records every fbt firing (SYSTEM FUNC_ENTER and
# FUNC_EXIT). Checks:
#  - static and dynamic agree: a kernel call's handler's fbt entry count equals its kercall
#    probe's (MsgSend), the successful replies' fbt return count equals msg:::reply's, and the
#    traced dispatch's entries equal every kercall:::entry;
#  - a timer probe after the fbt ones (its id is not an fbt return's: the board refused that);
#  - the capture's answers equal the board's, aggregation by aggregation, count for count
#    (return values included: the replay's arg1 comes from FUNC_EXIT), for the firings in the
#    demo's processes (pid > 3: dtrace, init and the tracelogger come first, the capture
#    starts with the tracelogger, as the parity test's scripts restrict theirs);
#  - kevstat -s funcs over the capture: every function's entries and returns equal dtrace -i's
#    counts of fbt:::entry and fbt:::return there, and the time of two functions (one that
#    switches threads inside, sched_choose_traced) equals a D program's sum of return time
#    less entry time paired on the CPU; kev2perfetto gives each timed call as a slice that
#    Perfetto's import rules accept (test/tools/check_perfetto.py); kevsql's slice table and
#    kevreport's Function calls section hold the same calls.
#   test/qemu/test_fbt_capture.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
. "$here/test/stacks/stacks_lib.sh"
board=${BOARD:-mps2-an385}
img=$B/dtparity.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..12"
# Where the message calls run: the exclusive path's handlers, and on several CPUs the shared
# fast path's too (a shared try that must retry exclusive returns KSHARED_RETRY, -65536, and
# the call runs again: only the other returns end a call).
"$H/dtrace" --kernel "$img" -l -P fbt > "$tmp/list" 2>&1
has() { grep -q " $1 entry$" "$tmp/list"; }
send="fbt::ipc_send_traced:return" reply="fbt::ipc_reply_traced:return"
has ipc_send_shared && send="$send, fbt::ipc_send_shared:return"
has ipc_reply_shared && reply="$reply, fbt::ipc_reply_shared:return"
# Every kernel call's entry record: the traced dispatcher on one CPU; on AArch64 a call may
# begin in the entry code the rules keep unprobed (docs/fbt.md, "Placing on several CPUs"),
# and each call's kercall:::entry fires in ktrace_kcall_entry_full.
case $board in qemu-virt-a53|raspi3b) kfn=ktrace_kcall_entry_full ;; *) kfn=kcall_dispatch_traced ;; esac
cat > "$tmp/fbt.d" <<EOF
#pragma D option quiet
kercall::MsgSend:entry { @s["send", "kercall"] = count(); }
$send /arg1 != -65536/ { @s["send", "fbt"] = count(); }
msg:::reply { @s["reply", "msg"] = count(); }
$reply /arg1 == 0/ { @s["reply", "fbt"] = count(); }
kercall:::entry { @s["call", "kercall"] = count(); }
fbt::$kfn:entry { @s["call", "fbt"] = count(); }
fbt::sched_*:entry, fbt::thread_*:entry, fbt::ipc_*:entry /pid > 3/ { @e[probefunc] = count(); }
fbt::sched_*:return, fbt::thread_*:return, fbt::ipc_*:return /pid > 3/ { @r[probefunc, arg1] = count(); }
tick-1s { ticks++; }
END {
    printa("@@S %s %s %@d\n", @s);
    printa("@@E %s %@d\n", @e);
    printa("@@R %s %d %@d\n", @r);
}
EOF
if uart_board "$board"; then
    # no host files: the board compiles the text from its command line
    text=$(sed -E 's:(^|[[:space:]])//.*$:\1:' "$tmp/fbt.d")
    BOARD=$board QEMU_ARGS="dtrace -c init -n '$text'" QEMU_UART1=$tmp/run.uart \
        QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-300} \
        "$here/scripts/qemu-run.sh" "$img" > "$tmp/live" 2>&1
    rc=$?
    "$H/kevcapture" -q -o "$tmp/run.kev" "$tmp/run.uart" >> "$tmp/live" 2>&1 || rc=1
else
    "$H/dcompile" --kernel "$img" -s "$tmp/fbt.d" -o "$tmp/fbt.dobj" 2> "$tmp/dcompile.err" ||
        sed 's/^/# /' "$tmp/dcompile.err"
    (cd "$tmp" && QEMU_ARGS="dtrace -c init $tmp/fbt.dobj" QEMU_ICOUNT=1 \
        QEMU_TIMEOUT=${QEMU_TIMEOUT:-300} "$here/scripts/qemu-run.sh" "$img" > "$tmp/live" 2>&1)
    rc=$?
    mv -f "$tmp/tracebuffer.kev" "$tmp/run.kev" 2>/dev/null
fi
ok $rc "the demo ran under dtrace with fbt probes and exited 0"
[ $rc = 0 ] || tail -20 "$tmp/live" | sed 's/^/# /'
grep -q "init: demo system done, 0 failures" "$tmp/live" && grep -q "tracelogger: no events lost" "$tmp/live"
ok $? "the demo had no failures and its capture lost nothing"
con_of dtrace < "$tmp/live" | grep '^@@' | sort > "$tmp/board.out"
pair() { awk -v k="$1" '$1 == "@@S" && $2 == k { v[$3] = $4 } END { print v["kercall"] + v["msg"] + 0, v["fbt"] + 0 }' "$tmp/board.out"; }
read -r a b < <(pair send)
check "static and dynamic agree: kercall::MsgSend:entry $a, its handlers' fbt returns $b" '[ "$a" -gt 0 ] && [ "$a" = "$b" ]'
read -r a b < <(pair reply)
check "static and dynamic agree: msg:::reply $a, successful replies' fbt returns $b" '[ "$a" -gt 0 ] && [ "$a" = "$b" ]'
read -r a b < <(pair call)
check "static and dynamic agree: kercall:::entry $a, fbt::$kfn:entry $b" '[ "$a" -gt 0 ] && [ "$a" = "$b" ]'
# the capture: the same program over it, the same answers
"$H/dtrace" -q --kernel "$img" -i "$tmp/run.kev" -s "$tmp/fbt.d" > "$tmp/replay.raw" 2> "$tmp/replay.err"
grep '^@@' "$tmp/replay.raw" | sort > "$tmp/replay.out"
grep -v '^@@S' "$tmp/board.out" > "$tmp/board.fbt"
grep -v '^@@S' "$tmp/replay.out" > "$tmp/replay.fbt"
nans=$(wc -l < "$tmp/board.fbt")
diff "$tmp/board.fbt" "$tmp/replay.fbt" > "$tmp/diff" && [ "$nans" -gt 20 ]
ok $? "dtrace -i over the capture gives the board's $nans fbt answers, count for count"
[ -s "$tmp/diff" ] && head -20 "$tmp/diff" | sed 's/^/# /'
# over the capture (the part the capture holds), the pairs agree as well
awk '$1 == "@@S" { v[$2 " " $3] = $4 } END { bad = 0
    if (v["send kercall"] != v["send fbt"] || v["reply msg"] != v["reply fbt"] ||
        v["call kercall"] != v["call fbt"] || !v["call fbt"]) bad = 1
    printf "# over the capture: send %d/%d, reply %d/%d, calls %d/%d\n", v["send kercall"],
        v["send fbt"], v["reply msg"], v["reply fbt"], v["call kercall"], v["call fbt"]
    exit bad }' "$tmp/replay.out"
ok $? "over the capture, the static probes and their fbt counterparts agree too"
# kevstat's function calls (tools/analysis/kx_funcs.c) against D over the same capture
# (a reply runs in ipc_reply_traced, or on several CPUs in ipc_reply_shared: both timed, and
# the one with more calls compared below)
rents="fbt::ipc_reply_traced:entry" rrets="fbt::ipc_reply_traced:return" rfns=ipc_reply_traced
has ipc_reply_shared && rents="$rents, fbt::ipc_reply_shared:entry" &&
    rrets="$rrets, fbt::ipc_reply_shared:return" && rfns="$rfns ipc_reply_shared"
cat > "$tmp/calls.d" <<EOF
#pragma D option quiet
fbt:::entry { @n[probefunc, "entries"] = count(); }
fbt:::return { @n[probefunc, "returns"] = count(); }
$rents, fbt::sched_choose_traced:entry { t0[cpu, probefunc] = timestamp; }
$rrets, fbt::sched_choose_traced:return /t0[cpu, probefunc]/
{ @t[probefunc] = sum(timestamp - t0[cpu, probefunc]); t0[cpu, probefunc] = 0; }
END { printa("N %s %s %@d\\n", @n); printa("T %s %@d\\n", @t); }
EOF
"$H/dtrace" -q --kernel "$img" -i "$tmp/run.kev" -s "$tmp/calls.d" > "$tmp/calls.out" 2>> "$tmp/replay.err"
"$H/kevstat" -s funcs --kernel "$img" "$tmp/run.kev" > "$tmp/funcs.txt" 2>&1
awk '$1 == "N" { print $2, $3, $4 }' "$tmp/calls.out" | sort > "$tmp/calls.d.counts"
awk 'f && NF == 7 { print $1, "entries", $2; print $1, "returns", $3 } /^  function/ { f = 1 }' \
    "$tmp/funcs.txt" | awk '$3 > 0' | sort > "$tmp/calls.kevstat.counts"
nfn=$(wc -l < "$tmp/calls.d.counts")
cmp -s "$tmp/calls.d.counts" "$tmp/calls.kevstat.counts" && [ "$nfn" -gt 20 ]
ok $? "kevstat -s funcs: entries and returns of each function equal dtrace -i's counts ($nfn)"
diff "$tmp/calls.d.counts" "$tmp/calls.kevstat.counts" | head -5 | sed 's/^/# /'
# D takes each timestamp in whole nanoseconds, kevstat the sum of cycles once: where a cycle
# is not a whole number of nanoseconds (x86-pc's TSC) D's sum is off by under 1 ns a call
good=1
rfn=$(for f in $rfns; do awk -v f=$f '$1 == "N" && $2 == f && $3 == "entries" { print $4, f }' \
      "$tmp/calls.out"; done | sort -n | tail -1 | awk '{ print $2 }')
for fn in ${rfn:-ipc_reply_traced} sched_choose_traced; do
    d=$(awk -v f="$fn" '$1 == "T" && $2 == f { print $3 }' "$tmp/calls.out")
    k=$(awk -v f="$fn" '$1 == f && NF == 7 { printf "%.0f", $5 * 1000 }' "$tmp/funcs.txt")
    nt=$(awk -v f="$fn" '$1 == f && NF == 7 { print $4 }' "$tmp/funcs.txt")
    echo "# $fn: D over the capture ${d:-?} ns, kevstat ${k:-?} ns, ${nt:-?} timed calls"
    [ -n "$d" ] && [ "$d" -gt 0 ] && [ -n "$k" ] && [ -n "$nt" ] &&
        [ $(( d > k ? d - k : k - d )) -le "$nt" ] || good=0
done
[ $good = 1 ]
ok $? "kevstat's time in a function equals D's sum of return less entry on each CPU (within 1 ns a call)"
# kev2perfetto's function slices: Perfetto's slice rules, one slice per call kevstat timed
timed=$(awk 'f && NF == 7 { n += $4 } /^  function/ { f = 1 } END { print n + 0 }' "$tmp/funcs.txt")
"$H/kev2perfetto" --kernel "$img" -o "$tmp/run.pftrace" "$tmp/run.kev" > "$tmp/pf.err" 2>&1 &&
    python3 "$here/test/tools/check_perfetto.py" -f "$timed" "$tmp/run.pftrace" > "$tmp/pf.tap" 2>&1
ok $? "kev2perfetto: the $timed timed calls as nested slices on each CPU's track, as Perfetto imports them"
grep '^not ok' "$tmp/pf.tap" | head -5 | sed 's/^/# /'
# kevsql's slice table holds the same calls (category 'function'), each parent a call of its own
q="SELECT sum(dur >= 0), sum(parent_id IS NOT NULL AND parent_id NOT IN
   (SELECT id FROM slice WHERE category = 'function')) FROM slice WHERE category = 'function'"
read -r sq_timed sq_orphans < <("$H/kevsql" --csv --no-header "$tmp/run.kev" "$q" 2>&1 | tr ',' ' ')
[ "${sq_timed:-x}" = "$timed" ] && [ "${sq_orphans:-x}" = 0 ]
ok $? "kevsql: slice holds the $timed timed calls (${sq_timed:-?}), every parent_id a call's slice"
# kevreport's data: every function with kevstat's numbers, named (its Function calls section)
"$H/kevreport" --kernel "$img" -o "$tmp/run.html" "$tmp/run.kev" > /dev/null 2>&1
python3 - "$tmp/run.html" "$tmp/funcs.txt" <<'PY' > "$tmp/report.check" 2>&1
import json, re, sys
h = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script id="kev-data" type="application/json">\n(.*?)\n</script>', h, re.S).group(1))
names = d["timeline"]["fn_names"]
rep = sorted((names[str(f["fn"])], f["entries"], f["returns"], f["timed"]) for f in d["stats"]["funcs"])
rows, on = [], False
for line in open(sys.argv[2]):
    w = line.split()
    if on and len(w) == 7:
        rows.append((w[0], int(w[1]), int(w[2]), int(w[3])))
    on = on or line.startswith("  function")
assert rep == sorted(rows) and len(rows) > 20, (rep[:3], sorted(rows)[:3])
PY
ok $? "kevreport's Function calls data: every function named, with kevstat's counts"
sed 's/^/# /' "$tmp/report.check" | head -3
