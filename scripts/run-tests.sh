#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every test listed in a tests.list file (one "name<TAB>timeout<TAB>command" a line) and
# prints one summary line at the end: "N passed, M failed".
# Every test speaks TAP: a line "ok ..." is a pass, "not ok ..." a failure (cmocka does this with
# CMOCKA_MESSAGE_OUTPUT=TAP). A test that exits non-zero without reporting a failure, times out,
# or reports nothing at all counts as one failure: a test that asserts nothing is not a pass.
set -u
list=$1
logdir=$(dirname "$list")/test-logs
mkdir -p "$logdir"
export CMOCKA_MESSAGE_OUTPUT=TAP
# A QEMU run silent (no console output, no trace progress) for 45 s has hung: say so and stop
# it rather than wait out its timeout (scripts/qemu-watch.sh).
export QEMU_HANG=${QEMU_HANG:-45}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

pass=0; fail=0; failed_names=()
while IFS=$'\t' read -r name tmo cmd; do
    [ -z "$name" ] && continue
    log=$logdir/$name.log
    mkdir -p "$(dirname "$log")"
    start=$(date +%s)
    # RUN_TESTS_TIMEOUT: the limit, for a test that gives a QEMU of its own a little less
    # (scripts/qemu-test.sh).
    RUN_TESTS_TIMEOUT=$tmo timeout -k 5 "$tmo" bash -c "$cmd" >"$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    p=$(grep -cE '^ok ' "$log")
    f=$(grep -cE '^not ok ' "$log")
    extra=""
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        f=$((f + 1)); extra=" (timed out after ${tmo}s)"
    elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        f=$((f + 1)); extra=" (exit status $rc)"
    elif [ "$p" = 0 ] && [ "$f" = 0 ]; then
        f=1; extra=" (reported no test)"
    fi
    pass=$((pass + p)); fail=$((fail + f))
    if [ "$f" = 0 ]; then
        printf '  PASS  %-32s %4d ok  %3ds\n' "$name" "$p" "$secs"
    else
        printf '  FAIL  %-32s %4d ok %3d failed%s  (log: %s)\n' "$name" "$p" "$f" "$extra" "$log"
        grep -E '^not ok ' "$log" | head -20 | sed 's/^/          /'
        failed_names+=("$name")
    fi
done < <(cat "$list")   # a snapshot: a test may rebuild the list while this loop reads it

echo
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
