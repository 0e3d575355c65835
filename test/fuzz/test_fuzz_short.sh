#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A short run of one libFuzzer target in make test (make fuzz runs them long): RUNS executions
# from its seeds and dictionary, in a corpus of this run's own; passes when the fuzzer ends
# clean (no crash, no sanitizer report, no hang: -fno-sanitize-recover=all makes each fatal) and
# ran every execution. The inputs of test/fuzz/regress-FUZZER/ (each a crash or UB a long run
# found, kept when it was fixed) are run first, with the seeds. The log and any crash input stay
# beside the fuzzer when it fails.
# usage: test_fuzz_short.sh FUZZER RUNS
set -u
f=$1
runs=$2
name=$(basename "$f")
dict=test/fuzz/$name.dict
[ -f "$dict" ] && dict=-dict=$dict || dict=
regress=test/fuzz/regress-$name
[ -d "$regress" ] || regress=
corpus=$(mktemp -d "${TMPDIR:-/tmp}/$name.short.XXXXXX")
log=$f.short.log
if "$f" -runs="$runs" -timeout=60 -rss_limit_mb=2048 -artifact_prefix="$f-" $dict \
       "$corpus" "$(dirname "$f")/seeds-$name" $regress > "$log" 2>&1 \
   && grep -qE "^Done $runs runs" "$log"; then
    echo "ok 1 - $name: $runs executions clean ($(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1))"
    rm -rf "$corpus"
    echo "1..1"
else
    echo "not ok 1 - $name: $runs executions (log: $log)"
    tail -30 "$log" | sed 's/^/# /'
    echo "1..1"
    exit 1
fi
