#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevreport's analysis page in a real browser (Chromium through chromedriver, Debian's
# python3-selenium): test_kevreport_ui.py clicks and searches as a user would, over kevscen's
# "sync" scenario (inversions, inheritance, a deadlock left open at the end of the trace; its
# page at the default threshold of a listed wait and at --wait-min 10ms), how a capture's time
# was kept and the emulator's artefacts as kevstat says them (test_kevreport_clock.py), and
# its flame graph over a capture with stack samples (test_kevreport_flame.py).
# Chromium, chromedriver or selenium missing is a failure, not a skip.
# usage: test_kevreport_ui.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
scratch reportui "${2:-build/host-test/kevconv}"
need chromium
need chromedriver
# Debian's interpreter: its python3-selenium (a python3 earlier in PATH may not have it).
if ! /usr/bin/python3 -c 'import selenium' 2>/dev/null; then
    notok "python3-selenium is installed" "install the Debian package python3-selenium (scripts/setup.sh --test)"
    finish; exit 1
fi
"$bin/kevscen" -s -r 3 sync "$dir/s.kev" >"$dir/s.expect"
"$bin/kevreport" -o "$dir/s.html" "$dir/s.kev" >/dev/null
"$bin/kevreport" --wait-min 10ms -o "$dir/s10.html" "$dir/s.kev" >/dev/null
"$bin/traceprinter" "$dir/s.kev" >"$dir/s.tp"
"$bin/kevstat" --json "$dir/s.kev" >"$dir/s.json"
timeout 120 /usr/bin/python3 "$here/test_kevreport_ui.py" "$(realpath "$dir/s.html")" "$dir/s.expect" \
    "$dir/s.tp" "$dir/s.json" "$(realpath "$dir/s10.html")" >"$dir/ui.tap" 2>&1
rc=$?
relay "$dir/ui.tap"
[ "$rc" = 0 ] || notok "the browser test ran to its end (exit $rc)"

# How the capture's time was kept and the emulator's artefacts (kx_emul.c), under the summary:
# kevscen4's emul script in the exact mode on two CPUs (a tick gap and a stall each round), the
# page's lines the same as kevstat's (test_kevreport_clock.py); its sampler given the deadline
# the script's long runs miss, the Tasks section's misses the emulator's as the script programs.
scen4=${KEVSCEN4:-build/host-test/kevscen4}
"$scen4" -c icount,shift=0,sleep=off -r 3 emul "$dir/e.kev" >"$dir/e.expect"
dl=$(sed -n 's/^expect emul.tasks.deadline //p' "$dir/e.expect")
"$bin/kevreport" --deadline "client/main=${dl}us" -o "$dir/e.html" "$dir/e.kev" >/dev/null
"$bin/kevstat" -s cpu "$dir/e.kev" >"$dir/e.txt"
timeout 120 /usr/bin/python3 "$here/test_kevreport_clock.py" "$(realpath "$dir/e.html")" "$dir/e.txt" \
    "$dir/e.expect" >"$dir/clock.tap" 2>&1
rc=$?
relay "$dir/clock.tap" "time kept: "
[ "$rc" = 0 ] || notok "the time-kept browser test ran to its end (exit $rc)"

# The flame graph (report_flame.js) over a capture of user/apps/stackchain on mps2-an385 with
# a stack sample at every tick (tracelogger -p 1000, kept in data/): its total is the ticks'
# count (traceprinter's INT_ENTR 0x100, one sample a tick), its top frames and the widest
# stack clicked down are kevstat --folded's (frames as addresses: no ELF files here; the
# board test stacks/profile-capture names them and checks them against addr2line).
cap=$here/data/stackchain-mps2.kev
"$bin/kevreport" -o "$dir/f.html" "$cap" >/dev/null
"$bin/kevstat" --folded "$cap" >"$dir/f.folded"
ticks=$("$bin/traceprinter" "$cap" | grep -c 'INT_ENTR:0x00000100')
timeout 120 /usr/bin/python3 "$here/test_kevreport_flame.py" "$(realpath "$dir/f.html")" "$dir/f.folded" "$ticks" \
    >"$dir/flame.tap" 2>&1
rc=$?
relay "$dir/flame.tap" "flame graph: "
[ "$rc" = 0 ] || notok "the flame graph's browser test ran to its end (exit $rc)"
finish
