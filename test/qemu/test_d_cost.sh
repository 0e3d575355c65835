#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a D program costs the board is what its probes fire, and the board's dtrace says it
# (docs/dtrace-target.md, "What watching costs"). user/apps/irqrate drives the board's device
# timer at 5 kHz for 400 ms with its free-time meter on: a thread below every other counts the
# turns of a two-instruction loop it gets through the window, the CPU time nothing else took,
# by its own count. Two boots of the irqdevtest image on one CPU (the meter sees one CPU's
# time) in QEMU's exact mode, with the capture
# (dtrace -K) both times:
#  - a BEGIN-only program (the board's dtrace loaded, no probe enabled);
#  - an interrupt-latency quantize (interrupt:::entry and :exit) and a per-thread count of the
#    kernel calls (kercall:::entry), DTrace's commonest watch on a driver.
# The truths: irqrate takes its interrupts both times; the time the second program took from
# the meter (its turns fewer, times 2 instructions, at the board's instructions' length under
# -icount) agrees within 20 % with what dtrace's closing line says the probes and its own
# reads cost; its firings are the capture's: each INT_ENTR and INT_EXIT, and each kernel
# call's entry, between the program's go and stop (the DPROG events), and BEGIN and END;
# kevstat -s d says the same firings and site time from the capture (its DCOST event).
#   BOARD=<board> test/qemu/test_d_cost.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/../../scripts/script_help.sh" && script_help "$0" "${1:-}"
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/irqdevtest.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
# the length of an instruction under the board's exact mode (scripts/qemu-run.sh: shift=N is
# 2^N ns, shift 0 unless the board's qemu.sh says otherwise)
shift_n=$(sed -n 's/^exact_icount=shift=\([0-9]*\).*/\1/p' "$here/boards/$board/qemu.sh" 2>/dev/null)
ns_per_insn=$((1 << ${shift_n:-0}))
echo "1..6"

cat > "$tmp/base.d" <<'D'
BEGIN { }
D
cat > "$tmp/watch.d" <<'D'
#pragma D option quiet
interrupt:::entry
{
	ts[cpu] = timestamp;
}
interrupt:::exit
/ts[cpu]/
{
	@lat = quantize(timestamp - ts[cpu]);
	ts[cpu] = 0;
}
kercall:::entry
{
	@calls[tid] = count();
}
END
{
	printa(@lat);
}
D
boot() {    # boot NAME: the NAME.d program over irqrate, its output in NAME.out
    "$H/dcompile" --kernel "$img" -s "$tmp/$1.d" -o "$tmp/$1.dobj" >"$tmp/$1.cc" 2>&1 || return 1
    (cd "$tmp" && QEMU_SMP=1 QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-200} \
        QEMU_ARGS="dtrace -K -c appinit $tmp/$1.dobj ;; appinit irqrate ;; irqrate 5000 400 free ;; tracelogger -d1 -f $tmp/$1.kev" \
        "$here/scripts/qemu-run.sh" "$img" > "$tmp/$1.out" 2>&1)
}
boot base
rc1=$?
boot watch
rc2=$?
took() { con_of irqrate < "$tmp/$1.out" | sed -n 's/^irqrate: \([0-9]*\) interrupts in 400 ms.*/\1/p'; }
turns() { con_of irqrate < "$tmp/$1.out" | sed -n 's/^irqrate: free time \([0-9]*\) turns.*/\1/p'; }
n1=$(took base) n2=$(took watch) t1=$(turns base) t2=$(turns watch)
check "both boots ran irqrate's 5 kHz window with its meter (status $rc1 $rc2; interrupts ${n1:-?} ${n2:-?}; free turns ${t1:-?} ${t2:-?})" \
    "[ $rc1 = 0 ] && [ $rc2 = 0 ] && [ '${n1:-0}' -ge 1900 ] && [ '${n2:-0}' -ge 1900 ] && [ -n '$t1' ] && [ -n '$t2' ]"
