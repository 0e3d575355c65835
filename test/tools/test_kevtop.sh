#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevtop against kevstat over the same finished file: -b's frames summed give each thread's CPU
# time (check_kevtop.py), on one CPU, on two (the live reader's merge), and with events lost;
# each frame against kevsql's scheduling slices clipped to it (check_kevtop_frames.py);
# the same frames from the file read while it grows, from the tracelogger's framed stream
# through a pipe, and with each stream fault injected (said on stderr, the rest decoded);
# frames whose claims the stream contradicts (an early END, heartbeats far ahead), a stalled
# reader's loss counted once, a stream cut mid-frame (said; waiting said);
# --json's numbers are -b's; -n; bad usage.
# usage: test_kevtop.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch kevtop "${2:-build/host-test/kevconv}"
need python3
scen4=${KEVSCEN4:-build/host-test/kevscen4}

# checked NAME TAPFILE: a checker's TAP lines as this script's (tap.sh relay), named; a checker
# that printed none failed.
checked() {
    relay "$2" "$1: "
    grep -q '^\(not \)\{0,1\}ok [0-9]* - ' "$2" || notok "$1: the checker ran" "$(tail -2 "$2")"
}

# check_sums NAME FILE SPAN: kevtop -b's frames against kevstat --json.
check_sums() {
    "$bin/kevstat" --json "$2" >"$dir/$1.json" 2>/dev/null
    if ! "$bin/kevtop" -b -d "$3" "$2" >"$dir/$1.top" 2>"$dir/$1.err"; then
        notok "$1: kevtop -b runs" "$(head -3 "$dir/$1.err")"; return; fi
    python3 "$here/check_kevtop.py" "$dir/$1.top" "$dir/$1.json" "$3" >"$dir/$1.tap" 2>&1
    checked "$1" "$dir/$1.tap"
}

# check_frames NAME FILE SPAN: each frame against kevsql's scheduling slices inside it.
check_frames() {
    local cps
    "$bin/kevtop" --json -d "$3" "$2" >"$dir/$1.jsonl" 2>/dev/null
    "$bin/kevsql" --csv "$2" 'SELECT t.pid, t.tid, s.ts, s.dur FROM sched_slice s JOIN thread t
                              USING (utid)' >"$dir/$1.csv" 2>"$dir/$1.sqlerr"
    cps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["cycles_per_sec"])' "$dir/$1.json")
    python3 "$here/check_kevtop_frames.py" "$dir/$1.jsonl" "$dir/$1.csv" "$cps" >"$dir/$1.ftap" 2>&1
    checked "$1" "$dir/$1.ftap"
}

"$bin/kevgen" -n 200000 -e -o "$dir/one.kev" >/dev/null
check_sums one-cpu "$dir/one.kev" 0.01
check_frames one-cpu "$dir/one.kev" 0.01
"$scen4" -r 400 smp "$dir/smp.kev" >/dev/null
check_sums two-cpus "$dir/smp.kev" 0.01
check_frames two-cpus "$dir/smp.kev" 0.01
"$bin/kevgen" -n 60000 -k 2 -d 0 -o "$dir/lost.kev" >/dev/null
check_sums lost "$dir/lost.kev" 0.02
lost=$(kev_counts "$dir/lost.kev")
toplost=$(grep '^loss: ' "$dir/lost.top" | tail -1 | sed -n 's/.*, \([0-9]*\) in all.*/\1/p')
check "an undersized logger: kevtop's loss in all is traceprinter's (${lost#* }, kevtop ${toplost:-none})" \
    [ "${lost#* }" -gt 0 -a "${toplost:-x}" = "${lost#* }" ]

# The file read as it grows (written 4 KB at a time), and the framed stream through a pipe:
# the same frames as over the finished file.
: >"$dir/growing.kev"
python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/growing.kev" --raw --pace 4096:0.002 >/dev/null &
"$bin/kevtop" -f -b -d 0.01 "$dir/growing.kev" >"$dir/growing.top" 2>"$dir/growing.err"
wait
check "a file read as it grows gives the finished file's frames" cmp -s "$dir/growing.top" "$dir/one-cpu.top"
python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/one.stream" >/dev/null
mkfifo "$dir/fifo"
python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/fifo" --pace 8192:0.001 >/dev/null &
"$bin/kevtop" -b -d 0.01 "$dir/fifo" >"$dir/fifo.top" 2>"$dir/fifo.err"
wait
check "the framed stream through a pipe gives the same frames" cmp -s "$dir/fifo.top" "$dir/one-cpu.top"

