#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pid probes, one per instruction the kernel displaces (docs/pid.md; x86-pc: d/dpid_i386.h,
# mps2-an385: d/dpid_thumb.h), checked against tools that are not ours and the program's own
# checks, in one -icount boot of the pidops image (the board's dtrace starting appinit, which
# starts pidops and the tracelogger). Per architecture, the table below: each ops_* function's
# first instruction, the functions with return probes, one the host refuses, the bad case.
#  - objdump: each of pidops's ops_* functions opens with the instruction it stands for, so
#    every row of the table is run (i386: push %r32, push %esp, push $imm8/$imm32, sub
#    $imm8/$imm32, both mov encodings, lea with no, 8- and 32-bit displacement and into %esp,
#    mov $imm32, ret and ret $imm16; Thumb: push, push.w with and without lr, sub sp, ldr
#    literal at a word and at a halfword, mov ip, r0, nop, movs #0, movs #200, movs rd, rm,
#    bx lr, mov pc, lr, pop, pop.w, ldr pc, [sp], #4), at the entry and at the return;
#  - the host accepts each, and refuses one whose first instruction it cannot run, in DTrace's
#    words;
#  - with an entry probe on each and return probes on several, the program's own checks of
#    what each function returned (the flags each flag-setting instruction left against twin
#    functions no probe touches, run by the CPU itself) find nothing wrong, and each probe
#    fired as often as the program called its function;
#  - the bad case (i386: a push on a stack the program cannot write; Thumb: a movs r1, r0
#    inside an IT block, UNPREDICTABLE there): the probe fires, the kernel does not run the instruction
#    and the thread keeps its fault (pidops killed at that function's address, nm's), and the
#    boot goes on (dtrace prints, the tracelogger loses nothing);
#  - dtrace -i over the boot's capture (its FUNC events) gives the board's counts, and
#    kevstat -s funcs the same calls;
#  - a probe inside another probed instruction (a copy of the ELF file whose twin symbol names
#    the probed instruction's second byte (i386: ops_mov_imm's 0x68, push $imm32 to the host)
#    or halfword (Thumb: ops_pushw's 0x0003, movs r3, r0)): the kernel refuses it in DTrace's
#    words, nothing placed, the program never started.
#   test/qemu/test_pid_ops.sh BUILD_DIR HOST_DIR      (BOARD=x86-pc or mps2-an385)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
img=$B/pidops.elf
prog=$B/pidops/pidops.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
board=${BOARD:-mps2-an385}
# Per architecture: cross tools; the ops_* functions' first instructions (objdump's words);
# the functions with return probes; a function the host refuses at its entry and why; the
# bad case's function (entered once, where the thread is killed) and the calls one more;
# the capture's tracelogger; the twin symbol moved into another's instruction, and where.
case $board in
x86-pc)
    cross=i686-linux-gnu-
    cat > "$tmp/want" <<'T'
ops_push_reg push %ebx
ops_push_esp push %esp
ops_push_imm8 push $0xfffffffb
ops_push_imm32 push $0x12345678
ops_sub8 sub $0x8,%esp
ops_sub32 sub $0x100,%esp
ops_sub8_flags sub $0xffffff80,%esp
ops_sub32_flags sub $0x7ffffff0,%esp
ops_mov89 mov %esp,%edx
ops_mov8b mov %esp,%ecx
ops_lea0 lea (%esp),%edx
ops_lea8 lea 0x4(%esp),%ecx
ops_lea32 lea 0x100(%esp),%ecx
ops_lea_esp lea -0x10(%esp),%esp
ops_mov_imm mov $0x13572468,%eax
ops_ret ret
ops_ret4 ret $0x4
ops_bad_stack mov $0x1000,%esp
T
    rets="ops_ret ops_ret4 ops_retn ops_push_reg ops_sub32 ops_mov_imm ops_lea_esp"
    noentry=ops_retn noentry_why="mov 0x4(%esp),%eax"
    bad_at=ops_push_reg bad_once=ops_bad_stack bad_more=ops_push_reg
    bad_why="a push on a stack pidops cannot write"
    tlog="tracelogger -d1 -u" uart=$tmp/run.uart
    moved=twin_sub8_flags into=ops_mov_imm off=1 ;;
