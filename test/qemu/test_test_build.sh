#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make test-build` and `make bench-build` resolve on every board: a dry run (make -n, nothing
# built) of each boards/<b>/ stops on no missing image. A board that leaves an image out (BOARD_NO_IMAGES:
# netduinoplus2 has no dtrace image) skips the tests that boot it, and only those: the
# dtrace test is listed exactly where the board builds the dtrace image. Host only. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
boards=$(ls boards/*/board.mk | sed 's,boards/\(.*\)/board.mk,\1,')
echo "1..$(( $(echo "$boards" | wc -w) * 3 ))"
n=0
for b in $boards; do
    out=$(make -n --no-print-directory BOARD="$b" test-build 2>&1)
    rc=$?
    n=$((n + 1))
    if [ $rc = 0 ]; then
        echo "ok $n - $b: make -n test-build resolves"
    else
        echo "not ok $n - $b: make -n test-build resolves"
        printf '%s\n' "$out" | grep -E '\*\*\*|rror' | head -3 | sed 's/^/# /'
    fi
    bout=$(make -n --no-print-directory BOARD="$b" bench-build 2>&1)
    rc=$?
    n=$((n + 1))
    if [ $rc = 0 ]; then
        echo "ok $n - $b: make -n bench-build resolves"
    else
        echo "not ok $n - $b: make -n bench-build resolves"
        printf '%s\n' "$bout" | grep -E '\*\*\*|rror' | head -3 | sed 's/^/# /'
    fi
    # Does the board build the dtrace image? Its board.mk says (BOARD_NO_IMAGES).
    has=yes
    grep -qsE '^BOARD_NO_IMAGES *:?= *.*\bdtrace\b' "boards/$b/board.mk" "boards/$b/user.mk" && has=no
    listed=no
    printf '%s\n' "$out" | grep -q "'qemu/dtrace|" && listed=yes
    n=$((n + 1))
    if [ $listed = $has ]; then
        echo "ok $n - $b: the dtrace test is listed ($listed) exactly when the board has the dtrace image ($has)"
    else
        echo "not ok $n - $b: the dtrace test is listed ($listed) exactly when the board has the dtrace image ($has)"
    fi
done