# --json: the same CPU times as -b's, frame by frame.
"$bin/kevtop" --json -d 0.01 "$dir/one.kev" >"$dir/one.json" 2>/dev/null
python3 - "$dir/one.json" "$dir/one-cpu.top" >"$dir/json.out" 2>&1 <<'PY'
import json, re, sys
js = [json.loads(l) for l in open(sys.argv[1])]
rows = re.findall(r"^\s*(\d+)\s+(\d+)\s.*?\s([\d.]+)ms\s", open(sys.argv[2]).read(), re.M)
a = sum(t["cpu_ms"] for f in js for t in f["threads"])
b = sum(float(r[2]) for r in rows)
heads = open(sys.argv[2]).read().count("\nkevtop: ") + 1
print(len(js), heads, round(a, 3), round(b, 3))
sys.exit(0 if len(js) == heads and abs(a - b) < 0.001 * len(js) + 1e-6 else 1)
PY
rc=$?
check "--json has -b's frames and CPU times ($(cat "$dir/json.out"))" [ $rc = 0 ]
"$bin/kevtop" -b -n 3 -d 0.01 "$dir/one.kev" >"$dir/n3.top"
check "-n 3 prints 3 frames" [ "$(grep -c '^kevtop: ' "$dir/n3.top")" = 3 ]

