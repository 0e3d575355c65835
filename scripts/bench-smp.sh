#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Multiprocessor trace cost (boards with BOARD_MAX_CPUS > 1): tflood floods user events from one
# thread per CPU, with 1, 2 and 4 CPUs, into a flight-recorder ring (-r: nothing to save, so the
# figure is the writers' alone). Under -icount shift=0 QEMU runs the CPUs in turn and one
# nanosecond is one instruction on whichever CPU runs, so the figure is instructions per event
# summed over the CPUs: equal for 1, 2 and 4 writers means sharing the ring (and the kernel
# lock) costs nothing per event; more means contention. With them, the flood's kernel entries
# taken exclusive and its calls run shared, per 100 000 events (SysInfo's counts): exclusive
# entries are what serialises the writers. Then smpbench (user/apps/smpbench) with
# 1, 2 and 4 CPUs: kernel events written by every CPU at once, events per second of virtual
# time, and a message round trip within one CPU and between two (docs/PERFORMANCE.md); and
# mutex and semaphore operations of one and two pairs of threads (smpbench sync); and the message
# pairs' exclusive entries while a D program counts their messages (smpbench pairs under dtrace);
# D's cost per probe on 1 and 4 CPUs (smp_d_probe_insns_{1,4}cpu).
# Between the two, the writers' events per second on the host's clock, without -icount, with
# the library's clock and with the kernel's (below).
#   scripts/bench-smp.sh BUILD_DIR MAX_CPUS      (BENCH_SMP_ROUNDS=5, BENCH_SMP_VERBOSE=1: every run)
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/console.sh"  # BENCH lines as the programs' text (scripts/console.sh)
b=$1 max=${2:-4} status=0
# flood_insns N ARGS TAG: tflood's figures with N writers on N CPUs, exact mode, its options
# ARGS after the flood's own (the figures named ..._TAGNcpu); a run without them: its last
# lines to standard error, status 1.
flood_insns() {
    local out
    out=$(QEMU_SMP=$1 QEMU_ICOUNT=1 QEMU_TIMEOUT=600 \
          QEMU_ARGS="tracelogger -d1 -r -f $b/bench-smp.kev -A flood=20000 -A threads=$1 -A smpbench=1$2" \
          con_run_text "$b/tflood.elf" 2>&1)
    if ! printf '%s\n' "$out" | grep -E "^BENCH smp_user_(event_insns|exclusive_entries_per_100k_events|shared_calls_per_100k_events)_$3$1cpu "; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    fi
}
for n in 1 2 4; do
    [ "$n" -gt "$max" ] && break
    flood_insns "$n" "" ""
    # the same with the kernel stamping the events at the drain (tflood -A kstamp=1)
    flood_insns "$n" " -A kstamp=1" kstamp_
done
# Events per second of 1, 2, 4 writers together, on the host's clock (QEMU_ICOUNT=none: the
# virtual CPUs run at once, a host thread each), only as many CPUs as the host has cores (more
# virtual CPUs than cores measures the host's scheduler, not ours). Two ways of stamping the
# events: the library's clock read per insert (the normal path, smp_user_events_per_s_wallclock_N)
# and the kernel's at the drain (TraceUserEventAt with time 0, tflood -A kstamp=1:
# _wallclock_kstamp_N), which on QEMU takes its global lock out of the insert (docs/smp.md,
# "QEMU's host-clock ceiling"). The runs are interleaved (1, 2, ... writers, each way, then again)
# so that every figure sees the same host load, ROUNDS rounds (5), and each figure is the median;
# the load average at the start and end goes to standard error. On a host whose cores are busy
# with other work the figures are the host's too: compare test/qemu/bare/cntvct_smp.sh's control
# loop, QEMU's own ceiling, taken the same way. Every run has the same virtual CPUs (as many
# as the most writers measured: 2 on a 2-core host, the figure's definition: "2 virtual CPUs
# on a 2-core host"): one writer and two are compared on one machine, each writer a thread of
# its own.
cores=$(nproc 2>/dev/null || echo 1)
rounds=${BENCH_SMP_ROUNDS:-5}
wtmp=$(mktemp -d)
trap 'rm -rf "$wtmp"' EXIT
wn="" wsmp=1
for n in 1 2 4; do
    { [ "$n" -gt "$max" ] || [ "$n" -gt "$cores" ]; } && break
    wn="$wn $n" wsmp=$n