*)
    cross=arm-none-eabi-
    cat > "$tmp/want" <<'T'
ops_push push {r0, r1, lr}
ops_pushw stmdb sp!, {r0, r1}
ops_pushw_lr stmdb sp!, {r0, r1, r8, lr}
ops_sub sub sp, #16
ops_ldr_lit ldr r0, [pc, #0]
ops_ldr_lit2 ldr r0, [pc, #4]
ops_mov mov ip, r0
ops_nop nop
ops_movs_zero movs r1, #0
ops_movs_imm movs r1, #200
ops_movs_reg movs r1, r0
ops_bx bx lr
ops_movpc mov pc, lr
ops_pop pop {r1, r2, pc}
ops_popw ldmia.w sp!, {r1, r2, pc}
ops_ldrpc ldr.w pc, [sp], #4
ops_movs_it moveq r1, r0
T
    rets="ops_push ops_pushw ops_pushw_lr ops_sub ops_movs_reg ops_bx ops_movpc ops_pop ops_popw ops_ldrpc"
    noentry=flagged noentry_why="msr APSR_nzcvq, r1"
    bad_at=ops_movs_it bad_once=ops_movs_it bad_more=
    bad_why="the movs r1, r0 inside an IT block (UNPREDICTABLE there) is not run"
    tlog="tracelogger -d1 -f $tmp/run.kev" uart=
    moved=twin_movs_imm into=ops_pushw off=2 ;;
esac
nrets=$(echo $rets | wc -w)
[ "$board" = x86-pc ] && echo "1..10" || echo "1..11"

# 1: the first instruction of each function, as objdump reads it
"${cross}objdump" -d "$prog" | awk -F'\t' '/^[0-9a-f]+ <ops_[a-z0-9_]+>:$/ {
        f = $0; sub(/.*</, "", f); sub(/>:/, "", f); getline; m = $3; if ($4 != "") m = m " " $4
        gsub(/ +/, " ", m); sub(/ $/, "", m); print f, m }' | sort > "$tmp/have"
sort "$tmp/want" > "$tmp/want.s"
diff "$tmp/want.s" <(grep -v "^$noentry " "$tmp/have") > "$tmp/d1"   # (its entry: refused below)
ok $? "objdump: each ops_* function opens with its instruction ($(wc -l < "$tmp/want") functions)"
[ -s "$tmp/d1" ] && sed 's/^/# /' "$tmp/d1"

# 2: the host's checks: all of them accepted, one it cannot run refused
entries=$(cut -d' ' -f1 "$tmp/want" | sed 's/.*/pid$target::&:entry/' | paste -sd, -)
returns=$(printf 'pid$target::%s:return\n' $rets | paste -sd, -)
cat > "$tmp/ops.d" <<D
$entries { @[probefunc, probename] = count(); }
$returns { @[probefunc, probename] = count(); }
END { printa("COUNT %s %s %@d\n", @); }
D
"$H/dcompile" --elf "$prog" -T pidops -q -s "$tmp/ops.d" -o "$tmp/ops.dobj" > "$tmp/dc.err" 2>&1
r1=$?
"$H/dcompile" --elf "$prog" -T pidops -n "pid\$target::$noentry:entry { @ = count(); }" \
    -o "$tmp/r.dobj" > "$tmp/refuse" 2>&1
grep -qF "pid\$target:pidops:$noentry:entry: $noentry cannot be probed: its first instruction cannot be run out of line" "$tmp/refuse"
r2=$?
[ $r1 = 0 ] && [ $r2 = 0 ]
ok $? "the host accepts the $(wc -l < "$tmp/want") entries and $nrets returns, and refuses $noentry's entry ($noentry_why): 'cannot be probed'"
[ $r1 = 0 ] || sed 's/^/# /' "$tmp/dc.err"
[ $r2 = 0 ] || sed 's/^/# /' "$tmp/refuse"

# 3-5: the boot
(cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/ops.dobj ;; appinit pidops ;; pidops bad ;; $tlog" \
    QEMU_UART1=$uart QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/live" 2>&1)
[ -z "$uart" ] || "$H/kevcapture" -q -o "$tmp/run.kev" "$uart" >> "$tmp/live" 2>&1
rounds=$(sed -n 's/.*pidops: called each \([0-9]*\) times, \([0-9]*\) wrong.*/\1 \2/p' "$tmp/live")
read -r calls wrong <<< "${rounds:-0 x}"
check "pidops's own checks of each function's results under the probes: ${wrong} wrong of $calls rounds (flags: $(sed -n 's/.*pidops: flags //p' "$tmp/live"))" \
    '[ "$calls" -gt 0 ] && [ "$wrong" = 0 ]'
[ "$calls" -gt 0 ] 2>/dev/null || tail -8 "$tmp/live" | sed 's/^/# /'
con_of dtrace < "$tmp/live" | grep '^COUNT ' | sort > "$tmp/board"
bad=0
while read -r f _; do
    want=$calls; [ "$f" = "$bad_more" ] && want=$((calls + 1)); [ "$f" = "$bad_once" ] && want=1
    got=$(awk -v f="$f" '$2 == f && $3 == "entry" { print $4 }' "$tmp/board")
    [ "$got" = "$want" ] || { bad=1; echo "# $f:entry fired ${got:-0} times, the program called it $want"; }
done < "$tmp/want"
for f in $rets; do
    got=$(awk -v f="$f" '$2 == f && $3 == "return" { print $4 }' "$tmp/board")
    [ "$got" = "$calls" ] || { bad=1; echo "# $f:return fired ${got:-0} times, the program called it $calls"; }
done
ok $bad "each entry and return probe fired as often as the program called the function ($calls; $bad_once once, the bad case)"
at=$("${cross}nm" "$prog" | awk -v f="$bad_at" '$3 == f { print $1 }')
check "$bad_why: killed at $bad_at (0x$at) with its fault, the boot goes on" \
    'grep -q "kernel: process [0-9]* (pidops) killed: .*pc 0x$at in thread" "$tmp/live" &&
     grep -q "tracelogger: no events lost" "$tmp/live" && grep -q "^kernel: pid 1 exited with status 0" "$tmp/live"'

# 6-7: the capture
"$H/dtrace" -q --elf "$prog" -i "$tmp/run.kev" -c pidops -s "$tmp/ops.d" 2> "$tmp/replay.err" |
    grep '^COUNT ' | sort > "$tmp/replay"
diff "$tmp/board" "$tmp/replay" > "$tmp/d6" && [ "$(wc -l < "$tmp/replay")" -ge $(($(wc -l < "$tmp/want") + nrets)) ]
ok $? "dtrace -i over the capture gives the board's $(wc -l < "$tmp/board") counts"
[ -s "$tmp/d6" ] && sed 's/^/# /' "$tmp/d6" | head -10
"$H/kevstat" -s funcs "$tmp/run.kev" > "$tmp/funcs" 2>&1
bad=0
while read -r _ f p c; do
    col=2; [ "$p" = return ] && col=3
    got=$(awk -v f="$f" -v c=$col '$1 == f { print $c }' "$tmp/funcs")
    [ "$got" = "$c" ] || { bad=1; echo "# kevstat: $f $p ${got:-none}, D $c"; }
done < "$tmp/board"
ok $bad "kevstat -s funcs over the capture: each function's entries and returns as D counted them"

# 8: a site inside another's instruction (a boot refused at enabling)
mkdir -p "$tmp/moved"
python3 - "$prog" "$tmp/moved/pidops.elf" "$moved" "$into" "$off" <<'PY'
import struct, subprocess, sys
src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, 'rb').read())
syms = {}
for line in subprocess.run(['readelf', '-sW', src], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 8 and f[3] == 'FUNC':
        syms[f[7]] = (int(f[0].rstrip(':')), int(f[1], 16))
for line in subprocess.run(['readelf', '-SW', src], capture_output=True, text=True).stdout.splitlines():
    f = line.replace('[ ', '[').split()
    if len(f) > 5 and f[1] == '.symtab':
        off = int(f[4], 16)
idx = syms[sys.argv[3]][0]
struct.pack_into('<I', data, off + 16 * idx + 4, syms[sys.argv[4]][1] + int(sys.argv[5]))
open(dst, 'wb').write(data)
PY
"$H/dcompile" --elf "$tmp/moved/pidops.elf" -T pidops \
    -n "pid\$target::$into:entry, pid\$target::$moved:entry { @ = count(); }" \
    -o "$tmp/in.dobj" > "$tmp/in.err" 2>&1 || sed 's/^/# /' "$tmp/in.err"
(cd "$tmp" && QEMU_ARGS="dtrace -c pidops $tmp/in.dobj" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/inside" 2>&1)
grep -q "dtrace: could not enable tracing: pid:pidops:$moved:entry: 0x[0-9a-f]* is inside the instruction probed at 0x0*$(printf '%x' $((0x$("${cross}nm" "$prog" | awk -v f="$into" '$3 == f { print $1 }'))))" "$tmp/inside" &&
    ! grep -q "pidops: called" "$tmp/inside"
ok $? "a probe inside another probed instruction ($into's byte $off): refused by the kernel, nothing run"
[ $? = 0 ] || tail -4 "$tmp/inside" | sed 's/^/# /'

# 9 (Thumb): each instruction the kernel runs, inside IT blocks of every condition (pidops's
# ito_K_N: K the instruction, N the condition, 0 eq ... 13 le; ITE N, so the next instruction
# shows the IT state the kernel left), probed; pidops checks each against its never probed
# twin and against the condition's truth under the flags of each round: the 98 probes in one
# boot.
# A probe there fires when its condition holds: QEMU's CPU skips the trap of a failing one,
# as any instruction whose condition fails (the kernel skips it too, if a CPU traps on it).
# held N CALLS: the rounds whose flags (round i's N Z C V: i's low 4 bits, pidops_arch.c) pass
# condition N, by the ARMv7-M manual's table of conditions.
held() {
    local n=$1 i k=0 N Z C V r
    for i in $(seq 1 "$2"); do
        N=$((i >> 3 & 1)) Z=$((i >> 2 & 1)) C=$((i >> 1 & 1)) V=$((i & 1))
        case $((n / 2)) in
        0) r=$Z ;; 1) r=$C ;; 2) r=$N ;; 3) r=$V ;; 4) r=$((C && !Z)) ;;
        5) r=$((N == V)) ;; *) r=$((N == V && !Z)) ;;
        esac
        [ $((n & 1)) = 1 ] && r=$((!r))
        k=$((k + r))
    done
    echo $k
}
if [ "$board" != x86-pc ]; then
    itbad=0 itruns=0 itfired=0
    for conds in "$(seq 0 13)"; do
        fns=$(for c in $conds; do for k in mov movi nop ldr sub bx movpc; do echo "ito_${k}_$c"; done; done)
        # (two clauses: a clause takes at most 64 probe descriptions)
        for half in 'ito_[a-z]*_[0-6]$' 'ito_[a-z]*_([7-9]|1[0-3])$'; do
            printf '%s\n' $fns | grep -E "$half" | sed 's/.*/pid$target::&:entry/' | paste -sd, -
            echo '{ @[probefunc] = count(); }'
        done > "$tmp/it.d"
        echo 'END { printa("ITCOUNT %s %@d\n", @); }' >> "$tmp/it.d"
        "$H/dcompile" --elf "$prog" -T pidops -q -s "$tmp/it.d" -o "$tmp/it.dobj" > "$tmp/it.err" 2>&1 ||
            { itbad=1; sed 's/^/# /' "$tmp/it.err"; }
        (cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/it.dobj ;; appinit pidops" QEMU_ICOUNT=1 \
            QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/itlive" 2>&1)
        r=$(sed -n 's/.*pidops: called each \([0-9]*\) times, \([0-9]*\) wrong.*/\1 \2/p' "$tmp/itlive")
        read -r c w <<< "${r:-0 x}"
        [ "$w" = 0 ] && [ "$c" -gt 0 ] || { itbad=1; grep 'pidops: ' "$tmp/itlive" | head -8 | sed 's/^/# /'; }
        for f in $fns; do
            got=$(con_of dtrace < "$tmp/itlive" | awk -v f="$f" '$1 == "ITCOUNT" && $2 == f { print $3 }')
            want=$(held "${f##*_}" "$c")
            [ "${got:-0}" = "$want" ] || { itbad=1; echo "# $f:entry fired ${got:-0} times; its condition held in $want of $c calls"; }
            itfired=$((itfired + ${got:-0}))
        done
        itruns=$((itruns + 1))
    done
    ok $itbad "inside IT blocks of the 14 conditions, 7 instructions probed, 98 probes in one boot ($itfired firings): pidops's checks against the unprobed twins and the conditions find nothing wrong; each probe fired once a call whose condition held"
