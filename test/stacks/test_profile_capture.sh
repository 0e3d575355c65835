#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Profiles from a capture: one boot of the stacks image runs user/apps/stackchain with the
# tracelogger sampling stacks at 1000 Hz (tracelogger -p 1000: SYSTEM STACK events, from each
# CPU's profile timer), in QEMU's exact mode (QEMU_ICOUNT=exact: every timer on time), then
#  - kevstat --folded: its counts add up to the samples an independent reader of the file
#    counts (kev_count_stacks.py, from docs/kev-format.md alone), and those samples keep the
#    rate asked: on each CPU one in every millisecond of its span, on the millisecond grid
#    (their times from the same reader), none missed, none doubled; every line's frames are
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
(cd "$tmp" && QEMU_ICOUNT=exact QEMU_TIMEOUT=120 \
    QEMU_ARGS="dtrace -c appinit $tmp/p.dobj ;; appinit stackchain ;; tracelogger -d1 -p 1000 -f cap.kev" \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
rc=$?
[ $rc = 0 ] && [ -s "$tmp/cap.kev" ]
ok $? "the image ran and the tracelogger wrote the capture (status $rc)"

elfs=(--kernel "$img"); for f in "$B"/stacks/*.elf; do elfs+=(--elf "$f"); done
"$H/kevstat" --folded "${elfs[@]}" "$tmp/cap.kev" > "$tmp/folded" 2> "$tmp/folded.err"
total=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/folded")
indep=$(python3 "$here/test/stacks/kev_count_stacks.py" "$tmp/cap.kev")
# the rate: each CPU's samples in consecutive milliseconds (the 1 kHz grid since boot), from
# the first to the last: "cpus samples gaps doubles"
grid=$(python3 "$here/test/stacks/kev_count_stacks.py" --times "$tmp/cap.kev" | sort -k1,1n -k2,2n |
    awk '{ k = int($2 / 1000000) }
         n && $1 == c && k != last + 1 { if (k == last) d++; else g++ }
         !n || $1 != c { cpus++ } { c = $1; last = k; n++ } END { print cpus + 0, n + 0, g + 0, d + 0 }')
read -r gcpus gn gaps doubles <<< "$grid"
[ "$total" -ge 10 ] && [ "$total" = "$indep" ] && [ "$gn" = "$total" ] && [ "$gaps" = 0 ] && [ "$doubles" = 0 ]
ok $? "kevstat --folded counts $total samples, the file's reader $indep, on $gcpus CPUs one in each millisecond ($gaps missed, $doubles doubled)"
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
# each distinct recorded stack named once (name_of runs in a subshell, so its cache holds
# nothing across calls: the 480 samples' 3800 addr2line runs outlasted the test's 180 s on a
# loaded host), then weighed by its count
sort "$tmp/stacks" | uniq -c | while read -r cnt kind comm pcs; do
    [ "$kind" = kernel ] && comm=kernel
    i=0; names=()
    elf=$img; [ "$kind" = user ] && elf=$B/stacks/$comm.elf
    for pc in $pcs; do
        a=$pc; [ $i -gt 0 ] && a=$(printf '0x%x' $((pc - 1)))
        names=("$(name_of "$elf" "$a")" "${names[@]}"); i=$((i + 1))
    done
    echo "$cnt $comm;$(IFS=';'; echo "${names[*]}")"
done | sed 's/\.\(constprop\|isra\|part\|cold\)\.[0-9]*//g' |
    awk '{ n[$2] += $1 } END { for (k in n) print k, n[k] }' | sort > "$tmp/want"
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

# kevreport's flame graph in Chromium: its total is the samples' count, its frames kevstat's
"$H/kevreport" "${elfs[@]}" -o "$tmp/cap.html" "$tmp/cap.kev" > /dev/null 2> "$tmp/rep.err"
timeout 120 /usr/bin/python3 "$here/test/tools/test_kevreport_flame.py" "$tmp/cap.html" "$tmp/folded" "$indep" \
    > "$tmp/flame.tap" 2>&1 && ! grep -q '^not ok' "$tmp/flame.tap"
ok $? "kevreport's flame graph in Chromium: $(grep -c '^ok' "$tmp/flame.tap") checks ($indep samples, the widest frames clicked down)"
grep -A1 '^not ok' "$tmp/flame.tap" | sed 's/^/# /' | head
