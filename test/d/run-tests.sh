#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# D conformance suite runner (host). Prints one TAP line per test file:
#   tst.*.d   must exit 0 (or the status in tst.*.d.exit), stdout must equal tst.*.d.out and
#             stderr tst.*.d.err byte for byte when those files exist.
#   drp.*.d   like tst.*, for drop reports (compare drp.*.d.err).
#   err.D_TAG.*.d  must fail to compile (exit 1) with "[D_TAG]" on stderr (run with -xerrtags).
#   tst.kev.*.d    like tst.*, run over a capture made by kevgen (-i); skipped without kevgen.
# Extra dtrace arguments for one test go on its first line as:  /* ARGS: -x bufsize=1k */
# Usage: test/d/run-tests.sh [path/to/dtrace] [test dir]
set -u
dtrace=${1:-build/host/dtrace}
dir=${2:-$(dirname "$0")}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kevgen=$(dirname "$dtrace")/kevgen
capture=""
if [ -x "$kevgen" ] && "$kevgen" -n 2000 -s 3 -o "$tmp/capture.kev" >/dev/null 2>&1; then
    capture=$tmp/capture.kev
fi
n=0; failed=0
for t in "$dir"/tst.*.d "$dir"/drp.*.d "$dir"/err.*.d; do
    [ -e "$t" ] || continue
    n=$((n + 1))
    name=$(basename "$t")
    args=$(head -1 "$t" | sed -n 's|^/\* ARGS: \(.*\) \*/$|\1|p')
    why=""
    case "$name" in
    tst.kev.*)
        if [ -z "$capture" ]; then
            echo "ok $n - $name # SKIP no kevgen"
            continue
        fi
        args="$args -i $capture"
        ;;
    esac
    case "$name" in
    err.*)
        tag=$(echo "$name" | cut -d. -f2)
        # shellcheck disable=SC2086
        timeout 10 "$dtrace" -xerrtags -e $args -s "$t" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ "$rc" != 1 ]; then why="exit status $rc, expected 1"
        elif ! grep -qF "[$tag]" "$tmp/err"; then why="no [$tag] in: $(head -c 300 "$tmp/err")"
        fi
        ;;
    *)
        # shellcheck disable=SC2086
        timeout 20 "$dtrace" $args -s "$t" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        want=0
        [ -f "$t.exit" ] && want=$(cat "$t.exit")
        if [ "$rc" != "$want" ]; then why="exit status $rc, expected $want: $(head -c 300 "$tmp/err")"
        elif [ -f "$t.out" ] && ! cmp -s "$t.out" "$tmp/out"; then
            why="stdout differs: $(diff "$t.out" "$tmp/out" | head -8 | tr '\n' '|')"
        elif [ -f "$t.err" ] && ! cmp -s "$t.err" "$tmp/err"; then
            why="stderr differs: $(diff "$t.err" "$tmp/err" | head -8 | tr '\n' '|')"
        fi
        ;;
    esac
    if [ -z "$why" ]; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name: $why"
        failed=$((failed + 1))
    fi
done
echo "1..$n"
[ "$failed" = 0 ]
