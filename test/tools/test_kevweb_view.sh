#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevweb's timeline as a user reads it (test_kevweb_view.py in Chromium) over kevscen basic's
# capture of 2 s, 1,000 messages a second (its own "expect flows" over its span): the legend of
# the CPU rows, thread rows readable under the messages, one unit per time column.
# usage: test_kevweb_view.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevweb)
set -u
bin=${1:-build/host}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
scratch view "${2:-build/host-test/kevweb}"
need chromium
need chromedriver
"$bin/kevscen" -r 1000 basic "$dir/b.kev" >"$dir/b.expect"
flows=$(sed -n 's/^expect flows //p' "$dir/b.expect")
"$bin/kevstat" --json "$dir/b.kev" >"$dir/b.json"
rate=$(python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["trace"]; print(int(sys.argv[2]) * t["cycles_per_sec"] / (t["last"] - t["first"]))' "$dir/b.json" "${flows:-0}")
"$bin/kevweb" -p 0 "$dir/b.kev" 2>"$dir/web.err" &
web=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's|^kevweb: the live view is at http://localhost:\([0-9]*\)/$|\1|p' "$dir/web.err")
    [ -n "$port" ] && break
    sleep 0.05
done
timeout 120 /usr/bin/python3 "$here/test_kevweb_view.py" "http://localhost:${port:-0}/" "$rate" >"$dir/view.tap" 2>&1
rc=$?
relay "$dir/view.tap"
[ "$rc" = 0 ] || grep -q '^not ok' "$dir/view.tap" || notok "the browser test ran to its end (exit $rc)" "$(tail -3 "$dir/view.tap")"
kill -INT "$web"
wait "$web"
finish
