#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevreport: the HTML report is self-contained, loads in headless Chromium without a console
# message or script error, has the expected elements and values for the scripted scenarios,
# its zoom and pan controls work (#selftest), and a screenshot shows a drawn page.
# Chromium missing is a failure, not a skip.
# usage: test_kevreport.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch report "${2:-build/host-test/kevconv}"
need chromium
need python3

chrome() { # chrome OUT ERR ARGS...: headless Chromium with a throw-away profile
    local out=$1 err=$2 prof rc
    shift 2
    prof=$(mktemp -d)
    timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
        --enable-logging=stderr --v=0 "$@" >"$out" 2>"$err"
    rc=$?
    rm -rf "$prof"
    return $rc
}

for s in basic loss; do
    "$bin/kevscen" "$s" "$dir/$s.kev" >"$dir/$s.expect"
    if "$bin/kevreport" -o "$dir/$s.html" "$dir/$s.kev" >/dev/null 2>"$dir/$s.err"; then
        ok "$s: kevreport writes the page"
    else
        notok "$s: kevreport writes the page" "$(cat "$dir/$s.err")"; continue
    fi
    check "$s: self-contained (no external script, style, image or font)" \
        test -z "$(grep -nE '<script[^>]*src=|<link|<img|@import|url\(|https?://[a-z]' "$dir/$s.html" | grep -v 'http://www.w3.org/2000/svg')"
    chrome "$dir/$s.dom" "$dir/$s.chrome" --virtual-time-budget=5000 --dump-dom "file://$dir/$s.html#selftest"
    check "$s: Chromium loads the page" grep -qE '<body[^>]* data-ready="1"' "$dir/$s.dom"
    check "$s: no console message or script error" test -z "$(grep -E 'CONSOLE|Uncaught' "$dir/$s.chrome"; grep -o 'id="errors"' "$dir/$s.dom")"
    check "$s: zoom, pan, wheel and reset work" grep -q 'data-selftest="zoom-in:ok pan:ok wheel:ok reset:ok"' "$dir/$s.dom"
    for id in timeline zoom-in zoom-out legend cpu states kcalls irqs msgs lost; do
        check "$s: element #$id" grep -q "id=\"$id\"" "$dir/$s.dom"
    done
    dom=$(cat "$dir/$s.dom")
    check "$s: CPU table: worker 10.00 ms" grep -q '<td>worker/main</td><td>10.00 ms</td>' <<<"$dom"
    check "$s: thread states drawn as stacked bars" test "$(grep -o 'class="stack"' <<<"$dom" | wc -l)" -ge 5
    check "$s: latency histograms drawn" test "$(grep -o '<svg' <<<"$dom" | wc -l)" -ge 8
    check "$s: slowest request across 3 threads" grep -q 'Slowest request: 300.0 us across 3 threads' <<<"$dom"
    check "$s: irq 5 row: 20 interrupts, handler 40.0 us" grep -q '<td>5</td><td>20</td><td>[0-9.]*</td><td>40.0 us</td><td>60.0 us</td>' <<<"$dom"
    if [ "$s" = loss ]; then
        lost=$(sed -n 's/^expect lost //p' "$dir/$s.expect")
        check "$s: the loss window is listed with its $lost events" grep -qE "<td>$lost</td><td>KER_CALL" <<<"$dom"
    else
        check "$s: says nothing was lost" grep -q '<p>No event was lost.</p>' <<<"$dom"
    fi
done

# Two CPUs (kevscen4's smp scenario): a timeline row per CPU, the per-CPU table, migrations.
scen4=${KEVSCEN4:-build/host-test/kevscen4}
"$scen4" smp "$dir/smp.kev" >/dev/null
if "$bin/kevreport" -o "$dir/smp.html" "$dir/smp.kev" >/dev/null 2>"$dir/smp.err"; then
    chrome "$dir/smp.dom" "$dir/smp.chrome" --virtual-time-budget=5000 --dump-dom "file://$dir/smp.html"
    dom=$(cat "$dir/smp.dom")
    check "smp: Chromium loads the page, no script error" \
        bash -c "grep -qE '<body[^>]* data-ready=\"1\"' '$dir/smp.dom' && ! grep -qE 'CONSOLE|Uncaught' '$dir/smp.chrome'"
    check "smp: per-CPU table: CPU 1 ran threads 14.00 ms" grep -q '<td>CPU 1</td><td>14.00 ms</td>' <<<"$dom"
    check "smp: the server migrated 39 times" grep -qE '<td>server/main</td><td>6\.0+ ms</td><td>[^<]*</td><td>40</td><td>39</td>' <<<"$dom"
    check "smp: a timeline row per CPU (CPU 0, CPU 1)" \
        python3 -c 'import json,re,sys; d=open(sys.argv[1]).read(); j=json.loads(re.search(r"<script id=\"kev-data\" type=\"application/json\">(.*?)</script>", d, re.S).group(1)); cpus={s[4] for s in j["timeline"]["seg"] if s[3] == 1}; sys.exit(0 if cpus == {0, 1} else 1)' "$dir/smp.html"
