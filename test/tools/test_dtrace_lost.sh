#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dtrace -i over a capture that lost events says so, once, with the count (a probe fires over it
# less often than it did on the board: the parity test, docs/d-probes.md, names the loss beside
# the differences). The truth is the capture's own record of its losses, the DROPPED events the
# kernel wrote in the stream (their running total), as traceprinter prints them; and over a
# capture that lost nothing dtrace -i says nothing of the kind.
# usage: test_dtrace_lost.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dlost "${2:-build/host-test}"
d=$bin/dtrace
prog='kercall:::entry { n++; } END { printf("calls %d\n", n); }'

# A logger too slow for its three buffers (overwrite policy, saved only every 5000 events).
"$bin/kevgen" -x overwrite -k 3 -d 5000 -n 30000 -o "$dir/ow.kev" >/dev/null
want=$("$bin/traceprinter" "$dir/ow.kev" 2>/dev/null | sed -n 's/.*:DROPPED .*total:\([0-9]*\).*/\1/p' | tail -1)
"$d" -q -i "$dir/ow.kev" -n "$prog" >"$dir/ow.out" 2>"$dir/ow.err"
rc=$?
check "a capture with losses replays (exit 0) and its program still runs to END ($rc)" \
    bash -c "[ $rc = 0 ] && grep -q '^calls [1-9]' '$dir/ow.out'"
check "dtrace -i says once that the capture lost ${want:-?} events, the stream's DROPPED total" \
    bash -c "[ -n '$want' ] && [ \$(grep -c 'ow.kev: the capture lost $want events and [0-9]* buffers: probes fire over it less often' '$dir/ow.err') = 1 ]"

# A logger that keeps up: nothing lost, nothing said.
"$bin/kevgen" -n 20000 -o "$dir/ok.kev" >/dev/null
"$d" -q -i "$dir/ok.kev" -n "$prog" >"$dir/ok.out" 2>"$dir/ok.err"
rc=$?
drops=$("$bin/traceprinter" "$dir/ok.kev" 2>/dev/null | grep -c ':DROPPED ')
check "over a capture that lost nothing ($drops DROPPED events) dtrace -i says nothing of losses (exit $rc)" \
    bash -c "[ $rc = 0 ] && [ '$drops' = 0 ] && ! grep -q 'lost' '$dir/ok.err'"
finish
