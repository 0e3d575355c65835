#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Who may place USDT probes, and where (docs/usdt.md, "Who may"), with a consumer that is not
# privileged: pidself (KAPP_F_TRACE|KAPP_F_HOSTFS, no KAPP_F_PRIV) loads a host-compiled D
# object compiled from a changed copy of a program's ELF file (usdt_note.py) and starts it, in
# the usdtperm image (pidself pid 1, usdtpeer the other program it starts). Both programs
# carry the same bait (user/apps/usdtpeer/usdt_bait.c): a read-only constant equal to the
# site's no-op, one equal to the trap, a wide instruction with a unit inside it equal to the
# no-op (Thumb, i386; A64 has none), a .data variable, and a real site, bait:::mark, with its
# semaphore. A boot each (-icount):
#  - usdtpeer's real site, and each bait of usdtpeer's named as the site or the semaphore:
#    refused, "failed to grab a process of usdtpeer: permission denied", EPERM; usdtpeer's own
#    looks, every millisecond at its start, while the object is loaded and after it was
#    unloaded, find every bait unchanged and equal to its ELF file's bytes as gdb-multiarch
#    reads them, its wide instruction's result right, its semaphore never raised, and its
#    site still the no-op; it says so by its exit status (0), and nothing was killed;
#  - each bait of pidself's own named the same ways: its own program, so the rule lets it
#    by, and the kernel refuses it as no site or no semaphore of pidself's loaded notes
#    (EINVAL), and pidself's own looks after it find its bait unchanged;
#  - pidself's own bait:::mark, from its unchanged ELF file: accepted, D's count of firings is
#    the program's own count of its passes under the raised semaphore (N), and after the
#    object is unloaded the site holds the no-op again, as pidself reads its own text.
# The no-op and the trap are the kernel's (ARCH_USDT_NOP and ARCH_USDT_TRAP in
# kernel/arch/*/include/arch_usdt.h), and gdb reads the constants equal to them.
#   test/qemu/test_usdt_perm.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/usdtperm.elf
self=$B/usdtperm/pidself.elf
peer=$B/usdtperm/usdtpeer.elf
N=100 MS=50 HOLD=75
case $board in
qemu-virt-a53|raspi3b) cross=aarch64-linux-gnu- arch=aarch64 unit=w wide= ;;
x86-pc)                cross=i686-linux-gnu- arch=x86 unit=b wide=yes ;;
*)                     cross=arm-none-eabi- arch=armv7m unit=h wide=yes ;;
esac
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..$(( 3 + 2 * (${wide:+1} + 3) + 1 ))"

