#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dtrace -i over a live source (the live reader) against dtrace -i over the finished file: the
# same program gives the same output, tick-1s's printa( ) and trunc( ) every second of trace
# time and END's aggregations, from the tracelogger's stream through a pipe as it arrives, from
# a .kev file read as it grows (-x follow), on one CPU and on two; the first second's
# aggregation is printed while the stream still arrives (host time stamps); a stream that lost
# a frame is said, replayed up to the end, and the exit status is 1; a heartbeat far ahead is
# not believed.
# usage: test_dtrace_live.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dlive "${2:-build/host-test}"
need python3
scen4=${KEVSCEN4:-build/host-test/kevscen4}

# (tick-1s before interrupt:::entry, whose 32 probes would make it the program's 65th: the
# replay's timers are its first 64 probes)
prog='BEGIN { start = timestamp; }
      kercall:::entry { @c[probefunc] = count(); @s = sum(arg0); }
      tick-1s { printa(@c); trunc(@c); printf("tick %d\n", (timestamp - start) / 1000000000); }
      sched:::on-cpu { @o[cpu, execname] = count(); }
      interrupt:::entry { @q = quantize(arg0); }
      END { printa(@c); printa(@o); printa(@s); printa(@q); }'

# a scripted system (kevscen: a client, a server, a driver taking interrupts): 3 s of trace
# time, 82,000 events, 1.9 MB
"$bin/kevscen" -k -i -r 1500 basic "$dir/g.kev" >/dev/null
"$bin/dtrace" -q -i "$dir/g.kev" -n "$prog" >"$dir/file.out" 2>"$dir/file.err"
check "over the finished file: tick-1s printed each second ($(grep -c '^tick' "$dir/file.out") ticks)" \
    [ "$(grep -c '^tick' "$dir/file.out")" = 3 ]

python3 "$here/kev_stream.py" "$dir/g.kev" "$dir/g.stream" >/dev/null
"$bin/dtrace" -q -i "$dir/g.stream" -n "$prog" >"$dir/stream.out" 2>"$dir/stream.err"
check "a recorded stream gives the file's output" cmp -s "$dir/file.out" "$dir/stream.out"

# Through a pipe, as it arrives (0.8 MB a second: the stream takes about 2.5 s); each line of
# dtrace's output stamped with the host's clock as it comes, and the writer's end.
mkfifo "$dir/fifo"
timeout 60 python3 "$here/kev_stream.py" "$dir/g.kev" "$dir/fifo" --pace 65536:0.08 \
    --stamp "$dir/writer.end" >/dev/null &
timeout 60 "$bin/dtrace" -q -i "$dir/fifo" -n "$prog" 2>"$dir/pipe.err" |
    python3 -c 'import sys, time
for l in sys.stdin:
    print("%.3f %s" % (time.monotonic(), l), end="")' >"$dir/pipe.stamped"
wait
cut -d' ' -f2- "$dir/pipe.stamped" >"$dir/pipe.out"
check "through a pipe as it arrives: the file's output" cmp -s "$dir/file.out" "$dir/pipe.out"
first=$(grep -m1 ' tick ' "$dir/pipe.stamped" | cut -d' ' -f1)
check "the first second's aggregation came before the stream ended (at ${first:-none}, the end at $(cat "$dir/writer.end"))" \
    python3 -c "import sys; sys.exit(0 if '$first' and float('$first') < float(open('$dir/writer.end').read()) - 0.1 else 1)"

# tick-1s at the default switch rate (1 s, due with each tick): each printa( ) shows the second
# its tick ends, the first one too, as traceprinter counts the interrupts of each second of
# trace time from the first event (the tick fires before the switch that consumes it).
p1='interrupt:::entry { @n = count(); } tick-1s { printa("%@d\n", @n); trunc(@n); }'
mkfifo "$dir/fifo1"
timeout 60 python3 "$here/kev_stream.py" "$dir/g.kev" "$dir/fifo1" --pace 65536:0.02 >/dev/null &
timeout 60 "$bin/dtrace" -q -i "$dir/fifo1" -n "$p1" >"$dir/persec.out" 2>"$dir/persec.err"
wait
"$bin/traceprinter" "$dir/g.kev" | python3 -c 'import re, sys
t0, cps, n = None, 1, {}
for l in sys.stdin:
    m = re.match(r"  TRACE_CYCLES_PER_SEC:: (\d+)", l)
    if m:
        cps = int(m.group(1))
    m = re.match(r"t:0x([0-9a-f]+) CPU:\d+ (\S+)", l)
    if not m or m.group(2).startswith("CONTROL"):
        continue
    t = int(m.group(1), 16)
    t0 = t if t0 is None else t0
    if m.group(2).startswith("INT_ENTR:"):
        k = (t - t0) // cps
        n[k] = n.get(k, 0) + 1
