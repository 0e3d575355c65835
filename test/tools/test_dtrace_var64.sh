#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A scalar variable holds 64 bits whatever its first assignment (DIF's variables are 64-bit):
# the common `BEGIN { self->start = 0; }` then `self->start = timestamp` per-call time total
# over a capture equals the one computed outside D from traceprinter's events
# (kcall_time_total.py: each thread's KER_CALL to its KER_EXIT). Two captures: kevgen's, whose
# stamps lie past 2^32 ns (171 s: a value cut to 32 bits would be off by seconds per call),
# and kevscen's, whose calls block for real durations.
# usage: test_dtrace_var64.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dvar64 "${2:-build/host-test}"

script='BEGIN { self->start = 0; }
kercall:::entry { self->start = timestamp; }
kercall:::return /self->start/ { @t = sum(timestamp - self->start); @n = count(); self->start = 0; }
END { printa("%@d ", @t); printa("%@d\n", @n); }'

"$bin/kevgen" -n 5000 -o "$dir/g.kev" >/dev/null
"$bin/kevscen" basic "$dir/s.kev" >/dev/null
for kev in g s; do
    "$bin/traceprinter" "$dir/$kev.kev" > "$dir/$kev.txt" 2>/dev/null
    want=$(python3 "$here/kcall_time_total.py" "$dir/$kev.txt")
    got=$("$bin/dtrace" -q -i "$dir/$kev.kev" -n "$script" | sed '/^$/d')
    first=$("$bin/dtrace" -q -i "$dir/$kev.kev" -n 'BEGIN { printf("%d\n", timestamp); exit(0); }' | sed '/^$/d')
    check "$kev.kev (first stamp $first ns): the per-call total and count, '$got', are traceprinter's '$want'" \
        test "$got" = "$want"
    check "$kev.kev: the capture has kernel calls to total" test "${want#* }" -gt 100
done
check "kevgen's capture lies past 2^32 ns, where a 32-bit variable would wrap" \
    test "$("$bin/dtrace" -q -i "$dir/g.kev" -n 'BEGIN { printf("%d\n", timestamp > 0xffffffff); exit(0); }' | sed '/^$/d')" = 1
check "kevscen's calls block for a measurable time" \
    test "$(python3 "$here/kcall_time_total.py" "$dir/s.txt" | cut -d' ' -f1)" -gt 1000000
finish
