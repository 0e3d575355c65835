#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# LTTng's analyses as a user runs them after kev2ctf: `kev2ctf -o DIR trace.kev` then
# `lttng-cputop DIR` (LTTng's analyses read the tracer's version from a directory named
# kernel, so kev2ctf writes an LTTng session's layout, DIR/kernel). The truths: the analyses
# themselves (each ends 0 with no error), kevstat over the same capture (check_lttng.py:
# per-thread CPU, interrupts, kernel calls), and babeltrace2, which must read DIR as it reads
# the trace directory inside it (the same events). A DIR already named kernel is the trace.
# The capture: a real board's (test/tools/data/stackchain-mps2.kev, mps2-an385).
# usage: test_lttng_analyses.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch lttng "${2:-build/host-test/kevconv}"
need lttng-cputop
need babeltrace2
kev=$here/data/stackchain-mps2.kev

"$bin/kev2ctf" -o "$dir/session" "$kev" 2>"$dir/kev2ctf.err"
check "kev2ctf -o DIR writes an LTTng session: DIR/kernel/metadata and a stream" \
    test -s "$dir/session/kernel/metadata" -a -s "$dir/session/kernel/channel0_0"
lttng-cputop "$dir/session" >"$dir/cputop.txt" 2>&1
rc=$?
check "lttng-cputop DIR ends 0 with no error (exit $rc: $(grep -m1 -i error "$dir/cputop.txt"))" \
    bash -c "[ $rc = 0 ] && ! grep -qi error '$dir/cputop.txt' && grep -q 'Per-TID Usage' '$dir/cputop.txt'"
babeltrace2 "$dir/session" >"$dir/bt2-session.txt" 2>"$dir/bt2.err"
babeltrace2 "$dir/session/kernel" >"$dir/bt2-kernel.txt" 2>>"$dir/bt2.err"
check "babeltrace2 DIR reads it: the $(wc -l <"$dir/bt2-kernel.txt") events of DIR/kernel" \
    bash -c "[ -s '$dir/bt2-kernel.txt' ] && cmp -s '$dir/bt2-session.txt' '$dir/bt2-kernel.txt' && [ ! -s '$dir/bt2.err' ]"
"$bin/kev2ctf" -o "$dir/s2/kernel/" "$kev" 2>/dev/null
check "-o S/kernel is the trace itself (no S/kernel/kernel)" \
    bash -c "[ -s '$dir/s2/kernel/metadata' ] && [ ! -e '$dir/s2/kernel/kernel' ]"
# every analysis against kevstat (it converts the capture to OUT/session itself, as above)
python3 "$here/check_lttng.py" "$bin" "$kev" "$dir/check" >"$dir/check.tap" 2>&1
relay "$dir/check.tap" "analyses: "
grep -q '^ok [0-9]* - lttng-cputop: each of' "$dir/check.tap" ||
    notok "analyses: check_lttng.py ran" "$(tail -2 "$dir/check.tap")"
finish
