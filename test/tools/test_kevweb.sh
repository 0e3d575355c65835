#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevweb in a real browser (test_kevweb.py: Chromium through chromedriver, Debian's
# python3-selenium) over a .kev file written as it grows (kev_stream.py --raw --pace: kevgen's
# trace, about 9 s from when the page has loaded): updates while it is written, each thread's
# CPU time at the end kevstat's over the same file, kevreport's page of it, and a raw socket
# that asks for the stream and never reads stalling nothing (kevweb then counts the updates it
# dropped for it); on two CPUs (kevscen4's smp scenario), the same CPU times and a row per CPU.
# Also: a port taken gives a free one, bad usage exits 2, a foreign Host is refused.
# Chromium, chromedriver or selenium missing is a failure, not a skip.
# usage: test_kevweb.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevweb)
set -u
bin=${1:-build/host}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
scratch kevweb "${2:-build/host-test/kevweb}"
scen4=${KEVSCEN4:-build/host-test/kevscen4}
need chromium
need chromedriver
need curl
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

"$bin/kevgen" -n 200000 -e -o "$dir/one.kev" >/dev/null
"$bin/kevstat" --json "$dir/one.kev" >"$dir/stat.json"
: >"$dir/growing.kev"
"$bin/kevweb" -p 0 --queue 256 "$dir/growing.kev" 2>"$dir/web.err" &
web=$!
port=$(port_of "$dir/web.err")
check "kevweb says where it serves (port ${port:-none})" [ -n "$port" ]
touch "$dir/writing"
( for _ in $(seq 600); do [ -e "$dir/ready" ] && break; sleep 0.05; done # the page loaded
  /usr/bin/python3 "$here/kev_stream.py" "$dir/one.kev" "$dir/growing.kev" --raw --pace 4096:0.01 >/dev/null
  rm -f "$dir/writing" ) &
writer=$!
KEVWEB_SHOT=$dir/page.png timeout 150 /usr/bin/python3 "$here/test_kevweb.py" "http://localhost:$port/" \
    --ready "$dir/ready" --writing "$dir/writing" --stat "$dir/stat.json" >"$dir/ui.tap" 2>&1
rc=$?
relay "$dir/ui.tap"
[ "$rc" = 0 ] || notok "the browser test ran to its end (exit $rc)" "$(tail -3 "$dir/ui.tap")"
wait "$writer"
check "the file kevweb read as it grew is the trace kevstat read" cmp -s "$dir/growing.kev" "$dir/one.kev"

# Two CPUs (kevscen4's smp scenario, the live reader's merge across CPUs), the file finished:
# the end's checks, and a row per CPU.
"$scen4" -r 400 smp "$dir/smp.kev" >/dev/null
"$bin/kevstat" --json "$dir/smp.kev" >"$dir/smp.json"
"$bin/kevweb" -p 0 "$dir/smp.kev" 2>"$dir/smp.err" &
web3=$!
port3=$(port_of "$dir/smp.err")
timeout 120 /usr/bin/python3 "$here/test_kevweb.py" "http://localhost:$port3/" --finished \
    --stat "$dir/smp.json" >"$dir/smp.tap" 2>&1
rc=$?
relay "$dir/smp.tap" "two CPUs: "
[ "$rc" = 0 ] || notok "two CPUs: the browser test ran to its end (exit $rc)" "$(tail -3 "$dir/smp.tap")"
kill -INT "$web3"
wait "$web3"

# A finished file is read whole: the late instances on the page are the verdicts kevstat gives
# over it, its own figure (each task's misses, the program's and the emulator's, an instance
# still open past its deadline among them). Each deadline is the task's mean response, so that
# some of its instances miss and some do not.
rules=$(/usr/bin/python3 - "$dir/stat.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cps = d["trace"]["cycles_per_sec"]
print(" ".join("--deadline %s=%dns" % (t["thread"], t["response"]["mean"] * 1e9 / cps)
               for t in d["tasks"]["list"] if t["response"]["n"]))
PY
)
"$bin/kevstat" --json $rules "$dir/one.kev" >"$dir/late.json"
late=$(/usr/bin/python3 - "$dir/late.json" <<'PY'
import json, sys
ts = json.load(open(sys.argv[1]))["tasks"]["list"]
assert all(not t["missed_more"] for t in ts), "more misses than kevstat lists"
print(sum(t["misses"] + t["emulator_misses"] for t in ts))
PY
)
"$bin/kevweb" -p 0 $rules "$dir/one.kev" 2>"$dir/late.err" &
web4=$!
port4=$(port_of "$dir/late.err")
timeout 120 /usr/bin/python3 "$here/test_kevweb.py" "http://localhost:$port4/" --finished \
    --stat "$dir/late.json" --late "${late:-none}" >"$dir/late.tap" 2>&1
rc=$?
relay "$dir/late.tap" "deadlines given: "
[ "$rc" = 0 ] || notok "deadlines given: the browser test ran to its end (exit $rc)" "$(tail -3 "$dir/late.tap")"
kill -INT "$web4"
wait "$web4"

# A port taken: a free one, said.
"$bin/kevweb" -p "$port" "$dir/one.kev" 2>"$dir/web2.err" &
web2=$!
port2=$(port_of "$dir/web2.err")
check "port $port taken: a second kevweb serves on a free one (${port2:-none})" \
    [ -n "$port2" -a "$port2" != "$port" ]
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: attacker.example' "http://127.0.0.1:$port2/")
check "a request naming another host is refused (HTTP $code)" [ "$code" = 403 ]
kill -INT "$web2"
wait "$web2"

kill -INT "$web"
wait "$web"
wrc=$?
dropped=$(sed -n 's/.*; \([0-9]*\) updates dropped for slow pages.*/\1/p' "$dir/web.err")
check "stopped by Ctrl-C, kevweb exits 0 and counts the updates it dropped for the page that never read (${dropped:-none})" \
    [ "$wrc" = 0 -a "${dropped:-0}" -gt 0 ]
"$bin/kevweb" --queue 1 "$dir/one.kev" >/dev/null 2>&1
check "bad usage exits 2" [ $? = 2 ]
finish
