#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make test-build` and `make bench-build` resolve on every board: a dry run (make -n, nothing
# built) of each boards/<b>/ stops on no missing image. A board that leaves an image out (BOARD_NO_IMAGES:
# netduinoplus2 has no dtrace image) skips the tests that boot it, and only those: the
# dtrace test is listed exactly where the board builds the dtrace image. A C library a board
# has none of (BOARD_NO_NEWLIB, BOARD_NO_PICOLIBC in its board.mk) is refused by make with the
# reason, before any compiler runs. A board that does not exist is refused naming the boards
# that do (a directory with a board.mk; boards/common is none). Host only. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
boards=$(ls boards/*/board.mk | sed 's,boards/\(.*\)/board.mk,\1,')
echo "1..$(( $(echo "$boards" | wc -w) * 5 + 1 ))"
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
    # Each C library the board says it lacks: make stops at once, naming it.
    for lib in newlib picolibc; do
        n=$((n + 1))
        var=BOARD_NO_$(echo $lib | tr a-z A-Z)
        lout=$(make -n --no-print-directory BOARD="$b" LIBC=$lib images 2>&1)
        rc=$?
        if grep -qsE "^$var *:?= *1" "boards/$b/board.mk"; then
            if [ $rc != 0 ] && printf '%s\n' "$lout" | grep -q "board $b has no $lib"; then
                echo "ok $n - $b: LIBC=$lib refused with the reason ($var)"
            else
                echo "not ok $n - $b: LIBC=$lib refused with the reason ($var)"
                printf '%s\n' "$lout" | tail -2 | sed 's/^/# /'
            fi
        elif [ $rc = 0 ]; then
            echo "ok $n - $b: LIBC=$lib resolves"
        else
            echo "not ok $n - $b: LIBC=$lib resolves"
            printf '%s\n' "$lout" | grep -E '\*\*\*|rror' | head -3 | sed 's/^/# /'
        fi
    done
done
# A misspelt board: refused, naming exactly the boards (not boards/common).
out=$(make -n --no-print-directory BOARD=mps2 run 2>&1)
rc=$?
named=$(printf '%s\n' "$out" | sed -n "s/.*no board 'mps2': the boards are \(.*\)\.  Stop\./\1/p")
n=$((n + 1))
if [ $rc != 0 ] && [ "$named" = "$(echo $boards)" ]; then
    echo "ok $n - BOARD=mps2 is refused naming the boards: $named"
else
    echo "not ok $n - BOARD=mps2 is refused naming the boards ($boards), not: ${named:-$out}"
fi
