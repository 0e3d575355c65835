#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a D consumer without KAPP_F_PRIV may read and probe (docs/hostile.md, "What a consumer
# may do"): pidself (KAPP_F_TRACE|KAPP_F_HOSTFS) loads a host-compiled D object in the pidperm
# image, where pidpeer (pid 2, started by pidself) is a program it may not trace. A boot each
# (-icount, about a second):
#  - copyin, copyinstr and ustack() in pidpeer's kernel calls (kercall:::entry /pid == 2/):
#    every one is D's ERROR with DTrace's fault number for a privilege refusal (arg4 ==
#    DTRACEFLT_UPRIV, 7), counted by the engine as errors; the values D kept are not pidpeer's
#    secrets, which pidpeer prints itself and gdb-multiarch reads from its ELF file; in the
#    same boot, stack( ) and caller in those calls are D's ERROR with the kernel-privilege
#    fault (arg4 == DTRACEFLT_KPRIV, 6), and profile-997's arg0 while the CPU was in the
#    kernel (the idle thread, while pidself waits for pidpeer) is DVM_KADDR_HIDDEN: no value
#    the consumer got lies in the kernel's text, as readelf reads the image's .text;
#  - the same actions in pidself's own kernel calls (/pid == 1/): no error, and the value read
#    is the secret pidself prints (the attack reads what it aims at when it is allowed);
#  - an fbt probe: refused at KDT_GO with EPERM and the reason; the fbt table (KDT_FBT_TABLE)
#    refused with EPERM; pidpeer runs to its end unharmed;
#  - a kernel variable (`k_ncpus): refused at KDT_GO with EPERM and the reason;
#  - a program whose buffers the kernel's contiguous memory cannot hold (bufresize=manual):
#    KDT_LOAD's refusal carries its reason and the options that lower it.
#   test/qemu/test_d_priv.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
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
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..7"

boot() {    # boot NAME ARGS...: pidself's command line, the console in $tmp/NAME
    local name=$1; shift
    (cd "$tmp" && QEMU_ARGS="pidself $*" QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-60} \
        "$here/scripts/qemu-run.sh" "$img" > "$tmp/$name" 2>&1)
}
gaddr() {   # gaddr ELF SYMBOL: its address, as gdb-multiarch reads the ELF file
    gdb-multiarch -q -batch -ex "p/x &$2" "$1" 2>/dev/null | sed -n 's/^\$1 = \(0x[0-9a-f]*\).*/\1/p'
}
gval() {    # gval ELF SYMBOL: its 64-bit initial value, 16 hex digits
    gdb-multiarch -q -batch -ex "p/x $2" "$1" 2>/dev/null |
        sed -n 's/^\$1 = \(0x[0-9a-f]*\).*/\1/p' | xargs printf '%016x' 2>/dev/null
}
dglobal() { # dglobal FILE NAME: a D global pidself printed
    con_of pidself < "$1" | sed -n "s/^pidself: D $2 = //p"
}
gotof() {   # gotof FILE: the 64 bits copyin read (hi, lo), 16 hex digits
    printf '%08x%08x' "$(dglobal "$1" hi)" "$(dglobal "$1" lo)" 2>/dev/null
}
compile() { # compile NAME D-TEXT [dcompile options]: $tmp/NAME.dobj, its errors shown
    local n=$1 d=$2; shift 2
    "$H/dcompile" "$@" -n "$d" -o "$tmp/$n.dobj" > "$tmp/$n.err" 2>&1 || sed 's/^/# /' "$tmp/$n.err"
}

# 1: the truths: the peer's secrets and the consumer's, from the ELF files
psec=$(gaddr "$peer" pidpeer_secret); ptext=$(gaddr "$peer" pidpeer_secret_text)
ssec=$(gaddr "$self" pidself_secret)
psecv=$(gval "$peer" pidpeer_secret); ssecv=$(gval "$self" pidself_secret)
check "gdb-multiarch reads the secrets' addresses ($psec $ptext $ssec) and values ($psecv $ssecv)" \
    '[ -n "$psec" ] && [ -n "$ptext" ] && [ -n "$ssec" ] && [ ${#psecv} = 16 ] && [ ${#ssecv} = 16 ]'

