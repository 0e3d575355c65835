#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# D's symbolic addresses (ufunc, usym, uaddr, umod, func and printf's %A/%a), live and over a
# capture, against the ELF's own symbol table as binutils' nm lists it (stacksym names them
# with libdwfl: two readers of one ELF file).
#  live: user/apps/stackchain spins under profile-4999 (QEMU -icount: the same samples every run); arg1 is the interrupted user pc. Each
#    printed "%x %A" pair must name the nm function that holds the pc, at the pc's offset in
#    it; @u[ufunc(arg1)] must be the board's per-address rows merged by nm's function (the
#    board groups by address, libdtrace by symbol: dt_aggregate_usym), @m[umod(arg1)] one
#    row of every sample, and @a[uaddr(arg1)] one row an address (no grouping).
#  capture: the host's dtrace -i prints ufunc/uaddr/%A/%a of nm's addresses the same way.
#   test/stacks/test_symaddr.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)    # (QEMU runs in $tmp, below)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
img=$B/stacks.elf
prog=$B/stacks/stackchain.elf
case $(readelf -h "$prog" | sed -n 's/ *Machine: *//p') in
    ARM) nm=arm-none-eabi-nm ;;
    AArch64) nm=aarch64-linux-gnu-nm ;;
    *80386*) nm=i686-linux-gnu-nm ;;
    *) nm=nm ;;
