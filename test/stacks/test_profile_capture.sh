#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Profiles from a capture: one boot of the stacks image runs user/apps/stackchain with the
# tracelogger sampling stacks at every tick (tracelogger -p 1000: SYSTEM STACK events), then
#  - kevstat --folded: its counts add up to the samples an independent reader of the file
#    counts (kev_count_stacks.py, from docs/kev-format.md alone), and on a one-CPU board to
#    the ticks QNX's own traceprinter counts (INT_ENTR 0x100, KIRQ_TICK: one sample a tick;
#    the project's traceprinter when QNX's cannot be built here); every line's frames are
#    binutils' addr2line's functions for the recorded pcs (callers at pc - 1), the lines folded
#    by hand from them;
#  - kev2perfetto: the callstacks and samples keep the rules Perfetto's trace processor
#    imports them by (test/tools/check_perfetto.py: 0 problems), one sample a STACK event;
#  - kevreport: its flame graph, in Chromium (test/tools/test_kevreport_flame.py), holds the
#    reader's count of samples and its frames, clicked down the widest, are kevstat's lines.
#   test/stacks/test_profile_capture.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/stacks/stacks_lib.sh"
img=$B/stacks.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$here/test/qemu/tap_lib.sh"
echo "1..6"
"$H/dcompile" -n 'profile-997 /execname == "stackchain"/ { @ = count(); }' -o "$tmp/p.dobj" ||
    { echo "not ok 1 - dcompile"; exit 1; }
