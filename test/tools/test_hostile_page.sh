#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The web pages against a hostile trace (test_hostile_page.py in Chromium): a capture whose
# threads and processes are named as markup (kevscen -M) in kevreport's page, kevweb's live page
# and its /report, each against the page of the same scenario with plain names; a header that
# does not decode and an input that ends with none, said on kevweb's page.
# Chromium, chromedriver or selenium missing is a failure, not a skip.
# usage: test_hostile_page.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevweb)
set -u
bin=${1:-build/host}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
scratch page "${2:-build/host-test/kevweb}"
need chromium
need chromedriver
if ! /usr/bin/python3 -c 'import selenium' 2>/dev/null; then
    notok "python3-selenium is installed" "install the Debian package python3-selenium (scripts/setup.sh --test)"
    finish; exit 1
fi
# port FILE: the port kevweb said it serves on, waiting for it (empty: it did not).
port_of() {
    local p
    for _ in $(seq 100); do
        p=$(sed -n 's|^kevweb: the live view is at http://localhost:\([0-9]*\)/$|\1|p' "$1")
        [ -n "$p" ] && break
        sleep 0.05
    done
    echo "$p"
}
# The labels kevscen -M gives its threads (process/thread, tools/kevconv/kevscen.c), written
# here by hand.
names=('</script>/<!--<script>' 'a&amp;b<i>/</ScRiPt >' $'x\u2028y/\u2029main' "\"'><b>w/<img src=x>")

"$bin/kevscen" -r 4 basic "$dir/plain.kev" >/dev/null
"$bin/kevscen" -M -r 4 basic "$dir/markup.kev" >/dev/null
"$bin/kevreport" -o "$dir/plain.html" "$dir/plain.kev" >/dev/null
"$bin/kevreport" -o "$dir/markup.html" "$dir/markup.kev" >/dev/null
timeout 120 /usr/bin/python3 "$here/test_hostile_page.py" report "$(realpath "$dir/plain.html")" \
    "$(realpath "$dir/markup.html")" "${names[@]}" >"$dir/report.tap" 2>&1
rc=$?
relay "$dir/report.tap"
[ "$rc" = 0 ] || notok "the report's browser test ran to its end (exit $rc)" "$(tail -3 "$dir/report.tap")"

"$bin/kevweb" -p 0 "$dir/markup.kev" 2>"$dir/web.err" &
web=$!
port=$(port_of "$dir/web.err")
timeout 120 /usr/bin/python3 "$here/test_hostile_page.py" live "http://localhost:$port/" \
    "${names[@]}" >"$dir/live.tap" 2>&1
rc=$?
relay "$dir/live.tap"
[ "$rc" = 0 ] || notok "the live page's browser test ran to its end (exit $rc)" "$(tail -3 "$dir/live.tap")"
kill -INT "$web"
wait "$web"

# A header that does not decode: its version items' bytes overwritten (a file kevweb keeps
# reading, as it may still grow); then bytes that hold no header at all, through a pipe that
# ends.
python3 - "$dir/plain.kev" "$dir/badhead.kev" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[90:94] = b'\xff\x00\xff\x00'
open(sys.argv[2], 'wb').write(bytes(d))
PY
"$bin/kevweb" -p 0 "$dir/badhead.kev" 2>"$dir/bad.err" &
web=$!
port=$(port_of "$dir/bad.err")
timeout 60 /usr/bin/python3 "$here/test_hostile_page.py" nohead "http://localhost:$port/" \
    "No trace yet|does not decode|still reading" >"$dir/bad.tap" 2>&1
rc=$?
relay "$dir/bad.tap" "a damaged header: "
[ "$rc" = 0 ] || notok "a damaged header: the browser test ran to its end (exit $rc)" "$(tail -3 "$dir/bad.tap")"
kill -INT "$web"
wait "$web"
head -c 5000 /dev/urandom | tr -d 'T' | "$bin/kevweb" -p 0 2>"$dir/none.err" &
web=$!
port=$(port_of "$dir/none.err")
timeout 60 /usr/bin/python3 "$here/test_hostile_page.py" nohead "http://localhost:$port/" \
    "No trace: the input ended after|bytes" >"$dir/none.tap" 2>&1
rc=$?
relay "$dir/none.tap" "no header at all: "
[ "$rc" = 0 ] || notok "no header at all: the browser test ran to its end (exit $rc)" "$(tail -3 "$dir/none.tap")"
kill -INT "$web"
wait "$web"
finish