# Stream faults: each said once on stderr, counted as injected; the trace goes on.
fault() { # fault NAME KIND:FRAME PATTERN
    local out
    out=$(python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/$1.stream" --fault "$2")
    "$bin/kevtop" -b -d 0.01 "$dir/$1.stream" >"$dir/$1.top" 2>"$dir/$1.err"
    local said frames
    said=$(grep -c "$3" "$dir/$1.err")
    frames=$(grep -c '^kevtop: ' "$dir/$1.top")
    check "$1: said once ($(head -c 160 "$dir/$1.err" | tr '\n' ' '))" [ "$said" = 1 ]
    check "$1: the frames go on to the end ($frames)" [ "$frames" -ge "$(grep -c '^kevtop: ' "$dir/one-cpu.top")" ]
    echo "$out" >"$dir/$1.injected"
}
fault garbage garbage:30 "bytes of garbage between frames"
check "garbage: its bytes counted as injected" grep -q "^$(sed -n 's/^garbage_bytes //p' "$dir/garbage.injected") bytes of garbage" <(sed 's/^kevtop: [^:]*: //' "$dir/garbage.err")
check "garbage: nothing lost, the frames are the file's" cmp -s "$dir/garbage.top" "$dir/one-cpu.top"
fault repeat repeat:30 "came again"
check "repeat: nothing lost, the frames are the file's" cmp -s "$dir/repeat.top" "$dir/one-cpu.top"
fault drop drop:30 "1 frame(s) missing"
check "drop: the loss line counts the buffer lost in transit" grep -q "1 buffer lost in transit" "$dir/drop.top"
fault cut cut:30 "1 frame(s) missing; 1 frame(s) damaged"
fault swap swap:30 "out of order, dropped"
fault dupbuf dupbuf:5 "came again at byte"
check "dupbuf: nothing lost, the frames are the file's" cmp -s "$dir/dupbuf.top" "$dir/one-cpu.top"
python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/loss.stream" --fault loss:40 >/dev/null
"$bin/kevtop" -b -d 0.01 "$dir/loss.stream" >"$dir/loss.top" 2>"$dir/loss.err"
check "a LOSS frame (the board dropped 1234 events): the loss line says its CPU, why and count" \
    grep -q '^loss: 1234 events in this interval (CPU 0: 1234 dropped by the logger, the host not reading), 1234 in all' "$dir/loss.top"
check "a LOSS frame: the total stays in the frames after it" \
    bash -c "tail -n +2 '$dir/loss.top' | grep '^loss: ' | tail -1 | grep -q ', 1234 in all'"
fault reset reset:60 "the board restarted"
check "reset: the second segment has as many frames as the file" \
    [ "$(grep -c '^segment: 2 ' "$dir/reset.top")" = "$(grep -c '^kevtop: ' "$dir/one-cpu.top")" ]

# Claims the stream contradicts, refused and said; the frames are the file's.
# An END frame early, true to the bytes before it: read on to the real end.
fault early-end end:300 "came before the trace's trailer"
check "early-end: read on past it, the frames are the file's" cmp -s "$dir/early-end.top" "$dir/one-cpu.top"
# HEARTBEATs far ahead (2^50 cycles, 2^64-1): not believed; kevtop ends (it once closed empty
# frames up to them: 269 MB in 10 s), its frames the file's. (head: a bound on what it writes)
for t in 1125899906842624 18446744073709551615; do
    python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/far.stream" --beat "$t" >/dev/null
    timeout 20 "$bin/kevtop" -b -d 0.01 "$dir/far.stream" 2>"$dir/far.err" |
        head -c 20000000 >"$dir/far.top"
    rc=${PIPESTATUS[0]}
    check "a HEARTBEAT at $t cycles: not believed, said, kevtop ends with the file's frames (exit $rc)" \
        bash -c "[ $rc = 0 ] && grep -q 'HEARTBEAT.*not believed' '$dir/far.err' && cmp -s '$dir/far.top' '$dir/one-cpu.top'"
done
# A stalled reader's loss: the board's LOSS frame and the trailer count the same events; kevtop
# counts them once (traceprinter's count of the file's losses is the truth).
python3 "$here/kev_stream.py" "$dir/lost.kev" "$dir/lostloss.stream" --fault loss:20 >/dev/null
"$bin/kevtop" -b -d 0.02 "$dir/lostloss.stream" >"$dir/lostloss.top" 2>"$dir/lostloss.err"
toplost=$(grep '^loss: ' "$dir/lostloss.top" | tail -1 | sed -n 's/.*, \([0-9]*\) in all.*/\1/p')
check "a LOSS frame of events the trailer counts too: counted once (traceprinter ${lost#* }, kevtop ${toplost:-none})" \
    [ "${toplost:-x}" = "${lost#* }" ]
# A stream cut mid-frame: through a pipe, said and exit 1; a finished file cut so, the same
# (read to its end, said cut, exit 1, well within the 5 s after which a followed file is said
# to be waited for); with -f, kevtop says it is waiting and why (it cannot know the writer has
# stopped) and ends on SIGTERM.
head -c 100000 "$dir/one.stream" >"$dir/cut.stream"
cat "$dir/cut.stream" | "$bin/kevtop" -b -d 0.01 >"$dir/cutpipe.top" 2>"$dir/cutpipe.err"
rc=${PIPESTATUS[1]}
check "cut mid-frame through a pipe: said, exit 1 (exit $rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'ended, inside a frame' '$dir/cutpipe.err'"
t0=$(date +%s%N)
timeout -k 2 -s TERM 8 "$bin/kevtop" -b -d 0.01 "$dir/cut.stream" >"$dir/cutend.top" 2>"$dir/cutend.err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "cut mid-frame in a finished file: said, ends by itself in ${ms} ms, exit 1 (exit $rc), the pipe's frames" \
    bash -c "[ $rc = 1 ] && [ $ms -lt 3000 ] && grep -q 'ended, inside a frame' '$dir/cutend.err' && ! grep -q 'waiting for more of' '$dir/cutend.err' && cmp -s '$dir/cutend.top' '$dir/cutpipe.top'"
timeout -k 2 -s TERM 8 "$bin/kevtop" -f -b -d 0.01 "$dir/cut.stream" >"$dir/cutfile.top" 2>"$dir/cutfile.err"
rc=$?
check "-f: cut mid-frame in a file: says it is waiting and why, ends on SIGTERM (exit $rc: 124 TERM, 137 KILL)" \
    bash -c "[ $rc = 124 ] && grep -q 'waiting for more of' '$dir/cutfile.err'"

# The board idle 25 ms after its last buffer (a HEARTBEAT then, before the trailer): the frames
# the heartbeat closes count the thread running at the last event as running to their ends,
# and the segment's end then ends its run at the last event. No frame gives a thread more CPU
# time than its own length (the last frame once gave one minus the tail: 7.4e14 ms), and each
# thread's frames add up to kevstat's CPU time, the last runner's plus the heartbeat's tail
# (from the last event to the end of the last frame it closed: the time programmed here).
last=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["last"])' "$dir/one-cpu.json")
python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/beat.stream" --beat $((last + 625000)) >/dev/null
"$bin/kevtop" --json -d 0.01 "$dir/beat.stream" >"$dir/beat.jsonl" 2>"$dir/beat.err"
python3 - "$dir/beat.jsonl" "$dir/one-cpu.json" $((last + 625000)) >"$dir/beat.out" 2>&1 <<'PY'
import json, sys
fr = [json.loads(l) for l in open(sys.argv[1])]
st = json.load(open(sys.argv[2]))
beat, last = int(sys.argv[3]), st["trace"]["last"]
over = [(f["t0_cycles"], t["name"], t["cpu_cycles"]) for f in fr for t in f["threads"]
        if t["cpu_cycles"] > f["t1_cycles"] - f["t0_cycles"]]
