#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The load average (kernel/kloadavg.c, Solaris's avenrun; docs/fbt.md "Kernel variables"):
# the board's dtrace runs loadgen, which keeps N threads runnable for a known time, and reads
# `avenrun[0..2] and `kloadavg_due at loadgen's two user events (before its first thread, after
# the last one ended). The truth is outside D and the kernel: test/tools/loadavg_expect.py
# computes each average from the exponential averages' definition, the averages at the start,
# loadgen's own thread count and the samples taken (one a second of the D timestamps between).
# Its own boot: no other test's workload keeps a known number of threads runnable for seconds
# (under -icount shift=7 the 4 s of loadgen are about 2 s of the host's). Also D's errors for
# an element that is not there: clear, at compile time.
#   test/qemu/test_loadavg.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/loadavgd.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..8"
threads=3 ms=4000

D='user:::event /arg0 == 240 || arg0 == 241/ { printf("LOADAVG %d %d %d %d %d %d\n", arg0,
    `avenrun[0], `avenrun[1], `avenrun[2], `kloadavg_due, timestamp);
    printf("HPLOAD %d %d %d %d\n", arg0, `hp_avenrun[0], `hp_avenrun[1], `hp_avenrun[2]); }'
# The consumer reads above loadgen's threads (-x prio=41; loadgen's app.mk gives it 40, the
# consumer's default is 9): at 9, on one CPU, it was ready from its first read to loadgen's
# end, starved, a fourth runnable thread at every sample (the 1-minute load 0.2539 for 3
# threads' 0.1935, every run), which the kernel rightly counts and loadgen's count does not.
"$H/dcompile" --kernel "$img" -q -x prio=41 -n "$D" -o "$tmp/l.dobj" > "$tmp/l.err" 2>&1
ok $? "dcompile --kernel resolves \`avenrun[0..2], \`hp_avenrun[0..2] and \`kloadavg_due"
[ -s "$tmp/l.err" ] && sed 's/^/# /' "$tmp/l.err"

(cd "$tmp" && QEMU_ARGS="dtrace -q -c loadgen $tmp/l.dobj ;; loadgen $threads $ms" \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" -icount shift=7,sleep=off \
    > "$tmp/run.out" 2>&1)
rc=$?
took=$(con_of loadgen < "$tmp/run.out" | sed -n "s/^loadgen: $threads threads runnable for \([0-9]*\) ms$/\1/p")
check "the boot ran to its end and loadgen kept $threads threads runnable for ${took:-?} ms (asked $ms; status $rc)" \
    '[ $rc = 0 ] && [ -n "$took" ] && [ "$took" -ge $ms ]'
[ $rc = 0 ] || tail -8 "$tmp/run.out" | sed 's/^/# /'
read -r _ _ a0 a1 a2 due0 t0 <<< "$(con_of dtrace < "$tmp/run.out" | grep '^LOADAVG 240 ' | head -1)"
read -r _ _ b0 b1 b2 due1 t1 <<< "$(con_of dtrace < "$tmp/run.out" | grep '^LOADAVG 241 ' | head -1)"
k=$(( (${due1:-0} - ${due0:-0}) / 1000 ))
python3 "$here/test/tools/loadavg_expect.py" "$threads" "$k" "${t0:-0}" "${t1:-0}" \
    "${a0:-0}" "${a1:-0}" "${a2:-0}" "${b0:-x}" "${b1:-x}" "${b2:-x}" > "$tmp/expect.out" 2>&1
ok $? "\`avenrun at loadgen's end ($b0 $b1 $b2 /256, from $a0 $a1 $a2) is the 1, 5 and 15-minute exponential average of $threads threads over its $k samples, one a second"
sed 's/^/# /' "$tmp/expect.out"
# Solaris's high-precision load, `hp_avenrun (65536ths): the same averages from the same
# definition, and `avenrun is its value in 256ths (the kernel's one rule: 8 bits fewer).
read -r _ _ ha0 ha1 ha2 <<< "$(con_of dtrace < "$tmp/run.out" | grep '^HPLOAD 240 ' | head -1)"
read -r _ _ hb0 hb1 hb2 <<< "$(con_of dtrace < "$tmp/run.out" | grep '^HPLOAD 241 ' | head -1)"
python3 "$here/test/tools/loadavg_expect.py" --scale 65536 "$threads" "$k" "${t0:-0}" "${t1:-0}" \
    "${ha0:-0}" "${ha1:-0}" "${ha2:-0}" "${hb0:-x}" "${hb1:-x}" "${hb2:-x}" > "$tmp/expect_hp.out" 2>&1
ok $? "\`hp_avenrun at loadgen's end ($hb0 $hb1 $hb2 /65536) is the same exponential averages"
sed 's/^/# /' "$tmp/expect_hp.out"
check "\`hp_avenrun / 256 is \`avenrun at both reads ($ha0 $ha1 $ha2, $hb0 $hb1 $hb2 against $a0 $a1 $a2, $b0 $b1 $b2)" \
    '[ $((${ha0:-1} >> 8)) = "${a0:-x}" ] && [ $((${ha1:-1} >> 8)) = "${a1:-x}" ] && [ $((${ha2:-1} >> 8)) = "${a2:-x}" ] && [ $((${hb0:-1} >> 8)) = "${b0:-x}" ] && [ $((${hb1:-1} >> 8)) = "${b1:-x}" ] && [ $((${hb2:-1} >> 8)) = "${b2:-x}" ]'

# An element D cannot read: refused by the compiler with the reason (never a wrong read).
err() { "$H/dcompile" --kernel "$img" -q -n "BEGIN { trace($1); }" -o "$tmp/e.dobj" 2>&1; }
e=$(err '`avenrun[3]')
check "\`avenrun[3] is refused: outside the array ($e)" '[[ "$e" == *"avenrun[3]: the index is outside the array (3 elements)"* ]]'
e=$(err '`avenrun[arg0]')
check "\`avenrun[arg0] is refused: a constant index ($e)" '[[ "$e" == *"one constant index"* ]]'
e=$(err '`k_ncpus[0]')
check "\`k_ncpus[0] is refused: no element type known ($e)" '[[ "$e" == *"element type of no kernel array but"* ]]'