done
echo "bench-smp: host load average before the host-clock runs: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for r in $(seq "$rounds"); do
    for ks in 0 1; do
        for n in $wn; do
            QEMU_SMP=$wsmp QEMU_ICOUNT=none QEMU_TIMEOUT=600 \
                QEMU_ARGS="tracelogger -d1 -r -f $b/bench-smp.kev -A flood=2000000 -A threads=$n -A smpbench=1 -A kstamp=$ks" \
                con_run_text "$b/tflood.elf" 2>&1 |
                sed -n "s/^BENCH smp_user_events_per_s[a-z_]*_${n}cpu \([0-9]*\) .*/\1/p" >> "$wtmp/$ks.$n"
        done
    done
done
echo "bench-smp: host load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# median_of FILE LABEL: the median of the ROUNDS values FILE holds, one a line (with
# BENCH_SMP_VERBOSE, every one on standard error under LABEL first); status 1 and nothing
# printed when FILE holds fewer (a run that reported no rate).
median_of() {
    [ -f "$1" ] && [ "$(wc -l < "$1")" = "$rounds" ] || return 1
    [ -n "${BENCH_SMP_VERBOSE:-}" ] && echo "# $2: $(tr '\n' ' ' < "$1")" >&2
    sort -n "$1" | sed -n "$(( (rounds + 1) / 2 ))p"
}
for ks in 0 1; do
    sfx=; [ $ks = 1 ] && sfx=_kstamp
    for n in $wn; do
        if ! m=$(median_of "$wtmp/$ks.$n" "$n writers$sfx"); then
            echo "bench-smp: $n writers$sfx on the host's clock did not report a rate" >&2
            status=1
            continue
        fi
        echo "BENCH smp_user_events_per_s_wallclock${sfx}_${n}cpu $m events/s"
    done
done
# wallclock_pairs MODE RATE UNIT: `smpbench MODE`'s one-pair and two-pair rates (its BENCH
# smp_RATE_per_s_<n>pair lines, each the median of its 5 phases) on the host's clock, on 2
# CPUs, ROUNDS runs (5), printed as the median run's smp_RATE_per_s_wallclock_<n>pair; only on a
# host with 2 cores or more. One run's ratio moves by +-0.06 from run to run on this host (the
# host's other work), so, as for the writers above, the figure is the median of several.
wallclock_pairs() {
    [ "$max" -ge 2 ] && [ "$cores" -ge 2 ] || return 0
    local out v p r m
    rm -f "$wtmp/pairs.1" "$wtmp/pairs.2"
    for r in $(seq "$rounds"); do
        out=$(QEMU_SMP=2 QEMU_ICOUNT=none QEMU_TIMEOUT=600 QEMU_ARGS="smpbench $1" \
              con_run_text "$b/smpbench.elf" 2>&1)
        for p in 1 2; do
            v=$(printf '%s\n' "$out" | sed -n "s/^BENCH smp_$2_per_s_${p}pair \([0-9]*\) .*/\1/p")
            [ -n "$v" ] && echo "$v" >> "$wtmp/pairs.$p"
        done
    done
    for p in 1 2; do
        if ! m=$(median_of "$wtmp/pairs.$p" "$1 $p pair(s)"); then
            printf '%s\n' "$out" | tail -5 >&2
            echo "bench-smp: $p pair(s) of smpbench $1 on the host's clock did not report a rate" >&2
            status=1
            continue
        fi
        echo "BENCH smp_$2_per_s_wallclock_${p}pair $m $3"
    done
}
# Message round trips per second of the host's clock: one client/server pair, then two, each
# pair bound to its own CPU (smpbench pairs: the median of 5 phases), without -icount
# (docs/smp.md: two pairs against one is what the big-reader lock's shared message path is for).
wallclock_pairs pairs msg_roundtrips roundtrips/s
# Mutexes and semaphores (smpbench sync: a pair of threads per CPU, each pair with its own
# mutex and semaphores; kernel/sync.c's shared side): under -icount on 2 CPUs, where the pairs'
# calls ran (exclusive entries and shared calls per 1000 operations: deterministic), then
# operations per second of the host's clock, one pair and two, as for the message pairs.
if [ "$max" -ge 2 ]; then
    out=$(QEMU_SMP=2 QEMU_ICOUNT=1 QEMU_TIMEOUT=600 QEMU_ARGS="smpbench sync" \
          con_run_text "$b/smpbench.elf" 2>&1)
    if ! printf '%s\n' "$out" | grep -E '^BENCH smp_sync_(exclusive_entries|shared_calls)_per_1000_ops_[12]pair '; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    fi
