#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A new user's program on one board, the way docs/applications.md says: `make new-app` writes
# it, `make run APPS=` boots it with a capture (trace.kev, trace.html), `make dtrace APPS=`
# probes it live with a capture in the same boot (or says why the board has no dtrace), and
# the host's dtrace -i sees the same events at the board's times. Then the failures that must
# not be silent: a program that starts tracing without KAPP_F_TRACE (EPERM, the passive
# tracelogger gives up, non-zero status), and dtrace -i on a truncated file (exit 1, offset).
# The programs are written into user/apps/ under fresh names and removed at the end.
#   test/qemu/test_apps.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
app=tapp$$
eperm=tperm$$
out=$(mktemp -d)
cleanup() { rm -rf "user/apps/$app" "user/apps/$eperm" "$out"; }
# A run killed by its time limit cannot clean up after itself: its programs would join every
# later build. Remove such leftovers (this script's names only: tapp<pid>, tperm<pid>).
for d in user/apps/tapp[0-9]* user/apps/tperm[0-9]*; do
    [ -d "$d" ] && [[ $(basename "$d") =~ ^t(app|perm)[0-9]+$ ]] && rm -rf "$d"
done
trap cleanup EXIT
. test/qemu/tap_lib.sh
has() { grep -qE "$2" "$1"; }
. scripts/console.sh     # a program's lines are read by their source
dump() { sed 's/^/# /' "$1" | tail -${2:-30}; }

# 1. make new-app writes a program that builds and runs on this board, untouched.
make -s new-app NAME=$app > "$out/new.log" 2>&1
ok $? "make new-app NAME=$app"
[ -f user/apps/$app/main.c ] && [ -f user/apps/$app/app.mk ]; ok $? "it wrote user/apps/$app/main.c and app.mk"
make -s new-app NAME=$app > "$out/new2.log" 2>&1
[ $? != 0 ] && has "$out/new2.log" "already exists"; ok $? "a second make new-app refuses the existing directory"

# 2. make run APPS=: boot, capture, report.
TRACE_FILE=$out/trace.kev QEMU_TIMEOUT=240 make -s BOARD=$board run APPS=$app > "$out/run.log" 2>&1
rc=$?
dump "$out/run.log" 12
ok $rc "make BOARD=$board run APPS=$app exits 0"
has "$out/run.log" "$(con_from $app)$app: 20 readings sent"; ok $? "the program ran to its end"
has "$out/run.log" "$(con_from appinit)appinit: $app \(pid [0-9]+\) finished"; ok $? "appinit saw it finish"
[ -s "$out/trace.html" ]; ok $? "trace.html written"
nu=$("$h/traceprinter" "$out/trace.kev" 2>/dev/null | grep -cE 'USREVENT:EVENT:100[ ,]')
[ "$nu" = 20 ]; ok $? "trace.kev holds its 20 user events (found $nu)"
"$h/traceprinter" "$out/trace.kev" | grep -q "PROCCREATE_NAME.*name:$app"; ok $? "trace.kev names the process"

# 2b. tracelogger -d1 -w: wide events although appinit starts tracing (priorities show).
if [ "$board" = x86-pc ]; then
    BOARD=$board QEMU_ARGS="appinit $app ;; tracelogger -d1 -w -u" QEMU_UART1=$out/w.uart \
        QEMU_TIMEOUT=240 scripts/qemu-run.sh build/$board/run-$app.elf > "$out/w.log" 2>&1
    rc=$?
    "$h/kevcapture" -q -o "$out/w.kev" "$out/w.uart" >> "$out/w.log" 2>&1 || rc=1
else
    BOARD=$board QEMU_ARGS="appinit $app ;; tracelogger -d1 -w -f $out/w.kev" \
        QEMU_TIMEOUT=240 scripts/qemu-run.sh build/$board/run-$app.elf > "$out/w.log" 2>&1
    rc=$?
