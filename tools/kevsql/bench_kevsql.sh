#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevsql's figures (docs/PERFORMANCE.md, "kevsql"), each beside what it is compared with, in the
# same run on the same machine; every figure is the median of RUNS runs (default 3,
# KEVSQL_BENCH_RUNS) of the whole command. One process's figures take its CPU time (user +
# system, from wait4): the machine is shared, and a neighbour's load lengthens the wall time
# of both sides of a comparison by different amounts, not the work each side does. The fleet's
# speedups take the wall time, which is what running on more cores shortens.
#   traceprinter_events_per_s, sql_scan_events_per_s: a 10M-event kevgen trace printed by
#       traceprinter (> /dev/null), and counted by SELECT count(*) FROM event (the largest table)
#   kevstat_cpu_s_10M, sql_cpu_by_thread_s_10M: each thread's CPU time on that trace, by
#       kevstat -s cpu and by SELECT utid, sum(dur) FROM sched_slice GROUP BY utid
#   sql_peak_anon_mb_10M: the most anonymous memory (RssAnon, the mapped trace's pages aside)
#       a kevsql process held over that trace for the queries above and thread_state's count
#   sql_loaded_cpu_by_thread_s_10M, sql_loaded_peak_anon_mb_10M: the other design, the same
#       answer from sched_slice loaded into an SQLite table first (CREATE TABLE AS SELECT)
#   sql_fleet_speedup_2proc: 200 traces of 100k events, one query, -j 2 against -j 1
#   sql_fleet_speedup_dask_2workers: the same on a Dask cluster on this machine (Debian's
#       dask-scheduler and dask-worker, one thread each): 2 workers against 1, the cluster's
#       part of the command (--timing: from asking the workers to the merged rows); the whole
#       command's wall times beside it (sql_fleet_dask_*_s), which add the client's own start,
#       its Python imports and connection, the same for any number of workers
# usage: bench_kevsql.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/bench-kevsql)
set -eu
bin=${1:-build/host}
dir=${2:-build/bench-kevsql}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)    # absolute: the Dask processes run in it
runs=${KEVSQL_BENCH_RUNS:-3}
n=${KEVSQL_BENCH_EVENTS:-10000000}
ntraces=${KEVSQL_BENCH_TRACES:-200}
py=/usr/bin/python3

"$bin/kevgen" -n "$n" -k 64 -d 10000 -o "$dir/bench.kev" >/dev/null
events=$("$bin/kevsql" --csv --no-header "$dir/bench.kev" "SELECT count(*) FROM event")
[ "${events:-0}" -ge "$n" ] || { echo "bench_kevsql: only ${events:-0} events in the trace" >&2; exit 1; }
echo "# $events events, $(stat -c %s "$dir/bench.kev") bytes of .kev, $runs runs each" >&2

# median NAME cpu|wall COMMAND...: the median CPU time (user + system of the command and its
# children) or wall time (s) of RUNS runs of the command, its output thrown away
median() {
    local name=$1 what=$2 i times=()
    shift 2
    for i in $(seq "$runs"); do
        times+=("$("$py" - "$what" "$@" <<'PY'
import os, subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
if status:
    sys.exit("bench_kevsql: %s failed" % sys.argv[2])
print("%.6f" % (ru.ru_utime + ru.ru_stime if sys.argv[1] == "cpu" else wall))
PY
)")
    done
    echo "# $name ($what): ${times[*]} s" >&2
    printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p"
}

# peak_anon COMMAND...: the most RssAnon (MB) the process held, sampled every 2 ms
peak_anon() {
    "$py" - "$@" <<'PY'
import subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
peak = 0
while p.poll() is None:
    try:
        for line in open("/proc/%d/status" % p.pid):
            if line.startswith("RssAnon:"):
                peak = max(peak, int(line.split()[1]))
    except OSError:
        pass
    time.sleep(0.002)
if p.returncode:
    sys.exit(p.returncode)
print("%.1f" % (peak / 1024))
PY
}

q_cpu="SELECT utid, sum(dur) FROM sched_slice GROUP BY utid"
tp=$(median traceprinter cpu "$bin/traceprinter" "$dir/bench.kev")
scan=$(median sql_scan cpu "$bin/kevsql" "$dir/bench.kev" "SELECT count(*) FROM event")
ks=$(median kevstat_cpu cpu "$bin/kevstat" -s cpu "$dir/bench.kev")
sc=$(median sql_cpu cpu "$bin/kevsql" "$dir/bench.kev" "$q_cpu")
loaded="CREATE TEMP TABLE s AS SELECT * FROM sched_slice; SELECT utid, sum(dur) FROM s GROUP BY utid"
sl=$(median sql_loaded_cpu cpu "$bin/kevsql" "$dir/bench.kev" "$loaded")
anon=0
for q in "$q_cpu" "SELECT count(*) FROM event" "SELECT count(*) FROM thread_state"; do
    a=$(peak_anon "$bin/kevsql" "$dir/bench.kev" "$q")
    echo "# peak anonymous memory: $a MB for $q" >&2
    anon=$(awk -v a="$a" -v b="$anon" 'BEGIN { print (a + 0 > b + 0 ? a : b) }')
