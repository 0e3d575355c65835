#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# profile-N samples every CPU at its rate whatever it does, waiting in WFI or hlt included, in
# every clock mode (docs/profiling.md, "Samples of an idle CPU"). user/apps/hotshare serves its
# device timer (2 kHz) and spins a share of each period, its CPU idle the rest; QEMU wakes a CPU
# waiting in WFI/hlt late for the timers that expired meanwhile, so a profile that lost the idle
# CPU's samples, or took them after the thread the wake made ready was switched in, gave
# hotshare four times its CPU share. The truth is not the profile's: hotshare's running time
# inside the window its own user events mark (EV_START to EV_STOP), read from traceprinter's
# events of the capture (window_cpu_time.py, which also gives its whole running time, held
# against kevstat's), against that window: a share of one CPU. The program's own counters
# bound it: its hot time (the cycle counter around each spin) is time it ran. The profile's
# share in that window (the D predicate on the same events), each CPU's samples of hotshare
# against that CPU's samples, added over the CPUs, live on the board and by dtrace -i over the
# same boot's capture, must be within 5 points of it, under the host's clock (as make dtrace
# runs), QEMU_ICOUNT=1 and QEMU_ICOUNT=exact.
# On the host's clock a loaded host runs QEMU late: a boot with over a tenth of its samples over
# 100 us late whose checks fail is booted again, at most twice; in the last (or in one whose
# capture lost events: the logger fell behind, so its CPU share is no truth), a check that fails
# prints "ok ... # SKIP" with the lateness, after a line that says it was not judged and not
# passed (scripts/run-tests.sh counts it as skipped).
# On this shared 2-core machine every host-clock boot measured was that late (26-93 % of the
# samples), and its profile checks passed or were skipped as each boot went.
#   test/stacks/test_idle_share.sh BUILD_DIR HOST_DIR [host|icount]    (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/stacks/stacks_lib.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
img=$B/hotsharetest.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
storage=semihost; uart_board "$board" && storage=uart
# A third argument, host, boots on the host's clock alone (the part test/alone.list keeps from
# other tests' load); icount the two instruction-counted modes, which no load moves.
case ${3:-all} in
    host)   modes="none" ;;
    icount) modes="1 exact" ;;
    *)      modes="none 1 exact" ;;
esac
echo "1..$((3 * $(echo $modes | wc -w)))"
D='user:::event /arg0 == 230/ { on = 1; }
user:::event /arg0 == 231/ { on = 0; }
profile-997 /on/ { @[cpu, execname] = count(); }'