esac
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
sym() { "$H/stacksym" -k "$img" "$B"/stacks/*.elf; }
# nm's functions of an ELF file: "start end name", Thumb bit cleared
funcs() { "$nm" -S -n "$1" | while read -r a z t f; do
    case $t in t|T|w|W) [ -n "$f" ] && echo "$(( 16#$a & ~1 )) $(( (16#$a & ~1) + 16#$z )) $f" ;; esac
done; }
# owner FILE ADDR: nm's function holding ADDR (decimal), and ADDR's offset in it
owner() { awk -v a="$2" '$1 <= a && a < $2 { print $3, a - $1; exit }' "$1"; }
funcs "$prog" > "$tmp/prog.funcs"
funcs "$img" > "$tmp/kernel.funcs"
# canon: names that share their address with one nm lists first (aliases: memmove and
# __aeabi_memmove) written as that one, so that a symbolizer's choice among them is not a miss
canon() { awk 'FILENAME != "-" { k = FILENAME " " $1; if (k in first) alias[$3] = first[k]; else first[k] = $3; next }
    { out = ""; s = $0
      while (match(s, /`[A-Za-z0-9_.$]+/)) {
          n = substr(s, RSTART + 1, RLENGTH - 1)
          out = out substr(s, 1, RSTART) (n in alias ? alias[n] : n); s = substr(s, RSTART + RLENGTH)
      }
      print out s }' "$tmp/prog.funcs" "$tmp/kernel.funcs" -; }
echo "1..9"

# (compact: on x86-pc the whole command line, program included, must fit appinit's 512 bytes)
D='profile-4999/execname=="stackchain"/{@u[ufunc(arg1)]=count();@a[uaddr(arg1)]=count();@m[umod(arg1)]=count();@n=count();}
profile-4999/execname=="stackchain"&&++k<=8/{printf("sample %x %A\n",arg1,arg1);}
profile-4999/arg0!=0/{@k[func(arg0)]=count();}
END{printf("\nufunc\n");printa(@u);printf("\nuaddr\n");printa(@a);printf("\numod\n");printa(@m);printf("\nfunc\n");printa(@k);printf("\nsamples\n");printa(@n);}'
obj=$B/stacks-symaddr.dobj
"$H/dcompile" -q -n "$D" -o "$obj" || { echo "not ok 1 - dcompile"; exit 1; }
if grep -qs 'BOARD_TRACE_STORAGE *:= *uart' "$here/boards/${BOARD:-mps2-an385}"/*.mk; then
    args="dtrace -q -c appinit -n '$(tr '\n' ' ' <<< "$D")' ;; appinit stackchain"
else
    args="dtrace -c appinit $obj ;; appinit stackchain"
fi
# QEMU runs in $tmp: the image's tracelogger writes tracebuffer.kev where QEMU runs.
(cd "$tmp" && QEMU_ICOUNT=1 QEMU_ARGS=$args QEMU_TIMEOUT=120 exec "$here/scripts/qemu-run.sh" "$img") \
    > "$tmp/run.out" 2>&1
rc=$?
con_of dtrace < "$tmp/run.out" | grep -v '^kernel: ' > "$tmp/raw"
sym < "$tmp/raw" | canon > "$tmp/named"
# the section of a file after the line "$2" up to the next blank line
section() { awk -v h="$2" '$0 == h { on = 1; next } on && NF == 0 && seen { exit } on && NF { seen = 1; print }' "$1"; }
nsamples=$(section "$tmp/raw" samples | awk '{ print $1 }')
if [ $rc = 0 ] && [ "${nsamples:-0}" -ge 20 ]; then echo "ok 1 - the image ran, $nsamples samples in stackchain"; else
    echo "not ok 1 - status $rc, ${nsamples:-no} samples"; sed 's/^/# /' "$tmp/run.out" | tail -20; fi

# 2: %A of each sample pc is nm's function and the offset in it
bad=0 n=0
while read -r _ pc name; do
    n=$((n + 1))
    read -r f off <<< "$(owner "$tmp/prog.funcs" $((0x$pc)))"
    want="stackchain\`$f"; [ "${off:-0}" != 0 ] && want="$want+0x$(printf %x "$off")"
    [ "$name" = "$want" ] || { echo "# pc 0x$pc: %A '$name', nm '$want'"; bad=1; }
done < <(grep '^sample ' "$tmp/named")
if [ $bad = 0 ] && [ $n -ge 8 ]; then echo "ok 2 - %A names nm's function+offset for $n pcs"; else
    echo "not ok 2 - %A differs from nm ($n samples)"; fi

# 3: ufunc rows = the board's per-address rows summed by nm's function, one row each
section "$tmp/raw" ufunc | sed 's/^ *usym@count`0x\([0-9a-f]*\) *\([0-9]*\)$/\1 \2/' |
    while read -r a c; do echo "$(owner "$tmp/prog.funcs" $((0x$a)) | cut -d' ' -f1) $c"; done |
    awk '{ s[$1] += $2 } END { for (f in s) print "stackchain`" f, s[f] }' | sort > "$tmp/want.ufunc"
section "$tmp/named" ufunc | awk '{ print $1, $2 }' | sort > "$tmp/got.ufunc"
rows=$(section "$tmp/raw" ufunc | wc -l)
if [ -s "$tmp/want.ufunc" ] && diff "$tmp/want.ufunc" "$tmp/got.ufunc" > "$tmp/ufunc.diff" &&
   [ "$rows" -gt "$(wc -l < "$tmp/got.ufunc")" ]; then
    echo "ok 3 - @[ufunc()] groups $rows addresses into nm's $(wc -l < "$tmp/got.ufunc") functions, counts summed"
else
    echo "not ok 3 - @[ufunc()] is not grouped by nm's functions ($rows rows)"; sed 's/^/# /' "$tmp/ufunc.diff"
fi
# 4: uaddr keeps one row an address, each nm's function+offset
bad=0
while read -r a c; do
    read -r f off <<< "$(owner "$tmp/prog.funcs" $((0x$a)))"
    want="stackchain\`$f"; [ "${off:-0}" != 0 ] && want="$want+0x$(printf %x "$off")"
    grep -qxE " *$(sed 's/[.+]/\\&/g' <<< "$want") +$c" <(section "$tmp/named" uaddr) ||
        { echo "# 0x$a: no row '$want $c'"; bad=1; }
done < <(section "$tmp/raw" uaddr | sed 's/^ *uaddr`0x\([0-9a-f]*\) *\([0-9]*\)$/\1 \2/')
if [ $bad = 0 ] && [ "$(section "$tmp/raw" uaddr | wc -l)" = "$(section "$tmp/named" uaddr | wc -l)" ]; then
    echo "ok 4 - @[uaddr()] keeps one row an address, each nm's function+offset"; else
    echo "not ok 4 - @[uaddr()] rows"; fi
# 5: umod: one row, every sample
got=$(section "$tmp/named" umod | awk '{ print $1, $2 }')
if [ "$got" = "stackchain $nsamples" ]; then echo "ok 5 - @[umod()] is one row: stackchain $nsamples"; else
    echo "not ok 5 - @[umod()]: '$got', want 'stackchain $nsamples'"; fi
# 6: func(arg0): kernel functions by nm of the kernel image, grouped
section "$tmp/raw" func | sed 's/^ *sym@count`0x\([0-9a-f]*\) *\([0-9]*\)$/\1 \2/' |
    while read -r a c; do echo "$(owner "$tmp/kernel.funcs" $((0x$a)) | cut -d' ' -f1) $c"; done |
    awk '{ s[$1] += $2 } END { for (f in s) print "kernel`" f, s[f] }' | sort > "$tmp/want.func"
section "$tmp/named" func | awk '{ print $1, $2 }' | sort > "$tmp/got.func"
if [ -s "$tmp/want.func" ] && diff "$tmp/want.func" "$tmp/got.func" > "$tmp/func.diff"; then
    echo "ok 6 - @[func(arg0)] names and groups nm's kernel functions ($(wc -l < "$tmp/got.func"))"; else
    echo "not ok 6 - @[func(arg0)] differs from nm"; sed 's/^/# /' "$tmp/func.diff"; fi

# 7: over a capture (the host's dtrace -i): nm's addresses named the same way
"$H/kevgen" -n 200 -o "$tmp/c.kev" > /dev/null
read -r us ue uf <<< "$(grep -m1 ' chain_e' "$tmp/prog.funcs")"
read -r ks ke kf <<< "$(awk '$2 - $1 >= 8' "$tmp/kernel.funcs" | grep -m1 ' kernel_')"
# (kevgen's capture records no build ids: the ELF files are named, as a user names them)
"$H/dtrace" -q -i "$tmp/c.kev" --kernel "$img" --elf "$prog" \
    -n "BEGIN { printf(\"%A|%a|\", $((us + 2)), $((ks + 4)));
    trace(ufunc($((us + 2)))); trace(umod($us)); trace(func($((ks + 4)))); exit(0); }" \
    > "$tmp/cap.raw" 2> "$tmp/cap.err"
got=$(tr -s ' ' < "$tmp/cap.raw" | sed 's/ $//')
want="stackchain\`$uf+0x2|kernel\`$kf+0x4| stackchain\`$uf stackchain kernel\`$kf"
if [ "$got" = "$want" ]; then echo "ok 7 - dtrace -i: %A, %a, ufunc, umod, func name nm's symbols"; else
    echo "not ok 7 - dtrace -i: '$got', want '$want'"; fi
# 8: stacksym on malformed tokens: unchanged; an address no ELF file holds: 0x..., as libdtrace
bad_in=$(printf '%s\n' 'usym`0x' 'usym@bogus`0xc009a 3' 'xusym`0xc009a' 'usym`0xfffffff0 7')
want=$(printf '%s\n' 'usym`0x' 'usym@bogus`0xc009a 3' 'xusym`0xc009a' '0xfffffff0 7')
got=$(sym <<< "$bad_in" | sed 's/  *$//; s/   */ /')
if [ "$got" = "$want" ]; then echo "ok 8 - stacksym leaves malformed tokens alone, an unknown address as 0x..."; else
    echo "not ok 8 - stacksym on bad input: $(tr '\n' '|' <<< "$got")"; fi

# 9: a function two ELF symbols name (picolibc's vfprintf and __d_vfprintf, aliases at one
# start): named as the debugging information, gdb and addr2line name it, not as one symbol
# table entry or the other
a=$(awk '$3 == "vfprintf" { print $1; exit }' "$tmp/prog.funcs")
if [ -n "$a" ]; then
    want=$("${nm%nm}addr2line" -f -e "$prog" "$(printf '0x%x' $((a + 4)))" | head -1)
    got=$(printf '              0x%x\n' $((a + 4)) | sym | sed 's/^ *//')
    [ "$got" = "stackchain\`$want+0x4" ]
    echo "$([ $? = 0 ] && echo ok || echo not ok) 9 - an address in vfprintf, which __d_vfprintf names too, is $got, addr2line's $want"
else
    echo "ok 9 - the alias of vfprintf # SKIP this C library's printf has no two names"
fi
