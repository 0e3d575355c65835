#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One semantics, two places: the D scripts of test/qemu/parity/ run live on the
# board and, with the host's dtrace -i, over the capture of that same boot; their answers must
# agree. Two systems: the demo (the dtparity image: the demo under dtrace, with the tracelogger
# init starts) and acq (the acqparity image: acq under dtrace with appinit and the tracelogger,
# as make dtrace APPS=acq), which adds test/qemu/parity/acq/.
# The independent truth for each side is the other: the board's probes fire from the kernel's
# hooks, the capture's from the events alone (tools/dtrace/kevreplay.c). Counts must be equal,
# and times (the "t" lines) too, to the nanosecond: a hook's probes and its event carry one
# time, the site's (docs/d-probes.md "Time"), so the clauses' cost enters neither side, and
# vtimestamp's clocks switch at the RUNNING events on both. The scripts are batched into as
# few boots as the board's
# dtrace takes (its compiled program is at most 8 KB). QEMU runs with -icount (deterministic:
# a host that stalls QEMU between an event and its probe would otherwise skew the times);
# shift=6 makes the demo's server threads contend for their mutex, so lockstat has rows.
# acq has every kind of row by design (a mutex its owner holds while preempted, a semaphore
# waited on, the inversion, a 1 kHz device): over acq no script may be empty, and acq's own
# report is a truth besides the capture (its inversions, audits, reports; its interrupts
# against the rate its device was programmed at). It runs under shift=0 (as test_acq.sh: the
# device's periods come exactly).
# A board without semihosting (x86-pc: BOARD_TRACE_STORAGE uart) has no host files: its dtrace
# takes the D text on the boot command line (-n, as make dtrace; at most 2000 characters, so the
# text goes without its comments and the boots are more), and the capture comes out of the
# trace UART as a framed stream that kevcapture rebuilds. A capture that lost events is said
# (the tracelogger's count, dtrace -i's note, beside every difference it may explain).
#   test/qemu/test_dprobe_parity.sh BUILD_DIR HOST_DIR [demo|acq]
set -u
b=$(cd "$1" && pwd) h=$(cd "$2" && pwd)
sys=${3:-demo}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=$here/parity
. "$here/capture_boot.sh"     # devtimer_qtrace: x86-pc's device line, from QEMU's own trace
out=$b/test-parity
board=$(basename "$b")
case $sys in
    demo) img=$b/dtparity.elf icount=shift=6,sleep=off extra=() work=init rest= ;;
    acq)  img=$b/acqparity.elf icount=shift=0,sleep=off extra=("$src"/acq/*.d) out=$b/test-parity-acq
          work=appinit rest=" ;; appinit acq" ;;
    *)    echo "usage: $0 BUILD_DIR HOST_DIR [demo|acq]" >&2; exit 2 ;;
esac
rm -rf "$out"
mkdir -p "$out"
. "$here/tap_lib.sh"
maxobj=8000
uart=
grep -q '^BOARD_TRACE_STORAGE *:= *uart' "$root/boards/$board/board.mk" 2>/dev/null && uart=1
# The capture is wide (tracelogger -w: every kernel call's six arguments) over acq where the
# tracelogger's options are ours to give (a board with semihosting), fast otherwise (the
# demo's init starts it with its defaults, as make dtrace does): the corpus compares what
# each holds (the prelude's `wide`), and dtrace -i must say what a fast one does not.
wide=0
[ "$sys" = acq ] && [ -z "$uart" ] && wide=1
maxline=2000    # the x86-pc kernel keeps 2048 bytes of its command line (scripts/run-dtrace.sh)
# dtext FILE...: a batch's D text; on the command line without /* */ and // comments and
# indentation (a #pragma keeps its own line)
dtext() {
    if [ -n "$uart" ]; then
        sed "s/@WIDE@/$wide/" "$@" | perl -0pe 's:/\*.*?\*/::gs; s:(^|[ \t])//[^\n]*:$1:mg; s/^[ \t]+//mg; s/\n\s*\n/\n/g'
    else
        sed "s/@WIDE@/$wide/" "$@"
    fi
}
# cmdline FILE: the boot command line that runs the batch FILE on a board without semihosting
cmdline() { printf "dtrace -c %s -n '%s'%s" "$work" "$(cat "$1")" "$rest"; }
# fits FILE: the batch goes on this board's command line (always, with semihosting)
fits() {
    [ -z "$uart" ] && return 0
    ! grep -q "'" "$1" && [ "$(cmdline "$1" | wc -c)" -le $maxline ]
}

# Batches: each a prelude and as many scripts as keep the compiled object under maxobj (and,
# without semihosting, the boot command line under maxline). The argument scripts (parity/args/)
# come last, in boots of their own, so that they add no clauses to the timing scripts' boots.
scripts=("$src"/*.d "${extra[@]}" "$src"/args/*.d)
[ ${#scripts[@]} -ge 30 ]; ok $? "the corpus has at least 30 scripts (${#scripts[@]})"
batches=()
cur=()
declare -A batch_of lost
flush() {
    [ ${#cur[@]} -eq 0 ] && return
    k=${#batches[@]}
    dtext "${pre[@]}" "${cur[@]}" > "$out/b$k.d"
    for f in "${cur[@]}"; do batch_of[$(basename "$f" .d)]=$k; done
    "$h/dcompile" -s "$out/b$k.d" -o "$out/b$k.dobj" >/dev/null 2>&1
    batches+=("$k")
    cur=()
}
pre=("$src/prelude.d.in")
for s in "${scripts[@]}"; do
    if [ "${s#"$src"/args/}" != "$s" ] && [ ${#pre[@]} = 1 ]; then
        flush   # the argument scripts in boots of their own, with their own head too
        pre=("$src/prelude.d.in" "$src/args/prelude.d.in")
    fi
    dtext "${pre[@]}" "${cur[@]}" "$s" > "$out/try.d"
    if ! "$h/dcompile" -s "$out/try.d" -o "$out/try.dobj" 2>"$out/try.err"; then
        echo "# $s does not compile: $(cat "$out/try.err")"
        ok 1 "$(basename "$s") compiles"
        continue
    fi
    if { [ "$(stat -c %s "$out/try.dobj")" -gt $maxobj ] || ! fits "$out/try.d"; } && [ ${#cur[@]} -gt 0 ]; then
        flush
        dtext "${pre[@]}" "$s" > "$out/try.d"
    fi
    if ! fits "$out/try.d"; then
        ok 1 "$(basename "$s") goes on $board's boot command line (no single quote, at most $maxline characters with the prelude)"
        continue
    fi
    cur+=("$s")
done
flush
echo "# ${#scripts[@]} scripts in ${#batches[@]} boots"

for k in "${batches[@]}"; do
    kev=$out/b$k.kev
    # init's tracelogger writes tracebuffer.kev in the directory QEMU runs in; over acq,
    # appinit starts the tracelogger, told where to write
    args="dtrace -c init $out/b$k.dobj"
    [ "$sys" = acq ] && args="dtrace -c appinit $out/b$k.dobj ;; appinit acq ;; tracelogger -d1 -w -f $out/tracebuffer.kev"
    if [ -n "$uart" ]; then
        # the tracelogger's part would not fit its 512-byte command line buffer: the board's
        # default (-d1 -u: passive, to the trace UART) is what it runs
        BOARD=$board QEMU_ARGS=$(cmdline "$out/b$k.d") QEMU_UART1=$out/b$k.uart QEMU_TIMEOUT=${QEMU_TIMEOUT:-180} \
            "$root/scripts/qemu-run.sh" "$img" -icount "$icount" $(devtimer_qtrace "$board" "$out/b$k.qtrace") \
            > "$out/b$k.live" 2>&1
        echo $? > "$out/b$k.rc"
        "$h/kevcapture" -q -o "$kev" "$out/b$k.uart" >> "$out/b$k.live" 2>&1 || echo "kevcapture failed" >> "$out/b$k.rc"
    else
        (cd "$out" && rm -f tracebuffer.kev &&
            QEMU_ARGS=$args QEMU_TIMEOUT=${QEMU_TIMEOUT:-180} \
            "$root/scripts/qemu-run.sh" "$img" -icount "$icount" > "$out/b$k.live" 2>&1
            echo $? > "$out/b$k.rc"; mv -f tracebuffer.kev "$kev" 2>/dev/null)
    fi
    [ "$(cat "$out/b$k.rc")" = 0 ]; ok $? "batch $k: the $sys system ran under dtrace and exited 0${uart:+, its capture rebuilt from the trace UART}"
    if [ "$sys" = acq ]; then
        grep -q "acq: done, ok" "$out/b$k.live" && grep -q "appinit: done, 0 failures" "$out/b$k.live"
        ok $? "batch $k: acq ended well (every thread, every sample through the filter)"
    else
        grep -q "init: demo system done, 0 failures" "$out/b$k.live"; ok $? "batch $k: the demo system had no failures"
    fi
    # A capture that lost events fails here, with the tracelogger's count, and dtrace -i says
    # so too (its note from the capture's own counts); each difference below names the loss.
    lost[$k]=$(grep -a -o 'tracelogger: [0-9]* events lost.*' "$out/b$k.live" | head -1)
    grep -q "tracelogger: no events lost" "$out/b$k.live"
    ok $? "batch $k: the capture lost nothing${lost[$k]:+ # ${lost[$k]}}"
    "$h/dtrace" -i "$kev" -s "$out/b$k.d" > "$out/b$k.cap" 2> "$out/b$k.caperr"
    ok $? "batch $k: dtrace -i over the same boot's capture exits 0"
    # A drop (a full aggregation, dynamic variables...) on either side loses firings the other
    # counts: none may happen, or the comparison below would not be of the same firings.
    drops=$(grep -a -h -o 'dtrace: [0-9]* [a-z ]*drops\{0,1\}\( on CPU [0-9]*\)\{0,1\}' "$out/b$k.live" "$out/b$k.caperr" | sort | uniq -c | tr -s ' ' | paste -sd ';' -)
    [ -z "$drops" ]; ok $? "batch $k: no drops live or over the capture${drops:+ # $drops}"
    note=$(grep -c 'the capture lost .* events' "$out/b$k.caperr")
    [ "$note" = "$([ -n "${lost[$k]}" ] && echo 1 || echo 0)" ]
    ok $? "batch $k: dtrace -i says the capture lost events $([ -n "${lost[$k]}" ] && echo once || echo "never (none lost)") ($note notes)"
    # The capture's thread states are a scheduler's (test/qemu/thread_states_check.py): a
    # thread runs only once made ready, on one CPU at a time (kernel/sched.c, TRACE ORDER).
    "$h/traceprinter" -m "$kev" > "$out/b$k.txt" 2>/dev/null
    python3 "$here/thread_states_check.py" "$out/b$k.txt" --min-cross 0 > "$out/b$k.states" 2>&1
    ok $? "batch $k: every thread's states in the capture are a scheduler's ($(head -1 "$out/b$k.states"))"
    sed -n 's/.*@@P //p' "$out/b$k.live" | sort > "$out/b$k.l"
    sed -n 's/.*@@P //p' "$out/b$k.cap" | sort > "$out/b$k.c"
done

# Per script: the same keys on both sides; counts and times equal.
cat "$out"/b*.l > "$out/all.l" 2>/dev/null
cat "$out"/b*.c > "$out/all.c" 2>/dev/null
for s in "${scripts[@]}"; do
    name=$(basename "$s" .d)
    msg=$(awk -v name="$name" '
        function key(line,   f) { f = line; sub(/ [^ ]+$/, "", f); return f }
        function val(line,   n, a) { n = split(line, a, " "); return a[n] }
        FNR == NR { if (index($1, name) == 1 && ($1 == name || substr($1, length(name) + 1, 1) == "_")) { L[key($0)] = val($0); kind[key($0)] = $2; nl++ } next }
        { if (index($1, name) == 1 && ($1 == name || substr($1, length(name) + 1, 1) == "_")) { C[key($0)] = val($0); nc++ } }
        END {
            bad = ""
            for (k in L) {
                if (!(k in C)) { bad = bad "; live only: " k " " L[k]; continue }
                a = L[k] + 0; c = C[k] + 0
                if (kind[k] == "c" && a != c) bad = bad "; " k ": live " a ", capture " c
                if (kind[k] == "t" && a != c) bad = bad "; " k ": live " a " ns, capture " c " ns, " (a > c ? a - c : c - a) " ns apart"
            }
            for (k in C) if (!(k in L)) bad = bad "; capture only: " k " " C[k]
            printf "%d %d%s", nl, nc, bad
        }' "$out/all.l" "$out/all.c")
    set -- $msg
    detail=${msg#* * }
    [ "$detail" = "$1 $2" ] && detail=
    # a script says "may be empty" when the demo need not give it rows (no semaphores); acq
    # gives every script rows
    if [ "$1" = 0 ] && { [ "$sys" = acq ] || ! grep -q "may be empty" "$s"; }; then detail="no rows live"; fi
    k=${batch_of[$name]:-}
    [ -n "$detail" ] && [ -n "$k" ] && [ -n "${lost[$k]:-}" ] && detail="$detail (over a capture that lost events: ${lost[$k]})"
    [ -z "$detail" ]; ok $? "$name: the same answer live and over the capture ($1 rows)${detail:+ # $detail}"
done
# How far apart the times are, for the record (the per-script lines above hold them equal):
# per kind of time row, the largest difference in ns and relative to the larger value.
awk '
    function key(line,   f) { f = line; sub(/ [^ ]+$/, "", f); return f }
    function val(line,   n, a) { n = split(line, a, " "); return a[n] }
    FNR == NR { if ($2 == "t") L[key($0)] = val($0); next }
    $2 == "t" && key($0) in L { k = $1; a = L[key($0)] + 0; c = val($0) + 0; d = a > c ? a - c : c - a
        m = a > c ? a : c; n[k]++; if (d > dmax[k]) dmax[k] = d; if (m && d / m > rmax[k]) rmax[k] = d / m }
    END { for (k in n) printf "# %s: %d rows, at most %.0f ns (%.2f%%) apart live and over the capture\n", k, n[k], dmax[k], 100 * rmax[k] }' \
    "$out/all.l" "$out/all.c" | sort
# The demo's server threads contend for their mutex in some batch: lockstat's block has rows.
# Sane figures (off-cpu fired in the incoming thread's context would give four threads ~200 ms
# each in a 250 ms run): on each side the programs' on-CPU time adds up to at most the span
# of the switches seen times the CPUs.
for side in l c; do
    awk '$1 == "oncpu_time" { sum += $NF } $1 == "span" && $2 == "oncpu" { span = $3; ncpu = $4 }
         END { printf "%.0f %.0f %d\n", sum, span, ncpu; exit !(sum > 0 && span > 0 && sum <= span * ncpu) }' \
        "$out/all.$side" > "$out/sane.$side"
    ok $? "on-CPU time is sane ($([ $side = l ] && echo live || echo capture)): sum, span ns, CPUs = $(cat "$out/sane.$side")"
done
# The switch's time (switch_time.d): off-cpu at the choice, on-cpu at the exit into the next
# thread, each at its own event's stamp. On each side it takes time (above 0), less than
# switch_bound ns (a switch is the scheduler, D's firings at its two sites and the exit: some
# thousands of instructions, 64 ns each under shift=6; 2 ms is 31,250), the probes fire in
# Solaris's contexts, and no timestamp goes back on a CPU. The capture's answer is
# traceprinter's events' (test/tools/switch_time_total.py: THRUNNING of another thread to the
# CPU's next ONCPU), whose stamps never go back on a CPU either.
switch_bound=2000000
for side in l c; do
    awk -v bound=$switch_bound '$1 ~ /^switch_/ { v[$1] = $NF }
         END { printf "%d ns in %d switches, longest %d ns, %d in the wrong context, %d back", v["switch_time"], v["switch_n"], v["switch_max"], v["switch_ctx"], v["switch_back"]
               exit !(v["switch_time"] > 0 && v["switch_n"] > 0 && v["switch_max"] > 0 && v["switch_max"] < bound && ("switch_ctx" in v) && v["switch_ctx"] == 0 && ("switch_back" in v) && v["switch_back"] == 0) }' \
        "$out/all.$side" > "$out/switch.$side"
    ok $? "the switches take time, under $switch_bound ns, in Solaris's contexts, never back ($([ $side = l ] && echo live || echo capture)): $(cat "$out/switch.$side")"
done
k=${batch_of[switch_time]:-}
if [ -n "$k" ]; then
    want=$(python3 "$root/test/tools/switch_time_total.py" "$out/b$k.txt" 3 | paste -sd ' ' -)
    got=$(awk '$1 == "switch_time" { t = $NF } $1 == "switch_n" { n = $NF } $1 == "switch_max" { m = $NF }
               END { printf "%d %d %d BACK 0", t, n, m }' "$out/b$k.c")
    [ "$want" = "$got" ]
    ok $? "switch_time over the capture is traceprinter's events' (total, switches, longest, stamps back): '$got' '$want'"
fi
# Contention is the run's timing (semihosting's host I/O makes it vary): when no batch had
# any, the block probes' parity was not exercised, which the test says rather than fails.
n=$((n + 1))
if [ "$(grep -c '^lock_block \|^inversion ' "$out/all.l")" -gt 0 ]; then
    echo "ok $n - lockstat:::adaptive-block fired in some batch, live and over its capture alike"
elif [ "$sys" = acq ]; then
    echo "not ok $n - lockstat:::adaptive-block fired in some batch (acq's filter blocks on the mutex its logger holds)"
else
    echo "ok $n - lockstat:::adaptive-block fired in some batch # SKIP no mutex contention in this run"
fi
# acq's own report and its device's programmed rate, against the scripts' answers live and over
# the capture of the batch that ran them (test/qemu/parity_acq_truth.sh).
if [ "$sys" = acq ]; then
    . "$here/parity_acq_truth.sh"
    for k in "${batches[@]}"; do acq_truth "$out/b$k" "$(basename "$b")"; done
fi
# The arguments a capture does not hold are named, once each, by dtrace -i, for the probes
# whose clauses read them: a kernel call's third to sixth arguments and a message's size in a
# fast capture (the demo's; acq's are wide), the exit statuses always. A message's connection
# and a blocked thread's object are derived from the calls' entries: never named.
k0=${batches[0]}
printf '%s\n' 'kercall:::entry { @k = sum(arg2 + arg3 + arg4 + arg5); }' 'msg:::send { @m = sum(arg0 + arg2); }' \
    'sched:::block-receive, sched:::block-reply { @b = sum(arg3); }' \
    'sched:::thread-exit, proc:::exit { @e = sum(arg1); }' > "$out/unheld.d"
"$h/dtrace" -q -i "$out/b$k0.kev" -s "$out/unheld.d" > /dev/null 2> "$out/unheld.err"
c_kc=$(grep -c 'arg2-arg5 of kercall::.* are not in this capture .*recorded fast' "$out/unheld.err")
c_sz=$(grep -c 'arg2 of msg:::send is not in this capture .*a message.s size' "$out/unheld.err")
c_st=$(grep -c 'arg1 of .*sched:::thread-exit.* not in this capture .*exit status' "$out/unheld.err")
c_st2=$(grep -c 'arg1 of .*proc:::exit.* not in this capture .*exit status' "$out/unheld.err")
c_no=$(grep -c 'connection\|the object' "$out/unheld.err")
want=$([ $wide = 1 ] && echo 0 || echo 1)
[ "$c_kc $c_sz $c_st $c_st2 $c_no" = "$want $want 1 1 0" ]
ok $? "dtrace -i names the arguments the $([ $wide = 1 ] && echo wide || echo fast) capture does not hold, once each (kercall, msg size, exit statuses, derived ones: $c_kc $c_sz $c_st $c_st2 $c_no)"
# A probe the capture cannot fire is named, once, by dtrace -i (this kernel has no signal
# handlers); remain-cpu, whose REMAIN_CPU events the capture holds, is not.
printf 'sched:::remain-cpu { @r = count(); } proc:::signal-handle { @h = count(); }\n' > "$out/remain.d"
"$h/dtrace" -q -i "$out/b$k0.kev" -s "$out/remain.d" > /dev/null 2> "$out/remain.err"
[ "$(grep -c 'proc:::signal-handle does not fire over a capture' "$out/remain.err")" = 1 ] &&
    ! grep -q 'remain-cpu does not fire' "$out/remain.err"
ok $? "dtrace -i says once that proc:::signal-handle does not fire over a capture, nothing of remain-cpu"
# A capture with no FUNC_ENTER or FUNC_EXIT (traceprinter's count: no D program had a pid or
# fbt probe on during it): a pid probe over it is said never to fire, rather than an empty
# answer with no word.
nfunc=$("$h/traceprinter" "$out/b$k0.kev" 2>/dev/null | grep -c 'FUNC_ENTER\|FUNC_EXIT')
"$h/dtrace" -q -i "$out/b$k0.kev" -n 'pid1:::entry { @c = count(); }' > /dev/null 2> "$out/nofunc.err"
[ "$nfunc" = 0 ] && [ "$(grep -c 'fbt and pid probes do not fire over this capture' "$out/nofunc.err")" = 1 ]
ok $? "dtrace -i says once that pid probes do not fire over a capture with $nfunc FUNC events"
[ $? = 0 ] || sed 's/^/# /' "$out/nofunc.err" | head -3
echo "1..$n"
