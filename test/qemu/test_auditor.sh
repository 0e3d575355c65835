#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Who blocked whom, how long, and why a priority changed, on a real capture (TAP): the image
# auditortest runs user/apps/auditor under the tracelogger (test/qemu/capture_boot.sh). The
# program counts on its own (ClockCycles around each MutexLock, no trace involved) the
# consumer's waits on the mutex the auditor held, their total and the worst, and knows how many
# messages its client sent from above and from below the server's priority and that the client
# changed its own priority once. Held against it:
#   - kevstat --json: the auditor boosted exactly once a wait (the one rule, kx_prio.h), the
#     server never "boosted" though its priority changed with every message (message
#     inheritance up and down, as many as the client sent), the client's own change; the
#     consumer's waits on the mutex held by the auditor grouped (--wait-min 0: every wait) with
#     the program's count, total and worst (within 3% + 100 us);
#   - with the default threshold (1% of the waiter's period, at most 100 us) at least the
#     waits the program measured over 100 us and at most those over 50 us;
#   - kevstat's text and kevsql's prio_change.is_boost the same count;
#   - the report in Chromium as a user reads it (test/qemu/auditor_report_check.py), with a
#     screenshot of the page left in the scratch directory.
# On qemu-virt-a53 with QEMU_SMP=4 the program pins its threads to CPU 0 itself.
#   BOARD=<board> test/qemu/test_auditor.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$b/test-auditor
rm -rf "$out" && mkdir -p "$out"
. test/qemu/capture_boot.sh
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
capture_boot "$board" "$b/auditortest.elf" auditor "$out" "$h"
ok $? "auditortest boots, runs auditor under the tracelogger and exits 0"
grep -a 'auditor:' "$out/run.log" | sed 's/^/# /'
grep -aq 'auditor: done, ok' "$out/run.log"; ok $? "auditor ends well"
"$h/kevstat" --json "$out/t.kev" >"$out/t.json" 2>"$out/kevstat.err"
ok $? "kevstat --json reads the capture"
"$h/kevstat" --json --wait-min 0 "$out/t.kev" >"$out/all.json" 2>>"$out/kevstat.err"
ok $? "kevstat --json --wait-min 0 reads the capture"
"$h/kevstat" -s waits "$out/t.kev" >"$out/waits.txt" 2>&1
grep -v '^      ' "$out/waits.txt" | sed 's/^/# /'
"$h/kevreport" -o "$out/t.html" "$out/t.kev" >/dev/null 2>"$out/kevreport.err"
ok $? "kevreport writes the page"

python3 - "$out/t.json" "$out/all.json" "$out/run.log" "$out/waits.txt" "$h/kevsql" "$out/t.kev" \
    >"$out/checks" 2>&1 <<'PY'
import json, re, subprocess, sys
dflt, every = (json.load(open(f)) for f in sys.argv[1:3])
log = open(sys.argv[3], errors="replace").read()
txt = open(sys.argv[4], errors="replace").read()
def check(cond, what):
    print(("ok" if cond else "not ok"), "-", what)
m = re.search(r"auditor: mutex (\d+) consumer \d+ auditor \d+ waits (\d+) total_us (\d+) worst_us (\d+) "
              r"over_100us (\d+) over_50us (\d+)", log)
s = re.search(r"auditor: server \d+ client \d+ up (\d+) down (\d+) own (\d+)", log)
if not (m and s):
    check(False, "the program printed what it knows")
    sys.exit(0)
mtx, waits, total, worst, o100, o50 = (int(x) for x in m.groups())
up, down, own = (int(x) for x in s.groups())
hz = every["trace"]["cycles_per_sec"]
us = lambda c: c * 1e6 / hz
near = lambda got, want: abs(got - want) <= 0.03 * want + 100
b = {x["thread"]: x for x in every["waits"]["boosts"]}
aud, srv, cli = b.get("auditor/auditor", {}), b.get("auditor/server", {}), b.get("auditor/client", {})
check(waits > 0 and aud.get("count") == waits,
      "the auditor boosted once a wait of the consumer: %s, the program counted %d waits" % (aud.get("count"), waits))
k = srv.get("kinds", {})
check(srv.get("count") == 0 and k.get("message inheritance up") == up and k.get("message inheritance down") == down,
      "the server never boosted; message inheritance up %s (client sent %d from above), down %s (%d from below)"
      % (k.get("message inheritance up"), up, k.get("message inheritance down"), down))
# the client's own change is not a boost: it appears in no boost list (kevsql's kinds below)
check(not cli.get("count"), "the client's own change is not a boost (%s)" % cli)
g = [x for x in every["waits"]["groups"] if x["waiter"] == "auditor/consumer" and x["object"] == "mutex %d" % mtx]
check(len(g) == 1 and g[0]["owner"] == "auditor/auditor" and g[0]["count"] == waits,
      "every wait: consumer on mutex %d held by auditor, %d waits (%s)" % (mtx, waits, g))
if g:
    check(near(us(g[0]["total"]), total) and near(us(g[0]["worst"]), worst),
          "total %.0f us and worst %.0f us = the program's %d and %d us" % (us(g[0]["total"]), us(g[0]["worst"]), total, worst))
else:
    check(False, "total and worst")
d = [x for x in dflt["waits"]["groups"] if x["waiter"] == "auditor/consumer" and x["object"] == "mutex %d" % mtx]
n = d[0]["count"] if d else 0
check(o100 <= n <= o50, "default threshold (1%% of the consumer's period, at most 100 us): %d waits, the program "
      "measured %d over 100 us and %d over 50 us" % (n, o100, o50))
# each labelled with its own priority, the program's (user/apps/auditor: auditor 10, server 20)
check(("boosted %d times by priority inheritance: auditor/auditor (own prio 10)" % waits) in txt and
      "message inheritance (not a boost): auditor/server (own prio 20)" in txt and
      not re.search(r"boosted .*auditor/server", txt),
      "kevstat's text: the auditor (own prio 10) boosted %d times, the server's (own prio 20) "
      "changes as message inheritance" % waits)
r = subprocess.run([sys.argv[5], "--json", sys.argv[6],
                    "SELECT kind, count(*) FROM prio_change GROUP BY kind ORDER BY kind"], capture_output=True, text=True)
rows = dict(json.loads(r.stdout)["rows"]) if r.returncode == 0 else {}
check(rows.get("boost") == waits and rows.get("message inheritance up") == up and
      rows.get("message inheritance down") == down and rows.get("own change") == own,
      "kevsql's prio_change kinds: %s (boosts %d, up %d, down %d, own %d)" % (rows, waits, up, down, own))
PY
while IFS= read -r line; do
    case $line in
        "ok - "*) ok 0 "${line#ok - }" ;;
        "not ok - "*) ok 1 "${line#not ok - }" ;;
        *) echo "# $line" ;;
    esac
done <"$out/checks"
timeout 120 /usr/bin/python3 test/qemu/auditor_report_check.py "$(realpath "$out/t.html")" "$out/run.log" \
    "$out/report.png" >"$out/ui" 2>&1
rc=$?
while IFS= read -r line; do
    case $line in
        "ok - "*) ok 0 "report: ${line#ok - }" ;;
        "not ok - "*) ok 1 "report: ${line#not ok - }" ;;
        *) echo "# $line" ;;
    esac
done <"$out/ui"
[ "$rc" = 0 ]; ok $? "the browser check ran to its end (exit $rc)"
echo "1..$n"
