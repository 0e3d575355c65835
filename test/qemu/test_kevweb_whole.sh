#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevweb over finished captures of several CPUs, in Chromium (test/tools/test_kevweb.py
# --finished): the demo on every CPU as make run leaves it (the tracelogger writing the file,
# the host's clock), and user/apps/msgpipe (a source on CPU 0, workers on the others, a sink:
# about 1,000 messages a second by its own count) in exact mode. A CPU's first buffer may lie in
# the file after later events of another CPU (an idle CPU's fills late): the page must show
# every event (kevstat's count over the same file), say no fault (before: "CPU 2's events from
# 0.024452 s came after later ones were shown"), give each thread kevstat's CPU time, and count
# as late exactly the instances kevstat judges missed (its own figure: each task's misses, the
# program's and the emulator's). Then msgpipe's timeline as a user reads it
# (test_kevweb_view.py): the legend of the CPU rows, thread rows readable under its messages
# at the program's own rate, one unit per column.
#   BOARD=<board> test/qemu/test_kevweb_whole.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
out=$b/test-kevweb-whole
rm -rf "$out" && mkdir -p "$out"
. "$here/tap_lib.sh"
port_of() {
    local p
    for _ in $(seq 100); do
        p=$(sed -n 's|^kevweb: the live view is at http://localhost:\([0-9]*\)/$|\1|p' "$1")
        [ -n "$p" ] && break
        sleep 0.05
    done
    echo "$p"
}
# page NAME TEST.py ARGS...: kevweb over NAME.kev and the browser test at its address
page() {
    local name=$1 py=$2
    shift 2
    "$h/kevweb" -p 0 "$out/$name.kev" 2>"$out/$name.web.err" &
    local web=$! port
    port=$(port_of "$out/$name.web.err")
    timeout 150 /usr/bin/python3 "$here/../tools/$py" "http://localhost:${port:-0}/" "$@" >"$out/$name.$py.tap" 2>&1
    ok $? "$name: the browser test $py ran to its end (its checks follow)"
    relay "$out/$name.$py.tap" "$name: "
    kill -INT "$web"
    wait "$web"
}
# whole NAME: the finished capture's checks
whole() {
    local name=$1 late first
    "$h/kevstat" --json "$out/$name.kev" >"$out/$name.json" 2>/dev/null
    late=$(python3 -c "
import json, sys
print(sum(t['misses'] + t['emulator_misses'] for t in json.load(open(sys.argv[1]))['tasks']['list']))" \
        "$out/$name.json" 2>/dev/null)
    # (the file's first events of each CPU, in the file's order: one after later ones of another)
    first=$("$h/traceprinter" -n -p '%c|%C' "$out/$name.kev" 2>/dev/null | python3 -c "
import sys
seen, newest, late = set(), 0, 0
for l in sys.stdin:
    f = l.split('|')
    if len(f) < 2 or not f[0].strip().isdigit():
        continue
    t, c = int(f[0]), f[1].strip()
    late += c not in seen and t < newest
    seen.add(c)
    newest = max(newest, t)
print(late)")
    check "$name: $(python3 -c "import json, sys; t = json.load(open(sys.argv[1]))['trace']; print(t['events'], 'events on', t['cpus'], 'CPUs')" "$out/$name.json"); ${first:-0} CPU(s) begin in the file after later events of another, kevstat judges ${late:-?} instances late" \
        "[ -n '$late' ]"
    page "$name" test_kevweb.py --finished --stat "$out/$name.json" --late "${late:-none}" --no-fault
}
QEMU_ARGS="tracelogger -d1 -f $out/demo.kev" QEMU_TIMEOUT=120 \
    "$here/../../scripts/qemu-run.sh" "$b/demo.elf" >"$out/demo.log" 2>&1
check "the demo on every CPU runs to its end under the tracelogger (make run's boot)" \
    "[ $? = 0 ] && grep -q 'tracelogger: no events lost' $out/demo.log"
whole demo
QEMU_ARGS="appinit msgpipe ;; tracelogger -d1 -f $out/msgpipe.kev" QEMU_TIMEOUT=120 \
    "$here/../../scripts/qemu-run.sh" "$b/msgpipetest.elf" -icount shift=0,sleep=off >"$out/msgpipe.log" 2>&1
rc=$?
read -r msgs counts <<<"$(sed -n 's/.*msgpipe: \([0-9]*\) messages over \([0-9]*\) counts.*/\1 \2/p' "$out/msgpipe.log")"
cps=$("$h/traceprinter" "$out/msgpipe.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
rate=$(python3 -c "import sys; print(int(sys.argv[1]) * int(sys.argv[3]) / int(sys.argv[2]))" "${msgs:-0}" "${counts:-1}" "${cps:-0}")
check "msgpipe on every CPU runs to its end under the tracelogger: $msgs messages, $rate a second by its own clock" \
    "[ $rc = 0 ] && grep -q 'tracelogger: no events lost' $out/msgpipe.log && python3 -c 'import sys; sys.exit(float(sys.argv[1]) < 500)' '$rate'"
whole msgpipe
page msgpipe test_kevweb_view.py "$rate"
echo "1..$n"
