#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A heavy D program on every fbt probe (docs/fbt.md, "Heavy programs"): fbt_heavy.d's thirteen
# clauses on fbt:::entry and fbt:::return (counts, stack(), ustack(), copyin, copyinstr,
# speculations, printf) with bufsize=8k aggsize=8k dynvarsize=4k nspec=2 specsize=1k.
# qemu-virt-a53 and x86-pc compile it on the board (-s, -n) and run it over the demo: it must
# load (its fbt sites placed), run its actions (printf and committed speculations print), and
# count right: the traced kernel-call function's fbt entries equal kercall:::entry's count in
# the same boot, the static provider being the outside truth. mps2-an385 runs it compiled on
# the host and ending itself after 200 kernel calls (every probe on a Cortex-M3 takes minutes
# of the demo), and shows the limits' messages: compiled on the board, the compiler's arena;
# a 100-clause program, the kernel's object limit, each naming the option that raises it.
#   test/qemu/test_fbt_heavy.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
img=$B/dtparity.elf
opts="-x bufsize=8k -x aggsize=8k -x dynvarsize=4k -x nspec=2 -x specsize=1k"
# The function every kernel call's entry passes through while D runs (test_fbt_all.sh says why
# it differs on AArch64).
case $board in qemu-virt-a53|raspi3b) kfn=ktrace_kcall_entry_full ;; *) kfn=kcall_dispatch_traced ;; esac
sed '/^\/\*/,/\*\/$/d' "$here/test/qemu/fbt_heavy.d" > "$tmp/heavy.d"

boot() {    # boot NAME DTRACE-ARGS: the dtparity image, its output in $tmp/NAME.out
    local start; start=$(date +%s)
    (cd "$tmp" && BOARD=$board QEMU_ARGS="dtrace $2" QEMU_TIMEOUT=${QEMU_TIMEOUT:-400} \
        "$here/scripts/qemu-run.sh" "$img" > "$tmp/$1.out" 2>&1)
    local rc=$?
    echo "# $1: $(($(date +%s) - start)) s, status $rc"
    return $rc
}

[ "$board" = mps2-an385 ] && echo "1..12" || echo "1..10"
# The run ends at the system's 200th kernel call (exit), not at the demo's end: under thirteen
# clauses on every kernel function x86-pc's worker (two threads switching each tick) had not
# finished in 400 s.
echo 'kercall:::entry { calls++; } kercall:::entry /calls == 200/ { exit(0); }' >> "$tmp/heavy.d"
case $board in
    x86-pc)     # no host files: the text on the boot command line
        boot heavy "$opts -c init -n '$(tr '\n' ' ' < "$tmp/heavy.d")' $kfn"
        rc=$? ;;
    mps2-an385)
        "$H/dcompile" --kernel "$img" $opts -s "$tmp/heavy.d" -o "$tmp/heavy.dobj" "$kfn" \
            2> "$tmp/dcompile.err" || sed 's/^/# /' "$tmp/dcompile.err"
        boot heavy "$tmp/heavy.dobj"
        rc=$? ;;
    *)
        boot heavy "$opts -c init -s $tmp/heavy.d $kfn"
        rc=$? ;;
esac
ok $rc "the system ran the heavy program on every fbt probe and exited 0"
[ $rc = 0 ] || tail -15 "$tmp/heavy.out" | sed 's/^/# /'
! grep -qE '^kernel: (panic|fault in kernel|.*lockup)' "$tmp/heavy.out" &&
    grep -qE '^kernel: pid 1 exited with status 0; halting$' "$tmp/heavy.out"
ok $? "the kernel ended the boot itself, no fault of its own"
con_of dtrace < "$tmp/heavy.out" > "$tmp/dtrace.out"
! grep -q 'could not enable tracing' "$tmp/dtrace.out"
ok $? "KDT_LOAD and KDT_GO took it ($(grep -m1 -o 'could not enable tracing.*' "$tmp/dtrace.out"))"
sites=$(sed -n 's/^dtrace: \([0-9]*\) fbt probe sites placed in .*/\1/p' "$tmp/dtrace.out" | head -1)
check "its fbt probe sites were placed (${sites:-none})" '[ "${sites:-0}" -gt 200 ]'
grep -o '@@.*' "$tmp/dtrace.out" > "$tmp/d"  # (not quiet: a record may follow its probe's name)
e=$(awk '$1 == "@@N" && $2 == "entry" { print $3 }' "$tmp/d")
r=$(awk '$1 == "@@N" && $2 == "return" { print $3 }' "$tmp/d")
f=$(awk '$1 == "@@F" { print $2 }' "$tmp/d")
k=$(awk '$1 == "@@K" { print $2 }' "$tmp/d")
check "fbt::$kfn:entry ${f:-none} equals kercall:::entry ${k:-none}" \
    '[ -n "$k" ] && [ "$k" -gt 0 ] && [ "$k" = "$f" ]'
