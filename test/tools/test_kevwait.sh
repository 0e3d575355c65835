#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevstat's "waits" section (tools/analysis/kx_wait.c): every wait (when, who, on what, held
# by whom, how long), priority inversions (who, how long, every
# middle thread with its share when two take turns), the
# boost of a mutex with inheritance, the critical path split into running / blocked on X held
# by Y, and an ABBA deadlock's cycle, on kevscen's "sync" scenario whose answers kevscen
# computes from its own script ("expect" lines), never from a tool's output. Four captures:
# with and without the SYNC_WAIT / PRIO_CHANGE events (derived from the SYNC_* calls), and the
# deadlock left open (a truncated trace) or broken by a timeout.
# usage: test_kevwait.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch wait "${2:-build/host-test/kevconv}"

has() { grep -qF -- "$2" <<<"$1"; }
for v in events derived events-timeout derived-timeout; do
    opt=; [ "${v#events}" != "$v" ] && opt=-s
    [ "${v%timeout}" != "$v" ] && opt="$opt -t"
    r=$(( ${#v} % 3 + 3 ))  # 3..5 rounds: the totals follow the script, not a constant
    "$bin/kevscen" $opt -r $r sync "$dir/$v.kev" >"$dir/$v.expect"
    if ! "$bin/kevstat" -s waits,msg "$dir/$v.kev" >"$dir/$v.txt" 2>"$dir/$v.err"; then
        notok "$v: kevstat runs" "$(cat "$dir/$v.err")"; continue; fi
    txt=$(cat "$dir/$v.txt")
    "$bin/kevstat" -s user "$dir/$v.kev" >"$dir/$v.user" 2>&1
    while read -r _ key rest; do
        set -- $rest
        case $key in
        inversion)
            check "$v: inversion of $1 behind $4 preempted by $5 on $2 $3, $6 us in $7 waits" has "$txt" \
                "INVERSION $1 (prio" && \
            check "$v: inversion of $1: the object, owner, preemptor (the largest first), time lost" grep -qE \
                "INVERSION $1 \(prio [0-9]+\) blocked on $2 $3 held by $4 \(prio [0-9]+\), preempted by $5 \(prio [0-9]+\)[^:]*: $6\.000 us lost \($7 times" <<<"$txt" ;;
        middles)
            # two middle threads in turn: each named with its own share, largest first
            check "$v: inversion of $1 on $2 $3: $4 for $5 us, then $6 for $7 us" grep -qE \
                "INVERSION $1 \(prio [0-9]+\) blocked on $2 $3 held by [^ ]+ \(prio [0-9]+\), preempted by $4 \(prio [0-9]+\) for $5\.000 us, $6 \(prio [0-9]+\) for $7\.000 us: $(( $5 + $7 ))\.000 us lost" <<<"$txt" ;;
        inversions)
            check "$v: exactly $1 inversions (none for the mutex with inheritance)" has "$txt" \
                "== Priority inversions: $1 ==" ;;
        boosts)
            check "$v: $1 boosted $2 times by inheritance" has "$txt" \
                "boosted $2 times by priority inheritance: $1"
            if [ "${v#derived}" != "$v" ]; then
                check "$v: says the boosts are seen in the state events' priorities" has "$txt" \
                    "no PRIO_CHANGE events: boosts seen as an owner's priority rising in its state events"
            fi ;;
        request)
            check "$v: slowest request $1 us" has "$txt" "slowest request: $1.000 us"
            check "$v: $2 on the path is blocked $4 us on $5 $6 held by $7, not working" \
                grep -qE "^ +$4\.000 us blocked \(SEM\) on $5 $6 held by $7 " <<<"$txt" ;;
        deadlock)
            shift
            check "$v: the deadlock cycle and when it closed" has "$txt" "DEADLOCK at ${rest%% *}.000 us: $*" ;;
        broken)
            check "$v: the cycle broken by the timeout at $1 us" has "$txt" "broken at $1.000 us" ;;
        user)
            # the user-event registry: the code's declared name and its words through the format
            id=$1 cnt=$2 name=$3; shift 3
            check "$v: user event $id named $name, its words through its format: $*" grep -qE \
                "^  $id +[0-9]+ logger +$cnt +[0-9.]+ +[0-9.]+  $name: $*\$" "$dir/$v.user" ;;
        open)
            check "$v: the cycle still open at the end of the truncated trace" has "$txt" \
                "still blocked at the end of the trace" ;;
        waits)
            check "$v: every wait listed ($1)" has "$txt" \
                "== Waits on mutexes, semaphores and condition variables: $1 ==" ;;
        wait)   # when, who, in what state, how long, on what, held by whom
            if [ "$4" = -1 ]; then
                check "$v: $2 waits from $1 us on $5 $6 held by $7 to the end" grep -qE \
                    "^ +$1\.000 us $2 waited [0-9.]+ us \(still at the end\) \($3\) on $5 $6 held by $7" <<<"$txt"
            else
                check "$v: $2 waits $4 us from $1 us on $5 $6 held by $7" grep -qE \
                    "^ +$1\.000 us $2 waited $4\.000 us \($3\) on $5 $6 held by $7" <<<"$txt"
            fi ;;
        esac
    done < <(grep '^expect ' "$dir/$v.expect")
    # The same findings in --json (what kevreport embeds), against the same expect lines.
    "$bin/kevstat" --json "$dir/$v.kev" >"$dir/$v.json"
    check "$v: --json has the inversions (who, object, time lost) and the deadlock cycle" \
        python3 - "$dir/$v.json" "$dir/$v.expect" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["waits"]
inv = {(i["waiter"], i["object"], i["owner"], i["middle"]): (i["lost"], i["count"]) for i in w["inversions"]}
for line in open(sys.argv[2]):
    f = line.split()
    if f[:2] == ["expect", "inversion"]:
        key = (f[2], f[3] + " " + f[4], f[5], f[6])
        assert inv.get(key) == (int(f[7]), int(f[8])), (key, inv)
    if f[:2] == ["expect", "middles"]:
        i = [i for i in w["inversions"] if (i["waiter"], i["object"]) == (f[2], f[3] + " " + f[4])]
        want = [(f[5], int(f[6])), (f[7], int(f[8]))]
        assert len(i) == 1 and [(m["thread"], m["lost"]) for m in i[0]["middles"]] == want, (want, i)
        assert sum(m["lost"] for m in i[0]["middles"]) + i[0]["others_lost"] == i[0]["lost"], i
    if f[:2] == ["expect", "deadlock"]:
        d = w["deadlocks"][0]
        assert d["t"] == int(f[2]), d
        assert [(c["thread"], c["object"], c["owner"]) for c in d["cycle"]] == \
            [("b/main", "mutex 1", "a/main"), ("a/main", "mutex 2", "b/main")], d
PY
    if [ "${v#derived}" != "$v" ]; then
        check "$v: says the owners are derived" has "$txt" "derived from MutexLock/MutexUnlock"
    else
        check "$v: says the owners come from SYNC_WAIT" has "$txt" "owners: from SYNC_WAIT events"
    fi
done
finish