fi
ok $rc "the same image with tracelogger -d1 -w runs"
"$h/traceprinter" "$out/w.kev" 2>/dev/null | grep -q "THRUNNING .*priority:[0-9]"
ok $? "-w holds with -d1: THRUNNING events carry priorities"
"$h/traceprinter" "$out/trace.kev" 2>/dev/null | grep -q "THRUNNING .*priority:[0-9]"
[ $? != 0 ]; ok $? "and without -w they do not (fast events)"

# 3. D over the capture on the host: the same 20 readings, at the board's times.
"$h/dtrace" -q -i "$out/trace.kev" -n 'user:::event /arg0 == 100/ { @n = count(); }' > "$out/di.log" 2>&1
ok $? "dtrace -i over the capture exits 0"
grep -qE '^ +20$' "$out/di.log"; ok $? "dtrace -i counts the 20 readings"
# The event's whole 64-bit cycle count (%c; QNX's default column is only the low 32 bits).
first=$("$h/traceprinter" -m -p 'c:%c %k %a' "$out/trace.kev" | awk '/USREVENT:EVENT:100[ ,]/ { print $1; exit }' | sed 's/c://')
cps=$("$h/traceprinter" "$out/trace.kev" | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
ts=$("$h/dtrace" -q -i "$out/trace.kev" -n 'user:::event /arg1 == 1/ { printf("%d\n", timestamp); exit(0); }' 2>/dev/null | head -1)
want=$(python3 -c "c=int('${first:-0}'); hz=int('${cps:-1}'); print(c//hz*10**9 + c%hz*10**9//hz)")
[ -n "$ts" ] && [ "$ts" = "$want" ]; ok $? "dtrace -i timestamp is the board's time since boot ($ts ns, the event's cycles give $want)"
wt=$("$h/dtrace" -q -i "$out/trace.kev" -n 'user:::event /arg1 == 1/ { printf("%d\n", walltimestamp - timestamp); exit(0); }' 2>/dev/null | head -1)
bd=$("$h/traceprinter" "$out/trace.kev" | sed -n 's/^ *TRACE_BOOT_DATE:: *//p' | head -1)
bdns=$(python3 -c "import calendar,time,sys; print(calendar.timegm(time.strptime(sys.argv[1].replace(' UTC',''), '%a %b %d %H:%M:%S %Y')) * 10**9)" "$bd")
[ -n "$wt" ] && [ "$wt" = "$bdns" ]; ok $? "dtrace -i walltimestamp counts from the header's boot date ($bd: $bdns, got $wt)"

# 4. dtrace -i on a truncated capture: the error with its offset, and exit 1.
size=$(stat -c %s "$out/trace.kev")
head -c $((size - 100)) "$out/trace.kev" > "$out/cut.kev"
"$h/dtrace" -q -i "$out/cut.kev" -n 'user:::event { @n = count(); }' > "$out/cut.log" 2>&1
rc=$?
dump "$out/cut.log" 4
[ $rc = 1 ]; ok $? "dtrace -i on a truncated file exits 1 (got $rc)"
has "$out/cut.log" "offset [0-9]+"; ok $? "and says at which offset"

# 5. make dtrace APPS=: live D on the board with a capture in the same boot, or a clear no.
TRACE_FILE=$out/dt.kev QEMU_TIMEOUT=240 make -s BOARD=$board dtrace APPS=$app D_OPTS=-q \
    D='user:::event /arg0 == 100/ { @n = count(); } user:::event /arg1 == 1/ { printf("TS %d\n", timestamp); }' \
    > "$out/dt.log" 2>&1
rc=$?
dump "$out/dt.log" 12
if grep -q "no dtrace image on $board" "$out/dt.log"; then
    [ $rc = 2 ]; ok $? "make dtrace on $board says it has no dtrace image, and why (exit 2)"
    has "$out/dt.log" "dtrace -i"; ok $? "and points to dtrace -i on a capture"
else
    ok $rc "make BOARD=$board dtrace APPS=$app exits 0"
    grep -qE '^ +20$' "$out/dt.log"; ok $? "live D counted the 20 readings"
    has "$out/dt.log" "$(con_from $app)$app: 20 readings sent"
    ok $? "the program ran under dtrace, its console lines with their source (<pid>/$app: )"
    nu=$("$h/traceprinter" "$out/dt.kev" 2>/dev/null | grep -cE 'USREVENT:EVENT:100[ ,]')
    [ "$nu" = 20 ]; ok $? "the same boot's capture holds the 20 user events (found $nu)"
    board_ts=$(awk '/^TS / { print $2; exit }' "$out/dt.log")
    host_ts=$("$h/dtrace" -q -i "$out/dt.kev" -n 'user:::event /arg1 == 1/ { printf("%d\n", timestamp); exit(0); }' 2>/dev/null | head -1)
    # The board's probe reads the clock a few instructions before the event is stored (and
    # the D clause runs in between): the same event, within 2 ms; a count from the first
    # event instead of from boot would be tens of ms off.
    d=$(( ${host_ts:-0} - ${board_ts:-0} )); d=${d#-}
    [ -n "$board_ts" ] && [ -n "$host_ts" ] && [ $d -lt 2000000 ]
    ok $? "host timestamp matches the board's for the same event (board $board_ts, host $host_ts)"
fi

# 6. The image booted as another board's says so, instead of exit 99 or a register dump.
other=mps2-an385; [ "$board" = mps2-an385 ] && other=x86-pc
BOARD=$other QEMU_TIMEOUT=30 scripts/qemu-run.sh build/$board/run-$app.elf > "$out/wrong.log" 2>&1
rc=$?
dump "$out/wrong.log" 3
[ $rc = 2 ] && has "$out/wrong.log" "built for board '$board', not '$other'"
ok $? "booting $board's image with BOARD=$other says which board it is for (exit $rc)"

# 7. A program that starts tracing without KAPP_F_TRACE: EPERM said, no hang, non-zero end.
# It is privileged (KAPP_F_PRIV), which lets it start the tracelogger (a program with flags it
# has not got) but gives no right to trace.
mkdir -p user/apps/$eperm
cat > user/apps/$eperm/app.mk <<MK
PRIO := 20
FLAGS := KAPP_F_PRIV
IMAGES += $eperm
${eperm}_APPS := $eperm tracelogger
MK
cat > user/apps/$eperm/main.c <<'C'
#include <kern.h>
#include <errno.h>
#include <stdio.h>
int main(void)
{
    int logger = ProcSpawn("tracelogger", 0, 0);
    if (TraceEvent(KTRACE_START, 0, 0, 0) < 0)
        printf("eperm: cannot start tracing: errno %d\n", errno);
    int st = 0;
    ProcWait(logger, &st);
    printf("eperm: tracelogger ended, status %d\n", KW_EXITSTATUS(st));
    return 1;
}
C
make -s BOARD=$board build/$board/$eperm.elf > "$out/eperm-build.log" 2>&1
ok $? "a program without KAPP_F_TRACE builds"
targs="tracelogger -d1 -x startwait=2 -f $out/eperm.kev"
[ "$board" = x86-pc ] && targs="tracelogger -d1 -x startwait=2 -u"
BOARD=$board QEMU_ARGS="$targs" QEMU_TIMEOUT=120 scripts/qemu-run.sh build/$board/$eperm.elf \
    > "$out/eperm.log" 2>&1
rc=$?
dump "$out/eperm.log" 8
has "$out/eperm.log" "eperm: cannot start tracing: errno 1$"; ok $? "its start of tracing fails with EPERM"
has "$out/eperm.log" "tracing was not started within 2 s"; ok $? "the passive tracelogger says why it gives up"
[ $rc != 0 ] && [ $rc != 124 ]; ok $? "the boot ends by itself with a non-zero status ($rc)"
exit 0