else
    notok "smp: kevreport writes the page" "$(cat "$dir/smp.err")"
fi

chrome "$dir/shot.out" "$dir/shot.err" --window-size=1400,1200 --screenshot="$dir/loss.png" "file://$dir/loss.html"
read -r w h colours <<<"$(python3 "$here/png_colors.py" "$dir/loss.png" 2>&1)"
check "screenshot is a 1400x1200 PNG" test "$w $h" = "1400 1200"
check "screenshot shows a drawn page ($colours colours)" test "${colours:-0}" -ge 30

# A bigger generated trace with a cut timeline still loads.
"$bin/kevgen" -x ring -k 8 -d 0 -n 200000 -o "$dir/big.kev" >/dev/null
"$bin/kevreport" --max-segments 2000 -o "$dir/big.html" "$dir/big.kev" >/dev/null
chrome "$dir/big.dom" "$dir/big.chrome" --virtual-time-budget=5000 --dump-dom "file://$dir/big.html"
check "a cut timeline loads and says it was cut" grep -q '<p class="note">timeline cut after the first records' "$dir/big.dom"
check "the big trace's page is ready" grep -qE '<body[^>]* data-ready="1"' "$dir/big.dom"
check "no console message on the big trace" test -z "$(grep -E 'CONSOLE|Uncaught' "$dir/big.chrome")"

size=$(stat -c %s "$dir/basic.kev")
head -c $((size / 2)) "$dir/basic.kev" >"$dir/trunc.kev"
err=$("$bin/kevreport" -o "$dir/trunc.html" "$dir/trunc.kev" 2>&1 >/dev/null); rc=$?
check "truncated file: exit 1 with a message" test "$rc" = 1 -a -n "$(grep -iE 'truncated|BUFFER' <<<"$err")"
off=$(sed -n 's/.*byte offset \([0-9]*\).*/\1/p' <<<"$err" | head -1)
chrome "$dir/trunc.dom" "$dir/trunc.chrome" --virtual-time-budget=5000 --dump-dom "file://$dir/trunc.html"
check "truncated file: the page says it is damaged, and where (byte offset $off)" \
    grep -q "<p class=\"damaged\" id=\"damaged\">This file is damaged: .*before byte offset $off;" "$dir/trunc.dom"
check "truncated file: no bare '0 lost events', losses after the damage unknown" \
    test -n "$(grep -o 'lost events before the damage (after it: unknown)' "$dir/trunc.dom")" -a \
         -z "$(grep -o '<p>No event was lost.</p>' "$dir/trunc.dom")"

# User events: a marker on the writing thread's row, its value on click, a table per id/process.
"$bin/kevgen" -n 20000 -o "$dir/user.kev" >/dev/null
"$bin/kevreport" -o "$dir/user.html" "$dir/user.kev" >/dev/null
chrome "$dir/user.dom" "$dir/user.chrome" --virtual-time-budget=5000 --dump-dom "file://$dir/user.html#selftest"
check "user events: a click on a marker shows its value" grep -q 'data-selftest="[^"]*user:ok' "$dir/user.dom"
check "user events: the value shown is the event's text" grep -q '<div id="user-detail" class="note">user event [0-9]* on .*: user checkpoint</div>' "$dir/user.dom"
want=$("$bin/kevstat" --json "$dir/user.kev" | python3 -c 'import json,sys; u=json.load(sys.stdin)["user_events"]; print(len(u), sum(x["count"] for x in u))')
rows=$(grep -o '<section id="user">.*</section>' "$dir/user.dom" | grep -o '<tr><td>' | wc -l)
check "user events: one table row per id and process (${want% *})" test "$rows" = "${want% *}"
check "user events: no console message" test -z "$(grep -E 'CONSOLE|Uncaught' "$dir/user.chrome")"
"$bin/kevreport" "$dir/none.kev" >/dev/null 2>&1; check "missing file exits 1" test $? = 1
"$bin/kevreport" --help | grep -q '^usage: kevreport'; check "--help prints usage" test $? = 0
finish
