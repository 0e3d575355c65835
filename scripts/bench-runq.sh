#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The run-queue locks' contention (docs/smp.md, "Run queues"):
# builds smpbench over a kernel that counts the lock's takes, the takes that found it held by
# another CPU, and the time it was held (make KLOCK_STATS=1, build/<board>-klockstats), and runs
# `smpbench pairs` on 2 CPUs under -icount shift=0 (the hold in instructions) and on the host's
# clock (QEMU_ICOUNT=none: the CPUs at once). Prints the smp_runq_* BENCH lines of each run,
# suffixed _icount and _hostclock. Not part of make bench: the counters are not in its kernel.
#   BOARD=qemu-virt-a53 scripts/bench-runq.sh
set -u
. "$(dirname "$0")/console.sh"  # BENCH lines as the programs' text (scripts/console.sh)
case "${1:-}" in -h|--help)
    sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
board=${BOARD:-qemu-virt-a53}
b=build/$board-klockstats
make --no-print-directory BOARD="$board" KLOCK_STATS=1 "$b/smpbench.elf" >/dev/null || exit 1
status=0
for clock in icount hostclock; do
    ic=1; [ "$clock" = hostclock ] && ic=none
    out=$(BOARD=$board QEMU_SMP=2 QEMU_ICOUNT=$ic QEMU_TIMEOUT=600 QEMU_ARGS="smpbench pairs" \
          con_run_text "$b/smpbench.elf" 2>&1)
    lines=$(printf '%s\n' "$out" | sed -n "s/^BENCH \(smp_[a-z_0-9]*pair\) /BENCH \1_$clock /p")
    if ! printf '%s\n' "$lines" | grep -q '^BENCH smp_runq_'; then
        printf '%s\n' "$out" | tail -5 >&2
        echo "bench-runq: no run-queue figures on the $clock run" >&2
        status=1
    fi
    printf '%s\n' "$lines"
done
exit $status
