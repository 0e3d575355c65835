#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevsql answers Perfetto's queries as Perfetto means them (docs/sql.md, "Perfetto's names"), on a
# real capture of the board: the sqlcap image (user/apps/stackfault/app.mk) runs stackfault under
# dtrace (a fault and its stack), inversion (priority changes, mutex and semaphore waits) and acq
# (interrupts, messages, pulses, user events) with the tracelogger. check_perfetto_sql.py runs
# the queries (top threads, per-CPU utilisation, wakeup latency, state durations, slices by
# name, counters over time, joins of sched with thread and process, EXTRACT_ARG, the typed
# tables' utid) and holds each answer against traceprinter's events of the same capture, parsed
# by itself, and the per-CPU running time against kevstat's; check_sql.py holds the same capture
# against the independent reader of its bytes (each event's thread, mid-switch fbt probes among
# them).
#   test/tools/test_kevsql_perfetto.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/tools/tap.sh"
scratch perfetto-sql "$here/build/host-test/sql"
need python3
img=$B/sqlcap.elf
# fbt on the scheduler's choice: function slices kevsql must name as Perfetto shows them
D='proc:::fault { ustack(); } fbt::sched_choose_traced:entry { } fbt::sched_choose_traced:return { }'
"$H/dcompile" --kernel "$img" -n "$D" -o "$dir/f.dobj" > "$dir/dcompile.out" 2>&1
(cd "$dir" && QEMU_ARGS="dtrace -c appinit $dir/f.dobj ;; appinit stackfault inversion acq ;; tracelogger -d1 -f cap.kev" \
    QEMU_TIMEOUT=240 "$here/scripts/qemu-run.sh" "$img" > "$dir/run.out" 2>&1)
rc=$?
if [ $rc = 0 ] && [ -s "$dir/cap.kev" ] && grep -q 'acq: done' "$dir/run.out"; then
    ok "$(basename "$B"): the image ran to its end and the tracelogger wrote the capture"
else
    notok "$(basename "$B"): the image ran to its end and the tracelogger wrote the capture" \
        "status $rc" "$(tail -15 "$dir/run.out")"
    finish
    exit 1
fi
"$H/traceprinter" -n "$dir/cap.kev" > "$dir/cap.txt" 2>&1
python3 "$here/test/tools/check_perfetto_sql.py" "$H/kevsql" "$H/kevstat" "$dir/cap.kev" \
    "$dir/cap.txt" > "$dir/check.out" 2>&1
while IFS= read -r line; do
    case $line in
        "ok "*) ok "$(basename "$B"): ${line#ok * - }" ;;
        "not ok "*) notok "$(basename "$B"): ${line#not ok * - }" ;;
        1..*) ;;
        *) echo "$line" ;;
    esac
done < "$dir/check.out"
grep -q '^1\.\.' "$dir/check.out" || notok "check_perfetto_sql.py ran to its end" "$(tail -5 "$dir/check.out")"
# The same capture against the independent reader of its bytes (check_sql.py): each event's
# thread among them, with fbt's probes firing in the scheduler's choice, mid-switch
python3 "$here/test/tools/check_sql.py" "$H/kevsql" "$H/kevstat" "$dir/cap.kev" > "$dir/sql.out" 2>&1
while IFS= read -r line; do
    case $line in
        "ok "*) ok "$(basename "$B"): ${line#ok * - }" ;;
        "not ok "*) notok "$(basename "$B"): ${line#not ok * - }" ;;
        *) echo "$line" ;;
    esac
done < "$dir/sql.out"
grep -q "each event's thread" "$dir/sql.out" || notok "check_sql.py ran" "$(tail -5 "$dir/sql.out")"

# Symbols: the fault's stack frames named by the capture's build ids are binutils' addr2line's
# functions on the program's ELF (a caller frame at its return address - 1), innermost first
elf=$B/sqlcap/stackfault.elf
case $(readelf -h "$elf" | sed -n 's/ *Machine: *//p') in
    ARM) a2l=arm-none-eabi-addr2line ;;
    AArch64) a2l=aarch64-linux-gnu-addr2line ;;
    *) a2l=addr2line ;;
esac
raw=$("$H/kevsql" --csv --no-header --no-symbols "$dir/cap.kev" "SELECT frames FROM stack_sample WHERE kind = 'fault'")
named=$("$H/kevsql" --csv --no-header "$dir/cap.kev" "SELECT frames FROM stack_sample WHERE kind = 'fault'")
want=$(k=0; for pc in ${raw//;/ }; do
           [ $k = 0 ] && a=$pc || a=$(printf '0x%x' $((pc - 1)))
           $a2l -f -e "$elf" "$a" | head -1; k=1; done | tr '\n' ' ')
got=$(tr ';' '\n' <<<"$named" | sed 's/^[^`]*`//; s/+0x[0-9a-f]*$//' | tr '\n' ' ')
if [ -n "$raw" ] && [ "$got" = "$want" ] && grep -q '^stackfault`' <<<"$named"; then
    ok "$(basename "$B"): stack_sample's frames are named as addr2line names them ($got)"
else
    notok "$(basename "$B"): stack_sample's frames are named as addr2line names them" "kevsql: $named" "addr2line: $want" "raw: $raw"
fi
# fbt's slices: named sched_choose_traced, the address nm gives that function when left raw, as
# many as traceprinter's FUNC_ENTER events
names=$("$H/kevsql" --csv --no-header "$dir/cap.kev" "SELECT DISTINCT name FROM slice WHERE cat = 'function'")
addr=$("$H/kevsql" --csv --no-header --no-symbols "$dir/cap.kev" "SELECT DISTINCT name FROM slice WHERE cat = 'function'")
nslices=$("$H/kevsql" --csv --no-header "$dir/cap.kev" "SELECT count(*) FROM slice WHERE cat = 'function'")
nm_addr=$(nm "$img" | awk '$3 == "sched_choose_traced" { print $1 }')
nenter=$(grep -c ':FUNC_ENTER ' "$dir/cap.txt")
if [ "$names" = sched_choose_traced ] && [ -n "$nm_addr" ] && [ $(( addr & ~1 )) = $(( 0x$nm_addr & ~1 )) ] \
   && [ "$nslices" = "$nenter" ] && [ "$nenter" -gt 0 ]; then
    ok "$(basename "$B"): fbt's $nslices slices are named sched_choose_traced (raw: $addr, nm's 0x$nm_addr)"
else
    notok "$(basename "$B"): fbt's slices are named sched_choose_traced" "named: $names" "raw: $addr, nm: $nm_addr" \
        "slices $nslices, FUNC_ENTER $nenter"
fi
out=$("$H/kevsql" --symbols "$dir/no-such-dir" "$dir/cap.kev" 'SELECT 1' 2>&1)
rc=$?
[ $rc = 2 ] && grep -q 'not a directory' <<<"$out" && ok "--symbols on a missing directory: bad usage, said" \
    || notok "--symbols on a missing directory: bad usage, said" "exit $rc: $out"
finish
