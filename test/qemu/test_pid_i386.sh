#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pid probes on x86-pc, one per instruction the kernel displaces (docs/pid.md,
# d/dpid_i386.h), checked against tools that are not ours and the program's own checks, in one
# -icount boot of the pidops image (the board's dtrace starting appinit, which starts pidops
# and the tracelogger):
#  - objdump: each of pidops's ops_* functions opens with the instruction it stands for, so
#    every row of the table is run (push %r32, push %esp, push $imm8/$imm32, sub $imm8/$imm32,
#    both mov encodings, lea with no, 8- and 32-bit displacement and into %esp, mov $imm32,
#    ret and ret $imm16 at the entry and at the return);
#  - the host accepts each, and refuses ops_retn's entry (a load from the stack) in DTrace's
#    words;
#  - with an entry probe on each and return probes on seven, the program's own checks of what
#    each function returned (the flags of both subs against twin functions no probe touches,
#    run by the CPU itself) find nothing wrong, and each probe fired as often as the program
#    called its function;
#  - a push on a stack the program cannot write: the probe fires, the kernel does not run the
#    push and the thread keeps its fault (pidops killed at ops_push_reg's address, nm's), and
#    the boot goes on (dtrace prints, the tracelogger loses nothing);
#  - dtrace -i over the boot's capture (its FUNC events; pidops's functions start on odd
#    addresses too) gives the board's counts, and kevstat -s funcs the same calls;
#  - a probe inside another probed instruction (a copy of the ELF file whose twin_sub8_flags
#    symbol names ops_mov_imm's second byte, 0x68: push $imm32 to the host): the kernel
#    refuses it in DTrace's words, nothing placed, the program never started.
#   test/qemu/test_pid_i386.sh BUILD_DIR HOST_DIR      (BOARD=x86-pc)
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
echo "1..8"

# 1: the first instruction of each function, as objdump reads it
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
i686-linux-gnu-objdump -d "$prog" | awk -F'\t' '/^[0-9a-f]+ <ops_[a-z0-9_]+>:$/ {
        f = $0; sub(/.*</, "", f); sub(/>:/, "", f); getline; m = $3; gsub(/ +/, " ", m);
        sub(/ $/, "", m); print f, m }' | sort > "$tmp/have"
sort "$tmp/want" > "$tmp/want.s"
diff "$tmp/want.s" <(grep -v '^ops_retn ' "$tmp/have") > "$tmp/d1"   # (its entry: refused below)
ok $? "objdump: each ops_* function opens with its instruction ($(wc -l < "$tmp/want") functions)"
[ -s "$tmp/d1" ] && sed 's/^/# /' "$tmp/d1"

# 2: the host's checks: all of them accepted, a load from the stack refused
entries=$(cut -d' ' -f1 "$tmp/want" | sed 's/.*/pid$target::&:entry/' | paste -sd, -)
rets="ops_ret ops_ret4 ops_retn ops_push_reg ops_sub32 ops_mov_imm ops_lea_esp"
returns=$(printf 'pid$target::%s:return\n' $rets | paste -sd, -)
cat > "$tmp/ops.d" <<D
$entries { @[probefunc, probename] = count(); }
$returns { @[probefunc, probename] = count(); }
END { printa("COUNT %s %s %@d\n", @); }
D
"$H/dcompile" --elf "$prog" -T pidops -q -s "$tmp/ops.d" -o "$tmp/ops.dobj" > "$tmp/dc.err" 2>&1
r1=$?
"$H/dcompile" --elf "$prog" -T pidops -n 'pid$target::ops_retn:entry { @ = count(); }' \
    -o "$tmp/r.dobj" > "$tmp/refuse" 2>&1
grep -qF 'pid$target:pidops:ops_retn:entry: ops_retn cannot be probed: its first instruction cannot be run out of line' "$tmp/refuse"
r2=$?
[ $r1 = 0 ] && [ $r2 = 0 ]
ok $? "the host accepts the $(wc -l < "$tmp/want") entries and 7 returns, and refuses ops_retn's entry (mov 0x4(%esp),%eax): 'cannot be probed'"
[ $r1 = 0 ] || sed 's/^/# /' "$tmp/dc.err"
[ $r2 = 0 ] || sed 's/^/# /' "$tmp/refuse"