# share FILE: hotshare's share (%) of one CPU in FILE's D output ("cpu name count" rows): on
# each CPU its samples against that CPU's samples, added over the CPUs (a CPU's samples are its
# time, whatever the others took); and the samples in all
share() {
    awk 'NF == 3 && $1 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { n += $3; c[$1] += $3; if ($2 == "hotshare") h[$1] += $3 }
         END { for (k in h) s += 100 * h[k] / c[k]; printf "%.1f %d\n", n ? s : -1, n }' "$1"
}
points() { # A B PTS: |A - B| <= PTS
    awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a >= 0 && d <= p) }'
}
# late MODE: the share (%) of MODE.kev's samples taken over 100 us after their 997 Hz time
# (a profile interrupt QEMU delivered that late: its periods sampled at once, as the thread
# it found)
late() {
    python3 "$here/test/stacks/kev_count_stacks.py" --times "$tmp/$1.kev" |
        awk '{ n++; if ($2 % 1003009 > 100000) l++ } END { printf "%d", n ? 100 * l / n : 100 }'
}
# judge STATUS NAME [FIGURES]: an ok line. A late host-clock boot (late_boot) is judged all the
# same; a check it fails is reported as a SKIP, which is not a pass (said on a line of its own),
# with the lateness that excuses it.
judge() {
    if [ "$1" = 0 ]; then
        ok 0 "$2"
    elif [ -n "$lossy_boot" ]; then
        echo "# QEMU_ICOUNT=$mode: the next check is not judged and not passed${3:+: $3}: the capture lost $lost events, so its CPU share is no truth"
        ok 0 "$2 # SKIP the capture lost $lost events"
    elif [ -n "$late_boot" ]; then
        echo "# QEMU_ICOUNT=$mode: the next check is not judged and not passed${3:+: $3}, in a boot the host ran late"
        ok 0 "$2 # SKIP the host ran QEMU late: $lt % of the samples over 100 us late in each of $try boots"
    else
        ok 1 "$2"
        return 1
    fi
}
for mode in $modes; do
    # On the host's clock QEMU runs the board late when the host does not run QEMU, and a
    # thread's time it sleeps through is sampled as whichever thread the late interrupt finds
    # (a busy thread's spin ends by the clock that jumped, and the CPU is idle when it comes).
    # How late the samples came is measured from their own times: a boot with over a tenth of
    # them over 100 us late whose checks fail is booted again, at most twice (a late boot whose
    # checks pass is not: on this machine every host-clock boot was late), then judged.
    for try in 1 2 3; do
        (cd "$tmp" && BOARD=$board QEMU_ICOUNT=$mode TRACE_STORAGE=$storage D="$D" D_OPTS=-q \
            APPS=hotshare TL_OPTS="-p 997" B=$B H=$H TRACE_FILE=$mode.kev \
            QEMU_TIMEOUT=240 "$here/scripts/run-dtrace.sh" "$img" > "$tmp/$mode.out" 2>&1)
        rc=$?
        lt=$(late $mode)
        hot=$(sed -n 's/.*hotshare: [0-9]* periods at [0-9]* Hz, hot \([0-9]*\) us of [0-9]* us.*/\1/p' "$tmp/$mode.out" | head -1)
        "$H/traceprinter" -n "$tmp/$mode.kev" > "$tmp/$mode.txt" 2>&1
        read -r run_us span truth whole lost <<< "$(python3 "$here/test/stacks/window_cpu_time.py" \
            "$tmp/$mode.txt" hotshare 230 231 2> "$tmp/$mode.win.err")"
        cpu_us=$("$H/kevstat" -s cpu "$tmp/$mode.kev" 2>/dev/null | awk '$1 == "hotshare/main" { print $2; exit }')
        [ $rc = 0 ] && [ -n "$hot" ] && [ -n "$truth" ] && points "$truth" 50 50 &&
            awk -v h="$hot" -v r="$run_us" 'BEGIN { exit !(h <= r + 1) }' && points "${cpu_us:-x}" "$whole" 1
        c_truth=$?
        truth=${truth:--1}
        read -r live nl <<< "$(share "$tmp/$mode.out")"
        points "$live" "$truth" 5
        c_live=$?
        "$H/dtrace" -q -i "$tmp/$mode.kev" -n "$D" > "$tmp/$mode.over" 2> "$tmp/$mode.over.err"
        read -r over no <<< "$(share "$tmp/$mode.over")"
        points "$over" "$truth" 5
        c_over=$?
        late_boot=
        [ $mode = none ] && [ "$lt" -gt 10 ] && late_boot=1
        # a capture that lost events (the logger fell behind on the host's clock) has a thread's
        # running time wrong wherever a switch was lost: no truth for the share
        # (the logger's own count when the loss took the window's marks too)
        [ -n "$lost" ] || lost=$(sed -n 's/.*tracelogger: \([0-9]*\) events lost.*/\1/p' "$tmp/$mode.out" | head -1)
        lossy_boot=
        [ $mode = none ] && [ "${lost:-0}" != 0 ] && lossy_boot=1
        # (a lossy capture is not booted again: on x86-pc's host clock every boot lost events)
        [ -n "$late_boot" ] && [ -z "$lossy_boot" ] && [ $((c_truth + c_live + c_over)) -gt 0 ] &&
            [ $try -lt 3 ] || break
        echo "# QEMU_ICOUNT=$mode, boot $try: $lt % of the samples came over 100 us late, ${lost:-?} events lost, and a check failed: booted again"
    done
    judge $c_truth "QEMU_ICOUNT=$mode: hotshare ran ${run_us:-?} us of its ${span:-?} us window by traceprinter's events: $truth % of a CPU (its own hot time ${hot:-?} us, no more; in all ${whole:-?} us, kevstat ${cpu_us:-?} us; ${lost:-?} events lost)" \
        "the image's status $rc"
    [ "$truth" != -1 ] || { tail -8 "$tmp/$mode.out"; cat "$tmp/$mode.win.err"; } | sed 's/^/# /'
    judge $c_live "QEMU_ICOUNT=$mode, live: hotshare in $live % of the window's $nl samples, its CPU share $truth % (5 points; $lt % late)" \
        "$live % against the truth $truth %"
    judge $c_over "QEMU_ICOUNT=$mode, dtrace -i over the capture: hotshare in $over % of $no samples (5 points)" \
        "$over % against the truth $truth %" || sed 's/^/# /' "$tmp/$mode.over.err" | head -3
done