tail = max(f["t1_cycles"] for f in fr if f["t1_cycles"] <= beat) - last
runner = [t["name"] for t in fr[-2]["threads"] if t["state"] == "RUNNING"]
got = {}
for f in fr:
    for t in f["threads"]:
        got[t["name"]] = got.get(t["name"], 0) + t["cpu_cycles"]
bad = [(t["name"], t["cpu_cycles"], got.get(t["name"], 0)) for t in st["threads"]
       if got.get(t["name"], 0) != t["cpu_cycles"] + (tail if [t["name"]] == runner else 0)]
print("%d frames, the tail %d cycles on %s; over their frame: %s; sums off: %s" % (len(fr), tail, runner, over[:3], bad[:3]))
sys.exit(0 if fr[-1]["last"] and tail > 250000 and len(runner) == 1 and not over and not bad else 1)
PY
rc=$?
check "a heartbeat past the last event: no frame gives more CPU than its length, the sums kevstat's and the tail ($(cat "$dir/beat.out"))" [ $rc = 0 ]

# On a terminal (a pty): the screen, the sort and pause keys, q.
"$bin/kevgen" -n 30000 -e -o "$dir/keys.kev" >/dev/null
python3 "$here/kevtop_keys.py" "$bin/kevtop" "$dir/keys.kev" >"$dir/keys.tap" 2>&1
checked keys "$dir/keys.tap"

# A run shorter than a frame is seen while it runs: with the default frames, the first one
# ends 0.5 s of trace time after the first event (kevstat's), over kevscen's 0.8 s basic run.
"$bin/kevscen" -r 400 basic "$dir/short.kev" >/dev/null
"$bin/kevstat" --json "$dir/short.kev" >"$dir/short.json"
first=$(python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["trace"]; print("%.6f" % (t["first"] / t["cycles_per_sec"]))' "$dir/short.json")
"$bin/kevtop" -b "$dir/short.kev" >"$dir/short.top" 2>/dev/null
f1=$(sed -n 's/^kevtop: \([0-9.]*\)-\([0-9.]*\) s of trace time.*/\1 \2/p' "$dir/short.top" | head -1)
check "the first frame of a 0.8 s run ends 0.5 s after its first event ($first s): $f1" \
    python3 -c 'import sys; a, b = map(float, sys.argv[2].split()); sys.exit(abs(a - float(sys.argv[1])) > 1e-6 or abs(b - a - 0.5) > 1e-6)' "$first" "${f1:-0 0}"

# Bad usage: exit 2 with the reason.
"$bin/kevtop" -b -d 0 "$dir/one.kev" >/dev/null 2>"$dir/bad.err"
check "-d 0 is refused (exit 2)" [ $? = 2 ]
"$bin/kevtop" -b -s nosuch "$dir/one.kev" >/dev/null 2>"$dir/bad.err"
check "-s nosuch is refused (exit 2)" [ $? = 2 ]
"$bin/kevtop" -b "$dir/nosuch.kev" >/dev/null 2>"$dir/bad.err"
check "a missing input: exit 1 with the reason" bash -c "[ \$? = 1 ] || true; grep -q 'cannot open' '$dir/bad.err'"
finish