# The attack: three user-memory actions in the process `pid`'s kernel calls (a fault ends its
# clause: three ERRORs a call), ERROR counting DTrace's fault numbers.
attack() {  # attack PID SECRET-ADDR TEXT-ADDR [kernel]: with kernel, the kernel-frame clauses
    echo "BEGIN { fires = 0; lo = 0; hi = 0; gotlen = 0; errs = 0; uprivs = 0; kprivs = 0;
                  stacks = 0; kfires = 0; kcaller = 0; kstacks = 0; pin = 0; pmin = 0; pmax = 0; }
        kercall:::entry /pid == $1/ { fires = fires + 1; lo = *(uint32_t *)copyin($2, 4);
                                      hi = *(uint32_t *)copyin($2 + 4, 4); }
        kercall:::entry /pid == $1/ { gotlen = strlen(copyinstr($3)); }
        kercall:::entry /pid == $1/ { @u[ustack()] = count(); stacks = stacks + 1; }
        ERROR { errs = errs + 1; uprivs = uprivs + (arg4 == 7 ? 1 : 0);
                kprivs = kprivs + (arg4 == 6 ? 1 : 0); }"
    [ "${4:-}" = kernel ] && echo "
        kercall:::entry /pid == $1/ { kfires = kfires + 1; kcaller = caller; }
        kercall:::entry /pid == $1/ { @k[stack()] = count(); kstacks = kstacks + 1; }
        profile:::profile-997 /arg0 != 0/ { pin = pin + 1;
            pmax = pin == 1 || (uint64_t)arg0 > (uint64_t)pmax ? arg0 : pmax;
            pmin = pin == 1 || (uint64_t)arg0 < (uint64_t)pmin ? arg0 : pmin; }"
}

# 2: pidpeer's memory, from its own kernel calls: refused, each action an ERROR; kernel frames
# in the same calls refused, the profile's kernel pc hidden
compile peer "$(attack 2 "$psec" "$ptext" kernel)"
boot peer "$tmp/peer.dobj" 10 pidpeer 50
f=$tmp/peer
fires=$(dglobal "$f" fires); got=$(gotof "$f"); gotlen=$(dglobal "$f" gotlen)
errs=$(dglobal "$f" errs); uprivs=$(dglobal "$f" uprivs); stacks=$(dglobal "$f" stacks)
kprivs=$(dglobal "$f" kprivs); kfires=$(dglobal "$f" kfires); kcaller=$(dglobal "$f" kcaller)
kstacks=$(dglobal "$f" kstacks); pin=$(dglobal "$f" pin); pmin=$(dglobal "$f" pmin)
pmax=$(dglobal "$f" pmax)
counted=$(con_of pidself < "$f" | sed -n 's/^pidself: D errors //p')
shown=$(con_of pidpeer < "$f" | sed -n 's/^pidpeer: pid 2, secret \([0-9a-f]*\) .*/\1/p')
ok_peer() {
    [ -n "$fires" ] && [ "$fires" -gt 0 ] && [ "$uprivs" = $((3 * fires)) ] &&
        [ "$errs" = $((uprivs + kprivs)) ] &&
        [ "$counted" = "$errs" ] && [ "$got" = 0000000000000000 ] && [ "$gotlen" = 0 ] && [ "$stacks" = 0 ] &&
        [ "$shown" = "$psecv" ] && [ "$got" != "$psecv" ] &&
        grep -qE "$(con_from pidself)pidself: pidpeer \(pid 2\) exited with status 0$" "$f" &&
        grep -q "^kernel: pid 1 exited with status 0; halting" "$f"
}
ok_peer
r=$?
ok $r "copyin, copyinstr, ustack() in pidpeer's $fires kernel calls: $uprivs ERRORs DTRACEFLT_UPRIV (7) of $errs, the engine counted $counted; D kept got $got, length $gotlen, $stacks stacks; pidpeer's secret ($shown) unread"
[ $r = 0 ] || tail -12 "$f" | sed 's/^/# /'

