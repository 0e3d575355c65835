#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernel checks the words of its buffer table a debugger can write (TAP; trace/trace_ring.c,
# docs/hostile.md): deadline traced in ring mode over 4 buffers (16 on 4 CPUs), and through QEMU's gdbstub a
# FULL buffer's CPU byte set to 200 (ring_lies.py). The truths: the file the logger saved,
# read by traceprinter (its events and its loss), against the kernel's own counts on the
# console (recorded, overwritten, and the events it says it generated: the file's events and
# loss, counted apart from the kernel, must add up to them): an index of 200 wrote past the
# ring and the overwritten buffer's events vanished from every count; and the ring's refusal
# count read by gdb.
#   BOARD=<board> test/qemu/test_ring_lies.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
out=$b/test-ring-lies
gdbdir=$(mktemp -d)
trap 'rm -rf "$gdbdir"' EXIT
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
top=$here/../..
. "$here/tap_lib.sh"
img=$b/deadlines.elf
nb=4
[ "$board" = qemu-virt-a53 ] && nb=16     # 4 CPUs each fill one: some are FULL at a halt
echo "1..4"

gdbp() { gdb-multiarch -batch -ex "print/x $1" "$img" 2>/dev/null | sed -n 's/^\$1 = //p'; }
table=$(gdbp '&ktrace.tr_buf')
nbufs=$(gdbp '&ktrace.tr_nbufs')
refused=$(gdbp '&ktrace.tr_refused')
sock=$gdbdir/g
BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=100 \
    QEMU_ARGS="appinit deadline ;; tracelogger -d1 -r -k $nb -f $out/ring.kev" \
    "$top/scripts/qemu-run.sh" "$img" -S -gdb "unix:$sock,server=on,wait=off" >"$out/console" 2>&1 &
q=$!
python3 "$here/ring_lies.py" "$sock" "$table" "$nbufs" "$refused" >"$out/lies" 2>&1
lrc=$?
wait $q
qrc=$?
k=$(grep -a -o "the kernel generated [0-9]* events: recorded [0-9]*, dropped [0-9]*, overwritten [0-9]*" "$out/console")
rec=$(echo "$k" | sed 's/.*recorded \([0-9]*\),.*/\1/')
over=$(echo "$k" | sed 's/.*overwritten \([0-9]*\)$/\1/')
"$h/traceprinter" "$out/ring.kev" >"$out/ring.txt" 2>&1
check "gdb set a FULL buffer's CPU byte to 200 in ring mode ($(tr '\n' ' ' <"$out/lies")) and the kernel ran to the end (QEMU exit $qrc)" \
    "[ $lrc = 0 ] && grep -q '^lied ' $out/lies && [ -n '$k' ]"
check "the ring refused the byte and counted it ($(grep refused "$out/lies"))" \
    "grep -q '^refused [1-9]' $out/lies"
check "nothing vanished: traceprinter finds the kernel's $rec events and its $over overwritten as the file's loss ($k; $(grep -a -E '^(events|lost events):' "$out/ring.txt" | tr '\n' ' '))" \
    "[ -n '$rec' ] && [ '$over' -gt 0 ] && grep -q '^events: $rec in ' $out/ring.txt && grep -q '^lost events: $over ' $out/ring.txt"
gen=$(echo "$k" | sed -n 's/.*generated \([0-9]*\) events.*/\1/p')
fev=$(sed -n 's/^events: \([0-9]*\) in .*/\1/p' "$out/ring.txt")
flost=$(sed -n 's/^lost events: \([0-9]*\).*/\1/p' "$out/ring.txt")
check "what the kernel says it generated ($gen) is the file's events ($fev) and its loss ($flost), counted by traceprinter" \
    "[ -n '$gen' ] && [ -n '$fev' ] && [ -n '$flost' ] && [ \$(($fev + $flost)) = '$gen' ]"
