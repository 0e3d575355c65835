#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevlive against babeltrace2, LTTng's own viewer (TAP). A scripted trace is streamed through a
# pipe as a board sends it (test/tools/kev_stream.py, paced) while babeltrace2 is attached
# live (net://localhost:PORT/host/BOARD/SESSION); the truths are babeltrace2 over kev2ctf's
# conversion of the same file, traceprinter's and kevtop's loss counts, the writer's clock:
#   - babeltrace2 prints events while the stream still arrives, and at the end the same events
#     as over the converted file (one CPU; two, merged with the idle CPU's beacons);
#   - a viewer attaching late gets the trace from its start (from the next packet with -n, as
#     LTTng's relay does: the file's events from a packet on);
#   - a viewer that sends garbage is closed and said, one that stops reading its replies and
#     one that stops mid-command hold nobody: the writer is never held up, the good viewer
#     gets every event, kevlive's memory stays small;
#   - a heartbeat one cycle early (a logger that read its clock late): said, babeltrace2 clean;
#   - the kernel's losses (a logger too slow) and a buffer lost on the way are babeltrace2's
#     "discarded N events", the count traceprinter and kevtop give;
#   - the file kevlive writes as it serves (-o) is the input, byte for byte.
# About 25 s (the paced writers).
# usage: test_kevlive.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
export TZ=UTC
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch kevlive "${2:-build/host-test}"
need babeltrace2
need python3
scen4=${KEVSCEN4:-build/host-test/kevscen4}
client() { python3 "$here/lttng_live_client.py" "$@"; }
stamp() { python3 -c 'import sys, time
for l in sys.stdin:
    print("%.3f %s" % (time.monotonic(), l), end="")'; }

# serve NAME [kevlive options]: kevlive reading the pipe $dir/NAME.fifo on a free port, its
# stderr in NAME.err; sets $port and $kpid.
serve() {
    local name=$1 i
    shift
    rm -f "$dir/$name.fifo" && mkfifo "$dir/$name.fifo"
    "$bin/kevlive" -p 0 -w 3 "$@" "$dir/$name.fifo" 2>"$dir/$name.err" &
    kpid=$!
    port=
    for i in $(seq 100); do
        port=$(sed -n 's/^kevlive: serving LTTng live viewers on 127.0.0.1 port \([0-9]*\)$/\1/p' "$dir/$name.err")
        [ -n "$port" ] && break
        sleep 0.05
    done
}
# feed NAME KEV [kev_stream.py options]: the stream of KEV into the pipe, paced (background);
# the writer's last byte stamped in NAME.end.
feed() {
    local name=$1 kev=$2
    shift 2
    timeout 120 python3 "$here/kev_stream.py" "$kev" "$dir/$name.fifo" --stamp "$dir/$name.end" "$@" \
        >"$dir/$name.frames" &
}
# until_said NAME TEXT: until kevlive has said TEXT (the header arrived: the command line).
until_said() {
    local i
    for i in $(seq 200); do
        grep -q "$2" "$dir/$1.err" && return 0
        sleep 0.05
    done
    return 1
}
# watch NAME OUT: babeltrace2 attached live, each line stamped with the host's clock in
# OUT.stamped, the lines in OUT.txt (--no-delta: a viewer attached later has other deltas).
watch() {
    local url
    url=$(sed -n 's/^kevlive: babeltrace2 \(net:.*\)$/\1/p' "$dir/$1.err")
    timeout 120 babeltrace2 --no-delta "$url" --params=session-not-found-action=end \
        2>"$dir/$2.bt2err" | stamp >"$dir/$2.stamped"
    cut -d' ' -f2- "$dir/$2.stamped" >"$dir/$2.txt"
}
# ref KEV NAME: babeltrace2 over kev2ctf's conversion of KEV, in NAME.txt (its warnings in
# NAME.bt2err).
ref() {
    rm -rf "$dir/$2.ctf"
    "$bin/kev2ctf" -o "$dir/$2.ctf" "$1" 2>/dev/null
    babeltrace2 --no-delta "$dir/$2.ctf" >"$dir/$2.txt" 2>"$dir/$2.bt2err"
}
discarded() { sed -n 's/.*Tracer discarded \([0-9]*\) events.*/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }'; }

# ---- one CPU, with bad viewers beside the good one -------------------------------------------
# a scripted system (kevscen: a client, a server, a driver taking interrupts): 3 s of trace
# time, 82,000 events, 1.9 MB; fed at 0.3 MB a second (29 writes 200 ms apart: 5.8 s; at 80 ms
# apart, 2.3 s, babeltrace2's first events came only as the stream ended on the 2-core build
# machine, 3 runs of 3, with the kevlive of before as well: its live client's first fetches,
# beside three bad viewers, took about as long)
"$bin/kevscen" -k -i -r 1500 basic "$dir/g.kev" >/dev/null
ref "$dir/g.kev" g.ref
serve one -o "$dir/one.kev"
feed one "$dir/g.kev" --pace 65536:0.2
wstart=$(python3 -c 'import time; print("%.3f" % time.monotonic())')
until_said one "babeltrace2 net://"
board=$(sed -n 's|^kevlive: babeltrace2 net://localhost:[0-9]*/host/\([^/]*\)/.*|\1|p' "$dir/one.err")
watch one one &
wpid=$!
client garbage "$port" >"$dir/garbage.out" 2>&1 &
client partial "$port" 4 >/dev/null 2>&1 &
client stall "$port" "$board" kev 4 >"$dir/stall.out" 2>&1 &
spid=$!
until_said one "attached to" && client list "$port" >"$dir/list.out" 2>&1
hwm=
while kill -0 $spid 2>/dev/null; do   # kevlive's peak, the bad viewers connected
    h=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$kpid/status" 2>/dev/null)
    [ -n "$h" ] && hwm=$h
    sleep 0.2
done
wait $wpid
wait $kpid
krc=$?
wait
first=$(head -1 "$dir/one.stamped" | cut -d' ' -f1)
wend=$(cat "$dir/one.end" 2>/dev/null)
check "babeltrace2 attached live printed its first event while the stream still arrived (at ${first:-none}, the writer's end at ${wend:-?})" \
    python3 -c "import sys; sys.exit(0 if '$first' and float('$first') < float('${wend:-0}') - 0.5 else 1)"
check "at the end, babeltrace2's $(wc -l <"$dir/one.txt") events are those of babeltrace2 over kev2ctf's conversion of the file" \
    bash -c "[ -s '$dir/g.ref.txt' ] && cmp -s '$dir/g.ref.txt' '$dir/one.txt' && ! grep -qE 'ERROR|CAUSED BY' '$dir/one.bt2err'"
check "the session is listed as the board's: $(head -1 "$dir/list.out")" \
    grep -q "^session 1 $board kev streams 1 clients [1-9]" "$dir/list.out"
check "the file kevlive wrote as it served is the input byte for byte; exit 0 (exit $krc)" \
    bash -c "cmp -s '$dir/g.kev' '$dir/one.kev' && [ $krc = 0 ]"
check "a viewer that sends garbage is closed, said once" \
    bash -c "grep -q '^closed$' '$dir/garbage.out' && [ \$(grep -c 'sent what is not LTTng.s live protocol' '$dir/one.err') = 1 ]"
took=$(python3 -c "print('%.1f' % (float('${wend:-0}') - $wstart))")
check "a viewer that stops reading its replies ($(cat "$dir/stall.out")) and one that stops mid-command hold up neither the writer (it took ${took} s for 5.8 s of pauses) nor the good viewer" \
    bash -c "grep -q '^sent [0-9]' '$dir/stall.out' && python3 -c 'import sys; sys.exit(0 if $took < 8.0 else 1)'"
check "kevlive's memory stays small with them (${hwm:-?} kB at most, the trace 1.9 MB)" \
    bash -c "[ -n '$hwm' ] && [ '$hwm' -lt 65536 ]"

# ---- a heartbeat that came too early -----------------------------------------------------------
# A HEARTBEAT one cycle past the first event still to come (a logger that read its clock after an
# event it had not sent): kevlive says so; babeltrace2 attached live ends cleanly (a packet once
# started past events it held: "value overflows the signed 64-bit integer range"), printing the
# file's events but the few the heartbeat passed (the rest of the time, the model that names
# threads misses them: their tid may read 0); the file is the input's.
serve early -o "$dir/early.kev"
feed early "$dir/g.kev" --pace 65536:0.02 --idle 10:0.3 --beat-past
until_said early "babeltrace2 net://"
watch early early
wait
miss=$(( $(wc -l <"$dir/g.ref.txt") - $(wc -l <"$dir/early.txt") ))
check "a heartbeat one cycle early: said, babeltrace2 ends cleanly, the file's events less $miss held back, the file the input's" \
    bash -c "! grep -qE 'ERROR|CAUSED BY' '$dir/early.bt2err' && grep -q 'came after a heartbeat said' '$dir/early.err' && [ $miss -gt 0 ] && [ $miss -lt 100 ] && cmp -s '$dir/g.kev' '$dir/early.kev'"

# ---- a viewer attaching late ------------------------------------------------------------------
serve late
feed late "$dir/g.kev" --pace 65536:0.08
until_said late "babeltrace2 net://" && sleep 1.2
watch late late
wait
check "a viewer attached 1.2 s into the stream gets it from its start: the file's events" \
    cmp -s "$dir/g.ref.txt" "$dir/late.txt"
serve now -n
feed now "$dir/g.kev" --pace 65536:0.08
until_said now "babeltrace2 net://" && sleep 1.2
watch now now
wait
got=$(wc -l <"$dir/now.txt")
check "with -n, from the next packet as LTTng's relay: the file's events from one on ($got of $(wc -l <"$dir/g.ref.txt"))" \
    bash -c "[ $got -gt 1000 ] && [ $got -lt \$(wc -l <'$dir/g.ref.txt') ] && tail -n $got '$dir/g.ref.txt' | cmp -s - '$dir/now.txt'"

# ---- two CPUs: the merge, kept moving by beacons ----------------------------------------------
# The stream stops for 3 s with a HEARTBEAT (the board has nothing to say) after its 50th buffer,
# or the first write after it where a logger could send one (every buffer sent ended before any
# still to come begins: the live reader believes no heartbeat behind an event it has shown): its
# time is one cycle before the earliest event still to come. While it is quiet,
# babeltrace2 must print every event before that time, of both CPUs: each stream's inactivity
# (a beacon at the heartbeat's time) lets its merge pass the last packet of the other.
"$scen4" -r 3000 smp "$dir/smp.kev" >/dev/null
ref "$dir/smp.kev" smp.ref
babeltrace2 --no-delta --clock-cycles "$dir/smp.ref.ctf" >"$dir/smp.cycles" 2>/dev/null
serve smp
feed smp "$dir/smp.kev" --pace 16384:0.04 --idle 52:3
until_said smp "babeltrace2 net://"
url=$(sed -n 's/^kevlive: babeltrace2 \(net:.*\)$/\1/p' "$dir/smp.err")
timeout 120 babeltrace2 --no-delta --clock-cycles "$url" --params=session-not-found-action=end \
    2>"$dir/smp.bt2err" | stamp >"$dir/smp.stamped"
wait
cut -d' ' -f2- "$dir/smp.stamped" >"$dir/smp.txt"
read -r _ hb <<<"$(grep '^heartbeat ' "$dir/smp.frames")"
read -r _ quiet resume <<<"$(grep '^idle ' "$dir/smp.frames")"
before=$(awk -v t="${resume:-0}" '$1 < t' "$dir/smp.stamped" | wc -l)
want=$(awk -v hb="${hb:-0}" '{ c = substr($1, 2, 20) + 0 } c < hb' "$dir/smp.cycles" | wc -l)
beacons=$(sed -n 's/.* \([0-9]*\) beacons;.*/\1/p' "$dir/smp.err")
check "two CPUs, the board quiet for 3 s after a heartbeat: babeltrace2 printed the $want events before its time meanwhile ($before)" \
    bash -c "[ $want -gt 1000 ] && [ $before = $want ]"
check "two CPUs: at the end the file's $(wc -l <"$dir/smp.txt") events in the same order, ${beacons:-no} beacons, no warning" \
    bash -c "cmp -s '$dir/smp.cycles' '$dir/smp.txt' && [ ${beacons:-0} -gt 0 ] && [ ! -s '$dir/smp.bt2err' ]"

# ---- losses -----------------------------------------------------------------------------------
# lossy NAME KEV WHY: KEV streamed to babeltrace2 live; its discarded events against
# traceprinter's and kevtop's lost counts over the file, and babeltrace2's over its conversion.
lossy() {
    local name=$1 kev=$2 tp top live conv
    ref "$kev" "$name.ref"
    serve "$name"
    feed "$name" "$kev" --pace 65536:0.02
    until_said "$name" "babeltrace2 net://"
    watch "$name" "$name"
    wait
    tp=$(kev_counts "$kev")
    top=$("$bin/kevtop" -b -d 3600 "$kev" | sed -n 's/^loss: .*, \([0-9]*\) in all$/\1/p' | tail -1)
    live=$(discarded "$dir/$name.bt2err")
    conv=$(discarded "$dir/$name.ref.bt2err")
    check "$3: babeltrace2 live says $live events discarded; traceprinter ${tp#* }, kevtop ${top:-?}, babeltrace2 over the converted file $conv" \
        bash -c "[ '$live' -gt 0 ] && [ '$live' = '${tp#* }' ] && [ '$live' = '${top:-x}' ] && [ '$live' = '$conv' ]"
    check "$3: and the same $(wc -l <"$dir/$name.txt") events as over the converted file" \
        cmp -s "$dir/$name.ref.txt" "$dir/$name.txt"
}
# A logger that cannot keep up with its kernel buffers: the kernel drops events (DROPPED, a
# scripted worker's bursts), and (kevgen) a logger that saves nothing until the end.
"$bin/kevscen" -k -r 400 loss "$dir/loss.kev" >/dev/null
lossy loss "$dir/loss.kev" "the kernel's drops"
"$bin/kevgen" -n 60000 -k 2 -d 0 -o "$dir/lost.kev" >/dev/null
lossy lost "$dir/lost.kev" "lost after the last buffer (the trailer's count)"

# A frame lost on the way: its buffer's events are discarded at the end (the trailer counts
# what each CPU recorded), said, exit 1.
serve drop
feed drop "$dir/g.kev" --pace 65536:0.02 --fault drop:600
until_said drop "babeltrace2 net://"
watch drop drop
wait $kpid
drc=$?
wait
gone=$(( $(wc -l <"$dir/g.ref.txt") - $(wc -l <"$dir/drop.txt") ))
disc=$(discarded "$dir/drop.bt2err")
check "a frame lost on the way: said once, exit 1 (exit $drc), and its buffer's $gone events are babeltrace2's discarded ($disc)" \
    bash -c "[ $drc = 1 ] && [ \$(grep -c 'frame(s) missing' '$dir/drop.err') = 1 ] && [ $gone -gt 0 ] && [ '$disc' = $gone ]"

finish
