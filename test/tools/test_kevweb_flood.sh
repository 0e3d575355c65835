#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevweb under a flood on loopback (kevweb_flood.py): 2,000 connections that send their request
# a byte a second and 64 that hold the event stream open without reading, at the same time,
# each reopened as soon as kevweb closes it, half from the viewer's own address; beside each
# load a viewer must get the page (byte for byte tools/kevweb/live.html, the file kevweb
# embeds) and the stream's first snapshot within 2 s by its own clock, every 0.5 s for 20 s.
# Then kevweb, stopped, says how many connections it closed to make room (and past their
# deadline: none need be, the newer ones push the slow ones out first).
# usage: test_kevweb_flood.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevweb)
set -u
bin=${1:-build/host}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
scratch flood "${2:-build/host-test/kevweb}"
"$bin/kevgen" -n 20000 -o "$dir/t.kev" >/dev/null
"$bin/kevweb" -p 0 "$dir/t.kev" 2>"$dir/web.err" &
web=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's|^kevweb: the live view is at http://localhost:\([0-9]*\)/$|\1|p' "$dir/web.err")
    [ -n "$port" ] && break
    sleep 0.05
done
check "kevweb says where it serves (port ${port:-none})" [ -n "$port" ]
page=$here/../../tools/kevweb/live.html
timeout 60 python3 "$here/kevweb_flood.py" "${port:-0}" "$page" slow 2000 20 >"$dir/slow.tap" 2>&1 &
slow=$!
timeout 60 python3 "$here/kevweb_flood.py" "${port:-0}" "$page" held 64 20 >"$dir/held.tap" 2>&1
hrc=$?
wait "$slow"
src=$?
relay "$dir/slow.tap" "slow requests: "
[ "$src" = 0 ] || grep -q '^not ok' "$dir/slow.tap" || notok "slow requests: the load ran to its end (exit $src)" "$(tail -3 "$dir/slow.tap")"
relay "$dir/held.tap" "held streams: "
[ "$hrc" = 0 ] || grep -q '^not ok' "$dir/held.tap" || notok "held streams: the load ran to its end (exit $hrc)" "$(tail -3 "$dir/held.tap")"
kill -INT "$web"
wait "$web"
wrc=$?
line=$(grep 'requests served' "$dir/web.err")
check "kevweb exits 0 and counts the connections it closed for others ($line)" \
    bash -c "[ $wrc = 0 ] && grep -qE '; [1-9][0-9]* connections closed to make room for others, [0-9]+ past their deadline' '$dir/web.err'"
finish
