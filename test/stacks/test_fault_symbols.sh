#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A killed process's console line names its function and line: ktest's kt_fault commits each
# fault the kernel kills a process for; the kernel's line gives the pc, and stacksym (libdwfl)
# adds "(kt_fault`main+0x5c [kt_fault.c:26])". The oracle is binutils' addr2line on the same
# ELF file and pc: the same function and the same line, for every such line whose pc is in
# code (a fault executing data has no function to name).
#   test/stacks/test_fault_symbols.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$1; H=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/stacks/stacks_lib.sh"
elf=$B/ktest/kt_fault.elf
a2l=$(addr2line_of "$elf")
nm_bin=${a2l%addr2line}nm
funcs=$("$nm_bin" "$elf" | awk '$2 == "T" || $2 == "t" { print $3 }')   # the code's symbols
out=$("$here/scripts/qemu-run.sh" "$B/ktest.elf" 2>&1 | "$H/stacksym" -k "$B/ktest.elf" "$B"/ktest/*.elf |
      grep 'kt_fault) killed:.* pc 0x')
n=$(grep -c . <<< "$out")
echo "1..2"
if [ "$n" -ge 3 ]; then echo "ok 1 - $n faults of kt_fault reported with a pc"; else
    echo "not ok 1 - $n fault lines"; fi
bad=0 checked=0
while read -r line; do
    pc=$(sed 's/.* pc \(0x[0-9a-f]*\).*/\1/' <<< "$line")
    got=$(sed -n 's/.*(kt_fault`\([A-Za-z_0-9.]*\)\(+0x[0-9a-f]*\)\{0,1\} \[\([^]]*\)\])$/\1 \3/p' <<< "$line")
    want=$("$a2l" -f -e "$elf" "$pc" | paste -sd' ' | sed 's/ .*\/\([^/]*\)$/ \1/; s/ (discriminator [0-9]*)//')
    want_fn=${want%% *}; want_line=${want##* }
    case $want_line in '??'*) continue ;; esac # a pc in data (an execute fault): no line to name
    # ... which addr2line may still name by the data symbol and declaration it lies in
    grep -qx "$want_fn" <<< "$funcs" || continue
    checked=$((checked + 1))
    if [ "$got" != "$want_fn $want_line" ]; then
        echo "# $pc: stacksym '$got', addr2line '$want_fn $want_line'"; bad=1
    fi
done <<< "$out"
if [ $bad = 0 ] && [ "$checked" -ge 3 ]; then
    echo "ok 2 - each of the $checked in code names addr2line's function and line"; else
    echo "not ok 2 - function or line differ from addr2line's"; fi
