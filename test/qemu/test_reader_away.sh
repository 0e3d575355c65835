#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A reader that falls behind costs the board nothing but counted drops (docs/live.md, "A reader
# that falls behind"; docs/probe-path.md). The program watched is deadline (user/apps/deadline,
# 3000 periods of 2 ms, 30 programmed overruns), which counts by its own cycle counter the
# periods it missed and the timer pulses it never got; the board in QEMU's exact mode, its ring
# the board's default (32 buffers: what a full ring's picks cost grows with them). The truths: its line
# with the tracelogger saving the capture (make run's way) against its line under the probe
# path when the reader
#   1. is stopped (SIGSTOP) from its second buffer on, for 1.5 s of the host's time and until
#      the kernel says it dropped 2,000 events (its own count, read in the probe block), then
#      goes on: as a slow probe, a busy host or a debugger's UI stops it;
#   2. reads through a GDB server that serves memory at 150 KB/s (a CMSIS-DAP's rate; the
#      stand-in test/tools/gdb_shared_ram.py), slower than the board records;
# and in both: the kernel dropped events and the file counts exactly those (traceprinter's lost
# events, the kernel's console count), kevstat blames no lateness of the tick on the target,
# QEMU's QMP saw the VM stopped 0 times, and deadline's timers lost no pulse.
#   BOARD=<board> test/qemu/test_reader_away.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/../../scripts/script_help.sh" && script_help "$0" "${1:-}"
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
here=$(dirname "$0")
top=$here/../..
. "$here/tap_lib.sh"
TAP_PREFIX="$board: "
out=$b/test-reader-away
rm -rf "$out" && mkdir -p "$out"
sock=$(mktemp -d)   # the RAM files and sockets (a socket's path has at most 107 bytes)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$sock"' EXIT
img=$b/deadlines.elf
args="appinit deadline ;; deadline 3000 30"
base=$(sed -n 's/^BOARD_SHARED_RAM *:= *\(0x[0-9a-fA-F]*\).*/\1/p' "$top/boards/$board/board.mk")
blk=0x$(nm "$img" | sed -n 's/^\([0-9a-f]*\) [BbDd] kev_probe_block$/\1/p' | head -1)
echo "1..12"

line() { grep -a -o 'deadline: 3000 periods, .*' "$1" | head -1 | sed 's/^deadline: 3000 periods, //'; }
kdrop() { grep -a -o "the kernel generated [0-9]* events: recorded [0-9]*, dropped [0-9]*" "$1" |
          sed 's/.*dropped //'; }
stops() { sed -n 's/^STOP \([0-9]*\)$/\1/p' "$1"; }
blamed() { "$h/kevstat" "$1" 2>&1 | grep -E 'held its interrupts|this is the target'"'"'s own lateness'; }

# The truth: the tracelogger saves the capture itself (semihosting), nobody reads it live.
BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=200 QEMU_ARGS="$args ;; tracelogger -d1 -f $out/run.kev" \
    "$top/scripts/qemu-run.sh" "$img" >"$out/run.console" 2>&1
run=$(line "$out/run.console")
check "without a reader, deadline misses its 30 programmed periods and loses no pulse ($run)" \
    "echo '$run' | grep -q '^missed 30: .*; pulses lost 0$'"

