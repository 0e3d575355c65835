#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A loaded D program leaves a periodic program's truth as make run's (docs/dtrace-target.md,
# "What watching costs"). user/apps/deadline runs 3000 periods of 2 ms with 30 programmed
# overruns and counts, by its own cycle counter, the periods it missed and the timer pulses it
# never got. The truth is its line under make run's image (the tracelogger saving a capture);
# the same line, period for period, under the board's dtrace (dtrace -K -c appinit, as make
# dtrace runs it) with
#   1. a BEGIN-only program (loaded, no probe enabled);
#   2. DTrace's commonest watch on a driver: an interrupt-latency quantize and a per-thread
#      count of the kernel calls (6 % of the board's time at deadline's rates);
# in QEMU's exact mode. Both D boots end with status 0 and dtrace's closing cost line; the
# watch's count of each thread's kernel calls is the capture's (kevsql).
#   BOARD=<board> test/qemu/test_d_truth.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/../../scripts/script_help.sh" && script_help "$0" "${1:-}"
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..6"
args="appinit deadline ;; deadline 3000 30"
line() { grep -a -o 'deadline: 3000 periods, .*' "$1" | head -1 | sed 's/^deadline: 3000 periods, //'; }

BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=200 QEMU_ARGS="$args ;; tracelogger -d1 -f $tmp/run.kev" \
    "$here/scripts/qemu-run.sh" "$B/deadlines.elf" >"$tmp/run.console" 2>&1
run=$(line "$tmp/run.console")
check "make run's way: deadline misses its 30 programmed periods and loses no pulse ($run)" \
    "echo '$run' | grep -q '^missed 30: .*; pulses lost 0$'"

cat > "$tmp/begin.d" <<'D'
BEGIN { }
D
cat > "$tmp/watch.d" <<'D'
#pragma D option quiet
kercall:::entry
{
	@calls[pid, tid] = count();
}
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
END
{
	printa("calls %d %d %@d\n", @calls);
}
D
img=$B/dtdeadline.elf
dboot() {   # dboot NAME: NAME.d loaded over deadline, the console in NAME.console
    "$H/dcompile" --kernel "$img" -s "$tmp/$1.d" -o "$tmp/$1.dobj" >"$tmp/$1.cc" 2>&1 || return 1
    (cd "$tmp" && BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=200 \
        QEMU_ARGS="dtrace -K -c appinit $tmp/$1.dobj ;; $args ;; tracelogger -d1 -f $tmp/$1.kev" \
        "$here/scripts/qemu-run.sh" "$img" >"$tmp/$1.console" 2>&1)
}
for d in begin watch; do
    dboot $d
    rc=$?
    got=$(line "$tmp/$d.console")
    cost=$(con_of dtrace < "$tmp/$d.console" | grep -c '^dtrace: what the probes cost the board: ')
    case $d in
    begin) what="a BEGIN-only program" ;;
    watch) what="an interrupt-latency quantize and a per-thread count of the kernel calls" ;;
    esac
    check "under $what: deadline's truth is make run's: ${got:-no line}" \
        "[ -n '$got' ] && [ '$got' = '$run' ]"
    check "under $what: the boot and dtrace ended (status $rc) and dtrace said its cost ($cost line)" \
        "[ $rc = 0 ] && [ $cost = 1 ]"
done
# Each thread's kernel calls: the watch's counts against the capture's kernel-call entries
# between the program's go and stop (kevsql, the analysis model's reading of the file).
said=$(con_of dtrace < "$tmp/watch.console" | awk '$1 == "calls" { print $2, $3, $4 }' | sort)
cap=$("$H/kevsql" "$tmp/watch.kev" "select t.pid, t.tid, count(*) from kcall k join thread t
      using(utid), (select min(ts) go, max(ts) stop from event where name = 'DPROG') d
      where k.ts > d.go and k.ts < d.stop group by t.pid, t.tid" 2>&1 | awk 'NR > 1 { print $1, $2, $3 }' | sort)
check "the watch's kernel calls a thread are the capture's ($(echo $said | tr ' ' ' ') against $(echo $cap))" \
    "[ -n '$said' ] && [ '$said' = '$cap' ]"
