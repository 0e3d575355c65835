#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make live's web page (scripts/run-live.sh with kevweb) in a real browser (TAP): the demo booted
# with its trace streamed live; Chromium (Debian's chromium, chromedriver, python3-selenium:
# test/tools/test_kevweb.py) opens the address make live said, while a raw socket asks for the
# event stream and never reads. The truths: the console (the page's event count grows between
# two reads taken while the console has not yet said the system is done), kevstat over the
# trace.kev the run wrote (each thread's CPU time on the final page), kevreport's page of it.
# make live keeps the finished page for LIVE_HOLD seconds; the test ends it once done. QEMU waits
# for a QMP client before the guest starts, and the browser test connects once the page has
# loaded: the system runs while the page watches, however slowly the browser came up (the
# probe path never slows the guest, so a 10 s run could end before a late page had loaded).
#   BOARD=<board> test/qemu/test_live_web.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-live-web
rm -rf "$out" && mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap_lib.sh"

# The browser first (it may take seconds to start on a loaded machine), then make live.
timeout 240 /usr/bin/python3 "$here/../tools/test_kevweb.py" "$out/run.log" --console "$out/live.console" \
    --kevstat "$h/kevstat" --trace "$out/trace.kev" --ready "$out/ready" --qmp "$out/qmp" \
    >"$out/ui.tap" 2>&1 &
ui=$!
for _ in $(seq 600); do [ -e "$out/ready" ] && break; sleep 0.1; done
BOARD=${BOARD:-mps2-an385} LIVE_DIR=$out TRACE_FILE=$out/trace.kev KEVTOP_OPTS="-b -d 1" \
    LIVE_SECONDS=10 LIVE_HOLD=60 LIVE_WEB_PORT=0 LIVE_QEMU_ARGS="-qmp unix:$out/qmp,server=on,wait=on" \
    "$here/../../scripts/run-live.sh" "$b/demo.elf" "$h/kevtop" "" "$h/kevweb" \
    >"$out/run.log" 2>&1 </dev/null &
live=$!
url=
for _ in $(seq 200); do
    url=$(sed -n 's|^live: the web view is at \(http://.*\)$|\1|p' "$out/run.log")
    [ -n "$url" ] && break
    sleep 0.1
done
check "make live said the page's address (${url:-none})" "[ -n '$url' ]"
wait "$ui"
rc=$?
relay "$out/ui.tap" "in the browser: "
check "the browser test ran to its end (exit $rc)" "[ $rc = 0 ]"
check "make live held the finished page (it said so)" \
    "grep -q '^live: the web view keeps the finished run for 60 s' '$out/run.log'"
kill -TERM "$live" 2>/dev/null
wait "$live"
check "the demo ran to its end (the console)" "grep -q 'demo system done, 0 failures' '$out/live.console'"
check "make live, stopped, stopped its web page (nothing answers at $url)" "! curl -s -m 2 -o /dev/null '$url'"
# The live tools refuse a heartbeat that lies ("not believed"): the reader's own never is.
check "no live tool refused the reader's heartbeat as a lie ($(grep -l 'not believed' "$out"/*.log | tr '\n' ' '))" \
    "! grep -q 'not believed' $out/run.log $out/kevweb.log $out/kevprobe.log"
echo "1..$n"