line=$(con_of dtrace < "$tmp/watch.out" | grep -m1 '^dtrace: what the probes cost the board: ')
firings=$(echo "$line" | sed -n 's/.*board: \([0-9]*\) firings.*/\1/p')
site_us=$(echo "$line" | sed -n 's/.* firings, \([0-9]*\) us in their sites.*/\1/p')
reads_us=$(echo "$line" | sed -n 's/.*consumer.s reads \([0-9]*\) us.*/\1/p')
check "dtrace's closing line says what the probes cost ($line)" \
    "[ -n '$firings' ] && [ -n '$site_us' ] && [ -n '$reads_us' ]"
lost_us=$(( (${t1:-0} - ${t2:-0}) * 2 * ns_per_insn / 1000 ))
said_us=$(( ${site_us:-0} + ${reads_us:-0} ))
check "the time the probes took from the meter, ${lost_us} us (${t1:-?} - ${t2:-?} turns of 2 instructions of $ns_per_insn ns), is what dtrace says, ${said_us} us (sites ${site_us:-?} + reads ${reads_us:-?}), within 20 %" \
    "[ $lost_us -gt 0 ] && [ \$(( (said_us - lost_us) * 100 )) -le \$(( lost_us * 20 )) ] && [ \$(( (lost_us - said_us) * 100 )) -le \$(( lost_us * 20 )) ]"
# The firings the capture holds: every interrupt line's entry and exit (the lines below 32 have
# interrupt:: probes: the tick's 0x100 has none), and every kernel call's entry, between the
# program's go and its stop; and its END (it has no BEGIN).
want=$("$H/traceprinter" -m -p '%c %k %a' "$tmp/watch.kev" 2>/dev/null | awk '
    $2 == "SYSTEM" && $3 == ":DPROG" && /\(go\)/ { on = 1; next }
    $2 == "SYSTEM" && $3 == ":DPROG" && /\(stop\)/ { on = 0; next }
    on && $2 ~ /^INT_(ENTR|EXIT):/ { irq = $3; gsub(/[()]/, "", irq); if (irq + 0 < 32) n++ }
    on && $2 ~ /^KER_CALL:/ { n++ }
    END { print n + 1 }')
check "its ${firings:-?} firings are the capture's: its interrupt lines' entries and exits and the kernel calls' entries between the program's go and stop, and END (${want:-?})" \
    "[ -n '$firings' ] && [ '$firings' = '${want:-x}' ]"
lat=$(con_of dtrace < "$tmp/watch.out" | grep -c '|@')
check "the latency quantize printed its buckets ($lat rows)" "[ '$lat' -ge 1 ]"
# kevstat reads the same from the capture (its DCOST event at the stop): the firings and the
# time in the sites dtrace's line said, and the consumer's CPU time from the threads' states
ks=$("$H/kevstat" -s d "$tmp/watch.kev" 2>&1)
ks_f=$(echo "$ks" | sed -n 's/^    \([0-9]*\) firings, \([0-9]*\) us in their sites.*/\1 \2/p')
ks_c=$(echo "$ks" | sed -n 's/^    its consumer ran \([0-9]*\) us.*/\1/p')
check "kevstat -s d over the capture says dtrace's firings and site time (${ks_f:-none} against ${firings:-?} ${site_us:-?}), its consumer's CPU time ${ks_c:-?} us" \
    "[ -n '$ks_f' ] && [ '$ks_f' = '${firings:-x} ${site_us:-x}' ] && [ '${ks_c:-0}' -gt 0 ]"
# --json's d_programs member holds the same counts in cycles (whole us as the text cuts them)
kj=$("$H/kevstat" --json "$tmp/watch.kev" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin); hz = d["trace"]["cycles_per_sec"]; p = d["d_programs"]
print(len(p), p[0]["firings"], p[0]["site_cycles"] * 1000000 // hz,
      p[0]["consumer_cycles"] * 1000000 // hz) if p and p[0]["firings"] is not None else print("none")' 2>&1)
check "kevstat --json's d_programs says the same: one program, its firings, site and consumer time ($kj)" \
    "[ '$kj' = '1 ${ks_f:-x} ${ks_c:-x}' ]"
