#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make dtrace S=script.d on one board, the way a user runs a script file: the script's text
# reaches the board's dtrace with its lines intact (on x86-pc it travels on the boot command
# line, where it was once folded onto one line and a leading #pragma swallowed the program),
# and its options take DTrace's syntax. The expected output is DTrace's documented behaviour.
# A workload that fails makes make dtrace fail, as make run does.
#   test/qemu/test_dtrace_script.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
b=build/$board
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
storage=$(sed -n 's/^BOARD_TRACE_STORAGE *:= *\([a-z]*\).*/\1/p' "boards/$board/board.mk")
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
dump() { sed 's/^/# /' "$1" | tail -${2:-12}; }
# run NAME SCRIPT [D_OPTS]: make dtrace's path (scripts/run-dtrace.sh) over the demo system
run() {
    BOARD=$board B=$b H=$h S=$2 D_OPTS=${3:-} APPS= TRACE_STORAGE=${storage:-semihost} QEMU_ICOUNT=1 \
        QEMU_TIMEOUT=120 TRACE_FILE=$out/trace.kev scripts/run-dtrace.sh "$b/dtrace.elf" \
        >"$out/$1.log" 2>&1
    rc=$?
}

# A script that begins with #pragma lines (as most DTrace scripts do), with // and /* */
# comments, tabs and a string holding "//": quiet mode (no "matched" line, no CPU/ID columns)
# and the strsize set with a k suffix, so the 600-character string is whole (256 would cut it).
cat >"$out/pragma.d" <<'D'
#pragma D option quiet
#pragma D option strsize=1k
/* the demo sends 232 messages: 200 client, 30 driver, 2 init */
kercall::MsgSend:entry	// every send
{
	n++;
}

END
{
	this->s = "0123456789012345678901234567890123456789012345678901234567890123456789";
	this->s = strjoin(this->s, this->s); this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	printf("sends %d, url http://x, %d characters\n", n, strlen(this->s));
}
D
run pragma "$out/pragma.d"
dump "$out/pragma.log"
[ $rc = 0 ] && grep -q '^sends 232, url http://x, 560 characters$' "$out/pragma.log" &&
    ! grep -q 'matched' "$out/pragma.log"
ok $? "a script beginning with #pragma runs whole: quiet, strsize=1k, 232 sends (rc $rc)"

# A bad option value in the script is a clear compile error, exit 1, on every board.
printf '#pragma D option strsize=2kb\nBEGIN { exit(0); }\n' >"$out/bad.d"
run bad "$out/bad.d"
dump "$out/bad.log" 4
[ $rc != 0 ] && grep -q "strsize.*2kb" "$out/bad.log"
ok $? "#pragma D option strsize=2kb is refused, naming the value (rc $rc)"
# A normal three-aggregation table keyed [execname, probefunc] with the board's defaults:
# printed in full (no aggregation drops, nothing "too large to print"), and its counts add up
# to every kernel call, counted apart in a global the aggregations do not touch.
cat >"$out/three.d" <<'D'
#pragma D option quiet
kercall:::entry
{
	@c[execname, probefunc] = count();
	@s[execname, probefunc] = sum(arg0 & 0xff);
	@m[execname, probefunc] = max(arg0 & 0xff);
	calls++;
}
END
{
	printa("row %s %s %@d %@d %@d\n", @c, @s, @m);
	printf("calls %d\n", calls);
}
D
run three "$out/three.d"
dump "$out/three.log" 4
rows=$(grep -c '^row ' "$out/three.log")
sum=$(awk '/^row / { s += $4 } END { print s + 0 }' "$out/three.log")
calls=$(sed -n 's/^calls //p' "$out/three.log")
[ $rc = 0 ] && [ "$rows" -ge 40 ] && [ "$sum" = "${calls:-x}" ] &&
    ! grep -qE 'aggregation drops|too large to print' "$out/three.log"
