#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make live (scripts/run-live.sh) on its UART path (LIVE_PATH=uart; test_probe_live.sh has the
# probe path) with kevtop -b (TAP): the demo booted with its trace streamed
# live through QEMU_STREAM's relay to kevtop, which shows frames while the system runs and
# writes the trace as it arrives. The truths: the file the board wrote through semihosting in
# the same run (the live file must be it byte for byte), traceprinter reading it undamaged,
# kevstat over it (kevtop's frames add up to its CPU time per thread), and the console, which
# must not yet say the system is done when kevtop's first frame comes. make live also says the
# babeltrace2 command that attaches to kevlive: that command, run as printed once the trace's
# header has come, ends 0 having printed the events of babeltrace2 over kev2ctf's conversion
# of the live file.
#   BOARD=<board> test/qemu/test_live.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-live
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
board=${BOARD:-mps2-an385}
bdir=$here/../../boards/$board
. "$here/tap_lib.sh"
storage=$(sed -n 's/^BOARD_TRACE_STORAGE *:= *\([a-z]*\).*/\1/p' "$bdir/board.mk")
echo "1..7"

# Each line of the run's output stamped as it comes, with whether the console then already
# said the system was done.
BOARD=$board LIVE_PATH=uart LIVE_DIR=$out TRACE_FILE=$out/trace.kev TRACE_STORAGE=${storage:-semihost} \
    KEVTOP_OPTS="-b -d 0.5" LIVE_SECONDS=3 \
    LIVE_PORT=0 timeout 300 "$here/../../scripts/run-live.sh" "$b/demo.elf" "$h/kevtop" "$h/kevlive" 2>&1 |
    python3 -c 'import os, shlex, subprocess, sys, time
bt2, url = None, None
for l in sys.stdin:
    try:
        done = "demo system done" in open(sys.argv[1], errors="replace").read()
    except OSError:
        done = False
    print("%.3f %d %s" % (time.monotonic(), done, l), end="")
    sys.stdout.flush()
    if "attach with: babeltrace2 " in l:
        url = shlex.split(l.split("attach with: ")[1])
    try:    # the command as a user runs it, once the header came (kevlive then has the session)
        ready = url and "babeltrace2 net://" in open(sys.argv[2]).read()
    except OSError:
        ready = False
    if ready and not bt2:
        bt2 = subprocess.Popen(url, stdout=open(sys.argv[3], "w"),
                               stderr=open(sys.argv[3] + ".err", "w"), env=dict(os.environ, TZ="UTC"))
if bt2:
    open(sys.argv[3] + ".rc", "w").write("%d\n" % bt2.wait(timeout=60))' "$out/live.console" "$out/kevlive.log" "$out/bt2.txt" >"$out/run.stamped"
rc=${PIPESTATUS[0]}
cut -d' ' -f3- "$out/run.stamped" >"$out/run.log"
frames=$(grep -c '^kevtop: ' "$out/run.log")
check "make live ran the demo to its end (exit $rc, $frames frames)" \
    "[ $rc = 0 ] && [ $frames -ge 2 ] && grep -q 'demo system done, 0 failures' '$out/live.console'"
first=$(grep -m1 ' kevtop: ' "$out/run.stamped" | cut -d' ' -f2)
check "kevtop's first frame came while the system ran (the console was not done yet)" \
    "[ '$first' = 0 ]"
if [ "${storage:-semihost}" = semihost ]; then
    check "the file kevtop wrote live is the board's file byte for byte" \
        "[ -s '$out/live-board.kev' ] && cmp -s '$out/trace.kev' '$out/live-board.kev'"
else
    ok 0 "the file kevtop wrote live is the board's file byte for byte # SKIP $board has no host files"
fi
tp=$("$h/traceprinter" "$out/trace.kev" 2>&1 | tail -3)
check "traceprinter reads it undamaged ($(tr '\n' ' ' <<<"$tp" | cut -c1-120))" \
    "! grep -q 'damaged' <<<\"\$tp\" && grep -q '^events: ' <<<\"\$tp\""
# kevtop's frames (the run's own, live) against kevstat over the file they came from
sed -n '/^kevtop: /,$p' "$out/run.log" | grep -v '^live: ' >"$out/frames.top"
"$h/kevstat" --json "$out/trace.kev" >"$out/stat.json" 2>/dev/null
python3 "$here/../tools/check_kevtop.py" "$out/frames.top" "$out/stat.json" 0.5 >"$out/check.tap" 2>&1
check "the live frames' CPU time per thread is kevstat's over the file, to 1% ($(grep -m1 'CPU time of each' "$out/check.tap" | cut -c1-90))" \
    "grep -q '^ok [0-9]* - the frames. CPU time' '$out/check.tap'"
check "the live frames follow one another without a gap" \
    "grep -q '^ok [0-9]* - each frame starts where the last ended' '$out/check.tap'"
"$h/kev2ctf" -o "$out/trace.ctf" "$out/trace.kev" 2>/dev/null
TZ=UTC babeltrace2 "$out/trace.ctf" >"$out/trace.txt" 2>/dev/null
url=$(sed -n 's/^live: LTTng viewers attach with: \(babeltrace2 net:.*\)$/\1/p' "$out/run.log")
bt2rc=$(cat "$out/bt2.txt.rc" 2>/dev/null)
check "make live said the babeltrace2 command (${url:-none}); run as said, it ended ${bt2rc:-never} having printed the $(wc -l <"$out/trace.txt") events of babeltrace2 over kev2ctf's conversion of the live file" \
    "[ -n '$url' ] && [ '$bt2rc' = 0 ] && [ -s '$out/trace.txt' ] && cmp -s '$out/trace.txt' '$out/bt2.txt'"
