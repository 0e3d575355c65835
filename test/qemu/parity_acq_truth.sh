# SPDX-License-Identifier: MIT
# Sourced by test/qemu/test_dprobe_parity.sh over acq: acq_truth BATCH BOARD holds the answers of the
# acq scripts (test/qemu/parity/acq/) of one boot, live (BATCH.l) and over its capture (BATCH.c),
# against truths that are not D's: what acq counted and printed itself in that boot (BATCH.live)
# and the rate its board's device runs at when asked for 1 kHz (capture_boot.sh). Uses the
# test's ok(). Each script is checked in the batch that ran it (where its rows are, live).
. "$(dirname "${BASH_SOURCE[0]}")/capture_boot.sh"

# acq_val FILE KEY...: the value of the row "KEY... VALUE" (empty when there is none)
acq_val() {
    local f=$1
    shift
    awk -v k="$*" 'substr($0, 1, length(k) + 1) == k " " && split(substr($0, length(k) + 2), a, " ") == 1 { print a[1] }' "$f"
}

# The inversion script's count is acq's own: the supervisor's waits over 100 us are exactly
# those the hog ran in. The longest lies within acq's own measure of it, its ClockCycles before
# and after SemWait (up to 1 us of acq's rounding to whole us), which is longer by what ran in
# between: the kernel's entry and exit with the batch's clauses, and whatever preempted the
# supervisor there (measured 18.8 us on mps2-an385): at most 100 us.
acq_truth_inversion() {
    local f=$1 name=$2 inv other invmax
    inv=$(acq_val "$f" acq_inversion c 1)
    other=$(acq_val "$f" acq_inversion c 0)
    [ -n "$inv" ] && [ "$inv" = "${waits:-x}" ]
    ok $? "acq_inversion ($name): the supervisor blocked on the semaphore while the hog ran ${inv:-0} times, acq measured ${waits:-?} (and ${other:-0} short waits without the hog)"
    invmax=$(acq_val "$f" acq_inversion_max t 1)
    awk -v d="${invmax:-0}" -v a="${longest:-0}" 'BEGIN { a *= 1000
        exit !(d > 0 && d <= a + 1000 && a - d <= 100000) }'
    ok $? "acq_inversion_max ($name): the longest inversion ${invmax:-?} ns, within acq's own ${longest:-?} us and at most 100 us less"
}

# Every SemWait returns with the semaphore (sem-acquire) and is posted back: the supervisor's
# are its audits, the logger's its reports.
acq_truth_sem() {
    local f=$1 name=$2 sa35 sa10 sr35 sr10
    sa35=$(acq_val "$f" acq_sem c sem-acquire 35) sa10=$(acq_val "$f" acq_sem c sem-acquire 10)
    sr35=$(acq_val "$f" acq_sem c sem-release 35) sr10=$(acq_val "$f" acq_sem c sem-release 10)
    [ "${sa35:-x}" = "${audits:-y}" ] && [ "${sr35:-x}" = "${audits:-y}" ]
    ok $? "acq_sem ($name): the supervisor took and posted the semaphore ${sa35:-0}/${sr35:-0} times, acq counted ${audits:-?} audits"
    [ "${sa10:-x}" = "${reports:-y}" ] && [ "${sr10:-x}" = "${reports:-y}" ]
    ok $? "acq_sem ($name): the logger took and posted the semaphore ${sa10:-0}/${sr10:-0} times, acq counted ${reports:-?} reports"
}

# The device's interrupts between START and STOP: the programmed rate over the time between the
# two events (D's clock) and over the time acq measured (its own), within one period at each end.
# Where QEMU's device merges late requests into one edge (x86-pc's RTC: capture_boot.sh), the
# rate holds for the requests its trace of the line records (acq runs the device from START to
# STOP only), and the interrupts are its rising edges.
acq_truth_irq() {
    local f=$1 name=$2 irq span req edges what
    irq=$(acq_val "$f" acq_irq c) span=$(acq_val "$f" acq_irq_span t)
    req=${irq:-0} what="${irq:-0} device interrupts"
    if [ -n "$device" ]; then
        IFS=, read -r req edges <<< "$device"
        what="$req device requests (QEMU's trace of the line)"
        [ "${irq:-x}" = "$edges" ]
        ok $? "acq_irq ($name): ${irq:-0} device interrupts, one per rising edge of the line ($edges; $((req - edges)) requests came while it was still high)"
    fi
    awk -v n="$req" -v s="${span:-0}" -v r="$rate" 'BEGIN { w = r * s / 1e9; exit !(n > 0 && n >= w - 2 && n <= w + 2) }'
    ok $? "acq_irq ($name): $what in ${span:-?} ns at $rate Hz"
    awk -v n="$req" -v ms="${ms:-0}" -v r="$rate" 'BEGIN { w = r * ms / 1000; exit !(n > 0 && n >= w - 2 && n <= w + 2) }'
    ok $? "acq_irq ($name): $what in the ${ms:-?} ms acq measured at $rate Hz (acq took ${samples:-?} samples)"
}

