#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Declared thread-local associative arrays (the Dynamic Tracing Guide, "Thread-Local
# Variables": each thread has its own, an element never assigned reads as 0, assigning 0
# frees it) over two captures, against what traceprinter's events give (kcall_time_total.py):
# `self int n[string]` counts each thread's kernel calls and returns, which must be the
# thread's KER_CALL and KER_EXIT counts (every process's first thread is tid 1: a tid alone
# would merge them); `self uint64_t start[int]` keyed by the thread's call number holds each
# call's start, freed at its return, so that the per-call time total is traceprinter's and
# a dynvarsize that holds only the live elements drops nothing (the same script without the
# freeing store drops there). About a second.
# usage: test_dtrace_selfassoc.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dselfassoc "${2:-build/host-test}"

cat > "$dir/s.d" <<'D'
self int n[string];
self uint64_t start[int];

kercall:::entry
{
	self->n["entry"]++;
	@calls[pid, tid] = max(self->n["entry"]);
	self->start[self->n["entry"]] = timestamp;
}

kercall:::return
{
	self->n["return"]++;
	@exits[pid, tid] = max(self->n["return"]);
}

kercall:::return
/self->start[self->n["entry"]]/
{
	@t = sum(timestamp - self->start[self->n["entry"]]);
	@k = count();
	self->start[self->n["entry"]] = 0;
}

END
{
	printa("%d %d %@d %@d\n", @calls, @exits);
	printa("%@d ", @t);
	printa("%@d\n", @k);
}
D
grep -v 'self->start\[self->n\["entry"\]\] = 0;' "$dir/s.d" > "$dir/kept.d"

"$bin/kevgen" -n 2000 -o "$dir/g.kev" >/dev/null
"$bin/kevscen" basic "$dir/s.kev" >/dev/null
for kev in g s; do
    "$bin/traceprinter" "$dir/$kev.kev" > "$dir/$kev.txt" 2>/dev/null
    python3 "$here/kcall_time_total.py" --threads "$dir/$kev.txt" > "$dir/$kev.want"
    "$bin/dtrace" -q -x dynvarsize=8k -i "$dir/$kev.kev" -s "$dir/s.d" > "$dir/$kev.out" \
        2> "$dir/$kev.err"
    rc=$?
    sed '/^$/d' "$dir/$kev.out" | sort -n > "$dir/$kev.got"
    sort -n "$dir/$kev.want" > "$dir/$kev.want.sorted"
    threads=$(grep -cE '^[1-9][0-9]* 1 ' "$dir/$kev.want")
    check "$kev.kev: each thread's calls and returns counted in its own self->n[ ] ($threads threads numbered tid 1) and the per-call time total are traceprinter's" \
        cmp -s "$dir/$kev.got" "$dir/$kev.want.sorted"
    diff "$dir/$kev.want.sorted" "$dir/$kev.got" | head -6 | sed 's/^/# /'
    check "$kev.kev: two or more processes' tid 1 ($threads)" test "$threads" -ge 2
    check "$kev.kev: no drops nor errors at dynvarsize=8k, the freed elements' room reused (exit $rc)" \
        test "$rc" = 0 -a ! -s "$dir/$kev.err"
done
"$bin/dtrace" -q -x dynvarsize=8k -i "$dir/s.kev" -s "$dir/kept.d" > /dev/null 2> "$dir/kept.err"
check "without the freeing store the same room drops ($(head -1 "$dir/kept.err"))" \
    grep -q 'dynamic variable drops' "$dir/kept.err"
check "kevscen's calls take time to total" test "$(cut -d' ' -f1 < "$dir/s.want" | head -1)" -gt 1000000
finish
