#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The probe path of make live (TAP; docs/probe-path.md): kevprobe reads the kernel's
# buffers from the guest RAM QEMU shares with the host as a file while the VM runs, never
# halting it, in QEMU's exact mode and on the host's clock. The
# program watched is deadline (user/apps/deadline), a 500 Hz task with 6 programmed overruns
# that says, by its own cycle counter, which periods it missed and how many timer pulses it
# never got. The truths: its line without live (the tracelogger saving the capture through
# semihosting, as make run does) against its line under make live's defaults; the kernel's
# own counts on the console (events recorded, dropped) against traceprinter's over the live
# file; the board's semihosted copy (-x probe=keep) against the live file byte for byte; QNX's
# traceprinter when QNX_TRACEPRINTER names it; QEMU's own QMP events (its STOP, whenever the VM
# pauses) over a whole make live: none. The halting reader (kevprobe -H through QEMU's gdbstub,
# a debug probe's GDB server's stand-in) is kept, and checked to cost the guest nothing too.
#   BOARD=<board> test/qemu/test_probe_live.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
out=$b/test-probe-live
gdbdir=$(mktemp -d)   # the gdbstubs' UNIX sockets (a short path: at most 107 bytes), the RAM files
trap 'rm -rf "$gdbdir"' EXIT
rm -rf "$out" && mkdir -p "$out/live" "$out/keep"
here=$(dirname "$0")
top=$here/../..
. "$here/tap_lib.sh"
img=$b/deadlines.elf
want="missed 6: 50 150 250 350 450 550; pulses lost 0"
base=$(sed -n 's/^BOARD_SHARED_RAM *:= *\(0x[0-9a-fA-F]*\).*/\1/p' "$top/boards/$board/board.mk")
echo "1..20"

line() { grep -a -o 'deadline: 600 periods, .*' "$1" | head -1 | sed 's/^deadline: 600 periods, //'; }
kcount() { grep -a -o "the kernel generated [0-9]* events: recorded [0-9]*, dropped [0-9]*, overwritten [0-9]*" "$1"; }
# probe_boot NAME TIMEOUT "LOGGER OPTIONS" KEVPROBE-ARGS...: deadline's image booted in exact
# mode with the logger's options and its RAM shared through a file of this run's own, kevprobe
# reading it with the arguments given; the console in NAME.console, kevprobe's stderr in
# NAME.probe, its exit status in prc. QEMU_SMP, when set, reaches qemu-run.sh.
probe_boot() {
    local name=$1 tmo=$2 tl=$3 ram=$gdbdir/$1.ram q
    shift 3
    rm -f "$ram"
    BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=$tmo QEMU_SHARED_RAM=$ram \
        QEMU_ARGS="appinit deadline ;; tracelogger -d1 $tl" \
        "$top/scripts/qemu-run.sh" "$img" >"$out/$name.console" 2>&1 &
    q=$!
    "$h/kevprobe" -w 60 -p $q "$@" "file:$ram@$base" 2>"$out/$name.probe"
    prc=$?
    wait $q
    rm -f "$ram"
}
# The same through QEMU's gdbstub on a UNIX socket, the image booted paused, kevprobe halting
# the VM for each round (-H).
probe_boot_gdb() {
    local name=$1 tmo=$2 tl=$3 sock=$gdbdir/$1 q
    shift 3
    rm -f "$sock"
    BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=$tmo QEMU_ARGS="appinit deadline ;; tracelogger -d1 $tl" \
        "$top/scripts/qemu-run.sh" "$img" -S -gdb "unix:$sock,server=on,wait=off" >"$out/$name.console" 2>&1 &
    q=$!
    "$h/kevprobe" -H "$@" "unix:$sock" 2>"$out/$name.probe"
    prc=$?
    wait $q
}
# live_qmp NAME ENV...: make live's defaults (RUN_ARGS deadline, kevtop -b) with QEMU's QMP
# socket counted by test/tools/qmp_events.py (QEMU waits for it before the guest starts); the
# log in NAME.log, the files in NAME/, the events in NAME.qmp, the exit status in rc.
live_qmp() {
    local name=$1 qsock=$gdbdir/$1.qmp
    shift
    mkdir -p "$out/$name"
    python3 "$top/test/tools/qmp_events.py" "$qsock" "$out/$name.qmp" 60 &
    local qp=$!
    env BOARD=$board "$@" LIVE_DIR=$out/$name TRACE_FILE=$out/$name/trace.kev KEVTOP_OPTS="-b -d 0.5" \
        LIVE_QEMU_ARGS="-qmp unix:$qsock,server=on,wait=on" RUN_ARGS="appinit deadline" \
        timeout 120 "$top/scripts/run-live.sh" "$img" "$h/kevtop" >"$out/$name.log" 2>&1 </dev/null
    rc=$?
    wait $qp
}
stops() { sed -n 's/^STOP \([0-9]*\)$/\1/p' "$1"; }

