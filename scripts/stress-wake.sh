#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs smpstress's pulse test (9) or wake-up test (10) many times, to look for a failure that
# comes once in a while (docs/smp.md, "Wake-ups across CPUs"). Each run's output is kept in DIR.
#   scripts/stress-wake.sh [-n RUNS] [-o DIR] [-b BUILD] FORM ARGS...
# FORM: icount (-icount shift=0,sleep=off: the same run every time for the same ARGS), shifts
# (-icount shift=0..3 in turn; from 4 up QEMU's turns between the CPUs alone can exceed test
# 10's bound), auto (-icount shift=auto: follows the host, no two runs alike; on a loaded host
# it slows the CPUs into that range too), shift=N (-icount shift=N,sleep=off every run: test
# 10's bounds are for shifts 0 to 3, so above that its lateness figures are what to read,
# docs/timers.md) or host (the host's clock, the CPUs at once). Run i adds seed=i: a seed-dependent spin before each
# measured sleep, and up to 999 ns more asked, so each run is another interleaving.
# ARGS: smpstress's own (pulse, wake, wake-sleepers, refusal-sleep=NS, hold; `icount` is added
# for the -icount forms). QEMU_SMP (default 4) sets the CPUs, QEMU_TIMEOUT (default 120) each
# run's limit. Prints one line a run and "N passed, M failed"; exits 1 if any failed.
#   scripts/stress-wake.sh -n 24 shifts pulse refusal-sleep=1000000
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
runs=20 dir=/tmp/stress-wake build=build/qemu-virt-a53
while getopts "n:o:b:h" o; do
    case $o in
    n) runs=$OPTARG ;;
    o) dir=$OPTARG ;;
    b) build=$OPTARG ;;
    *) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; [ "$o" = h ]; exit $? ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "stress-wake: which form? (icount, shifts, auto, host; -h)" >&2; exit 2; }
form=$1; shift
here=$(cd "$(dirname "$0")/.." && pwd)
img=$build/smpstress.elf
[ -f "$img" ] || { echo "stress-wake: no $img (make BOARD=qemu-virt-a53 images)" >&2; exit 2; }
mkdir -p "$dir"
pass=0 fail=0
for i in $(seq 1 "$runs"); do
    extra=() icount=icount env=()
    case $form in
    icount) extra=(-icount shift=0,sleep=off) ;;
    shifts) extra=(-icount "shift=$(( (i - 1) % 4 )),sleep=off") ;;
    auto)   extra=(-icount shift=auto,sleep=off) ;;
    shift=[0-9]|shift=10) extra=(-icount "$form,sleep=off") ;;
    host)   env=(QEMU_ICOUNT=none); icount= ;;
    *) echo "stress-wake: unknown form '$form'" >&2; exit 2 ;;
    esac
    out=$dir/run-$i.txt
    env BOARD=qemu-virt-a53 QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "${env[@]}" \
        QEMU_ARGS="smpstress $icount seed=$i $*" "$here/scripts/qemu-test.sh" "$img" "${extra[@]}" \
        >"$out" 2>&1
    if grep -q '^not ok' "$out" || ! grep -q '^ok' "$out"; then
        fail=$((fail + 1)); verdict=FAIL
    else
        pass=$((pass + 1)); verdict=pass
    fi
    echo "run $i ${extra[*]:-host clock}: $verdict ($(grep -h '^not ok\|# wake:\|slept' "$out" |
        head -2 | tr '\n' ' ' | cut -c1-200))"
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