(cd "$tmp" && QEMU_ICOUNT=1 QEMU_TIMEOUT=120 \
    QEMU_ARGS="dtrace -c appinit $tmp/p.dobj ;; appinit stackchain ;; tracelogger -d1 -p 1000 -f cap.kev" \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
rc=$?
[ $rc = 0 ] && [ -s "$tmp/cap.kev" ]
ok $? "the image ran and the tracelogger wrote the capture (status $rc)"

elfs=(--kernel "$img"); for f in "$B"/stacks/*.elf; do elfs+=(--elf "$f"); done
"$H/kevstat" --folded "${elfs[@]}" "$tmp/cap.kev" > "$tmp/folded" 2> "$tmp/folded.err"
total=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/folded")
# the ticks: QNX's traceprinter (built once from the openqnx mirror when it is here)
qnx=${QNX_TOOLS:-${TMPDIR:-/tmp}/qnx-tools-$(id -u)} # outside any git work tree (build.sh)
if [ ! -x "$qnx/bin/traceprinter" ] && [ -x "$here/../shared/qnx-tools/build.sh" ]; then
    "$here/../shared/qnx-tools/build.sh" "$qnx" > "$tmp/qnx-build.log" 2>&1
fi
if [ -x "$qnx/bin/traceprinter" ]; then
    who="QNX's traceprinter"; ticks=$("$qnx/bin/traceprinter" -f "$tmp/cap.kev" | grep -c 'INT_ENTR:0x00000100')
else
    who="traceprinter (QNX's not built here)"; ticks=$("$H/traceprinter" "$tmp/cap.kev" | grep -c 'INT_ENTR:0x00000100')
fi
indep=$(python3 "$here/test/stacks/kev_count_stacks.py" "$tmp/cap.kev")
if grep -aq 'TRACE_CPU_NUM::1\($\|[^0-9]\)' "$tmp/cap.kev"; then
    [ "$total" -ge 10 ] && [ "$total" = "$indep" ] && [ "$total" = "$ticks" ]
    ok $? "kevstat --folded counts $total samples, the file's reader $indep, $who $ticks ticks"
else # the other CPUs' ticks are not traced as interrupts: the reader's count alone
    [ "$total" -ge 10 ] && [ "$total" = "$indep" ]
    ok $? "kevstat --folded counts $total samples, the file's reader $indep"
fi
[ "$total" -ge 10 ] || sed 's/^/# /' "$tmp/folded.err" "$tmp/run.out" | tail -20

# the same lines folded from the recorded pcs with addr2line (clone suffixes dropped, as
# addr2line names a function by its DWARF name)
"$H/traceprinter" "$tmp/cap.kev" | sed -n 's/.*SYSTEM  :STACK *[0-9]*\/[0-9]* \(user\|kernel\) depth [0-9]* \([0-9a-fx ]*[0-9a-f]\)\( (\([^/)]*\).*\)\{0,1\}$/\1 \4 \2/p' |
    awk '$1 == "kernel" { $2 = "kernel " $2 } { print }' > "$tmp/stacks"
# addr2line -f -i prints the chain of functions inlined at an address, the function that
# holds the code (the ELF symbol's) last: that one is the frame's
declare -A fn_of
name_of() { # ELF ADDR
    local k="$1 $2"
    [ -n "${fn_of[$k]:-}" ] || fn_of[$k]=$("$(addr2line_of "$1")" -f -i -e "$1" "$2" | sed -n 'p;n' | tail -1)
    echo "${fn_of[$k]}"
}
while read -r kind comm pcs; do
    [ "$kind" = kernel ] && comm=kernel
    i=0; names=()
    elf=$img; [ "$kind" = user ] && elf=$B/stacks/$comm.elf
    for pc in $pcs; do
        a=$pc; [ $i -gt 0 ] && a=$(printf '0x%x' $((pc - 1)))
        names=("$(name_of "$elf" "$a")" "${names[@]}"); i=$((i + 1))
    done
    echo "$comm;$(IFS=';'; echo "${names[*]}")"
done < "$tmp/stacks" | sed 's/\.\(constprop\|isra\|part\|cold\)\.[0-9]*//g' | sort | uniq -c |
    awk '{ print $2, $1 }' > "$tmp/want"
sed 's/\.\(constprop\|isra\|part\|cold\)\.[0-9]*//g' "$tmp/folded" | sort > "$tmp/got"
[ -s "$tmp/want" ] && diff "$tmp/want" "$tmp/got" > "$tmp/folded.diff"
ok $? "kevstat --folded's $(wc -l < "$tmp/got") lines are addr2line's functions of the recorded pcs"
sed 's/^/# /' "$tmp/folded.diff" | head -10
grep -q 'stackchain;.*main;chain_a;chain_b;chain_c;chain_d;chain_e;chain_spin ' "$tmp/got"
ok $? "the chain main .. chain_spin is a folded line"

"$H/kev2perfetto" "${elfs[@]}" -o "$tmp/cap.pftrace" "$tmp/cap.kev" 2> "$tmp/pf.err" &&
    python3 "$here/test/tools/check_perfetto.py" -s "$indep" \
        "$tmp/cap.pftrace" > "$tmp/pf.tap" 2>&1 && ! grep -q '^not ok' "$tmp/pf.tap"
ok $? "kev2perfetto's callstacks keep trace processor's rules (check_perfetto.py: $(grep -c '^not ok' "$tmp/pf.tap" 2>/dev/null) problems)"
grep -A2 '^not ok' "$tmp/pf.tap" 2>/dev/null | sed 's/^/# /' | head

# kevreport's flame graph in Chromium: its total is the ticks' count, its frames kevstat's
"$H/kevreport" "${elfs[@]}" -o "$tmp/cap.html" "$tmp/cap.kev" > /dev/null 2> "$tmp/rep.err"
timeout 120 /usr/bin/python3 "$here/test/tools/test_kevreport_flame.py" "$tmp/cap.html" "$tmp/folded" "$indep" \
    > "$tmp/flame.tap" 2>&1 && ! grep -q '^not ok' "$tmp/flame.tap"
ok $? "kevreport's flame graph in Chromium: $(grep -c '^ok' "$tmp/flame.tap") checks ($indep samples, the widest frames clicked down)"
grep -A1 '^not ok' "$tmp/flame.tap" | sed 's/^/# /' | head
