#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Who blocked whom on a real capture (TAP): the image syncapps runs user/apps/inversion (a
# priority inversion on a semaphore, then the same on a mutex with inheritance) and
# user/apps/deadlock (an ABBA deadlock broken by a timeout, so the run ends by itself) under
# the tracelogger (-w: the threads' priorities in their state events). Each program prints
# what it knows on its own (thread and object ids, how long mid ran while high waited,
# measured with ClockCycles); kevstat --json must name the same inversion (who, on what, how
# long) and the same deadlock cycle, and no inversion on the mutex with inheritance.
# On a board with several CPUs (qemu-virt-a53, QEMU_SMP=4: qemu-qemu-virt-a53/sync-apps) the
# checks are the same: inversion binds its threads to one CPU itself (an inversion is a
# one-CPU scenario), the deadlock's cycle closes on any number of CPUs.
#   BOARD=<board> test/qemu/test_sync_apps.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-sync-apps
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
. "$here/tap_lib.sh"

QEMU_ARGS="appinit inversion deadlock ;; tracelogger -d1 -w -f $out/t.kev" QEMU_TIMEOUT=60 \
    "$here/../../scripts/qemu-run.sh" "$b/syncapps.elf" >"$out/log" 2>&1
ok $? "syncapps boots, runs both programs and exits 0 (the deadlock ends by its timeout)"
grep -aq 'appinit: done, 0 failures' "$out/log"; ok $? "both programs exit 0"
"$h/kevstat" --json "$out/t.kev" >"$out/t.json" 2>"$out/kevstat.err"
ok $? "kevstat --json reads the capture"
"$h/kevstat" -s waits "$out/t.kev" >"$out/waits.txt" 2>&1
sed 's/^/# /' "$out/waits.txt"
grep -a 'inversion: \|inheritance: \|deadlock: ' "$out/log" | sed 's/^/# /'

python3 - "$out/t.json" "$out/log" >"$out/checks" 2>&1 <<'PY'
import json, re, sys
w = json.load(open(sys.argv[1]))["waits"]
log = open(sys.argv[2], errors="replace").read()
n = 0
def check(cond, what):
    global n
    n += 1
    print(("ok" if cond else "not ok"), "-", what)
inv = re.search(r"inversion: sem (\d+) high (\d+) mid (\d+) low (\d+) mid_us (\d+) wait_us (\d+)", log)
inh = re.search(r"inheritance: mutex (\d+) high \d+ mid \d+ low \d+ wait_us (\d+) mid_after_release (\d)", log)
dl = re.search(r"deadlock: a \d+ holds mutex (\d+) waits mutex (\d+); b \d+ holds mutex (\d+) waits mutex (\d+)", log)
check(inv and inh and dl, "the programs printed what they know")
if inv:
    sem, mid_us, wait_us = inv.group(1), int(inv.group(5)), int(inv.group(6))
    hz = json.load(open(sys.argv[1]))["trace"]["cycles_per_sec"]
    found = [i for i in w["inversions"] if i["object"] == "semaphore " + sem]
    check(len(found) == 1 and found[0]["waiter"] == "inversion/high" and
          found[0]["owner"] == "inversion/low" and found[0]["middle"] == "inversion/mid",
          "the inversion: inversion/high blocked on semaphore %s held by inversion/low, preempted by inversion/mid (%s)" % (sem, found))
    if found:
        lost = found[0]["lost"] * 1e6 / hz
        check(abs(lost - mid_us) <= 0.03 * mid_us + 100 and lost <= wait_us + 100,
              "time lost %.0f us = mid's run measured by the program (%d us), within high's wait (%d us)" % (lost, mid_us, wait_us))
# user events named and formatted by the program's own registry (trace_event_register)
if inv:
    u = {e["id"]: e for e in json.load(open(sys.argv[1]))["user_events"] if e["process"].startswith("inversion")}
    want = "mid ran %d us while high waited %d us" % (mid_us, wait_us)
    check(u.get(101, {}).get("name") == "inversion" and u[101]["value"] == want,
          "trace_logi event 101: named 'inversion', shown '%s' (%s)" % (want, u.get(101)))
    check(u.get(102, {}).get("name") == "inversion_b" and u[102]["value"] == "mid %d us, high %d us" % (mid_us, wait_us),
          "trace_logb event 102 through its format (%s)" % u.get(102))
    check(u.get(103, {}).get("value") == "sem %s held by low %s" % (sem, inv.group(4)),
          "trace_logf event 103's text (%s)" % u.get(103))
if inh:
    check(inh.group(3) == "1", "with inheritance mid ran only after low released the mutex (the program's view)")
    check(not [i for i in w["inversions"] if i["object"] == "mutex " + inh.group(1)],
          "no inversion found on mutex %s (inheritance)" % inh.group(1))
    # from PRIO_CHANGE events, or without them from low's priority rising in its wide events
    check([b for b in w["boosts"] if b["thread"] == "inversion/low"],
          "inversion/low boosted by inheritance (%s)" % ("PRIO_CHANGE" if w["prio_events"] else "wide state events"))
if dl:
    a1, a2, b1, b2 = dl.groups()
    want = {("deadlock/a", "mutex " + a2, "deadlock/b"), ("deadlock/b", "mutex " + b2, "deadlock/a")}
    cyc = [{(c["thread"], c["object"], c["owner"]) for c in d["cycle"]} for d in w["deadlocks"]]
    check(want in cyc, "the deadlock cycle: a waits on mutex %s held by b, which waits on mutex %s held by a (%s)" % (a2, b2, cyc))
    check(any(d["broken"] for d in w["deadlocks"]), "the cycle was broken (b's timeout)")
PY
[ $? = 0 ] || echo "not ok - the comparison ran to its end: $(tail -1 "$out/checks")" >>"$out/checks"
while IFS= read -r line; do
    case $line in
        "ok - "*) ok 0 "${line#ok - }" ;;
        "not ok - "*) ok 1 "${line#not ok - }" ;;
        *) echo "# $line" ;;
    esac
done <"$out/checks"
echo "1..$n"
