#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dtrace -i's BEGIN and END fire at the capture's first and last event, as on the board (where
# BEGIN fires just before the events a session sees and END just after): the classic
# `BEGIN { start = timestamp } ... END { timestamp - start }` gives the capture's span, not the
# time since boot (BEGIN used to read 0). The truth is traceprinter's first and last event
# times and the header's cycles per second.
# usage: test_dtrace_span.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dspan "${2:-build/host-test}"

"$bin/kevgen" -n 5000 -o "$dir/g.kev" >/dev/null
tp=$("$bin/traceprinter" "$dir/g.kev" 2>/dev/null)
cps=$(printf '%s\n' "$tp" | sed -n 's/.*TRACE_CYCLES_PER_SEC:: *\([0-9]*\).*/\1/p')
times=$(printf '%s\n' "$tp" | grep '^t:0x' | grep -v ' CONTROL' | sed 's/^t:\(0x[0-9a-f]*\).*/\1/')
first=$(printf '%s\n' "$times" | head -1) last=$(printf '%s\n' "$times" | tail -1)
want=$(( ( (last - first) * 1000000000 ) / cps ))
got=$("$bin/dtrace" -q -i "$dir/g.kev" -n 'BEGIN { start = timestamp; }
    END { printf("%d %d\n", start, timestamp - start); }')
check "BEGIN's timestamp is the first event's time, not 0 ($got)" \
    bash -c "[ '${got%% *}' != 0 ] && [ -n '$cps' ]"
check "END - BEGIN is the capture's span, ${want} ns from traceprinter's first and last event (got ${got#* })" \
    bash -c "d=\$(( ${got#* } - $want )); [ \${d#-} -le 1 ]"
got2=$("$bin/dtrace" -q -i "$dir/g.kev" -n 'BEGIN { start = timestamp; exit(0); }
    kercall:::entry { n++; } END { printf("%d %d\n", n, timestamp - start); }')
check "exit() in BEGIN stops the replay before any event fires ($got2)" \
    bash -c "[ '$got2' = '0 0' ]"
finish