fi

# 10: every function of pidops, entry and return (pid$target:a.out::entry and ::return: some
# 700 sites on Thumb, more than the 32 the kernel once held; those the host cannot run are
# left out, counted on one line), in one boot without the bad case. Each probe placed on a
# function of the program's own (ops_*, twin_*, itin_*, itwin_* and the ito_*, itwo_* inside
# their IT blocks) fires as often as pidops called it: ROUNDS times, an ito_/itwo_ entry when
# its condition held, the bad case's function never; and dtrace -i over the boot's capture
# gives every count the board gave (the C library's functions included). (strsize: 700 keys
# of two 256-byte strings would overflow the board's 256 KB of aggregations.)
cat > "$tmp/all.d" <<'D'
#pragma D option strsize=32
pid$target:a.out::entry, pid$target:a.out::return { @[probefunc, probename] = count(); }
END { printa("ALL %s %s %@d\n", @); }
D
"$H/dtrace" -l --elf "$prog" -n 'pid$target:a.out::entry,pid$target:a.out::return' 2> "$tmp/all.l.err" |
    awk 'NR > 1 { print $4, $5 }' | sort > "$tmp/all.placed"
"$H/dcompile" --elf "$prog" -T pidops -q -s "$tmp/all.d" -o "$tmp/all.dobj" > "$tmp/all.err" 2>&1 ||
    sed 's/^/# /' "$tmp/all.err"
