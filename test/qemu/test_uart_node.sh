#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A device program (TAP; docs/boards.md, "Devices for programs"): user/apps/uartnode owns
# mps2-an385's UART for programs (UART 2) by interrupt pulses on both its lines, its peer a
# script outside QEMU (test/qemu/uart_peer.py) on a TCP socket that QEMU_EXTRA's -chardev and
# -serial give the UART, the way docs/boards.md says; a 500 Hz timer-released loop with 6
# programmed overruns, a command server, a mutex and a hog beside it, under -icount
# shift=0,sleep=off with a capture. Its part of the command line has it first attach line 0,
# the console's, which is not a program's. The oracles: the peer's own counts and replies (every
# reply what it sent asked for; its bytes out are the driver's bytes in, its bytes in the
# driver's out), the capture's interrupt entries on lines 4 and 5 (each a pulse the driver
# counted; the transmit line's last may come after the driver's end), the loop's own clock (6
# misses, no pulse lost), and for the refusal the lines the board's header gives programs
# (BOARD_USER_IRQ_MASK, boards/mps2-an385/board_config.h, evaluated by the host's C
# preprocessor), which the kernel's console line must name. Over the capture every reader
# (kevstat, kevsql, the report, kevweb) says the loop's own count of misses and none for the
# driver and the server (event-driven), and no wait is put on a thread that waited for input.
#   test/qemu/test_uart_node.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=mps2-an385
here=$(dirname "$0")
top=$(cd "$here/../.." && pwd)
. "$here/tap_lib.sh"
. "$here/capture_boot.sh"
out=$b/test-uart-node
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
h=$(cd "$h" && pwd)

python3 "$here/uart_peer.py" "$out/port" > "$out/peer.log" 2>&1 &
peer=$!
for _ in $(seq 100); do [ -s "$out/port" ] && break; sleep 0.1; done
port=$(cat "$out/port" 2>/dev/null)
export QEMU_EXTRA="-chardev socket,id=peer,host=127.0.0.1,port=${port:-0} -serial chardev:peer"
(cd "$top" && capture_boot "$board" "$b/uartnodes.elf" "uartnode ;; uartnode 600 6 -x 0" "$out" "$h")
rc=$?
wait $peer
prc=$?
check "the node ran to its end with the capture written (status $rc, its peer on port ${port:-none})" \
    "[ $rc = 0 ] && grep -qa 'uartnode: done, ok' $out/run.log && [ -s $out/t.kev ]"
[ $rc = 0 ] || tail -20 "$out/run.log" | sed 's/^/# /'
pline=$(tail -1 "$out/peer.log")
check "the peer: every reply what its command asked for ($pline)" "[ $prc = 0 ]"
[ $prc = 0 ] || sed 's/^/# /' "$out/peer.log"

num() { grep -o "[0-9]* $2" <<< "$1" | head -1 | cut -d' ' -f1; }
dline=$(grep -a -m1 '/uartnode: uartnode: driver:' "$out/run.log")
p_out=$(num "$pline" 'bytes out') p_in=$(num "$pline" 'bytes in')
d_in=$(num "$dline" 'bytes in') d_out=$(num "$dline" 'bytes out')
rxp=$(num "$dline" 'receive pulses') txp=$(num "$dline" 'transmit pulses')
check "bytes in = the peer's bytes out ($d_in, $p_out), bytes out = the peer's bytes in ($d_out, $p_in)" \
    "[ -n '$d_in' ] && [ '$d_in' = '$p_out' ] && [ -n '$d_out' ] && [ '$d_out' = '$p_in' ]"

"$h/traceprinter" -n "$out/t.kev" > "$out/t.txt" 2>&1
e4=$(grep -c 'INT_ENTR:0x00000004 ' "$out/t.txt")
e5=$(grep -c 'INT_ENTR:0x00000005 ' "$out/t.txt")
check "by interrupts: the capture's entries on the receive line = the driver's receive pulses ($e4, $rxp)" \
    "[ -n '$rxp' ] && [ '$rxp' -gt 0 ] && [ '$e4' = '$rxp' ]"