print(n.get(0, 0)); print(n.get(1, 0))' >"$dir/persec.truth"
check "tick-1s over a live stream: the first two lines count one second each ($(head -2 "$dir/persec.out" | tr '\n' ' ')), traceprinter's $(tr '\n' ' ' <"$dir/persec.truth")" \
    bash -c "[ -s '$dir/persec.truth' ] && [ \"\$(head -2 '$dir/persec.out')\" = \"\$(cat '$dir/persec.truth')\" ]"

# A .kev file read as it grows.
: >"$dir/growing.kev"
timeout 60 python3 "$here/kev_stream.py" "$dir/g.kev" "$dir/growing.kev" --raw --pace 65536:0.01 >/dev/null &
timeout 60 "$bin/dtrace" -q -x follow -i "$dir/growing.kev" -n "$prog" >"$dir/grow.out" 2>"$dir/grow.err"
wait
check "-x follow over a .kev file as it grows: the file's output" cmp -s "$dir/file.out" "$dir/grow.out"

# Two CPUs: the live reader merges them in time order as the file decoder does.
"$scen4" -r 3000 smp "$dir/smp.kev" >/dev/null
p2='sched:::on-cpu { @o[cpu, execname] = count(); } kercall:::entry { @k[cpu] = count(); }
    tick-100ms { printa(@k); trunc(@k); }'
"$bin/dtrace" -q -i "$dir/smp.kev" -n "$p2" >"$dir/smpf.out" 2>/dev/null
python3 "$here/kev_stream.py" "$dir/smp.kev" "$dir/smp.stream" >/dev/null
"$bin/dtrace" -q -i "$dir/smp.stream" -n "$p2" >"$dir/smpl.out" 2>"$dir/smpl.err"
check "two CPUs: the stream gives the file's output ($(grep -c . "$dir/smpf.out") lines)" \
    bash -c "[ -s '$dir/smpf.out' ] && cmp -s '$dir/smpf.out' '$dir/smpl.out'"

# A frame lost on the way: said once, the rest replayed, exit 1.
python3 "$here/kev_stream.py" "$dir/g.kev" "$dir/lost.stream" --fault drop:600 >/dev/null
"$bin/dtrace" -q -i "$dir/lost.stream" -n "$prog" >"$dir/lost.out" 2>"$dir/lost.err"
rc=$?
check "a lost frame: said once, exit 1 (exit $rc)" \
    bash -c "[ $rc = 1 ] && [ \$(grep -c 'frame(s) missing' '$dir/lost.err') = 1 ]"
check "a lost frame: the replay goes on to END ($(grep -c '^tick' "$dir/lost.out") ticks)" \
    [ "$(grep -c '^tick' "$dir/lost.out")" = "$(grep -c '^tick' "$dir/file.out")" ]
# A HEARTBEAT far ahead (2^50 cycles): not believed, said; the replay is the file's (it once
# spun firing ticks up to it).
python3 "$here/kev_stream.py" "$dir/g.kev" "$dir/far.stream" --beat 1125899906842624 >/dev/null
timeout 30 "$bin/dtrace" -q -i "$dir/far.stream" -n "$prog" 2>"$dir/far.err" |
    head -c 20000000 >"$dir/far.out"
rc=${PIPESTATUS[0]}
check "a HEARTBEAT at 2^50 cycles: not believed, said, the file's output (exit $rc)" \
    bash -c "[ $rc = 0 ] && grep -q 'not believed' '$dir/far.err' && cmp -s '$dir/file.out' '$dir/far.out'"
"$bin/dtrace" -q -i "$dir/g.stream" -c init -n "$prog" >/dev/null 2>"$dir/target.err"
check "-c over a live source: refused, said why (exit 2)" \
    bash -c "[ $? = 2 ] || grep -q 'not over a live source' '$dir/target.err'"
finish