ok $? "a three-aggregation [execname, probefunc] table prints in full with the defaults: $rows rows, counts $sum = $calls calls, no drops"
# Drops, when they happen, are still counted and shown: the same table in a 16k aggsize.
run small "$out/three.d" "-x aggsize=16k"
grep -qE '^dtrace: [0-9]+ aggregation drops on CPU [0-9]+' "$out/small.log"
ok $? "the same table in -x aggsize=16k reports its aggregation drops"
# $target under make dtrace APPS="kcerr worker" TARGET=worker: worker's pid, not the first
# program's, the same pid the host's dtrace -c worker finds in that boot's capture (the
# capture's own process table), and pid == $target selects worker's kernel calls alone. The
# run says which program $target is before it boots and which pid it was after, and every
# program's console line keeps its source ("<pid>/<program>: ", the kernel's word), while the
# D output is dtrace's own, bare.
cat >"$out/target.d" <<'D'
#pragma D option quiet
kercall:::entry
/pid == $target/
{
	@[execname] = count();
}
profile-997
/pid == $target/
{
	self->sampled = 1;
}
END
{
	printf("target %d\n", $target);
}
D
TRACE_FILE=$out/target.kev QEMU_ICOUNT=1 QEMU_TIMEOUT=240 make -s BOARD=$board dtrace \
    APPS="kcerr worker" TARGET=worker S="$out/target.d" >"$out/target.log" 2>&1
rc=$?
dump "$out/target.log" 8
live=$(sed -n 's/^target //p' "$out/target.log")
host=$("$h/dtrace" -q -i "$out/target.kev" -c worker -n 'END { printf("%d\n", $target); }' 2>/dev/null | head -1)
[ $rc = 0 ] && [ -n "$live" ] && [ "$live" != 0 ] && [ "$live" = "$host" ] &&
    grep -qE '^  worker +[1-9]' "$out/target.log" &&
    [ "$(grep -cE '^  [a-z]+ +[0-9]+$' "$out/target.log")" = 1 ]
ok $? "make dtrace APPS=\"kcerr worker\" TARGET=worker: \$target is worker's pid ($live), as dtrace -i -c worker finds it in the capture (${host:-none})"
# (the build's own lines, if make had to build the image, come before the run's)
said=$(grep -nF 'dtrace: $target is the pid of worker, the first process of that name, from its first kernel call (TARGET=worker)' "$out/target.log" | head -1 | cut -d: -f1)
boot=$(grep -n '^kernel: booting' "$out/target.log" | head -1 | cut -d: -f1)
[ -n "$said" ] && [ -n "$boot" ] && [ "$said" -lt "$boot" ] &&
    grep -qx "dtrace: \$target was pid ${host:-x} (worker)" "$out/target.log"
ok $? "the run's first line says \$target is worker's pid, a line after it that it was pid ${host:-none}"
grep -qE "^${host:-x}/worker: worker: [0-9]+ primes below" "$out/target.log" &&
    grep -qE '^[0-9]+/kcerr: kcerr: done' "$out/target.log" &&
    grep -qE '^[0-9]+/appinit: appinit: done, 0 failures$' "$out/target.log" &&
    ! grep -qE '^(worker|kcerr|appinit): ' "$out/target.log"
ok $? "under make dtrace the programs' console lines keep their source (${host:-none}/worker: ...), the D output its own"
make -s BOARD=$board dtrace APPS="kcerr worker" TARGET=nosuch D='BEGIN { exit(0); }' >"$out/notarget.log" 2>&1
rc=$?
dump "$out/notarget.log" 2
[ $rc != 0 ] && grep -q 'TARGET=nosuch: no program nosuch in dtrace-kcerr-worker.elf' "$out/notarget.log"
ok $? "TARGET= naming no program of the image is refused before the boot, saying which it has (rc $rc)"
# make dtrace D='...' passes the program's text as typed, as an S= file does: $target, $1 and
# $$2 reach D unexpanded by make or the shell (make once turned pid$target into pidarget). The
# truths: the pid the same boot's capture gives worker (dtrace -i -c worker, above), ARGS as
# given, and worker's source, where count_primes returns twice (its main thread and worker-2).
# Where the board compiles D itself (no host files) it cannot name a pid probe (docs/pid.md).
if [ "${storage:-semihost}" = uart ]; then
    dprog='kercall:::entry /pid == $target/ { n++; } END { printf("as typed %d %d %s %s\n", $target, $1, $$2, n > 0 ? "hit" : "none"); }'
    want=hit
