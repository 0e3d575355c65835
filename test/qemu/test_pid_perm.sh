#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Who may place pid probes (docs/pid.md, "Who may"), with a consumer that is not privileged:
# pidself (KAPP_F_TRACE|KAPP_F_HOSTFS, no KAPP_F_PRIV) loads a host-compiled D object and
# starts it, in the pidperm image (pidself pid 1, pidpeer the other program it starts). A boot
# each (-icount, about half a second):
#  - pid2::pidpeer_work:entry, and pid$target (-T pidpeer), on the other program's process:
#    the kernel refuses in DTrace's words ("failed to grab process 2: permission denied"),
#    with EPERM; pidself says so and ends cleanly (status 1, no fault); pidpeer's own reads of
#    its function's first bytes, at its start and after the refusal while the object is still
#    loaded, are the ELF file's as gdb-multiarch reads them: nothing was written;
#  - pid1::pidself_step:entry/return, and pid$target (-T pidself), on the consumer's own
#    program: accepted, and the D globals counting the firings equal the program's own count
#    of its calls (N).
#   test/qemu/test_pid_perm.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/pidperm.elf
self=$B/pidperm/pidself.elf
peer=$B/pidperm/pidpeer.elf
N=1000
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..5"

boot() {    # boot NAME ARGS...: pidself's command line, the console in $tmp/NAME
    local name=$1; shift
    (cd "$tmp" && QEMU_ARGS="pidself $*" QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-60} \
        "$here/scripts/qemu-run.sh" "$img" > "$tmp/$name" 2>&1)
}

# 1: the truth for "nothing written": pidpeer_work's first four bytes in the ELF file
elf_bytes=$(gdb-multiarch -q -batch -ex 'x/4xb pidpeer_work' "$peer" 2>/dev/null |
    sed -n 's/^0x[0-9a-f]* <pidpeer_work>:[[:space:]]*//p' | sed 's/0x//g; s/[[:space:]]\+/ /g; s/ $//')
check "gdb-multiarch reads pidpeer_work's first bytes from the ELF file ($elf_bytes)" \
    '[ "$(echo $elf_bytes | wc -w)" = 4 ]'

# 2-3: the other program's process, by its pid and as $target: refused, nothing written
refused() {     # refused NAME PROBE WHY: the checks of one refused boot
    local f=$tmp/$1 start later
    start=$(con_of pidpeer < "$f" | sed -n "s/^pidpeer: pid 2, pidpeer_work's first bytes at start: //p")
    later=$(con_of pidpeer < "$f" | sed -n "s/^pidpeer: pid 2, pidpeer_work's first bytes later: //p")
    # the refusal, then (the object still loaded) the peer's second read
    con_text < "$f" | grep -nF -e "pidself: could not enable tracing: $2: $3 (EPERM)" \
        -e "pidpeer: pid 2, pidpeer_work's first bytes later:" | cut -d: -f1 > "$tmp/$1.order"
    [ "$(wc -l < "$tmp/$1.order")" = 2 ] && [ "$(head -1 "$tmp/$1.order")" -lt "$(tail -1 "$tmp/$1.order")" ] &&
        [ -n "$elf_bytes" ] && [ "$start" = "$elf_bytes" ] && [ "$later" = "$elf_bytes" ] &&
        grep -qE "$(con_from pidself)pidself: pidpeer \(pid 2\) exited with status 0$" "$f" &&
        grep -qE "$(con_from pidself)pidself: done$" "$f" &&
        grep -q "^kernel: pid 1 exited with status 1; halting" "$f" &&
        ! grep -q "killed\|fault" "$f"
    local r=$?
    ok $r "pidself (not privileged) on $2: '$3', EPERM; pidpeer's bytes at start ($start) and after the refusal ($later) are the ELF file's"
    [ $r = 0 ] || tail -8 "$f" | sed 's/^/# /'
}
"$H/dcompile" --elf "$peer" -n 'BEGIN { entries = 0; } pid2::pidpeer_work:entry { entries = entries + 1; }' \
    -o "$tmp/other.dobj" > "$tmp/other.err" 2>&1 || sed 's/^/# /' "$tmp/other.err"
boot other "$tmp/other.dobj" $N pidpeer 50
refused other pid2:pidpeer:pidpeer_work:entry "failed to grab process 2: permission denied"
"$H/dcompile" --elf "$peer" -T pidpeer -n 'BEGIN { entries = 0; } pid$target::pidpeer_work:entry { entries = entries + 1; }' \
    -o "$tmp/othert.dobj" > "$tmp/othert.err" 2>&1 || sed 's/^/# /' "$tmp/othert.err"
boot othert "$tmp/othert.dobj" $N pidpeer 50
refused othert pid:pidpeer:pidpeer_work:entry "failed to grab a process of pidpeer: permission denied"

# 4-5: its own program's process (itself: a program runs as one process at a time), by its pid
# and as $target: accepted, D's counts the program's
accepted() {    # accepted NAME PROV: the checks of one accepted boot
    local f=$tmp/$1 line
    line=$(con_of pidself < "$f" | sed -n 's/^pidself: pid 1 called pidself_step \([0-9]*\) times (acc [0-9]*); D: entries \([0-9a-z]*\), returns \([0-9a-z]*\)$/\1 \2 \3/p')
    set -- "$1" "$2" $line
    [ $# = 5 ] && [ "$3" = $N ] && [ "$4" = "$3" ] && [ "$5" = "$3" ] &&
        grep -q "^kernel: pid 1 exited with status 0; halting" "$f"
    local r=$?
    ok $r "pidself (not privileged) on its own process, $2::pidself_step: accepted; D's entries and returns ${4:-?}/${5:-?}, the program's calls ${3:-?} (N $N)"
    [ $r = 0 ] || tail -6 "$f" | sed 's/^/# /'
}
D='BEGIN { entries = 0; returns = 0; }'
"$H/dcompile" --elf "$self" -n "$D"' pid1::pidself_step:entry { entries = entries + 1; }
    pid1::pidself_step:return { returns = returns + 1; }' -o "$tmp/own.dobj" > "$tmp/own.err" 2>&1 ||
    sed 's/^/# /' "$tmp/own.err"
boot own "$tmp/own.dobj" $N
accepted own pid1
"$H/dcompile" --elf "$self" -T pidself -n "$D"' pid$target::pidself_step:entry { entries = entries + 1; }
    pid$target::pidself_step:return { returns = returns + 1; }' -o "$tmp/ownt.dobj" > "$tmp/ownt.err" 2>&1 ||
    sed 's/^/# /' "$tmp/ownt.err"
boot ownt "$tmp/ownt.dobj" $N
accepted ownt 'pid$target'
