#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make fuzz` fails on a UBSan report, with no recovery: it runs the planted-UB target
# build/fuzz/ub_canary (test/fuzz/ub_canary.c) the way it runs every fuzzer, with
# UBSAN_OPTIONS asking UBSan to go on after a report, and checks that the make failed, that
# the report is UBSan's signed-overflow one at the planted line, and that the fuzzer stopped
# there (a crash file, no "Done" line). The truth is C's rule that INT_MAX + 1 overflows.
set -u
cd "$(dirname "$0")/../.."
f=build/fuzz/ub_canary
rm -rf "$f.corpus" "$f.log" "$f"-crash-*
UBSAN_OPTIONS=halt_on_error=0 make --no-print-directory fuzz FUZZ_BINS=$f FUZZ_SECONDS=20 \
    >/tmp/test_fuzz_ub.$$ 2>&1
rc=$?
out=$(cat /tmp/test_fuzz_ub.$$); rm -f /tmp/test_fuzz_ub.$$
line=$(grep -n 'ub_canary_sink = big' test/fuzz/ub_canary.c | cut -d: -f1)

n=0
check() { # check <description> <command...>
    local what=$1; shift
    n=$((n + 1))
    if "$@"; then echo "ok $n - $what"; else echo "not ok $n - $what"; fi
}
check "make fuzz exits non-zero (status $rc)" [ "$rc" != 0 ]
check "the fuzzer's log has UBSan's signed-overflow report at ub_canary.c:$line" \
    grep -q "ub_canary.c:$line:[0-9]*: runtime error: signed integer overflow" "$f.log"
check "the fuzzer stopped at the first report (a crash input written, no Done line)" \
    bash -c "ls $f-crash-* >/dev/null 2>&1 && ! grep -q '^Done' $f.log"
check "make fuzz says which fuzzer failed" grep -q "fuzz: $f FAILED" <<<"$out"
[ "$rc" != 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
