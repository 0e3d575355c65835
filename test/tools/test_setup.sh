#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench` installs what it uses, as `make test` does: every tool a benchmark script of
# `make bench` checks for (`command -v TOOL`) is one `scripts/setup.sh --bench` installs when
# it is missing, though `make run`'s set-up does not. Each such tool is taken as missing
# (SETUP_HIDE, which setup's `have` honours) and setup, installing nothing (SETUP_DRY_RUN=1),
# must name a package to install; with nothing hidden it must find nothing missing. Prints TAP.
#   test/tools/test_setup.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

# The benchmark commands of `make bench` (their scripts, from the BENCHES lines of the make files).
scripts=$(grep -rhoE '^BENCHES *\+= *[^|$ ]+' --include='*.mk' . | sed 's/^BENCHES *+= *//' |
          grep -E '\.(sh|py)$' | sort -u)
[ -n "$scripts" ]; ok $? "the make files name benchmark scripts ($(echo $scripts | wc -w))"
tools=$(for s in $scripts; do grep -hoE 'command -v [A-Za-z0-9_.+-]+' "$s"; done |
        awk '{ print $3 }' | sort -u)
[ -n "$tools" ]; ok $? "the benchmark scripts check for tools: $(echo $tools)"

out=$(SETUP_DRY_RUN=1 bash scripts/setup.sh --bench 2>&1); rc=$?
[ $rc = 0 ] && [ -z "$out" ]; ok $? "nothing hidden: setup --bench finds nothing missing${out:+ # $out}"
for t in $tools; do
    out=$(SETUP_HIDE=$t SETUP_DRY_RUN=1 bash scripts/setup.sh --bench 2>&1); rc=$?
    [ $rc != 0 ] && echo "$out" | grep -q 'missing packages: .'
    ok $? "$t missing: setup --bench names a package to install (${out%%$'\n'*})"
    out=$(SETUP_HIDE=$t SETUP_DRY_RUN=1 bash scripts/setup.sh 2>&1); rc=$?
    [ $rc = 0 ]; ok $? "$t missing: plain setup (make run's) does not ask for it"
done
echo "1..$n"
[ $failed = 0 ]
