#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Multiprocessor trace cost (boards with BOARD_MAX_CPUS > 1): tflood floods user events from one
# thread per CPU, with 1, 2 and 4 CPUs, into a flight-recorder ring (-r: nothing to save, so the
# figure is the writers' alone). Under -icount shift=0 QEMU runs the CPUs in turn and one
# nanosecond is one instruction on whichever CPU runs, so the figure is instructions per event
# summed over the CPUs: equal for 1, 2 and 4 writers means sharing the ring (and the kernel
# lock) costs nothing per event; more means contention. Then smpbench (user/apps/smpbench) with
# 1, 2 and 4 CPUs: kernel events written by every CPU at once, events per second of virtual
# time, and a message round trip within one CPU and between two (docs/smp.md, "Figures").
#   scripts/bench-smp.sh BUILD_DIR MAX_CPUS
set -u
b=$1 max=${2:-4} status=0
for n in 1 2 4; do
    [ "$n" -gt "$max" ] && break
    out=$(QEMU_SMP=$n QEMU_ICOUNT=1 QEMU_TIMEOUT=600 \
          QEMU_ARGS="tracelogger -d1 -r -f $b/bench-smp.kev -A flood=20000 -A threads=$n -A smpbench=1" \
          "$(dirname "$0")/qemu-run.sh" "$b/tflood.elf" 2>&1)
    if ! printf '%s\n' "$out" | grep "^BENCH smp_user_event_insns_${n}cpu "; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    fi
done
for n in 1 2 4; do
    [ "$n" -gt "$max" ] && break
    out=$(QEMU_SMP=$n QEMU_ICOUNT=1 QEMU_TIMEOUT=600 "$(dirname "$0")/qemu-run.sh" \
          "$b/smpbench.elf" 2>&1)
    if ! printf '%s\n' "$out" | grep "^BENCH smp_kernel_event_insns_${n}cpu " >/dev/null; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    fi
    printf '%s\n' "$out" | grep '^BENCH '
done
exit $status