# 1. Without live: the capture saved by the tracelogger through semihosting.
BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=100 QEMU_ARGS="appinit deadline ;; tracelogger -d1 -f $out/run.kev" \
    "$top/scripts/qemu-run.sh" "$img" >"$out/run.console" 2>&1
run=$(line "$out/run.console")
check "without live, deadline misses exactly its 6 programmed periods and loses no pulse ($run)" \
    "[ '$run' = '$want' ]"

# 2. make live's defaults (the board's path: probe), kevtop -b as the live tool, QEMU's QMP
# events counted: not one STOP (the VM never paused) over the whole run.
live_qmp live QEMU_ICOUNT=exact
live=$(line "$out/live/live.console")
check "make live took the probe path, read the guest RAM QEMU shares, and ran to the end (exit $rc; $(tail -1 "$out/live/kevprobe.log"))" \
    "[ $rc = 0 ] && grep -q 'kevprobe reads the trace from the guest RAM QEMU shares' $out/live.log && grep -q '^kevtop: ' $out/live.log && grep -q ' 0 halts' $out/live/kevprobe.log"
check "QEMU's QMP: the VM was stopped 0 times over the whole make live, exact mode ($(tr '\n' ' ' <"$out/live.qmp"))" \
    "grep -q '^CONNECTED 1$' $out/live.qmp && [ \"\$(stops $out/live.qmp)\" = '' ]"
check "under make live the same periods are missed and no pulse is lost ($live)" \
    "[ '$live' = '$run' ] && ! grep -aq 'timer pulse to pid .* lost' $out/live/live.console"
k=$(kcount "$out/live/live.console")
rec=$(echo "$k" | sed 's/.*recorded \([0-9]*\),.*/\1/')
"$h/traceprinter" "$out/live/trace.kev" >"$out/live.txt" 2>&1
check "traceprinter reads the live file: the kernel's $rec events, none lost ($k)" \
    "[ -n '$rec' ] && grep -q '^events: $rec in ' $out/live.txt && grep -q '^lost events: 0$' $out/live.txt"

# The same on the host's clock (no instruction count): still no STOP.
[ "$board" = qemu-virt-a53 ] && hostclock=QEMU_ICOUNT=none || hostclock=QEMU_ICOUNT=0
live_qmp host $hostclock
check "QEMU's QMP: 0 stops over a whole make live on the host's clock too (exit $rc; $(tr '\n' ' ' <"$out/host.qmp"))" \
    "[ $rc = 0 ] && grep -q '^CONNECTED 1$' $out/host.qmp && [ \"\$(stops $out/host.qmp)\" = '' ] && grep -q ' 0 halts' $out/host/kevprobe.log"

# The counter sees a stop when there is one: the halting reader's make live (LIVE_PATH=gdb).
live_qmp gdb QEMU_ICOUNT=exact LIVE_PATH=gdb
n=$(stops "$out/gdb.qmp")
check "and it counts them where they happen: LIVE_PATH=gdb, kevprobe -H through QEMU's gdbstub, stopped the VM $n times (exit $rc)" \
    "[ $rc = 0 ] && [ -n '$n' ] && [ '$n' -gt 0 ]"