# boot NAME KEVPROBE-TARGET [KEVPROBE ARGS...]: the image with the probe path's logger (which
# waits for the reader's end 600 s of the board's time: in exact mode an idle board's clock
# runs ahead of the host's, and 10 s of it were 2-3 s of a slow reader's), its RAM
# shared through NAME.ram, QMP's events counted into NAME.qmp, kevprobe reading TARGET into
# NAME.kev (its stderr NAME.probe; its pid in kp, QEMU's in q). Returns at once.
boot() {
    local name=$1 target=$2
    shift 2
    python3 "$top/test/tools/qmp_events.py" "$sock/$name.qmp" "$out/$name.qmp" 120 &
    BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=300 QEMU_SHARED_RAM=$sock/$name.ram \
        QEMU_ARGS="$args ;; tracelogger -d1 -x probe -x probewait=600" \
        "$top/scripts/qemu-run.sh" "$img" -qmp "unix:$sock/$name.qmp,server=on,wait=on" \
        >"$out/$name.console" 2>&1 &
    q=$!
    if [ "${STREAM:-0}" = 1 ]; then     # make live's way: the framed stream into kevtop
        mkfifo "$sock/$name.fifo"
        "$h/kevtop" -b -d 0.2 -o "$out/$name.kev" "$sock/$name.fifo" >"$out/$name.top" 2>&1 &
        ktop=$!
        "$h/kevprobe" -t -w 60 -p $q -e "$img" "$@" -o "$sock/$name.fifo" "$target" \
            2>"$out/$name.probe" &
    else
        "$h/kevprobe" -w 60 -p $q -e "$img" "$@" -o "$out/$name.kev" "$target" 2>"$out/$name.probe" &
    fi
    kp=$!
}
# judge NAME WHAT: the checks both readers are held to.
judge() {
    local name=$1 what=$2 d lost
    local got; got=$(line "$out/$name.console")
    check "$what: deadline's truth is make run's: $got" "[ -n '$got' ] && [ '$got' = '$run' ]"
    d=$(kdrop "$out/$name.console")
    "$h/traceprinter" "$out/$name.kev" >"$out/$name.txt" 2>&1
    lost=$(sed -n 's/^lost events: \([0-9]*\).*/\1/p' "$out/$name.txt")
    check "$what: the kernel dropped events, and the file counts exactly those (kernel ${d:-?}, file ${lost:-?})" \
        "[ -n '$d' ] && [ '$d' -gt 0 ] && [ '$d' = '${lost:-x}' ] && ! grep -aq 'timer pulse to pid .* lost' $out/$name.console"
    check "$what: kevstat blames no late tick on the target ($(blamed "$out/$name.kev" | head -1))" \
        "[ -s $out/$name.kev ] && [ -z \"\$(blamed $out/$name.kev)\" ]"
    check "$what: QEMU's QMP saw the VM stopped 0 times ($(tr '\n' ' ' <"$out/$name.qmp"))" \
        "grep -q '^CONNECTED 1$' $out/$name.qmp && [ \"\$(stops $out/$name.qmp)\" = '' ]"
}

# 1. The reader stopped mid-run, its stream read by kevtop as make live reads it.
STREAM=1 boot paused "file:$sock/paused.ram@$base" -i 20 -F 100
for _ in $(seq 600); do     # its second buffer written (a 16 KB buffer and the header)
    [ "$(stat -c %s "$out/paused.kev" 2>/dev/null || echo 0)" -gt 40000 ] && break
    kill -0 $kp 2>/dev/null || break
    sleep 0.05
done
kill -STOP $kp
t0=$(date +%s.%N)
held=0
for _ in $(seq 1200); do    # 1.5 s at least, and the kernel's own count at 2,000 drops
    sleep 0.05
    d=$(python3 "$top/test/tools/probe_drops.py" "$sock/paused.ram" "$base" "$blk" 2>/dev/null)
    if awk -v t0="$t0" -v t="$(date +%s.%N)" 'BEGIN { exit !(t - t0 >= 1.5) }' &&
        [ "${d:-0}" -ge 2000 ]; then
        held=1
        break
    fi
    kill -0 $q 2>/dev/null || break
done
kill -CONT $kp
wait $kp
prc=$?
wait $q
qrc=$?
wait
check "the reader stopped 1.5 s and until the kernel had dropped 2,000 events (reached: $held, then ${d:-?}), then read to the end (kevprobe $prc, the system $qrc)" \
    "[ $held = 1 ] && [ $prc = 0 ] && [ $qrc = 0 ]"
judge paused "a reader stopped 1.5 s"
said=$(grep '^reader: [0-9]* buffers behind the board, which has dropped [1-9][0-9]* events so far' "$out/paused.top" | sort -t' ' -k2,2n | tail -1)
check "kevtop said the reader's lag and the board's drops as the reader went on, before their buffers came (${said:-nothing})" \
    "[ -n \"\$said\" ] && grep -q '^kevtop: ' $out/paused.top"

# 2. A slow probe: the GDB stand-in serves memory at 150 KB/s.
python3 "$top/test/tools/gdb_shared_ram.py" "$sock/slow.gdb" "$sock/slow.ram" "$base" "$out/slow.stats" 150000 &
srv=$!
boot slow "unix:$sock/slow.gdb" -i 20 -F 100
wait $kp
prc=$?
wait $q
qrc=$?
wait $srv
wait
check "a reader at 150 KB/s (a CMSIS-DAP's rate) read to the end, never halting the target (kevprobe $prc, the system $qrc; $(tr '\n' ' ' <"$out/slow.stats"))" \
    "[ $prc = 0 ] && [ $qrc = 0 ] && grep -q '^halts 0$' $out/slow.stats"
judge slow "a reader at 150 KB/s"