fi
wallclock_pairs sync sync_ops ops/s
# Pulses on 2 CPUs under -icount (smpbench pulses: deterministic counts of where MsgSendPulse
# and the receives that find a pulse ran, exclusive or shared; user/apps/smpbench/sb_pulses.c).
if [ "$max" -ge 2 ]; then
    out=$(QEMU_SMP=2 QEMU_ICOUNT=1 QEMU_TIMEOUT=600 QEMU_ARGS="smpbench pulses" \
          con_run_text "$b/smpbench.elf" 2>&1)
    if ! printf '%s\n' "$out" | grep '^BENCH smp_pulse' ||
       printf '%s\n' "$out" | grep 'pulses out of order' >&2; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    fi
fi
# The real application, traced (acq under appinit with the tracelogger, as test/qemu/test_acq.sh
# boots it) on 4 CPUs under -icount shift=0,sleep=off (deterministic): the kernel entries that
# ran exclusive and the calls that ran shared per second of its acquisition, as acq prints
# them (SysInfo's counts): what of a traced application's kernel work still keeps the other
# CPUs out (docs/smp.md, "The tick").
if [ "$max" -ge 4 ] && [ -f "$b/acqtest.elf" ]; then
    line=$(QEMU_SMP=4 QEMU_TIMEOUT=600 QEMU_ARGS="appinit acq" \
           con_run_text "$b/acqtest.elf" -icount shift=0,sleep=off 2>&1 | grep 'acq: on 4 CPUs')
    if [ -n "$line" ]; then
        printf '%s\n' "$line" | sed -n 's/.*in the \([0-9]*\) ms: \([0-9]*\) kernel entries ran exclusive.*, \([0-9]*\) kernel calls shared.*/\1 \2 \3/p' |
            awk '$1 > 0 { printf "BENCH smp_acq_traced_exclusive_entries_per_s_4cpu %d entries\n", $2 * 1000 / $1
                          printf "BENCH smp_acq_traced_shared_calls_per_s_4cpu %d calls\n", $3 * 1000 / $1 }'
    else
        echo "bench-smp: acq on 4 CPUs printed no kernel counts" >&2
        status=1
    fi
fi
# The message pairs under a D program that fires on every message (image smpbenchd: the
# target's dtrace starts smpbench pairs with -c), on 2 CPUs under -icount: exclusive entries
# per 100 000 round trips, deterministic: D's probes fire on the shared side under the D lock,
# so a running D program keeps only its own few entries exclusive (docs/smp.md, "D on several
# CPUs").
if [ "$max" -ge 2 ] && [ -f "$b/smpbenchd.elf" ]; then
    out=$(QEMU_SMP=2 QEMU_ICOUNT=1 QEMU_TIMEOUT=900 \
          QEMU_ARGS="dtrace -q -n 'msg:::send { @[cpu] = count(); }' -c smpbench ;; smpbench pairs" \
          con_run_text "$b/smpbenchd.elf" 2>&1)
    if ! printf '%s\n' "$out" | grep '^BENCH smp_msg_exclusive_entries_per_100k_roundtrips_[12]pair ' |
         sed 's/_\([12]pair\) /_dtrace_\1 /' | grep .; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    fi
fi
for n in 1 2 4; do
    [ "$n" -gt "$max" ] && break
    out=$(QEMU_SMP=$n QEMU_ICOUNT=1 QEMU_TIMEOUT=600 con_run_text \
          "$b/smpbench.elf" 2>&1)
    if ! printf '%s\n' "$out" | grep "^BENCH smp_kernel_event_insns_${n}cpu " >/dev/null; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    fi
    printf '%s\n' "$out" | grep '^BENCH '
    plain[$n]=$(printf '%s\n' "$out" | sed -n "s/^BENCH msg_roundtrip_same_cpu_insns_${n}cpu \([0-9]*\) .*/\1/p")
done
# D's cost per probe on 1 and on 4 CPUs: the same-CPU round trip (one msg:::send firing each,
# counted into an aggregation: DTrace's per-CPU buffers, the D lock) under the board's dtrace,
# less the same round trip without D just above.
for n in 1 4; do
    [ "$n" -gt "$max" ] || [ ! -f "$b/smpbenchd.elf" ] && break
    out=$(QEMU_SMP=$n QEMU_ICOUNT=1 QEMU_TIMEOUT=600 \
          QEMU_ARGS="dtrace -q -n 'msg:::send { @[cpu] = count(); }' -c smpbench ;; smpbench" \
          con_run_text "$b/smpbenchd.elf" 2>&1)
    d=$(printf '%s\n' "$out" | sed -n "s/^BENCH msg_roundtrip_same_cpu_insns_${n}cpu \([0-9]*\) .*/\1/p")
    if [ -z "$d" ] || [ -z "${plain[$n]:-}" ]; then
        printf '%s\n' "$out" | tail -5 >&2
        status=1
    else
        echo "BENCH smp_d_probe_insns_${n}cpu $((d - plain[n])) insns"
    fi
done
exit $status