# No heartbeat of the reader's own refused by the live tool in any of these runs (kevtop's
# output, kevprobe's log: every make live of this test, the one further down included).

# 3. The board's own copy: the reader gives nothing back, the logger saves every buffer.
BOARD=$board QEMU_ICOUNT=exact LIVE_KEEP=1 TL_OPTS="-k 48" LIVE_DIR=$out/keep TRACE_FILE=$out/keep/trace.kev \
    KEVTOP_OPTS="-b -d 0.5" RUN_ARGS="appinit deadline" timeout 120 "$top/scripts/run-live.sh" "$img" \
    "$h/kevtop" >"$out/keep.log" 2>&1 </dev/null
check "the live file is the board's semihosted copy byte for byte" \
    "[ -s $out/keep/trace.kev ] && cmp $out/keep/trace.kev $out/keep/live-board.kev"
logs="$out/live.log $out/host.log $out/gdb.log $out/keep.log $out/live/kevprobe.log $out/host/kevprobe.log $out/gdb/kevprobe.log $out/keep/kevprobe.log"
check "no heartbeat of the reader's refused as a lie (not believed) by the live tools in any of the 4 make live runs ($(grep -l 'not believed' $logs | tr '\n' ' '); $(sed -n 's/.*heartbeats sent, \([0-9]* stale\).*/\1/p' $out/live/kevprobe.log))" \
    "[ -s $out/keep.log ] && ! grep -q 'not believed' $logs"
if [ -n "${QNX_TRACEPRINTER:-}" ] && [ -x "$QNX_TRACEPRINTER" ]; then
    "$QNX_TRACEPRINTER" -f "$out/live/trace.kev" >"$out/qnx.txt" 2>&1
    check "QNX's own traceprinter reads the live file to its end" \
        "[ \$? = 0 ] && grep -q 'TIMER' $out/qnx.txt"
else
    ok 0 "QNX's traceprinter # SKIP QNX_TRACEPRINTER unset (../shared/qnx-tools/build.sh builds it)"
fi

# The halts themselves cost the guest nothing: the board's copy is the same bytes whether the
# reader halts it every 1 ms or every 50 ms (no flush requests: they would move buffer ends).
# On one CPU: with several, QEMU's one thread runs the virtual CPUs in turn and a halt moves
# where it switches, so events move by tens of cycles (docs/live.md, "What it costs").
for i in 1 50; do
    QEMU_SMP=1 probe_boot_gdb "halt$i" 100 "-x probe=keep -k 48 -f $out/halt-board.kev" \
        -q -i $i -F 0 -e "$img" -o "$out/halt$i.kev"
    echo "kevprobe exit $prc" >>"$out/halt$i.probe"
    mv "$out/halt-board.kev" "$out/halt$i-board.kev"     # (the header names the file)