done
lanon=$(peak_anon "$bin/kevsql" "$dir/bench.kev" "$loaded")
printf 'BENCH traceprinter_events_per_s %.0f events/s\n' "$(awk -v e="$events" -v t="$tp" 'BEGIN { print e / t }')"
printf 'BENCH sql_scan_events_per_s %.0f events/s\n' "$(awk -v e="$events" -v t="$scan" 'BEGIN { print e / t }')"
printf 'BENCH sql_scan_vs_traceprinter_x %.1f x\n' "$(awk -v a="$tp" -v b="$scan" 'BEGIN { print a / b }')"
printf 'BENCH kevstat_cpu_s_10M %.2f s\n' "$ks"
printf 'BENCH sql_cpu_by_thread_s_10M %.2f s\n' "$sc"
printf 'BENCH sql_cpu_vs_kevstat_x %.2f x\n' "$(awk -v a="$sc" -v b="$ks" 'BEGIN { print a / b }')"
printf 'BENCH sql_peak_anon_mb_10M %.1f MB\n' "$anon"
printf 'BENCH sql_loaded_cpu_by_thread_s_10M %.2f s\n' "$sl"
printf 'BENCH sql_loaded_peak_anon_mb_10M %.1f MB\n' "$lanon"
rm -f "$dir/bench.kev"

# ---- many traces ---------------------------------------------------------------------------------
mkdir -p "$dir/fleet"
for i in $(seq "$ntraces"); do
    "$bin/kevgen" -s "$i" -n 100000 -o "$dir/fleet/t$(printf '%03d' "$i").kev" >/dev/null
done
q_fleet="SELECT utid, sum(dur) AS cpu FROM sched_slice GROUP BY utid"
j1=$(median fleet_j1 wall "$bin/kevsql" -j 1 --csv "$q_fleet" "$dir/fleet")
j2=$(median fleet_j2 wall "$bin/kevsql" -j 2 --csv "$q_fleet" "$dir/fleet")
printf 'BENCH sql_fleet_1proc_s %.2f s\n' "$j1"
printf 'BENCH sql_fleet_2proc_s %.2f s\n' "$j2"
printf 'BENCH sql_fleet_speedup_2proc %.2f x\n' "$(awk -v a="$j1" -v b="$j2" 'BEGIN { print a / b }')"

# A Dask cluster on this machine: a scheduler and one worker, then a second one.
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null || true; }
trap stop EXIT
port=$("$py" "$(dirname "$0")/../../scripts/free-port.py")
url=tcp://127.0.0.1:$port
(cd "$dir" && exec dask-scheduler --host 127.0.0.1 --port "$port" --no-dashboard --no-show \
    > "$dir/scheduler.log" 2>&1) &
pids+=($!)
workers() { # workers N: wait until N workers are registered
    local i k
    for i in $(seq 120); do
        k=$("$py" -c "from distributed import Client; c = Client('$url', timeout=5); print(len(c.scheduler_info()['workers'])); c.close()" 2>/dev/null || true)
        [ "${k:-0}" = "$1" ] && return 0
        sleep 1
    done
    echo "bench_kevsql: the Dask cluster did not get $1 workers" >&2
    return 1
}
worker() {
    (cd "$dir" && exec dask-worker "$url" --host 127.0.0.1 --nworkers 1 --nthreads 1 --no-nanny \
        --no-dashboard --local-directory "$dir/w$1" > "$dir/worker$1.log" 2>&1) &
    pids+=($!)
}
worker 1
workers 1
# cluster_median NAME: the median over RUNS runs of the cluster's part, as --timing says it
cluster_median() {
    local i times=()
    for i in $(seq "$runs"); do
        times+=("$("$bin/kevsql" --timing --scheduler "$url" --csv "$q_fleet" "$dir/fleet" 2>&1 >/dev/null |
                  sed -n "s/^kevsql: the cluster's part took \([0-9.]*\) s$/\1/p")")
    done
    echo "# $1 (cluster): ${times[*]} s" >&2
    printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p"
}
d1=$(median dask_1worker wall "$bin/kevsql" --scheduler "$url" --csv "$q_fleet" "$dir/fleet")
c1=$(cluster_median dask_1worker)
worker 2
workers 2
d2=$(median dask_2workers wall "$bin/kevsql" --scheduler "$url" --csv "$q_fleet" "$dir/fleet")
c2=$(cluster_median dask_2workers)
printf 'BENCH sql_fleet_dask_1worker_s %.2f s\n' "$d1"
printf 'BENCH sql_fleet_dask_2workers_s %.2f s\n' "$d2"
printf 'BENCH sql_fleet_dask_1worker_cluster_s %.2f s\n' "$c1"
printf 'BENCH sql_fleet_dask_2workers_cluster_s %.2f s\n' "$c2"
printf 'BENCH sql_fleet_speedup_dask_2workers %.2f x\n' "$(awk -v a="$c1" -v b="$c2" 'BEGIN { print a / b }')"
printf 'BENCH sql_fleet_speedup_dask_2workers_command %.2f x\n' "$(awk -v a="$d1" -v b="$d2" 'BEGIN { print a / b }')"
rm -rf "$dir/fleet"