check "every fbt entry counted (${e:-none}) is more than those, and returns (${r:-none}) follow" \
    '[ -n "$e" ] && [ -n "$r" ] && [ "$e" -gt "$f" ] && [ "$r" -gt 0 ] && [ "$r" -le "$e" ]'
np=$(grep -c '^@@P ' "$tmp/d"); ns=$(grep -c '^@@S ' "$tmp/d")
check "printf ran ($np records) and committed speculations printed ($ns)" \
    '[ "$np" -gt 0 ] && [ "$ns" -gt 0 ]'
st=$(grep -c '^ *0x[0-9a-f]*$' "$tmp/dtrace.out")
check "stack() and ustack() aggregated frames ($st frame lines)" '[ "$st" -gt 0 ]'
# The kernel's block held what the options asked (its estimate of the engine's tables holds
# for 4,500 enablings): bufresize=auto lowered nothing. (dtrace says "dtrace: WHAT lowered to
# N"; a probe's own name may hold the word: sched_running_prio_lowered.)
lw=$(grep -m1 'dtrace: .* lowered to ' "$tmp/dtrace.out")
check "bufsize and aggsize as asked, nothing lowered${lw:+ ($lw)}" '[ -z "$lw" ]'
m=$(sed -n 's/^dtrace: script matched \([0-9]*\) probes.*/\1/p; s/^dtrace: description matched \([0-9]*\) probes.*/\1/p' "$tmp/dtrace.out")
if [ "$board" != mps2-an385 ]; then
    check "compiled on the board: it matched ${m:-no} probes" '[ "${m:-0}" -gt 400 ]'
else
    # The limits a Cortex-M3 keeps, each said with the option that raises it: the board's
    # compiler arena (352 KB: thirteen clauses over every fbt probe need ~370 KB), and the
    # kernel's object (BOARD_KDT_OBJ_MAX, 128 KB: a hundred clauses on fbt:::entry compile to
    # ~260 KB on the host).
    boot arena "$opts -n '$(tr '\n' ' ' < "$tmp/heavy.d")' $kfn"
    con_of dtrace < "$tmp/arena.out" | grep -m1 'out of compiler memory' | sed 's/^/# /'
    # The console breaks a line of more than 256 characters (the program's text comes first):
    # the message is read joined.
    con_of dtrace < "$tmp/arena.out" | tr -d '\n' |
        grep -q 'out of compiler memory.*KB arena: a board.s DTRACE_CC_ARENA.*tools/dcompile'
    ok $? "compiled on the board, it is refused for the compiler's arena, DTRACE_CC_ARENA named"
    for i in $(seq 100); do echo "fbt:::entry { @c$i = count(); }"; done > "$tmp/wide.d"
    "$H/dcompile" --kernel "$img" -s "$tmp/wide.d" -o "$tmp/wide.dobj" 2> "$tmp/wide.err" ||
        sed 's/^/# /' "$tmp/wide.err"
    sz=$(stat -c %s "$tmp/wide.dobj" 2>/dev/null || echo 0)
    boot wide "$tmp/wide.dobj"
    con_of dtrace < "$tmp/wide.out" | grep -m1 'could not enable' | sed 's/^/# /'
    lim=$(($(sed -n 's/^BOARD_KDT_OBJ_MAX *:= *//p' "$here/boards/$board/board.mk") + 0))
    con_of dtrace < "$tmp/wide.out" | grep -q "could not enable tracing: the compiled program is [0-9]* bytes: this kernel loads 1 to $lim (BOARD_KDT_OBJ_MAX in the board's board.mk raises it)"
    ok $? "a $sz-byte 100-clause program is refused by KDT_LOAD with its size and BOARD_KDT_OBJ_MAX"
    check "the refusal is dtrace's exit status 1, the boot's end" 'grep -q "^kernel: pid 1 exited with status 1; halting$" "$tmp/wide.out"'
fi
