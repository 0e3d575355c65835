#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sched:::off-cpu fires when the switch starts (the event in which the running thread left
# RUNNING) and sched:::on-cpu when the next thread runs (its THRUNNING), so the classic
# off-cpu-to-on-cpu time is the switch's, not 0: over kevscen's captures, one CPU and several,
# its total, count and longest equal those switch_time_total.py computes from traceprinter's
# events. (Live, the parity corpus's switch_time.d holds the board to the same capture.)
# usage: test_dtrace_switch.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dswitch "${2:-build/host-test}"

script='sched:::off-cpu { off[cpu] = timestamp; }
sched:::on-cpu /off[cpu]/ { @t = sum(timestamp - off[cpu]); @n = count(); @m = max(timestamp - off[cpu]); off[cpu] = 0; }
END { printa("%@d ", @t); printa("%@d ", @n); printa("%@d\n", @m); }'

for scen in basic smp; do
    gen=$bin/kevscen
    [ "$scen" = smp ] && gen=$(dirname "$bin")/host-test/kevscen4    # (a build for several CPUs)
    "$gen" "$scen" "$dir/$scen.kev" >/dev/null
    "$bin/traceprinter" "$dir/$scen.kev" > "$dir/$scen.txt" 2>/dev/null
    want=$(python3 "$here/switch_time_total.py" "$dir/$scen.txt")
    got=$("$bin/dtrace" -q -i "$dir/$scen.kev" -n "$script" | sed '/^$/d')
    check "kevscen $scen: off-cpu to on-cpu total, switches, longest '$got' are traceprinter's '$want'" \
        test "$got" = "$want"
    check "kevscen $scen: the switches take time (total ${want%% *} ns)" \
        test "${want%% *}" -gt 0
done
finish