# 3: the kernel's addresses, from the same boot: the truth is the image's .text (readelf)
read -r tlo tsz < <(readelf -SW "$img" | sed 's/^ *\[ *[0-9]*\] *//' | awk '$1 == ".text" { print $3, $5 }')
tlo=$((16#${tlo:-0})); thi=$((tlo + 16#${tsz:-0}))
in_text() { # in_text DECIMAL: a u64 value inside [tlo, thi) (caller's 0 is D's initial value,
            # nothing it got: its clause faulted before the assignment)
    local v=$1
    [ ${#v} -le 18 ] && [ "$v" -ge "$tlo" ] && [ "$v" -lt "$thi" ]
}
# DVM_KADDR_HIDDEN, all ones as wide as the D variable keeps it (32 bits, as dcompile types arg0)
hidden='^(4294967295|18446744073709551615)$'
ok_kernel() {
    [ "$thi" -gt "$tlo" ] && [ -n "$kfires" ] && [ "$kfires" = "$fires" ] &&
        [ "$kprivs" = $((2 * kfires)) ] && [ "$kcaller" = 0 ] && [ "$kstacks" = 0 ] &&
        [ -n "$pin" ] && [ "$pin" -gt 0 ] && [ "$pmin" = "$pmax" ] && [[ $pmin =~ $hidden ]] &&
        ! in_text "$pmin" && ! in_text "$pmax"
}
ok_kernel
r=$?
ok $r "stack() and caller in the same $kfires calls: $kprivs ERRORs DTRACEFLT_KPRIV (6), D kept caller $kcaller, $kstacks stacks; profile-997's arg0 in the kernel ($pin firings): $pmin .. $pmax; the kernel's .text [$(printf '%#x' $tlo), $(printf '%#x' $thi)) holds none of them"
[ $r = 0 ] || tail -12 "$f" | sed 's/^/# /'

# 4: its own memory, from its own kernel calls: read, no error
compile own "$(attack 1 "$ssec" "$ssec")"
boot own "$tmp/own.dobj" 10
f=$tmp/own
fires=$(dglobal "$f" fires); got=$(gotof "$f"); errs=$(dglobal "$f" errs)
stacks=$(dglobal "$f" stacks)
shown=$(con_of pidself < "$f" | sed -n 's/^pidself: own secret //p')
gothex=$got
[ -n "$fires" ] && [ "$fires" -gt 0 ] && [ "$errs" = 0 ] && [ "$stacks" = "$fires" ] &&
    [ "$gothex" = "$ssecv" ] && [ "$shown" = "$ssecv" ] &&
    grep -q "^kernel: pid 1 exited with status 0; halting" "$f"
r=$?
ok $r "the same actions in pidself's own $fires kernel calls: $errs errors, $stacks stacks, copyin read $gothex, the secret it prints ($shown)"
[ $r = 0 ] || tail -12 "$f" | sed 's/^/# /'

# 5: fbt, and the fbt table: refused
compile fbt 'BEGIN { n = 0; } fbt::proc_spawn:entry { n = n + 1; }' --kernel "$img"
boot fbt "$tmp/fbt.dobj" 10 pidpeer 50
f=$tmp/fbt
con_text < "$f" | grep -qF "pidself: could not enable tracing: fbt:kernel:proc_spawn:entry: kernel probes need privilege (KAPP_F_PRIV) (EPERM)" &&
    con_of pidself < "$f" | grep -qx "pidself: fbt table: refused (EPERM)" &&
    grep -qE "$(con_from pidself)pidself: pidpeer \(pid 2\) exited with status 0$" "$f" &&
    grep -q "^kernel: pid 1 exited with status 1; halting" "$f" && ! grep -q "killed\|fault" "$f"
r=$?
ok $r "fbt::proc_spawn:entry refused at KDT_GO (EPERM, the reason given), the fbt table refused (EPERM); pidpeer ends with status 0"
[ $r = 0 ] || tail -8 "$f" | sed 's/^/# /'

# 6: a kernel variable: refused
compile kvar 'BEGIN { n = `k_ncpus; }' --kernel "$img"
boot kvar "$tmp/kvar.dobj" 10
f=$tmp/kvar
con_text < "$f" | grep -qF "pidself: could not enable tracing: kernel variables (\`name) need privilege (KAPP_F_PRIV) (EPERM)" &&
    grep -q "^kernel: pid 1 exited with status 1; halting" "$f" && ! grep -q "killed\|fault" "$f"
r=$?
ok $r "\`k_ncpus refused at KDT_GO (EPERM, the reason given)"
[ $r = 0 ] || tail -8 "$f" | sed 's/^/# /'

# 7: a load refused for memory: the reason, not an errno alone
compile big 'BEGIN { n = 1; }' -x bufsize=1m -x aggsize=1m -x dynvarsize=1m -x bufresize=manual
boot big "$tmp/big.dobj" 10
f=$tmp/big
why=$(con_of pidself < "$f" | sed -n 's/^pidself: could not enable tracing: //p')
echo "$why" | grep -qE "^no memory for the program's block \([0-9]+ bytes, bufresize=manual\): lower bufsize, aggsize, dynvarsize, nspec or specsize$" &&
    grep -q "^kernel: pid 1 exited with status 1; halting" "$f"
r=$?
ok $r "1m buffers with bufresize=manual: KDT_LOAD refused with its reason ('$why')"
[ $r = 0 ] || tail -8 "$f" | sed 's/^/# /'
