#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make run's report step (scripts/run-report.sh) names the report it wrote, whole capture or cut
# short: a run ended by QEMU_TIMEOUT can leave the capture ending inside a slot, kevreport then
# writes the report of what it holds and exits 1, and the path used to go unsaid. The truth is
# the file kevreport wrote and kevreport's own complaint.
# usage: test_run_report.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
. "$here/tap.sh"
scratch runreport "${2:-build/host-test}"
"$bin/kevgen" -n 2000 -o "$dir/whole.kev" >/dev/null
size=$(stat -c %s "$dir/whole.kev")
head -c $((size / 2 / 16 * 16 + 9)) "$dir/whole.kev" > "$dir/cut.kev"     # inside a slot, no trailer
for c in whole cut; do
    "$root/scripts/run-report.sh" "$dir/$c.kev" "$bin/traceprinter" "$bin/kevreport" \
        > "$dir/$c.out" 2>&1
    echo "rc $?" >> "$dir/$c.out"
done
check "a whole capture: the report is written and its path printed" \
    bash -c "[ -s '$dir/whole.html' ] && grep -q '^     .*/whole.html$' '$dir/whole.out' && grep -q 'run: the report (timeline' '$dir/whole.out'"
check "a capture cut inside a slot: kevreport says where it ends, writes the report, and its path is printed" \
    bash -c "[ -s '$dir/cut.html' ] && grep -q 'truncated inside a slot' '$dir/cut.out' && grep -q '^     .*/cut.html$' '$dir/cut.out' && grep -q 'it is cut short' '$dir/cut.out'"
finish
