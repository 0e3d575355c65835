#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# profile-N samples a CPU at its rate whatever it does, waiting in WFI included, in every clock
# mode (docs/profiling.md, "Samples of an idle CPU"). user/apps/hotshare serves its device
# timer (2 kHz) and spins a share of each period, the CPU idle the rest; QEMU wakes a CPU
# waiting in WFI late for the timers that expired meanwhile, so a profile that lost the idle
# CPU's samples, or took them after the thread the wake made ready was switched in, gave
# hotshare four times its CPU share. The truth is not the profile's: hotshare's CPU time by
# kevstat over the capture, divided by the window the program timed itself between its start
# and stop events (its own "of N us"). The profile's share in that window (the D predicate on
# the same events), live on the board and by dtrace -i over the same boot's capture, must be
# within 5 points of it, under the host's clock (as make dtrace runs), QEMU_ICOUNT=1 and
# QEMU_ICOUNT=exact (on the host's clock, a boot the host ran too late is booted again, below).
#   test/stacks/test_idle_share.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
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
echo "1..9"
D='user:::event /arg0 == 230/ { on = 1; }
user:::event /arg0 == 231/ { on = 0; }
profile-997 /on/ { @[cpu, execname] = count(); }'

# share FILE: hotshare's share (%) of one CPU's samples in FILE's D output ("cpu name count"
# rows): its samples on every CPU against the samples of a CPU (all of them / the CPUs), as
# kevstat's CPU time against the window is a share of one CPU
share() {
    awk 'NF == 3 && $1 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { n += $3; c[$1] = 1; if ($2 == "hotshare") h += $3 }
         END { k = length(c); printf "%.1f %d\n", n ? 100 * h * k / n : -1, n }' "$1"
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
for mode in none 1 exact; do
    # On the host's clock QEMU runs the board late when the host does not run QEMU, and a
    # thread's time it sleeps through is sampled as whichever thread the late interrupt finds
    # (a busy thread's spin ends by the clock that jumped, and the CPU is idle when it comes):
    # a boot with over a tenth of its samples that late is booted again, at most twice, then
    # judged no more, saying so (as stacks-hotshare does).
    for try in 1 2 3; do
        (cd "$tmp" && BOARD=$board QEMU_ICOUNT=$mode TRACE_STORAGE=$storage D="$D" D_OPTS=-q \
            APPS=hotshare TL_OPTS="-p 997" B=$B H=$H TRACE_FILE=$mode.kev \
            QEMU_TIMEOUT=240 "$here/scripts/run-dtrace.sh" "$img" > "$tmp/$mode.out" 2>&1)
        rc=$?
        lt=$(late $mode)
        [ $mode != none ] || [ "$lt" -le 10 ] && break
        echo "# QEMU_ICOUNT=$mode, boot $try: $lt % of the samples came over 100 us late"
    done
    span=$(sed -n 's/.*hotshare: [0-9]* periods at [0-9]* Hz, hot [0-9]* us of \([0-9]*\) us.*/\1/p' "$tmp/$mode.out" | head -1)
    cpu_us=$("$H/kevstat" -s cpu "$tmp/$mode.kev" 2>/dev/null | awk '$1 == "hotshare/main" { print $2; exit }')
    truth=$(awk -v c="${cpu_us:-0}" -v s="${span:-0}" 'BEGIN { printf "%.1f", s ? 100 * c / s : -1 }')
    [ $rc = 0 ] && [ -n "$span" ] && [ -n "$cpu_us" ] && points "$truth" 50 50
    ok $? "QEMU_ICOUNT=$mode: hotshare ran 30 % hot at 2 kHz; kevstat's CPU time ${cpu_us:-?} us in its ${span:-?} us window: $truth %"
    [ -n "$span" ] || tail -8 "$tmp/$mode.out" | sed 's/^/# /'
    skip=
    [ $mode = none ] && [ "$lt" -gt 10 ] && skip=" # SKIP the host ran QEMU late: $lt % of the samples over 100 us late in each of 3 boots"
    read -r live nl <<< "$(share "$tmp/$mode.out")"
    points "$live" "$truth" 5 || [ -n "$skip" ]
    ok $? "QEMU_ICOUNT=$mode, live: hotshare in $live % of the window's $nl samples, its CPU share $truth % (5 points; $lt % late)$skip"
    "$H/dtrace" -q -i "$tmp/$mode.kev" -n "$D" > "$tmp/$mode.over" 2> "$tmp/$mode.over.err"
    read -r over no <<< "$(share "$tmp/$mode.over")"
    points "$over" "$truth" 5 || [ -n "$skip" ]
    ok $? "QEMU_ICOUNT=$mode, dtrace -i over the capture: hotshare in $over % of $no samples (5 points)$skip"
    [ $? = 0 ] || sed 's/^/# /' "$tmp/$mode.over.err" | head -3
done