else
    dprog='pid$target::count_primes:return { n++; } profile-$1 { } END { printf("as typed %d %d %s %d\n", $target, $1, $$2, n); }'
    want=2
fi
TRACE_FILE=$out/typed.kev QEMU_ICOUNT=1 QEMU_TIMEOUT=240 make -s BOARD=$board dtrace APPS=worker \
    D="$dprog" ARGS="41 seven" D_OPTS=-q >"$out/typed.log" 2>&1
rc=$?
dump "$out/typed.log" 4
typed=$("$h/dtrace" -q -i "$out/typed.kev" -c worker -n 'END { printf("%d\n", $target); }' 2>/dev/null | head -1)
[ $rc = 0 ] && [ -n "$typed" ] && grep -qx "as typed $typed 41 seven $want" "$out/typed.log"
ok $? "make dtrace D='...' keeps \$target ($typed), \$1 and \$\$2 as typed: '$(grep -m1 '^as typed' "$out/typed.log")'"
# Where the host compiles the program, the capture samples stacks at its profile-$1 probe's rate,
# 41 Hz as ARGS gave it (dcompile --sample-hz: the text alone names no rate): the STACK events
# counted by the reader above over the span dtrace -i gives the capture (the program's, a few
# samples: 41 a second of it on each CPU, idle ones too, one fewer or two more at its ends; 1 Hz
# before).
if [ "${storage:-semihost}" != uart ]; then
    python3 test/stacks/kev_count_stacks.py --times "$out/typed.kev" > "$out/typed.samples" 2>/dev/null
    n41=$(wc -l < "$out/typed.samples")
    ncpu=$(cut -d' ' -f1 "$out/typed.samples" | sort -u | wc -l)
    ms=$("$h/dtrace" -q -i "$out/typed.kev" -n 'BEGIN { s = timestamp; } END { printf("%d\n", (timestamp - s) / 1000000); }' 2>/dev/null | head -1)
    [ "${n41:-0}" -gt 0 ] && [ "${ms:-0}" -gt 0 ] && [ $((n41 * 1000)) -ge $(((41 * ms - 1000) * ncpu)) ] &&
        [ $((n41 * 1000)) -le $(((41 * ms + 2000) * ncpu)) ]
    ok $? "make dtrace samples at the compiled program's profile-\$1 rate, 41 Hz a CPU (${n41:-no} STACK events on $ncpu CPUs in ${ms:-?} ms)"
fi
# A profile-N probe makes the capture sample stacks too (tracelogger -p N: SYSTEM STACK
# events), on every board: counted by a reader of the file written from docs/kev-format.md.
stacks=$(python3 test/stacks/kev_count_stacks.py "$out/target.kev" 2>/dev/null)
[ "${stacks:-0}" -gt 0 ]
ok $? "make dtrace with a profile-997 clause: the capture holds stack samples (${stacks:-none} STACK events)"
# A workload that fails fails make dtrace, as it fails make run for the same boot: stackfault's
# NULL write kills it, appinit counts the failure and exits 1. The board's dtrace exits 0 as
# dtrace(1M) does and says the workload's end ("dtrace: pid N (appinit) exited with status 1");
# run-dtrace.sh exits 1 on it, so make exits 2 for both.
QEMU_ICOUNT=1 QEMU_TIMEOUT=120 TRACE_FILE=$out/fault.kev make -s BOARD=$board dtrace APPS=stackfault \
    D='kercall:::entry { @ = count(); }' D_OPTS=-q >"$out/dfault.log" 2>&1
drc=$?
QEMU_ICOUNT=1 QEMU_TIMEOUT=120 TRACE_FILE=$out/runfault.kev make -s BOARD=$board run APPS=stackfault \
    >"$out/rfault.log" 2>&1
rrc=$?
dump "$out/dfault.log" 4
[ $drc = 2 ] && [ $rrc = 2 ] && grep -q '^dtrace: pid [0-9]* (appinit) exited with status 1$' "$out/dfault.log"
ok $? "make dtrace APPS=stackfault exits $drc as make run does ($rrc) when the program faults, and says the workload's status"
echo "1..$n"
