#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#   scripts/run-tests.sh build/<board>/tests.list
# Runs every test listed in a tests.list file (one "name<TAB>timeout<TAB>command" a line) and
# prints one summary line at the end: "N passed, M failed" (a line before it counts the skipped).
# Every test speaks TAP: a line "ok ..." is a pass, "not ok ..." a failure (cmocka does this with
# CMOCKA_MESSAGE_OUTPUT=TAP), "ok ... # SKIP ..." neither: a check not judged, counted apart. A test that exits non-zero without reporting a failure, times out,
# or reports nothing at all counts as one failure: a test that asserts nothing is not a pass.
#
# Tests run TEST_JOBS at a time (default: the CPUs), longest limit first, so the long ones do
# not end the run alone. A test named in test/alone.list (a shell pattern a line, with its
# reason) runs with no other test beside it: one that builds in the tree, or one that measures
# time on the host's clock; those run first. TEST_JOBS=1 runs the list in its order, one at a
# time.
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
list=$1
logdir=$(dirname "$list")/test-logs
mkdir -p "$logdir"
resdir=$(mktemp -d "$logdir/.results.XXXXXX")   # this run's own: two runners may share a log dir
trap 'rm -rf "$resdir"' EXIT
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
export CMOCKA_MESSAGE_OUTPUT=TAP
# A QEMU run silent (no console output, no trace progress) for 45 s has hung: say so and stop
# it rather than wait out its timeout (scripts/qemu-watch.sh).
export QEMU_HANG=${QEMU_HANG:-45}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

alone_patterns=()
while read -r pat _; do
    case $pat in ''|'#'*) continue ;; esac
    alone_patterns+=("$pat")
done < "$here/test/alone.list"
alone() {
    local p
    for p in "${alone_patterns[@]}"; do
        # shellcheck disable=SC2053
        [[ $1 == $p ]] && return 0
    done
    return 1
}

# run_one INDEX NAME TIMEOUT COMMAND: runs one test, prints its line, and leaves
# "passes failures name" in the results directory.
run_one() {
    local i=$1 name=$2 tmo=$3 cmd=$4
    local log=$logdir/$name.log start rc secs p f extra="" line
    mkdir -p "$(dirname "$log")"
    start=$(date +%s)
    # RUN_TESTS_TIMEOUT: the limit, for a test that gives a QEMU of its own a little less
    # (scripts/qemu-test.sh).
    RUN_TESTS_TIMEOUT=$tmo timeout -k 5 "$tmo" bash -c "$cmd" >"$log" 2>&1 </dev/null
    rc=$?
    secs=$(( $(date +%s) - start ))
    s=$(grep -ciE '^ok .*# *skip' "$log")
    p=$(( $(grep -cE '^ok ' "$log") - s ))
    f=$(grep -cE '^not ok ' "$log")
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        f=$((f + 1)); extra=" (timed out after ${tmo}s)"
    elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        f=$((f + 1)); extra=" (exit status $rc)"
    elif [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$s" = 0 ]; then
        f=1; extra=" (reported no test)"
    fi
    [ "$s" = 0 ] || extra="$extra, $s skipped"
    if [ "$f" = 0 ]; then
        line=$(printf '  PASS  %-32s %4d ok  %3ds%s' "$name" "$p" "$secs" "$extra")
    else
        line=$(printf '  FAIL  %-32s %4d ok %3d failed%s  (log: %s)\n' "$name" "$p" "$f" "$extra" "$log"
               grep -E '^not ok ' "$log" | head -20 | sed 's/^/          /')
    fi
    printf '%s\n' "$line"       # one write: lines of tests ending together do not mix
    echo "$p $f $s $name" > "$resdir/$i"
}

# A snapshot of the list (a test may rebuild it while this runs), numbered in its order; with
# several jobs, the tests that run alone first, one after another, then the others longest
# limit first: an alone test met midway would wait for every running test to end, leaving the
# other CPUs idle meanwhile.
mapfile -t entries < <(awk -F'\t' 'NF >= 3 && $1 != "" { printf "%d\t%s\n", NR, $0 }' "$list")
if [ "$jobs" -gt 1 ]; then
    mapfile -t entries < <(printf '%s\n' "${entries[@]}" | sort -t$'\t' -k3,3nr -k1,1n)
    first=() rest=()
    for e in "${entries[@]}"; do
        IFS=$'\t' read -r _ name _ <<<"$e"
        if alone "$name"; then first+=("$e"); else rest+=("$e"); fi
    done
    entries=("${first[@]}" "${rest[@]}")
fi

for e in "${entries[@]}"; do
    IFS=$'\t' read -r i name tmo cmd <<<"$e"
    if [ "$jobs" -le 1 ]; then
        run_one "$i" "$name" "$tmo" "$cmd"
    elif alone "$name"; then
        wait                     # every running test ends first
        run_one "$i" "$name" "$tmo" "$cmd"
    else
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
            wait -n
        done
        run_one "$i" "$name" "$tmo" "$cmd" &
    fi
done
wait

pass=0; fail=0; skip=0; failed_names=()
for e in "${entries[@]}"; do
    IFS=$'\t' read -r i name _ <<<"$e"
    if [ -f "$resdir/$i" ]; then
        read -r p f s _ < "$resdir/$i"
    else
        p=0; f=1; s=0; echo "  FAIL  $name: no result (the runner lost it)"
    fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    [ "$f" != 0 ] && failed_names+=("$name")
done
echo
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
# The last line is always "N passed, M failed" (CI reads it); checks not judged come before it.
[ "$skip" = 0 ] || echo "$skip checks skipped (not judged, not counted as passed: see SKIP above)"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