done
# (The header and the system page hold the host's date, read at boot: the buffers that follow
# must be the same events.) An event's time may move by one count of the board's counter (16 ns
# on qemu-virt-a53) where a halt lands beside a read of the counter under QEMU's instruction
# count: seen once in 7 make test runs, one event in 9,942. More than one count, more than one
# event in a thousand, or any other byte fails it.
same_buffers() { python3 -c 'import sys
def body(f):
    d = open(f, "rb").read()
    e = d.index(b"TRACE_HEADER_END::") + 18
    return d[e + int(d[d.index(b"TRACE_SYSPAGE_LEN::") + 19:].split(b"TRACE_")[0]):]
a, b = (body(f) for f in sys.argv[1:])
moved = [k for k in range(0, len(a), 16) if a[k + 4:k + 8] != b[k + 4:k + 8]]
same = len(a) == len(b) and len(a) >= 10000 and len(a) % 16 == 0 and all(
    a[k:k + 4] == b[k:k + 4] and a[k + 8:k + 16] == b[k + 8:k + 16] for k in range(0, len(a), 16))
close = all(((int.from_bytes(a[k + 4:k + 8], "little") - int.from_bytes(b[k + 4:k + 8], "little") + 1)
             & 0xffffffff) <= 2 for k in moved)
print(len(a) // 16, len(moved))
sys.exit(not (same and close and len(moved) * 1000 <= len(a) // 16))' "$1" "$2"; }
halts=$(same_buffers $out/halt1-board.kev $out/halt50-board.kev); hrc=$?
check "kevprobe -H, halting QEMU through its gdbstub, costs the guest nothing (one CPU): halts every 1 ms and every 50 ms give the same buffers (events ${halts% *}, times moved by one count: ${halts#* })" \
    "[ $hrc = 0 ] && cmp $out/halt1.kev $out/halt1-board.kev && grep -q 'exit 0' $out/halt1.probe"
# The reader that never halts gives the same bytes as the board's copy (one CPU, its own run).
QEMU_SMP=1 probe_boot shared 100 "-x probe=keep -k 48 -f $out/shared-board.kev" \
    -q -i 5 -F 0 -e "$img" -o "$out/shared.kev"
check "kevprobe over the shared RAM, the VM never halted: the file is the board's semihosted copy byte for byte (exit $prc)" \
    "[ $prc = 0 ] && [ -s $out/shared.kev ] && cmp $out/shared.kev $out/shared-board.kev"

# A probe's GDB server reading in the background: test/tools/gdb_shared_ram.py serves m and M
# from the shared RAM while QEMU runs and refuses (and counts) any halt; kevprobe through it.
ram=$gdbdir/stand.ram
python3 "$top/test/tools/gdb_shared_ram.py" "$gdbdir/stand.gdb" "$ram" "$base" "$out/stand.stats" &
srv=$!
BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=100 QEMU_SHARED_RAM=$ram \
    QEMU_ARGS="appinit deadline ;; tracelogger -d1 -x probe=keep -k 48 -f $out/stand-board.kev" \
    "$top/scripts/qemu-run.sh" "$img" >"$out/stand.console" 2>&1 &
q=$!
"$h/kevprobe" -w 60 -i 5 -F 0 -e "$img" -o "$out/stand.kev" "unix:$gdbdir/stand.gdb" 2>"$out/stand.probe"
prc=$?
wait $q
qrc=$?
wait $srv
rm -f "$ram"
check "kevprobe through a GDB server serving m and M while QEMU runs: the board's copy byte for byte, 0 halts asked, the system ran to its end (exit $prc, system $qrc; $(tr '\n' ' ' <"$out/stand.stats"))" \
    "[ $prc = 0 ] && [ $qrc = 0 ] && cmp $out/stand.kev $out/stand-board.kev && grep -q '^halts 0$' $out/stand.stats && grep -q '^reads [1-9]' $out/stand.stats && grep -q ' 0 halts' $out/stand.probe"

# 4. A reader that falls behind (a poll every 600 ms, no flush) over 4 kernel buffers: the
# kernel drops what finds no buffer; the file counts exactly the kernel's loss.
probe_boot slow 100 "-x probe -k 4" -i 250 -F 0 -e "$img" -o "$out/slow.kev"
k=$(kcount "$out/slow.console")
dropped=$(echo "$k" | sed 's/.*dropped \([0-9]*\),.*/\1/')
"$h/traceprinter" "$out/slow.kev" >"$out/slow.txt" 2>&1
check "a slow reader: the kernel dropped events, the file's loss is its count ($k)" \
    "[ $prc = 0 ] && [ -n '$dropped' ] && [ '$dropped' -gt 0 ] && grep -q '^lost events: $dropped ' $out/slow.txt"
check "kevprobe said while it ran that the board outran it, and which class filter would fit ($(grep -m1 'outruns' "$out/slow.probe"))" \
    "grep -q 'the board outruns the reader: [0-9]* events lost so far, .*tracelogger -F [0-9]' $out/slow.probe"
check "and the program's periods are still its own ($(line "$out/slow.console"))" \
    "[ '$(line "$out/slow.console")' = '$run' ]"
# The advice followed as make live takes it (TL_OPTS reach the passive logger, -d1): the
# program starting the capture adds every class, and the kernel keeps the ones named off all
# the same. The truths: traceprinter finds none of their events in the file, and the kernel
# dropped fewer (its own count on the console).
adv=$(grep -m1 -o "make live TL_OPTS='[-F 0-9]*'" "$out/slow.probe" | sed "s/^make live TL_OPTS='//; s/'\$//")
probe_boot slowf 100 "-x probe -k 4 $adv" -i 250 -F 0 -e "$img" -o "$out/slowf.kev"
kf=$(kcount "$out/slowf.console")
droppedf=$(echo "$kf" | sed 's/.*dropped \([0-9]*\),.*/\1/')
"$h/traceprinter" "$out/slowf.kev" >"$out/slowf.txt" 2>&1
withheld() { python3 -c 'import re, sys
pat = {1: r" KER_(CALL|EXIT):", 2: r" INT_", 3: r" (THREAD|PROCESS) ", 4: r" (THREAD|PROCESS) ",
       5: r" (THREAD|PROCESS) ", 6: r" COMM ", 7: r" SYSTEM\s+:(?!SLOG)"}   # (SLOG: the loss note)
cls = [int(w) for w in sys.argv[2].split() if w.isdigit()]
txt = open(sys.argv[1], errors="replace").read()
sys.exit(not cls or any(re.search(r"^t:\S+ CPU:\d+" + pat[c], txt, re.M) for c in cls))' "$1" "$2"; }
check "the advice followed under make live's passive logger (TL_OPTS='$adv'): taken, none of those classes' events in the file, fewer dropped ($kf)" \
    "[ $prc = 0 ] && [ -n '$adv' ] && ! grep -aq 'tracelogger: -F\|usage: tracelogger' $out/slowf.console && withheld $out/slowf.txt '$adv' && grep -q '^events: ' $out/slowf.txt && [ -n '$droppedf' ] && [ '$droppedf' -lt '$dropped' ]"

# The same in ring mode (-r): the kernel overwrites the oldest unread buffer; kevprobe counts
# by sequence the buffers it never saw, and the file's loss is the kernel's overwritten count.
probe_boot ring 100 "-r -x probe -k 4" -i 600 -F 0 -e "$img" -o "$out/ring.kev"
k=$(kcount "$out/ring.console")
over=$(echo "$k" | sed 's/.*overwritten \([0-9]*\)$/\1/')
"$h/traceprinter" "$out/ring.kev" >"$out/ring.txt" 2>&1
check "ring mode: the buffers overwritten unread are counted, the file's loss is the kernel's ($k; $(tail -1 "$out/ring.probe"))" \
    "[ $prc = 0 ] && [ -n '$over' ] && [ '$over' -gt 0 ] && grep -q '^lost events: $over ' $out/ring.txt && grep -q ' [1-9][0-9]* buffers overwritten before' $out/ring.probe"

# 5. A reader pointed at the wrong place: memory that is not the block is refused at once.
# (the ring's own structure: in the shared RAM, and no block)
main=$(nm "$img" 2>/dev/null | sed -n 's/^\([0-9a-f]*\) [BbDd] ktrace$/\1/p' | head -1)
probe_boot wrong 30 "-x probe -x probewait=1" -a "0x$main" -o "$out/wrong.kev"
check "kevprobe at an address that holds no block says so and fails ($(head -1 "$out/wrong.probe"))" \
    "[ -n '$main' ] && [ $prc = 1 ] && grep -q 'no probe block there' $out/wrong.probe"
check "and the board's logger says no reader took its capture" \
    "grep -aq 'no reader took the end of the capture' $out/wrong.console"
