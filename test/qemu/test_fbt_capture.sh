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
#  - the capture's answers equal the board's, aggregation by aggregation, count for count
#    (return values included: the replay's arg1 comes from FUNC_EXIT), for the firings in the
#    demo's processes (pid > 3: dtrace, init and the tracelogger come first, the capture
#    starts with the tracelogger, as the parity test's scripts restrict theirs).
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
echo "1..7"
# Where the message calls run: the exclusive path's handlers, and on several CPUs the shared
# fast path's too (a shared try that must retry exclusive returns KSHARED_RETRY, -65536, and
# the call runs again: only the other returns end a call).
"$H/dtrace" --kernel "$img" -l -P fbt > "$tmp/list" 2>&1
has() { grep -q " $1 entry$" "$tmp/list"; }
send="fbt::ipc_send_traced:return" reply="fbt::ipc_reply_traced:return"
has ipc_send_shared && send="$send, fbt::ipc_send_shared:return"
has ipc_reply_shared && reply="$reply, fbt::ipc_reply_shared:return"
cat > "$tmp/fbt.d" <<EOF
#pragma D option quiet
kercall::MsgSend:entry { @s["send", "kercall"] = count(); }
$send /arg1 != -65536/ { @s["send", "fbt"] = count(); }
msg:::reply { @s["reply", "msg"] = count(); }
$reply /arg1 == 0/ { @s["reply", "fbt"] = count(); }
kercall:::entry { @s["call", "kercall"] = count(); }
fbt::kcall_dispatch_traced:entry { @s["call", "fbt"] = count(); }
fbt::sched_*:entry, fbt::thread_*:entry, fbt::ipc_*:entry /pid > 3/ { @e[probefunc] = count(); }
fbt::sched_*:return, fbt::thread_*:return, fbt::ipc_*:return /pid > 3/ { @r[probefunc, arg1] = count(); }
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
check "static and dynamic agree: kercall:::entry $a, fbt::kcall_dispatch_traced:entry $b" '[ "$a" -gt 0 ] && [ "$a" = "$b" ]'
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
