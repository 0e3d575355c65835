#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The live tools against a stream whose frames lie and peers that hold on (docs/live.md,
# "Faults"). The truth each check holds them to is outside the tool: the board's file (kevgen's
# .kev, byte for byte), what the readers saw (relay_hostile.py), a viewer's own view of the
# server (lttng_live_client.py), files on disk.
#   - kevcapture: a payload changed under a good frame CRC after garbage (the END frame's CRC
#     still checked: exit 1, said); an early END true to the bytes before it (read on: the
#     board's file, exit 0; cut there: exit 1, said why); a damaged LOSS frame between buffers
#     (the board's file byte for byte: exit 0); 500 board resets (at most 16 files, said);
#   - kevlive: 32 connections that never send a command do not shut a viewer out, and are
#     closed by their deadline; on a finished file cut mid-frame it says it is waiting and why;
#   - kevrelay: relay_hostile.py (a reader that leaves, one that comes back, a second one, one
#     that never reads).
# usage: test_live_hostile.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch lhostile "${2:-build/host-test}"
need python3

"$bin/kevgen" -n 60000 -e -o "$dir/b.kev" >/dev/null
stream() { python3 "$here/kev_stream.py" "$dir/b.kev" "$dir/$1.stream" "${@:2}" >/dev/null; }

# ---- kevcapture ---------------------------------------------------------------------------------
stream tamper --fault tamper:30
"$bin/kevcapture" -o "$dir/tamper.kev" "$dir/tamper.stream" >/dev/null 2>"$dir/tamper.err"
rc=$?
check "a payload changed under a good frame CRC after garbage: the END's CRC says so, exit 1 (exit $rc; the file differs from the board's: $(cmp -s "$dir/tamper.kev" "$dir/b.kev" && echo no || echo yes))" \
    bash -c "[ $rc = 1 ] && grep -q \"END announced\" '$dir/tamper.err' && grep -q INCOMPLETE '$dir/tamper.err' && ! cmp -s '$dir/tamper.kev' '$dir/b.kev'"
stream early --fault end:100
"$bin/kevcapture" -o "$dir/early.kev" "$dir/early.stream" >/dev/null 2>"$dir/early.err"
rc=$?
check "an early END true to the bytes before it: said, read on, the board's file, exit 0 (exit $rc)" \
    bash -c "[ $rc = 0 ] && grep -q \"came before the trace's trailer\" '$dir/early.err' && cmp -s '$dir/early.kev' '$dir/b.kev'"
head -c "$(python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(); o = 0
for _ in range(101):
    o += 12 + struct.unpack_from("<H", d, o + 6)[0]
print(o)' "$dir/early.stream")" "$dir/early.stream" >"$dir/early-cut.stream"
"$bin/kevcapture" -o "$dir/early-cut.kev" "$dir/early-cut.stream" >/dev/null 2>"$dir/early-cut.err"
rc=$?
check "the stream ends at that early END: INCOMPLETE with why, exit 1 (exit $rc: $(grep -o 'without the trace.s trailer[^:]*' "$dir/early-cut.err" | head -1))" \
    bash -c "[ $rc = 1 ] && grep -q \"without the trace's trailer\" '$dir/early-cut.err'"
stream lossbad --fault lossbad:6
"$bin/kevcapture" -o "$dir/lossbad.kev" "$dir/lossbad.stream" >/dev/null 2>"$dir/lossbad.err"
rc=$?
check "a damaged LOSS frame between buffers: said, the board's file byte for byte, exit 0 (exit $rc)" \
    bash -c "[ $rc = 0 ] && grep -q 'frame(s) missing' '$dir/lossbad.err' && cmp -s '$dir/lossbad.kev' '$dir/b.kev'"
stream resets --fault resets:500
mkdir -p "$dir/resets"
"$bin/kevcapture" -o "$dir/resets/r.kev" "$dir/resets.stream" >/dev/null 2>"$dir/resets.err"
files=$(find "$dir/resets" -name 'r*.kev' | wc -l)
check "500 board resets: $files files (at most 16), said once, the last segment the board's file" \
    bash -c "[ $files -le 16 ] && [ \$(grep -c 'at most 16 files' '$dir/resets.err') = 1 ] && cmp -s '$dir/resets/r-16.kev' '$dir/b.kev'"

# ---- kevlive --------------------------------------------------------------------------------------
"$bin/kevlive" -p 0 -w 10 "$dir/b.kev" 2>"$dir/mute.err" &
kpid=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's/^kevlive: serving LTTng live viewers on 127.0.0.1 port \([0-9]*\)$/\1/p' "$dir/mute.err")
    [ -n "$port" ] && break
    sleep 0.05
done
python3 "$here/lttng_live_client.py" mute "${port:-0}" 32 6 >"$dir/mute.out" 2>&1
check "32 connections that never send a command: a viewer beside them is served ($(head -1 "$dir/mute.out"))" \
    grep -q '^listed 1 sessions' "$dir/mute.out"
check "... and they are closed by their deadline to speak ($(tail -1 "$dir/mute.out"), said $(grep -c 'closed: it sent no' "$dir/mute.err") times)" \
    bash -c "grep -q '^mute 0 still open' '$dir/mute.out' && grep -q 'closed: it sent no CONNECT' '$dir/mute.err'"
kill "$kpid" 2>/dev/null
wait "$kpid" 2>/dev/null
stream whole
head -c 100000 "$dir/whole.stream" >"$dir/cut.stream"
t0=$(date +%s%N)
timeout -k 2 -s TERM 8 "$bin/kevlive" -p 0 -w 0 "$dir/cut.stream" 2>"$dir/cutend.err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "kevlive on a finished file cut mid-frame: said, ends by itself in ${ms} ms, exit 1 (exit $rc)" \
    bash -c "[ $rc = 1 ] && [ $ms -lt 3000 ] && grep -q 'ended, inside a frame' '$dir/cutend.err' && ! grep -q 'waiting for more of' '$dir/cutend.err'"
# TERM at 8 s; KILL only 20 s later: under ASan on a loaded 2-core host, kevlive's exit after
# its closing summary (which it writes once the TERM has stopped it) once outlasted a 2 s
# grace. A kevlive that ignored TERM is still killed, and fails.
timeout -k 20 -s TERM 8 "$bin/kevlive" -f -p 0 "$dir/cut.stream" 2>"$dir/cut.err"
rc=$?
check "kevlive -f on a file cut mid-frame: says it is waiting and why, ends on SIGTERM (exit $rc: 124 TERM, 137 KILL)" \
    bash -c "[ $rc = 124 ] && grep -q 'waiting for more of' '$dir/cut.err'"

# ---- kevrelay -------------------------------------------------------------------------------------
timeout 120 python3 "$here/relay_hostile.py" "$bin/kevrelay" "$bin/kevcapture" "$dir/whole.stream" \
    "$dir" >"$dir/relay.tap" 2>&1
relay "$dir/relay.tap" "kevrelay: "
grep -q '^\(not \)\{0,1\}ok ' "$dir/relay.tap" || notok "kevrelay: relay_hostile.py ran" "$(tail -3 "$dir/relay.tap")"
finish