sym() {     # sym ELF NAME: the symbol's address, 0x and hex digits without leading zeros
    local a
    a=$(${cross}nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
    [ -n "$a" ] && printf '0x%x\n' "$((0x$a))"
}
# the unit at symbol $2 of ELF file $1, as gdb-multiarch reads the file, in hex without 0x
gdb_unit() {
    local a
    a=$(sym "$1" "$2")
    gdb-multiarch -q -batch -ex "x/1x$unit $a" "$1" 2>/dev/null |
        awk -v a="$a" '$1 == a { v = $NF } END { sub(/^0x0*/, "", v); print v }'
}
# the kernel's no-op and trap, as the host's C compiler evaluates its header
printf '#include <stdio.h>\n#include <arch_usdt.h>\nint main(void) { printf("%%x %%x\\n", %s, %s); return 0; }\n' \
    '(unsigned)ARCH_USDT_NOP' '(unsigned)ARCH_USDT_TRAP' > "$tmp/kdef.c"
cc -I"$here/kernel/arch/$arch/include" "$tmp/kdef.c" -o "$tmp/kdef" && read -r knop ktrap < <("$tmp/kdef")

# 1-2: the truth: each program's bait in its ELF file, as gdb reads it; a line of the program
# must show these (its constants, the unit inside its wide instruction, its data)
truth() {   # truth ELF: the fields a report line of that program must start with
    local w="0"
    [ -n "$wide" ] && w=$(gdb_unit "$1" bait_wide_unit)
    printf 'nop-constant %s, trap-constant %s, wide unit %s' "$(gdb_unit "$1" bait_nop)" \
        "$(gdb_unit "$1" bait_trap)" "$w"
}
want_peer=$(truth "$peer") want_self=$(truth "$self")
wunit=0
[ -n "$wide" ] && wunit=$knop
want="nop-constant $knop, trap-constant $ktrap, wide unit $wunit"
check "gdb reads usdtpeer's bait ($want_peer) and pidself's as the kernel's no-op and trap ($want)" \
    '[ "$want_peer" = "$want" ] && [ "$want_self" = "$want" ]'
noted() {   # noted ELF: its note names bait:::mark with the semaphore nm names, not bait_data
    local s
    s=$(readelf -n "$1" | awk '/Name: mark/ { n = 1 } n && /Semaphore:/ { print $NF; exit }')
    [ -n "$s" ] && [ "$((s))" = "$(($(sym "$1" bait_mark_semaphore)))" ] &&
        [ "$((s))" != "$(($(sym "$1" bait_data)))" ]
}
check "each program's note (readelf -n) names bait:::mark with its semaphore (nm), not bait_data" \
    'noted "$peer" && noted "$self"'

# -icount (guest time the instruction count), but on raspi3b: there, under -icount shift=0
# (with or without sleep=off), a sleeping guest wakes late (qemu-pid-perm/raspi3b's four
# boots take 81 s), and usdtpeer's dozens of 1-ms sleeps were seen to stall the boot past
# qemu-run's 45 s without output; its own -icount shift=auto runs them (its qemu.sh)
icount=1
[ "$board" = raspi3b ] && icount=0
boot() {    # boot NAME ARGS...: pidself's command line, the console in $tmp/NAME
    local name=$1; shift
    (cd "$tmp" && QEMU_ARGS="pidself $*" QEMU_ICOUNT=$icount QEMU_TIMEOUT=${QEMU_TIMEOUT:-90} \
        "$here/scripts/qemu-run.sh" "$img" > "$tmp/$name" 2>&1)
}
# compile NAME ELF EDIT: the D object $tmp/NAME.dobj from a copy of ELF with bait:::mark's
# note changed by EDIT (usdt_note.py; "" for none), named as the program
compile() {
    local name=$1 elf=$2 edit=$3 prog
    prog=$(basename "$elf")
    mkdir -p "$tmp/$name.elf"
    if [ -n "$edit" ]; then
        python3 "$here/test/qemu/usdt_note.py" "$elf" "$tmp/$name.elf/$prog" mark "$edit"
    else
        cp "$elf" "$tmp/$name.elf/$prog"
    fi
    "$H/dcompile" --elf "$tmp/$name.elf/$prog" -n 'BEGIN { marks = 0; } bait:::mark { marks = marks + 1; }' \
        -o "$tmp/$name.dobj" > "$tmp/$name.err" 2>&1 || sed 's/^/# /' "$tmp/$name.err"
}
# a report line's checks: its bait as the ELF's (want), no wrong look, the semaphore never
# raised (enabled 0) and the site still the no-op
line_ok() {     # line_ok LINE WANT
    case $1 in
    *": $2 result "*", data 1000, looks "*" wrong 0, marks "*" enabled 0, site bait:mark $knop") return 0 ;;
    esac
    return 1
}

