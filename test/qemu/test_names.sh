#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Programs that find each other by name, on one board, as docs/applications.md shows them:
# three programs written by `make new-app`, given their parts by their arguments (ARGS in
# app.mk for two, <name>_ARGS on make's command line for the third). The server attaches its
# name (name_attach), the sensor opens it (name_open) and exchanges 20 messages with it, then
# kills it (ProcKill) and name_open fails with ENOENT; the third asks for the server's name
# and gets EEXIST. The server starts 20 ms late (-d 20), so the sensor's name_open
# (NAME_FLAG_WAIT) waits for its name and returns when the server attaches it. Truths: the setpoint the host computes from the template's sawtooth, the
# programs' own errno reports, the kernel's kill line, and the capture's NameCtl events
# (traceprinter and dtrace -i) against what the programs did.
#   test/qemu/test_names.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
srv=nsrv$$
cli=ncli$$
dup=ndup$$
out=$(mktemp -d)
cleanup() { rm -rf "user/apps/$srv" "user/apps/$cli" "user/apps/$dup" "$out"; }
# Leftovers of a run killed by its time limit (this script's names only).
for d in user/apps/nsrv[0-9]* user/apps/ncli[0-9]* user/apps/ndup[0-9]*; do
    [ -d "$d" ] && [[ $(basename "$d") =~ ^n(srv|cli|dup)[0-9]+$ ]] && rm -rf "$d"
done
trap cleanup EXIT
. test/qemu/tap_lib.sh
. scripts/console.sh
has() { grep -qE "$2" "$1"; }
dump() { sed 's/^/# /' "$1" | tail -${2:-30}; }

# 1. Three programs from the template; two take their part from their app.mk's ARGS.
for a in $srv $cli $dup; do
    make -s new-app NAME=$a > "$out/new-$a.log" 2>&1 || { dump "$out/new-$a.log"; }
done
[ -f user/apps/$srv/main.c ] && [ -f user/apps/$cli/main.c ] && [ -f user/apps/$dup/main.c ]
ok $? "make new-app wrote $srv, $cli and $dup"
sed -i 's/^ARGS  :=.*/ARGS  := -s -d 20/' user/apps/$srv/app.mk
sed -i "s/^ARGS  :=.*/ARGS  := -c $srv -k/; s/^FLAGS := 0/FLAGS := KAPP_F_PRIV/" user/apps/$cli/app.mk
grep -q "^ARGS  := -s -d 20$" user/apps/$srv/app.mk && grep -q "^ARGS  := -c $srv -k$" user/apps/$cli/app.mk
ok $? "their app.mk files say ARGS (the template's line)"

# 2. One boot: the third's arguments come from make's command line.
TRACE_FILE=$out/trace.kev QEMU_TIMEOUT=300 make -s BOARD=$board run APPS="$srv $cli $dup" \
    ${dup}_ARGS="-s -n $srv -d 100" > "$out/run.log" 2>&1
rc=$?
dump "$out/run.log" 16
has "$out/run.log" "$(con_from appinit)appinit: done, 2 failures$"
ok $? "appinit ran all three; two failed as planned: the killed server and the refused name (make: $rc)"
has "$out/run.log" "$(con_from $srv)$srv: serving as $srv$"
ok $? "the server got its part from ARGS (-s) and attached its name"
# The host's truth: the template's sawtooth 500 + (seq * 37) % 100, its mean over 20 readings.
want=$(python3 -c 'print(sum(500 + (s * 37) % 100 for s in range(1, 21)) // 20)')
has "$out/run.log" "$(con_from $cli)$cli: 20 readings sent, last setpoint $want$"
ok $? "the sensor found it with name_open(NAME_FLAG_WAIT) and exchanged 20 messages (setpoint $want, the host's mean)"
has "$out/run.log" "$(con_from $dup)$dup: name_attach\($srv\): .* \(errno 17\)$"
ok $? "the third, given -n $srv on make's command line, is refused the name with EEXIST (17)"
has "$out/run.log" "${CON_KERNEL}process [0-9]+ \($srv\) killed by process [0-9]+ \($cli\)"
ok $? "the sensor killed the server (the kernel says so)"
# (ProcKill ends a process whose thread runs on another CPU, or is in the kernel, when that
# thread next enters the kernel: the sensor's name_open retries every 1 ms until then.)
has "$out/run.log" "$(con_from $cli)$cli: killed $srv \(pid [0-9]+\); name_open: errno 2 after [0-9]+ calls$"
ok $? "after the kill name_open fails with ENOENT (2): the name went with its process"
has "$out/run.log" "$(con_from appinit)appinit: $cli \(pid [0-9]+\) finished"
ok $? "the sensor itself finished with status 0"

