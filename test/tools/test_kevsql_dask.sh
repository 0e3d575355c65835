#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevsql --scheduler on a real Dask distributed cluster: Debian's dask-scheduler and two
# dask-worker processes (one thread each) started on loopback as Dask's docs say, and kevsql's
# answers over it against the same command on this machine alone (-j 2): a query over several
# traces (each trace's rows, typed), a --merge over their union, and the same with the traces
# and the extension sent to the workers as bytes (--send) instead of opened by their paths;
# --deadline given to every worker's trace.
# The cluster is stopped at the end (its processes, by their ids; killed if one lingers).
# usage: test_kevsql_dask.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/sql)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dask "${2:-build/host-test/sql}"
need dask-scheduler
need dask-worker
sq=$bin/kevsql
pids=()
# The workers first (a worker whose scheduler is gone can wait on it as it closes), then the
# scheduler; what has not ended 10 s after its SIGTERM is killed, so the test never outlives
# its answers.
stop() {
    local i p alive
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
    for i in $(seq 100); do
        alive=0
        for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.1
    done
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap stop EXIT

# a free port on loopback, by asking the kernel for one
port=$(/usr/bin/python3 "$here/../../scripts/free-port.py")
url=tcp://127.0.0.1:$port
(cd "$dir" && exec dask-scheduler --host 127.0.0.1 --port "$port" --no-dashboard --no-show \
    > "$dir/scheduler.log" 2>&1) &
pids+=($!)
for w in 1 2; do
    (cd "$dir" && exec dask-worker "$url" --host 127.0.0.1 --nworkers 1 --nthreads 1 --no-nanny \
        --no-dashboard --local-directory "$dir/w$w" > "$dir/worker$w.log" 2>&1) &
    pids+=($!)
done
up=0
for i in $(seq 120); do   # the workers registered with the scheduler
    nw=$(/usr/bin/python3 - "$url" <<'PY' 2>/dev/null
import sys
from distributed import Client
c = Client(sys.argv[1], timeout=5)
print(len(c.scheduler_info()["workers"]))
c.close()
PY
)
    [ "${nw:-0}" = 2 ] && up=1 && break
    sleep 1
done
check "a Dask scheduler and two workers up on $url" test "$up" = 1
if [ "$up" != 1 ]; then tail -5 "$dir"/*.log | sed 's/^/# /'; finish; exit; fi

# traces: kevscen's scripts and kevgen's, each with interrupts, messages, waits
mkdir -p "$dir/traces"
build/host/kevscen -r 7 basic "$dir/traces/a.kev" > /dev/null
build/host/kevscen -k -i -r 9 basic "$dir/traces/b.kev" > /dev/null
build/host/kevscen -s -r 4 sync "$dir/traces/c.kev" > /dev/null
build/host/kevgen -e -n 20000 -o "$dir/traces/d.kev" > /dev/null
${KEVSCEN4:-build/host-test/kevscen4} smp "$dir/traces/e.kev" > /dev/null
q="SELECT l.label, t.cpu_ns, t.runs, t.share_pct FROM thread_cpu t JOIN thread_label l USING (utid)"
m="SELECT board, count(DISTINCT trace) AS traces, sum(cpu_ns) AS cpu FROM result GROUP BY board"
same() { # same A.json B.json: the same columns and rows (values parsed: JSON numbers)
    /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert [c["name"] for c in a["columns"]] == [c["name"] for c in b["columns"]], (a["columns"], b["columns"])
assert a["rows"] == b["rows"] and a["rows"], (a["rows"][:3], b["rows"][:3])
PY
}
"$sq" -j 2 --json "$q" "$dir/traces" > "$dir/local.json"
"$sq" --scheduler "$url" --json "$q" "$dir/traces" > "$dir/dask.json" 2> "$dir/dask.err"
check "the query over 5 traces on the cluster: the rows this machine gives (-j 2)" same "$dir/local.json" "$dir/dask.json"
"$sq" -j 2 --json --merge "$m" "$q" "$dir/traces" > "$dir/local-m.json"
"$sq" --scheduler "$url" --json --merge "$m" "$q" "$dir/traces" > "$dir/dask-m.json" 2>> "$dir/dask.err"
check "--merge over the union on the cluster: this machine's answer" same "$dir/local-m.json" "$dir/dask-m.json"
"$sq" --send --timing --scheduler "$url" --json "$q" "$dir/traces" > "$dir/dask-s.json" 2>> "$dir/dask.err"
check "the traces and the extension sent to the workers as bytes: the same rows" same "$dir/local.json" "$dir/dask-s.json"
check "--timing (before --scheduler) says how long the cluster's part took" \
    grep -qE "^kevsql: the cluster's part took [0-9]+\\.[0-9]{3} s$" "$dir/dask.err"
on=$(sed -n 's/^kevsql: 5 traces on \([0-9]*\) workers.*/\1/p' "$dir/dask.err" | sort -u | tr '\n' ' ')
check "the workers shared the traces (on how many workers each time: $on)" grep -q "traces on 2 workers" "$dir/dask.err"

# --deadline on the cluster: kevscen4's emul script, whose sampler (client/main) misses a 20 us
# deadline every round, the emulator's miss where its CPU's stall covers the lateness (under
# -icount), the program's otherwise: the counts the script programmed, as kevsql gives them
# on this machine; a bad rule refused before the cluster is asked.
mkdir -p "$dir/emul"
for c in host icount,shift=0,sleep=off; do
    ${KEVSCEN4:-build/host-test/kevscen4} -c "$c" -r 6 emul "$dir/emul/${c%%,*}.kev" > "$dir/emul/${c%%,*}.expect"
done
qd="SELECT sum(missed) - sum(emulator_miss) AS program, sum(emulator_miss) AS emulator
    FROM instance JOIN thread_label USING (utid) WHERE label = 'client/main'"
"$sq" --scheduler "$url" --csv --no-header --deadline client/main=20us "$qd" "$dir/emul" 2>> "$dir/dask.err" |
    sed 's|^[^,]*/||' | sort > "$dir/dask-d.csv"
want=$(for e in host icount; do
           printf '%s.kev,%s,%s\n' "$e" "$(sed -n 's/^expect emul.tasks.misses //p' "$dir/emul/$e.expect")" \
               "$(sed -n 's/^expect emul.tasks.emulator_misses //p' "$dir/emul/$e.expect")"
       done)
got=$(cut -d, -f1,5,6 "$dir/dask-d.csv")
check "--deadline on the cluster: each trace's misses, the program's and the emulator's, as programmed ($(echo $got))" \
    test "$got" = "$want"
"$sq" -j 2 --csv --no-header --deadline client/main=20us "$qd" "$dir/emul" 2>/dev/null | sed 's|^[^,]*/||' |
    sort > "$dir/local-d.csv"
check "--deadline on the cluster: this machine's rows (-j 2)" cmp -s "$dir/local-d.csv" "$dir/dask-d.csv"
"$sq" --scheduler "$url" --deadline client/main=soon "$qd" "$dir/emul" > /dev/null 2> "$dir/bad-d.err"
rc=$?
check "a bad --deadline on the cluster: exit 2, said before the cluster is asked ($(tail -1 "$dir/bad-d.err"))" \
    bash -c "[ $rc = 2 ] && grep -q 'client/main=soon: give a task and a time' '$dir/bad-d.err' && ! grep -q 'traces on' '$dir/bad-d.err'"
sed 's/^/# /' "$dir/dask.err" | head -10
finish
