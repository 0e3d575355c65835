#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Who blocked whom on a real capture (TAP): the image syncapps runs user/apps/inversion (a
# priority inversion on a semaphore with two middle threads taking turns in the owner's place,
# then the same on a mutex with inheritance) and
# user/apps/deadlock (an ABBA deadlock broken by a timeout, so the run ends by itself) under
# the tracelogger (-w: the threads' priorities in their state events). Each program prints
# what it knows on its own (thread and object ids, how long each middle thread ran while high
# waited, measured with ClockCycles); kevstat --json must name the same inversion (who, on
# what, how long), each middle thread with its own share of the time lost (within 3% + 100 us
# of the program's own figure, largest first: mid, though mid2 preempted low first), the same
# deadlock cycle, and no inversion on the mutex with inheritance. kevsql's findings views over
# the same capture name the same threads: priority_inversion and priority_inversion_middle
# kevstat's inversions and every middle thread's share to the ns, deadlock_cycle its cycle.
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

# -icount shift=0: time from the instruction count, so the programs' own figures and the
# capture's agree to a few microseconds whatever the host's load.
QEMU_ICOUNT=${QEMU_ICOUNT:-1} QEMU_ARGS="appinit inversion deadlock ;; tracelogger -d1 -w -f $out/t.kev" QEMU_TIMEOUT=60 \
    "$here/../../scripts/qemu-run.sh" "$b/syncapps.elf" >"$out/log" 2>&1
ok $? "syncapps boots, runs both programs and exits 0 (the deadlock ends by its timeout)"
grep -aq 'appinit: done, 0 failures' "$out/log"; ok $? "both programs exit 0"
"$h/kevstat" --json "$out/t.kev" >"$out/t.json" 2>"$out/kevstat.err"
ok $? "kevstat --json reads the capture"
"$h/kevstat" -s waits "$out/t.kev" >"$out/waits.txt" 2>&1
sed 's/^/# /' "$out/waits.txt"
grep -a 'inversion: \|inheritance: \|deadlock: ' "$out/log" | sed 's/^/# /'

python3 - "$out/t.json" "$out/log" "$h/kevsql" "$out/t.kev" >"$out/checks" 2>&1 <<'PY'
import json, re, subprocess, sys
w = json.load(open(sys.argv[1]))["waits"]
log = open(sys.argv[2], errors="replace").read()
n = 0
def check(cond, what):
    global n
    n += 1
    print(("ok" if cond else "not ok"), "-", what)
inv = re.search(r"inversion: sem (\d+) high (\d+) mid (\d+) low (\d+) mid_us (\d+) wait_us (\d+)", log)
inv2 = re.search(r"inversion: mid2 (\d+) prio \d+ mid2_us (\d+)", log)
inh = re.search(r"inheritance: mutex (\d+) high \d+ mid \d+ low \d+ wait_us (\d+) mid_after_release (\d)", log)
dl = re.search(r"deadlock: a \d+ holds mutex (\d+) waits mutex (\d+); b \d+ holds mutex (\d+) waits mutex (\d+)", log)
check(inv and inv2 and inh and dl, "the programs printed what they know")
def near(got, want):  # the tolerance of every time compared with the program's own figure
    return abs(got - want) <= 0.03 * want + 100
if inv:
    sem, mid_us, wait_us = inv.group(1), int(inv.group(5)), int(inv.group(6))
    hz = json.load(open(sys.argv[1]))["trace"]["cycles_per_sec"]
    found = [i for i in w["inversions"] if i["object"] == "semaphore " + sem]
    mid2_us = int(inv2.group(2)) if inv2 else 0
    # the order the programs' own figures give (mid's load is 2.5 times mid2's)
    order = [t for _, t in sorted([(-mid_us, "inversion/mid"), (-mid2_us, "inversion/mid2")])]
    check(len(found) == 1 and found[0]["waiter"] == "inversion/high" and
          found[0]["owner"] == "inversion/low" and found[0]["middle"] == order[0],
          "the inversion: inversion/high blocked on semaphore %s held by inversion/low, preempted by %s the longest (%s)" % (sem, order[0], found))
    if found:
        lost = found[0]["lost"] * 1e6 / hz
        check(near(lost, mid_us + mid2_us) and lost <= wait_us + 100,
              "time lost %.0f us = mid's and mid2's runs measured by the programs (%d + %d us), within high's wait (%d us)" % (lost, mid_us, mid2_us, wait_us))
        m = [(x["thread"], x["lost"] * 1e6 / hz) for x in found[0].get("middles", [])]
        check([x[0] for x in m[:2]] == order and all(m[i][1] >= m[i + 1][1] for i in range(len(m) - 1)),
              "every middle thread named, largest share first: %s (mid %d us, mid2 %d us; mid2 preempted low first) (%s)" % (order, mid_us, mid2_us, m))
        share = dict(m)
        check(near(share.get("inversion/mid", 0), mid_us),
              "mid's share %.0f us = its own run measured with ClockCycles (%d us)" % (share.get("inversion/mid", 0), mid_us))
        check(near(share.get("inversion/mid2", 0), mid2_us),
              "mid2's share %.0f us = its own two runs measured with ClockCycles (%d us)" % (share.get("inversion/mid2", 0), mid2_us))
        check(sum(x["lost"] for x in found[0].get("middles", [])) + found[0].get("others_lost", -1) == found[0]["lost"],
              "the shares add up to the time lost")
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
# kevsql's views: kevstat's findings, the same threads and times (cycles turned into ns once)
def sql(q):
    r = subprocess.run([sys.argv[3], "--json", sys.argv[4], q], capture_output=True, text=True)
    return json.loads(r.stdout)["rows"] if r.returncode == 0 else ["kevsql: " + r.stderr.strip()]
hz = json.load(open(sys.argv[1]))["trace"]["cycles_per_sec"]
ns = lambda c: c * 1000000000 // hz
want = sorted([i["waiter"], i["object"], i["owner"], i["count"], ns(i["lost"])] for i in w["inversions"])
got = sorted(sql("SELECT waiter, object, owner, waits, lost_ns FROM priority_inversion"))
check(got == want and want, "kevsql: priority_inversion is kevstat's list (%s)" % got)
want = sorted([i["waiter"], i["object"], m["thread"], ns(m["lost"])] for i in w["inversions"] for m in i["middles"])
got = sorted(sql("SELECT waiter, object, middle, lost_ns FROM priority_inversion_middle "
                 "WHERE middle_utid IS NOT NULL"))
check(got == want and want, "kevsql: priority_inversion_middle names every middle thread with kevstat's share (%s)" % got)
if dl:
    rows = sql("SELECT cycle_text, broken_ts IS NOT NULL FROM deadlock_cycle")
    txt = ["deadlock/%s waits on mutex %s held by deadlock/%s, which waits on mutex %s held by deadlock/%s"
           % (x, m1, y, m2, x) for x, m1, y, m2 in (("a", a2, "b", b2), ("b", b2, "a", a2))]
    check(len(rows) == len(w["deadlocks"]) and any(r[0] in txt and r[1] for r in rows),
          "kevsql: deadlock_cycle has kevstat's cycles, a's and b's on mutexes %s and %s, broken (%s)" % (a2, b2, rows))
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