# The mutex's inversion repaired: every inheritance is the logger's 10 raised to the filter's
# 30 (acq's priorities: its source), as many as the filter's blocks on the mutex.
acq_truth_inherit() {
    local f=$1 name=$2 rows up blocks
    rows=$(grep -c '^acq_inherit c ' "$f")
    up=$(acq_val "$f" acq_inherit c 10 30)
    blocks=$(acq_val "$f" acq_inherit_blocks c 30)
    [ "$rows" = 1 ] && [ -n "$up" ] && [ "$up" = "${blocks:-x}" ]
    ok $? "acq_inherit ($name): the logger went from 10 to the filter's 30 ${up:-0} times ($rows kinds of inheritance), the filter blocked on the mutex ${blocks:-0} times"
}

# kevstat's interrupt-to-thread latency over the boot's capture against D's (acq_latency.d):
# every interrupt of acq's line measured (D's count, but for one at either end of its START..STOP
# window), and kevstat's worst case the one D saw, which D takes later (at MsgReceive's return,
# with the probes' own time live): at most D's, and within 30% or 5 us of it.
acq_truth_latency() {
    local f=$1 name=$2 line dn dmax kn kmax
    line=$(acq_val "$f" acq_latency_line c) dn=$(acq_val "$f" acq_latency_n c) dmax=$(acq_val "$f" acq_latency_max t)
    read -r kn kmax < <("$h/kevstat" --json "$bt.kev" | python3 -c '
import json, sys
j = json.load(sys.stdin); q = [i for i in j["interrupts"] if i["irq"] == int(sys.argv[1])] or [{}]
l = q[0].get("latency", {}); print(l.get("n", 0), l.get("max", 0) * 1e9 / j["trace"]["cycles_per_sec"])' "${line:--1}")
    awk -v a="${dn:-0}" -v b="${kn:-0}" 'BEGIN { exit !(a > 0 && b >= a && b <= a + 2) }'
    ok $? "acq_latency ($name): kevstat measured ${kn:-0} interrupts of line ${line:-?} to their thread, D ${dn:-?} between START and STOP"
    awk -v d="${dmax:-0}" -v k="${kmax:-0}" 'BEGIN { x = d - k; exit !(d > 0 && k > 0 && x >= 0 && (x <= 0.3 * d || x <= 5000)) }'
    ok $? "acq_latency ($name): kevstat's worst interrupt-to-thread latency ${kmax:-?} ns, D's ${dmax:-?} ns to MsgReceive's return"
}

acq_truth() {
    local bt=$1 board=$2 line samples ms hz reports audits waits longest rate what side device=
    grep -q '^acq_' "$bt.l" || return 0
    [ -s "$bt.qtrace" ] && device=$(devtimer_record "$bt.qtrace")
    rate=$(devtimer_rate_1khz "$board")
    line=$(sed -n 's/.*acq: \([0-9]*\) samples in \([0-9]*\) ms, device programmed at \([0-9]*\) Hz.*/\1 \2 \3/p' "$bt.live")
    read -r samples ms hz <<< "$line"
    line=$(sed -n 's/.*acq: filter: [0-9]* samples, logger: \([0-9]*\) reports, supervisor: \([0-9]*\) audits.*/\1 \2/p' "$bt.live")
    read -r reports audits <<< "$line"
    line=$(sed -n 's/.*acq: inversion: .* waited \([0-9]*\) times.* longest \([0-9]*\) us.*/\1 \2/p' "$bt.live")
    read -r waits longest <<< "$line"
    ok "$([ -n "$samples" ] && [ -n "$audits" ] && [ -n "$waits" ]; echo $?)" \
        "$(basename "$bt"): acq printed its samples, reports, audits and inversions (${samples:-?} samples in ${ms:-?} ms at ${hz:-?} Hz; ${reports:-?} reports, ${audits:-?} audits; ${waits:-?} inversions, longest ${longest:-?} us)"
    [ "${hz:-0}" = "$rate" ]; ok $? "$(basename "$bt"): acq programmed its device at ${hz:-?} Hz (the board's device: $rate Hz)"
    for what in inversion sem irq inherit latency; do
        grep -q "^acq_${what}[ _]" "$bt.l" || continue
        for side in l c; do
            "acq_truth_$what" "$bt.$side" "$([ $side = l ] && echo live || echo capture)"
        done
    done
}
