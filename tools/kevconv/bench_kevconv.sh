#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Throughput of the kevconv tools on one generated trace of 10 million events (kevgen, a
# logger that keeps up: nothing lost), side by side with babeltrace2 printing the same trace
# converted to CTF, on the same machine in the same run. Each figure is the median of RUNS
# runs (default 3; KEVCONV_BENCH_RUNS overrides) of the whole command, file reading included.
# Prints "BENCH <tool>_events_per_s N events/s" per tool, the babeltrace2 rate and
# "BENCH ctf_vs_babeltrace2_x R x" (kev2ctf's rate over babeltrace2's text output rate).
# usage: bench_kevconv.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/bench-kevconv)
set -eu
bin=${1:-build/host}
dir=${2:-build/bench-kevconv}
runs=${KEVCONV_BENCH_RUNS:-3}
n=${KEVCONV_BENCH_EVENTS:-10000000}
mkdir -p "$dir"
command -v babeltrace2 >/dev/null || { echo "bench_kevconv: babeltrace2 is not installed" >&2; exit 1; }

"$bin/kevgen" -n "$n" -k 64 -d 10000 -o "$dir/bench.kev" >/dev/null
events=$("$bin/kev2ctf" -v -o "$dir/bench.ctf" "$dir/bench.kev" 2>&1 | sed -n 's/^kev2ctf: \([0-9]*\) events.*/\1/p')
[ "${events:-0}" -ge "$n" ] || { echo "bench_kevconv: only ${events:-0} events in the trace" >&2; exit 1; }
echo "# $events events, $(stat -c %s "$dir/bench.kev") bytes of .kev, $runs runs each" >&2

# median_rate NAME COMMAND...: runs the command $runs times, prints its median events/s.
median_rate() {
    local name=$1 t0 t1 i
    shift
    local times=()
    for i in $(seq "$runs"); do
        t0=$(date +%s.%N)
        "$@" >/dev/null
        t1=$(date +%s.%N)
        times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
    done
    local med
    med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p")
    echo "# $name: ${times[*]} s" >&2
    awk -v e="$events" -v t="$med" 'BEGIN { printf "%.1f", e / t }'
}

bt2_count() { # babeltrace2's text output, counted so that a short read cannot pass
    local c
    c=$(babeltrace2 "$dir/bench.ctf" | wc -l)
    [ "$c" = "$events" ] || { echo "bench_kevconv: babeltrace2 printed $c events, not $events" >&2; return 1; }
}

ctf=$(median_rate kev2ctf "$bin/kev2ctf" -o "$dir/bench.ctf" "$dir/bench.kev")
json=$(median_rate kev2json "$bin/kev2json" -o /dev/null "$dir/bench.kev")
pftrace=$(median_rate kev2perfetto "$bin/kev2perfetto" -o /dev/null "$dir/bench.kev")
stat=$(median_rate kevstat "$bin/kevstat" --json "$dir/bench.kev")
report=$(median_rate kevreport "$bin/kevreport" -o "$dir/bench.html" "$dir/bench.kev")
bt2=$(median_rate babeltrace2 bt2_count)
printf 'BENCH kev2ctf_events_per_s %.0f events/s\n' "$ctf"
printf 'BENCH kev2json_events_per_s %.0f events/s\n' "$json"
printf 'BENCH kev2perfetto_events_per_s %.0f events/s\n' "$pftrace"
printf 'BENCH kevstat_events_per_s %.0f events/s\n' "$stat"
printf 'BENCH kevreport_events_per_s %.0f events/s\n' "$report"
printf 'BENCH babeltrace2_text_events_per_s %.0f events/s\n' "$bt2"
printf 'BENCH ctf_vs_babeltrace2_x %.1f x\n' "$(awk -v a="$ctf" -v b="$bt2" 'BEGIN { print a / b }')"
rm -rf "$dir/bench.ctf" "$dir/bench.html" "$dir/bench.kev"