# 3-5: the boot
(cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/ops.dobj ;; appinit pidops tracelogger ;; pidops bad ;; tracelogger -d1 -u" \
    QEMU_UART1=$tmp/run.uart QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/live" 2>&1)
"$H/kevcapture" -q -o "$tmp/run.kev" "$tmp/run.uart" >> "$tmp/live" 2>&1
rounds=$(sed -n 's/.*pidops: called each \([0-9]*\) times, \([0-9]*\) wrong.*/\1 \2/p' "$tmp/live")
read -r calls wrong <<< "${rounds:-0 x}"
check "pidops's own checks of each function's results under the probes: ${wrong} wrong of $calls rounds (flags: $(sed -n 's/.*pidops: flags //p' "$tmp/live"))" \
    '[ "$calls" -gt 0 ] && [ "$wrong" = 0 ]'
[ "$calls" -gt 0 ] 2>/dev/null || tail -8 "$tmp/live" | sed 's/^/# /'
con_of dtrace < "$tmp/live" | grep '^COUNT ' | sort > "$tmp/board"
bad=0
while read -r f _; do
    want=$calls; [ "$f" = ops_push_reg ] && want=$((calls + 1)); [ "$f" = ops_bad_stack ] && want=1
    got=$(awk -v f="$f" '$2 == f && $3 == "entry" { print $4 }' "$tmp/board")
    [ "$got" = "$want" ] || { bad=1; echo "# $f:entry fired ${got:-0} times, the program called it $want"; }
done < "$tmp/want"
for f in $rets; do
    got=$(awk -v f="$f" '$2 == f && $3 == "return" { print $4 }' "$tmp/board")
    [ "$got" = "$calls" ] || { bad=1; echo "# $f:return fired ${got:-0} times, the program called it $calls"; }
done
ok $bad "each entry and return probe fired as often as the program called the function ($calls; ops_push_reg once more, on the bad stack)"
at=$(i686-linux-gnu-nm "$prog" | awk '$3 == "ops_push_reg" { print $1 }')
check "the push on a stack pidops cannot write is not run: killed at ops_push_reg (0x$at) with its fault, the boot goes on" \
    'grep -q "kernel: process [0-9]* (pidops) killed: .*, pc 0x$at in thread" "$tmp/live" &&
     grep -q "tracelogger: no events lost" "$tmp/live" && grep -q "^kernel: pid 1 exited with status 0" "$tmp/live"'

# 6-7: the capture
"$H/dtrace" -q --elf "$prog" -i "$tmp/run.kev" -c pidops -s "$tmp/ops.d" 2> "$tmp/replay.err" |
    grep '^COUNT ' | sort > "$tmp/replay"
diff "$tmp/board" "$tmp/replay" > "$tmp/d6" && [ "$(wc -l < "$tmp/replay")" -ge 25 ]
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
python3 - "$prog" "$tmp/moved/pidops.elf" <<'PY'
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
idx = syms['twin_sub8_flags'][0]
struct.pack_into('<I', data, off + 16 * idx + 4, syms['ops_mov_imm'][1] + 1)
open(dst, 'wb').write(data)
PY
"$H/dcompile" --elf "$tmp/moved/pidops.elf" -T pidops \
    -n 'pid$target::ops_mov_imm:entry, pid$target::twin_sub8_flags:entry { @ = count(); }' \
    -o "$tmp/in.dobj" > "$tmp/in.err" 2>&1 || sed 's/^/# /' "$tmp/in.err"
(cd "$tmp" && QEMU_ARGS="dtrace -c pidops $tmp/in.dobj" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/inside" 2>&1)
grep -q "dtrace: could not enable tracing: pid:pidops:twin_sub8_flags:entry: 0x[0-9a-f]* is inside the instruction probed at 0x0*$(printf '%x' $((0x$(i686-linux-gnu-nm "$prog" | awk '$3 == "ops_mov_imm" { print $1 }'))))" "$tmp/inside" &&
    ! grep -q "pidops: called" "$tmp/inside"
ok $? "a probe inside another probed instruction (ops_mov_imm's second byte): refused by the kernel, nothing run"
[ $? = 0 ] || tail -4 "$tmp/inside" | sed 's/^/# /'
