#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# $target in dcompile without -T, bound as dtrace -i binds it over a capture (docs/pid.md):
# by the one program the pid$target probes name. The truth is dcompile -T NAME, whose object
# test_usdt.sh runs on the board against gdb: the unnamed compile must give that object byte
# for byte. Where no pid$target probe names a program, or several do, dcompile refuses as
# dtrace -i does, saying what to give; a bad -T name is still a usage error.
# usage: test_dcompile_target.sh HOST_DIR PROGRAM.elf [SCRATCHDIR]
set -u
bin=$1
elf=$2
here=$(dirname "$0")
. "$here/tap.sh"
scratch dctarget "${3:-build/host-test}"
dc=$bin/dcompile
prog=$(basename "$elf" .elf)
other=$(dirname "$elf")/appinit.elf

src='pid$target::step_plain:entry { @[arg0] = count(); }
kercall:::entry /pid == $target/ { @k = count(); }'
"$dc" --elf "$elf" -T "$prog" -n "$src" -o "$dir/named.dobj" 2>"$dir/named.err"
rc1=$?
"$dc" --elf "$elf" -n "$src" -o "$dir/bound.dobj" 2>"$dir/bound.err"
rc2=$?
check "without -T, the object is -T $prog's byte for byte (rc $rc1 $rc2)" \
    bash -c "[ $rc1 = 0 ] && [ $rc2 = 0 ] && cmp -s '$dir/named.dobj' '$dir/bound.dobj'"
check "and dcompile says which program binds \$target" \
    grep -q "^dcompile: \$target is the first process of $prog, the program its pid\$target probes name" "$dir/bound.err"
"$dc" -q --elf "$elf" -T "$prog" -n "$src" -o "$dir/qnamed.dobj" 2>/dev/null
"$dc" -q --elf "$elf" -n "$src" -o "$dir/quiet.dobj" 2>"$dir/quiet.err"
check "-q: the same object as -q -T $prog, said nothing" \
    bash -c "[ $? = 0 ] && cmp -s '$dir/qnamed.dobj' '$dir/quiet.dobj' && [ ! -s '$dir/quiet.err' ]"

"$dc" -n 'BEGIN { printf("%d\n", $target); exit(0); }' -o "$dir/none.dobj" 2>"$dir/none.err"
rc=$?
check "\$target with no pid\$target probe: refused (rc $rc), asking for -T NAME, no object" \
    bash -c "[ $rc = 1 ] && grep -q 'names no process: give -T NAME' '$dir/none.err' && [ ! -e '$dir/none.dobj' ]"

"$dc" --elf "$elf" --elf "$other" -n "pid\$target:$prog:step_plain:entry, pid\$target:appinit::entry { }" \
    -o "$dir/two.dobj" 2>"$dir/two.err"
rc=$?
check "pid\$target probes on two programs: refused (rc $rc), naming both" \
    bash -c "[ $rc = 1 ] && grep -q 'the probes name 2 programs ($prog, appinit): give -T NAME' '$dir/two.err'"

"$dc" --elf "$elf" -n 'pid$target::nosuch:entry { }' -o "$dir/nosuch.dobj" 2>"$dir/nosuch.err"
rc=$?
check "a pid\$target probe matching nothing: DTrace's D_PDESC_ZERO wording (rc $rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'pid\$target::nosuch:entry does not match any probes' '$dir/nosuch.err'"

"$dc" -T 'a b' -n 'BEGIN { trace($target); }' -o "$dir/bad.dobj" 2>"$dir/bad.err"
rc=$?
check "-T with a name no program has: a usage error (rc $rc)" \
    bash -c "[ $rc = 2 ] && grep -q 'not a program name' '$dir/bad.err'"
finish