check "and on the transmit line the driver's transmit pulses, or one more after its end ($e5, $txp; $d_out bytes out)" \
    "[ -n '$txp' ] && [ '$txp' -gt 0 ] && [ \$(( e5 - txp )) -ge 0 ] && [ \$(( e5 - txp )) -le 1 ]"

# The lines the board gives programs, from its header: "2-5, 8, 24-31".
mask=$(printf '#include "board_config.h"\nBOARD_USER_IRQ_MASK\n' |
       cpp -P -I"$top/boards/$board" - | tail -1)
lines=$(python3 -c '
import sys
m = eval(sys.argv[1].replace("u", ""))
on = [i for i in range(32) if m >> i & 1]
runs, i = [], 0
while i < len(on):
    j = i
    while j + 1 < len(on) and on[j + 1] == on[j] + 1:
        j += 1
    runs.append(str(on[i]) if i == j else "%d-%d" % (on[i], on[j]))
    i = j + 1
print(", ".join(runs))' "$mask")
kline=$(grep -a -m1 '^kernel: process [0-9]* (uartnode): InterruptAttachEvent of line 0 refused' "$out/run.log")
check "a line not its own: refused, EINVAL to the program, and the kernel's line names the board's lines for programs ($lines): $kline" \
    "[ -n '$lines' ] && [[ \"\$kline\" == *'(EINVAL)'*'its lines: $lines' ]] && grep -qa 'uartnode: line 0, not its own: refused (errno 22)' $out/run.log"
lline=$(grep -a -m1 '/uartnode: uartnode: loop:' "$out/run.log")
check "the loop by its own clock: 600 jobs, the 6 programmed misses, no pulse lost ($lline)" \
    "[[ \"\$lline\" == *'600 jobs at 500 Hz, missed 6 (programmed 6), pulses lost 0' ]]"
ncmd=$(num "$pline" commands)
check "the server: the peer's $ncmd commands" \
    "grep -qa '/uartnode: uartnode: server: $ncmd commands' $out/run.log"

# Every reader says the loop's misses as the loop counted them and none for the driver, which
# interrupts release (event-driven, no deadline), nor the server, which the driver's messages
# release (task_class_check.py: kevstat's JSON and headline, kevsql, the report and kevweb in
# Chromium); and no wait is put on a thread while it waits for input: every root the wait
# chains name was running or ready for at least the time put on it (its states in the
# capture), and none is the driver, whose waits are for its device.
lm=$(sed -n 's/.*uartnode: loop: 600 jobs at 500 Hz, missed \([0-9]*\).*/\1/p' "$out/run.log" | head -1)
python3 "$here/task_class_check.py" "$h" "$out/t.kev" "$out" --periodic "uartnode/loop=${lm:-0}" \
    --period uartnode/loop=2000 --event uartnode/driver --event uartnode/server \
    --event tracelogger/main >"$out/readers.checks" 2>&1
ok $? "every reader's checks ran to their end (the loop's own count: ${lm:-?} misses)"
relay "$out/readers.checks" "readers: "
roots=$("$h/kevstat" --json --wait-min 0 "$out/t.kev" | python3 -c '
import json, sys
d = json.load(sys.stdin)
busy = {t["name"]: t["states"].get("RUNNING", 0) + t["states"].get("READY", 0) for t in d["threads"]}
bad, n = [], 0
for w in d["chains"]["waiters"]:
    for r in w["roots"]:
        n += 1
        if r["thread"] == "uartnode/driver" or r["t"] > busy.get(r["thread"], 0):
            bad.append("%s -> %s %d" % (w["waiter"], r["thread"], r["t"]))
print("%d roots, %s" % (n, "; ".join(bad) if bad else "none on a waiting thread"))')
check "no wait put on a thread that waited for input ($roots)" "[[ '$roots' == *'none on a waiting thread' ]]"
echo "1..$n"
