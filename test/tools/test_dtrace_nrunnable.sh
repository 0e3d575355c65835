#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# curthread->t_cpu->cpu_disp->disp_nrunnable (Solaris's count of the threads waiting on a
# CPU's dispatch queue, the Toolkit's dispqlen.d and runocc.d) over one-CPU captures, against
# what traceprinter's events give (ready_count.py: the threads READY at each switch, the idle
# thread aside): at every sched:::on-cpu of kevgen's capture (one to four ready) and kevscen's
# (none). Over a capture of several CPUs, which does not say whose queue holds a ready thread,
# one line says so and the value reads 0. Under a second.
# usage: test_dtrace_nrunnable.sh [BINDIR [SCRATCHDIR [KEVSCEN4]]]
#   (defaults: build/host build/host-test build/host-test/kevscen4)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dnrun "${2:-build/host-test}"
kevscen4=${3:-build/host-test/kevscen4}

script='sched:::on-cpu { @[curthread->t_cpu->cpu_disp->disp_nrunnable] = count(); }
END { printa("%d %@d\n", @); }'

"$bin/kevgen" -n 5000 -o "$dir/g.kev" >/dev/null
"$bin/kevscen" basic "$dir/s.kev" >/dev/null
for kev in g s; do
    "$bin/traceprinter" "$dir/$kev.kev" > "$dir/$kev.txt" 2>/dev/null
    python3 "$here/ready_count.py" "$dir/$kev.txt" > "$dir/$kev.want"
    "$bin/dtrace" -q -i "$dir/$kev.kev" -n "$script" 2> "$dir/$kev.err" | sed '/^$/d' | sort -n \
        > "$dir/$kev.got"
    check "$kev.kev: the ready threads at each on-cpu are traceprinter's ($(tr '\n' ' ' < "$dir/$kev.want"))" \
        cmp -s "$dir/$kev.got" "$dir/$kev.want"
    diff "$dir/$kev.want" "$dir/$kev.got" | head -6 | sed 's/^/# /'
    check "$kev.kev: nothing on stderr" test ! -s "$dir/$kev.err"
done
check "kevgen's capture has switches with several threads ready" \
    test "$(awk '$1 >= 2' "$dir/g.want" | wc -l)" -ge 2
"$kevscen4" smp "$dir/smp.kev" > /dev/null
"$bin/dtrace" -q -i "$dir/smp.kev" -n "$script" > "$dir/smp.out" 2> "$dir/smp.err"
check "a capture of 4 CPUs: said once ($(head -1 "$dir/smp.err" | cut -c1-90)...), 0 at every on-cpu" \
    test "$(grep -c 'does not say which CPU' "$dir/smp.err")" = 1 -a \
    "$(sed '/^$/d' "$dir/smp.out" | cut -d' ' -f1 | sort -u)" = 0
finish