# 3. The names' kernel calls in the capture, as the programs reported them.
tp=$out/tp.txt
"$h/traceprinter" "$out/trace.kev" > "$tp" 2>&1
n_call=$(grep -c "KER_CALL:NameCtl/99" "$tp")
n_exit=$(grep -c "KER_EXIT:NameCtl/99" "$tp")
[ "$n_call" -ge 4 ] && [ "$n_call" = "$n_exit" ]
ok $? "traceprinter shows NameCtl entries and exits ($n_call, $n_exit)"
n_eexist=$(grep -c "KER_EXIT:NameCtl/99 .*errno:17 (EEXIST)" "$tp")
[ "$n_eexist" = 1 ]; ok $? "one NameCtl exit is EEXIST, the third's (found $n_eexist)"
"$h/dtrace" -q -i "$out/trace.kev" -n '
kercall::NameCtl:entry /arg0 == 1/ { @att[execname] = count(); }
kercall::NameCtl:return /arg0 == -17/ { @eexist[execname] = count(); }
kercall::NameCtl:return /arg0 == -2/ { @enoent[execname] = count(); }
END { printa("att %s %@d\n", @att); printa("eexist %s %@d\n", @eexist); printa("enoent %s %@d\n", @enoent); }' \
    > "$out/d.txt" 2>&1
dump "$out/d.txt" 8
grep -q "^att $srv 1$" "$out/d.txt" && grep -q "^att $dup 1$" "$out/d.txt"
ok $? "dtrace -i: one attach by the server, one by the third (kercall::NameCtl:entry, arg0 KNAMECTL_ATTACH)"
grep -q "^eexist $dup 1$" "$out/d.txt"; ok $? "dtrace -i: the EEXIST is the third's"
grep -qE "^enoent $cli [1-9][0-9]*$" "$out/d.txt"; ok $? "dtrace -i: the sensor's name_open met ENOENT after the kill"
# The waiting open in the capture: the sensor's NameCtl (KNAMECTL_OPEN, KNAMECTL_OPEN_WAIT)
# entered before the server's attach and returned a connection after it.
"$h/dtrace" -q -i "$out/trace.kev" -n '
kercall::NameCtl:entry /arg0 == 3 && arg1 == 1/ { printf("wait %d %s\n", timestamp, execname); self->w = 1; }
kercall::NameCtl:entry /arg0 == 1/ { printf("attach %d %s\n", timestamp, execname); }
kercall::NameCtl:return /self->w/ { printf("got %d %d\n", timestamp, arg0); self->w = 0; }' \
    > "$out/w.txt" 2>&1
dump "$out/w.txt" 6
read -r tw wcli <<< "$(awk '$1 == "wait" { print $2, $3; exit }' "$out/w.txt")"
ta=$(awk -v s=$srv '$1 == "attach" && $3 == s { print $2; exit }' "$out/w.txt")
read -r tg coid <<< "$(awk '$1 == "got" { print $2, $3; exit }' "$out/w.txt")"
[ "$wcli" = "$cli" ] && [ -n "$ta" ] && [ -n "$tg" ] && [ "$tw" -lt "$ta" ] && [ "$ta" -le "$tg" ] &&
    [ "${coid:-0}" -gt 0 ]
ok $? "the sensor's waiting name_open entered before the server's attach ($tw < ${ta:-none} ns) and returned coid ${coid:-none} after it (${tg:-none} ns)"

echo "1..$n"