# 3..: usdtpeer's bait, from pidself that may not trace it: EPERM, usdtpeer unchanged
attack_peer() {     # attack_peer NAME EDIT WHAT
    local f=$tmp/$1 why="bait:usdtpeer::mark: failed to grab a process of usdtpeer: permission denied" r=0 l
    compile "$1" "$peer" "$2"
    boot "$1" "$tmp/$1.dobj" $N usdtpeer $MS $HOLD
    for when in "at start" during after; do
        l=$(con_of usdtpeer < "$f" | grep "^usdtpeer: pid 2 $when: ")
        line_ok "$l" "$want_peer" || { r=1; echo "# $when: ${l:-no line}"; }
    done
    con_text < "$f" | grep -nF -e "pidself: could not enable tracing: $why (EPERM)" \
        -e "usdtpeer: pid 2 during:" | cut -d: -f1 > "$tmp/$1.order"
    [ "$(wc -l < "$tmp/$1.order")" = 2 ] && [ "$(head -1 "$tmp/$1.order")" -lt "$(tail -1 "$tmp/$1.order")" ] &&
        grep -qE "$(con_from pidself)pidself: usdtpeer \(pid 2\) exited with status 0$" "$f" &&
        grep -q "^kernel: pid 1 exited with status 1; halting" "$f" &&
        ! grep -qi "killed\|fault\|bad jump" "$f" || r=1
    ok $r "usdtpeer's $3, from pidself (not privileged): '$why', EPERM; usdtpeer's own looks at start, loaded and unloaded find its bait the ELF's, its semaphore never raised, its site the no-op (exit 0)"
    [ $r = 0 ] || tail -6 "$f" | sed 's/^/# /'
}
attack_peer peer-site "" "real site bait:::mark"
attack_peer peer-nop "pc=$(sym "$peer" bait_nop)" "constant equal to the no-op as the site"
attack_peer peer-trap "pc=$(sym "$peer" bait_trap)" "constant equal to the trap as the site"
[ -n "$wide" ] &&
    attack_peer peer-wide "pc=$(sym "$peer" bait_wide_unit)" "unit inside its wide instruction (equal to the no-op) as the site"
attack_peer peer-sem "sem=$(sym "$peer" bait_data)" ".data variable as the site's semaphore"

# ..: pidself's own bait: its own program, refused as no site or semaphore of its notes
attack_self() {     # attack_self NAME EDIT WHAT PREFIX ADDR TAIL: the reason is "PREFIX ADDR TAIL"
    local f=$tmp/$1 l r=0 re="${4:+$4 }0x0*${5#0x} $6" why="${4:+$4 }$5 $6"
    compile "$1" "$self" "$2"
    boot "$1" "$tmp/$1.dobj" $N
    l=$(con_of pidself < "$f" | grep "^pidself: pid 1 after: ")
    line_ok "$l" "$want_self" || { r=1; echo "# ${l:-no line}"; }
    grep -qE "$(con_from pidself)pidself: could not enable tracing: bait:pidself::mark: $re \(errno 22\)$" "$f" &&
        grep -q "^kernel: pid 1 exited with status 1; halting" "$f" && ! grep -qi "killed\|fault" "$f" || r=1
    ok $r "pidself's own $3: the rule lets it by, its notes do not: '$why' (EINVAL); its own look after finds its bait the ELF's"
    [ $r = 0 ] || tail -4 "$f" | sed 's/^/# /'
}
a=$(sym "$self" bait_nop)
attack_self self-nop "pc=$a" "constant equal to the no-op as the site" "" "$a" "is not a USDT site of pidself"
a=$(sym "$self" bait_trap)
attack_self self-trap "pc=$a" "constant equal to the trap as the site" "" "$a" "is not a USDT site of pidself"
if [ -n "$wide" ]; then
    a=$(sym "$self" bait_wide_unit)
    attack_self self-wide "pc=$a" "unit inside its wide instruction as the site" "" "$a" "is not a USDT site of pidself"
fi
a=$(sym "$self" bait_data)
attack_self self-sem "sem=$a" ".data variable as the site's semaphore" semaphore "$a" "is not a semaphore of pidself"

# last: pidself's own site, its note unchanged: accepted; D's count the program's; the no-op back
compile own "$self" ""
boot own "$tmp/own.dobj" $N
l=$(con_of pidself < "$tmp/own" | grep "^pidself: pid 1 after: ")
d=$(con_of pidself < "$tmp/own" | sed -n 's/^pidself: D: marks //p')
case $l in
*": $want_self result "*", data 1000, looks "*" wrong 0, marks $N enabled $N, site bait:mark $knop") r=0 ;;
*) r=1 ;;
esac
[ "$d" = $N ] && grep -q "^kernel: pid 1 exited with status 0; halting" "$tmp/own" || r=1
ok $r "pidself's own bait:::mark (not privileged, its own program): accepted; D's marks ${d:-?}, the program's passes under its semaphore $N; after unloading the site reads the no-op ($knop) again"
[ $r = 0 ] || tail -5 "$tmp/own" | sed 's/^/# /'
