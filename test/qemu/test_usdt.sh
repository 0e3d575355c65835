#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# USDT probes (docs/usdt.md), checked against tools that are not ours and against the
# program's own counters, in one -icount boot of the usdt image (the board's dtrace starting
# usdtdemo):
#  - binutils' readelf -n and gdb-multiarch's `info probes` list usdtdemo's stapsdt notes, and
#    our dtrace -l --elf lists the same probes at the same addresses;
#  - the note survived the program's link: it is in the ELF file the image holds, and each
#    site is a `nop` there (objdump);
#  - enabled, every site fires as often as the program says it passed it, with its arguments
#    (arg0 of demo:::step summed equals the sum of i the program passed, arg1 the running
#    value step was given, demo:::third's arguments its counter and -i);
#  - the same D program with dtrace -i over that boot's capture (SYSTEM USDT events, taken by
#    the tracelogger appinit starts) gives the board's answers, count for count;
#  - a probe that matches nothing, and a site address that is not a site: DTrace-worded
#    refusals, nothing placed.
#   test/qemu/test_usdt.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
img=$B/usdt.elf
prog=$B/usdt/usdtdemo.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cross=arm-none-eabi-
echo "1..11"

# 1-3: three listings of the same notes
dec() { while read -r p nm a; do printf '%s %s %d\n' "$p" "$nm" "$a"; done | sort; }
readelf -n "$prog" | awk '/Provider:/ { p = $2 } /Name:/ { n = $2 }
    /Location:/ { sub(",", "", $2); print p, n, $2 }' | dec > "$tmp/readelf"
gdb-multiarch -q -batch -ex 'info probes' "$prog" 2>/dev/null |
    awk '$1 == "stap" { print $2, $3, $4 }' | dec > "$tmp/gdb"
"$H/dtrace" --elf "$prog" -l 2>"$tmp/list.err" |
    awk '$2 == "demo" { print $2, $5, $3 }' | sort -u > "$tmp/dnames"
nsites=$(wc -l < "$tmp/readelf")
check "readelf -n lists usdtdemo's $nsites USDT sites (step, third, done)" \
    '[ "$nsites" -ge 3 ] && [ "$(cut -d" " -f2 "$tmp/readelf" | sort -u | tr "\n" " ")" = "done step third " ]'
diff "$tmp/readelf" "$tmp/gdb" > "$tmp/d1"
ok $? "gdb-multiarch's info probes lists the same sites at the same addresses"
[ -s "$tmp/d1" ] && sed 's/^/# /' "$tmp/d1"
cut -d" " -f1,2 "$tmp/readelf" | sort -u > "$tmp/rnames"
cut -d" " -f1,2 "$tmp/dnames" | sort -u > "$tmp/dn2"
diff "$tmp/rnames" "$tmp/dn2" > "$tmp/d2"
ok $? "dtrace -l --elf lists the same probes ($(tr '\n' ',' < "$tmp/dn2"))"
[ -s "$tmp/d2" ] && sed 's/^/# /' "$tmp/d2"

# 4: each site is a nop in the image the board runs (its .apps section holds the programs' bytes)
bad=0
while read -r p nm a; do
    ins=$(${cross}objdump -D -M force-thumb --start-address=$a --stop-address=$((a + 2)) "$img" |
          awk -F'\t' '/^ *[0-9a-f]+:/ { print $3; exit }')
    [ "$ins" = "nop" ] || { echo "# site $p:::$nm at $a holds '$ins'"; bad=1; }
done < "$tmp/readelf"
ok $bad "every site is one nop in the image's text (the disabled cost: that instruction)"

# 5-7: enabled, the firings against the program's own counters
cat > "$tmp/usdt.d" <<'D'
#pragma D option quiet
demo:::step { @n["step"] = count(); @s["step-arg0"] = sum(arg0); @mx["step-arg1"] = max(arg1); }
demo:::third { @n["third"] = count(); @s["third-arg0"] = sum(arg0); @mn["third-arg1"] = min((int)arg1); }
demo:::done { @n["done"] = count(); }
demo:::step /arg0 == 7/ { printf("@@A step %d %d %s %s\n", arg0, arg1, probemod, probefunc); }
END { printa("@@N %s %@d\n", @n); printa("@@N %s %@d\n", @s); printa("@@N %s %@d\n", @mx);
    printa("@@N %s %@d\n", @mn); }
D
"$H/dcompile" --elf "$prog" -s "$tmp/usdt.d" -o "$tmp/usdt.dobj" 2> "$tmp/dcompile.err" ||
    sed 's/^/# /' "$tmp/dcompile.err"
(cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/usdt.dobj ;; appinit usdtdemo ;; tracelogger -d1 -f $tmp/run.kev" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/live" 2>&1)
rc=$?
ok $rc "usdtdemo ran under dtrace with its USDT probes enabled and exited 0"
[ $rc = 0 ] || tail -20 "$tmp/live" | sed 's/^/# /'
line=$(grep -o 'usdtdemo: passed step [0-9]* third [0-9]* done [0-9]*, acc [0-9]*' "$tmp/live")
read -r ps pt pd acc < <(echo "$line" | sed -E 's/.*step ([0-9]+) third ([0-9]+) done ([0-9]+), acc ([0-9]+)/\1 \2 \3 \4/')
con_of dtrace < "$tmp/live" | grep '^@@' > "$tmp/board"
v() { awk -v k="$1" '$1 == "@@N" && $2 == k { print $3 }' "$tmp/board"; }
echo "# program: step $ps third $pt done $pd acc $acc; D: step $(v step) third $(v third) done $(v done)"
check "each probe fired as often as the program passed its site (step $ps, third $pt, done $pd)" \
    '[ -n "$ps" ] && [ "$(v step)" = "$ps" ] && [ "$(v third)" = "$pt" ] && [ "$(v done)" = "$pd" ]'
# the program's arguments: step(i, acc) for i = 1..30, acc the running sum of 3j for j < i
# (the last, at i = 30, the program's final acc - 90; at i = 7, 63); third's counter 1..10
# and -i for i = 3, 6, ... 30
check "the arguments are the program's: sum of step's i $(v step-arg0) (465), its last acc $(v step-arg1) ($((${acc:-0} - 90))), third's counter sum $(v third-arg0) (55) and least -i $(v third-arg1) (-30), step 7 at usdtdemo\`step" \
    '[ "$(v step-arg0)" = 465 ] && [ "$(v step-arg1)" = "$((${acc:-0} - 90))" ] && [ "$(v third-arg0)" = 55 ] &&
     [ "$(v third-arg1)" = -30 ] && grep -q "^@@A step 7 63 usdtdemo step$" "$tmp/board"'

# 8-9: over the capture, the same answers
grep -q "tracelogger: no events lost" "$tmp/live"
ok $? "the capture of the run lost nothing"
"$H/dtrace" -q --elf "$prog" -i "$tmp/run.kev" -s "$tmp/usdt.d" > "$tmp/replay.raw" 2> "$tmp/replay.err"
grep '^@@' "$tmp/replay.raw" | sort > "$tmp/replay"
sort "$tmp/board" > "$tmp/board.sorted"
diff "$tmp/board.sorted" "$tmp/replay" > "$tmp/d3" && [ "$(wc -l < "$tmp/replay")" -ge 8 ]
ok $? "dtrace -i over the capture gives the board's $(wc -l < "$tmp/board.sorted") answers, count for count and argument for argument"
[ -s "$tmp/d3" ] && sed 's/^/# /' "$tmp/d3" | head -20
[ -s "$tmp/replay.err" ] && sed 's/^/# stderr: /' "$tmp/replay.err" | head -5

# 10: a probe description matching nothing: the compiler says so in DTrace's words
"$H/dcompile" --elf "$prog" -n 'demo:::nosuch { exit(0); }' -o "$tmp/x.dobj" > "$tmp/nomatch" 2>&1
grep -q 'probe description demo:::nosuch does not match any probes' "$tmp/nomatch"
ok $? "a USDT probe that does not exist: 'does not match any probes'"
[ $? = 0 ] || sed 's/^/# /' "$tmp/nomatch"

# 11: a site address that is not a site (the note of demo:::done moved to the instruction
# after its nop, in a copy of the ELF file): the kernel checks the site before it writes
# anything and refuses in DTrace's words.
python3 - "$prog" "$tmp/moved.elf" <<'PY'
import struct, subprocess, sys
src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, 'rb').read())
for line in subprocess.run(['readelf', '-SW', src], capture_output=True, text=True).stdout.splitlines():
    f = line.replace('[ ', '[').split()
    if len(f) > 5 and f[1] == '.note.stapsdt':
        off, size = int(f[4], 16), int(f[5], 16)
pos = off
while pos < off + size:
    namesz, descsz, typ = struct.unpack_from('<III', data, pos)
    desc = pos + 12 + ((namesz + 3) & ~3)
    strings = bytes(data[desc + 12:desc + descsz]).split(b'\0')
    if strings[1] == b'done':
        struct.pack_into('<I', data, desc, struct.unpack_from('<I', data, desc)[0] + 2)
    pos = desc + ((descsz + 3) & ~3)
open(dst, 'wb').write(data)
PY
cp "$tmp/moved.elf" "$tmp/usdtdemo.elf"
"$H/dcompile" --elf "$tmp/usdtdemo.elf" -n 'demo:::done { @ = count(); }' -o "$tmp/moved.dobj" 2> "$tmp/moved.err" ||
    sed 's/^/# /' "$tmp/moved.err"
(cd "$tmp" && QEMU_ARGS="dtrace -c usdtdemo $tmp/moved.dobj" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/moved" 2>&1)
grep -q "dtrace: could not enable tracing: demo:usdtdemo::done: 0x[0-9a-f]* is not a USDT site of usdtdemo" "$tmp/moved"
ok $? "a note that names no site: 'is not a USDT site of usdtdemo', refused before anything is written"
[ $? = 0 ] || tail -8 "$tmp/moved" | sed 's/^/# /'