[ -n "$uart" ] && uart=$tmp/all.uart
rm -f "$tmp/run.kev"
(cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/all.dobj ;; appinit pidops ;; $tlog" \
    QEMU_UART1=$uart QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/all.live" 2>&1)
[ -z "$uart" ] || "$H/kevcapture" -q -o "$tmp/run.kev" "$uart" >> "$tmp/all.live" 2>&1
con_of dtrace < "$tmp/all.live" | grep '^ALL ' | sort > "$tmp/all.board"
r=$(sed -n 's/.*pidops: called each \([0-9]*\) times, \([0-9]*\) wrong.*/\1 \2/p' "$tmp/all.live")
read -r c w <<< "${r:-0 x}"
bad=0 own=0
[ "$w" = 0 ] && [ "$c" -gt 0 ] || { bad=1; tail -8 "$tmp/all.live" | sed 's/^/# /'; }
while read -r f p; do
    case $f in ops_*|twin_*|itin_*|itwin_*|ito_*|itwo_*) ;; *) continue ;; esac
    want=$c
    case $f:$p in ito_*:entry|itwo_*:entry) want=$(held "${f##*_}" "$c") ;; esac
    [ "$f" = "$bad_once" ] && want=0
    got=$(awk -v f="$f" -v p="$p" '$2 == f && $3 == p { print $4 }' "$tmp/all.board")
    [ "${got:-0}" = "$want" ] || { bad=1; echo "# $f:$p fired ${got:-0} times, the program called it $want"; }
    own=$((own + 1))
done < <(uniq "$tmp/all.placed")
np=$(wc -l < "$tmp/all.placed")
[ "$np" -gt 64 ] && [ "$own" -gt 32 ] || bad=1
ok $bad "every function's entry and return ($np probes placed, $(sed -n 's/^dtrace: \([0-9]*\) pid probes matched by a glob not placed.*/\1/p' "$tmp/all.l.err") left out): pidops's checks find nothing wrong, its $own on its own functions fired as it called them"
"$H/dtrace" -q --elf "$prog" -i "$tmp/run.kev" -c pidops -s "$tmp/all.d" 2> "$tmp/all.replay.err" |
    grep '^ALL ' | sort > "$tmp/all.replay"
diff "$tmp/all.board" "$tmp/all.replay" > "$tmp/d10" && [ -s "$tmp/all.board" ]
ok $? "dtrace -i over that boot's capture gives the board's $(wc -l < "$tmp/all.board") counts"
if [ -s "$tmp/d10" ]; then sed 's/^/# /' "$tmp/d10" | head -10; fi
