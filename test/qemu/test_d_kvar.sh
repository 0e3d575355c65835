#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kernel variables by symbol (docs/fbt.md, "Kernel variables"): D's `name reads the kernel's
# data object of that name for a privileged consumer, and the Solaris names with a meaning
# here are aliases (ncpus, ncpus_online: k_ncpus; mpid, Solaris's last pid given: next_pid - 1,
# the kernel's counter being the next to give). One boot of the dtrace
# image (the board's dtrace, privileged, running init) with gdb-multiarch attached to the same
# QEMU: D prints the values at END; gdb, stopped at board_halt (the boot's end, nothing spawned
# after END), reads the variables by their DWARF names. They must be equal.
#   test/qemu/test_d_kvar.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/dtrace.elf
tmp=$(mktemp -d)
qpid=
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -z "$qpid" ] || kill $qpid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..3"

D='END { printf("KVAR %d %d %d %d %d\n", `k_ncpus, `ncpus, `ncpus_online, `next_pid, `mpid); }'
"$H/dcompile" --kernel "$img" -q -n "$D" -o "$tmp/k.dobj" > "$tmp/k.err" 2>&1
ok $? "dcompile --kernel resolves \`k_ncpus, \`next_pid and the aliases \`ncpus, \`ncpus_online, \`mpid"
[ -s "$tmp/k.err" ] && sed 's/^/# /' "$tmp/k.err"

gdb=$tmp/gdb.sock   # QEMU's gdbstub: a UNIX socket of this run's own
(cd "$tmp" && QEMU_ARGS="dtrace -q -c init $tmp/k.dobj" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-200} "$here/scripts/qemu-run.sh" "$img" -S \
    -gdb "unix:$gdb,server=on,wait=off" > "$tmp/run.out" 2>&1) &
qpid=$!
sock_wait "$gdb"
timeout 300 gdb-multiarch -batch -nx -ex "file $img" -ex "target remote $gdb" \
    -ex 'break board_halt' -ex 'continue' -ex 'printf "GDB %d %d\n", k_ncpus, next_pid' \
    -ex 'delete' -ex 'continue' > "$tmp/gdb.out" 2>&1
wait $qpid
rc=$?
qpid=
d=$(con_of dtrace < "$tmp/run.out" | sed -n 's/^KVAR //p')
g=$(sed -n 's/^GDB //p' "$tmp/gdb.out")
read -r dn dn2 dn3 dp dp2 <<< "${d:-x x x x x}"
read -r gn gp <<< "${g:-y y}"
check "the boot ran to its end under gdb (status $rc)" '[ $rc = 0 ]'
[ $rc = 0 ] || tail -8 "$tmp/run.out" | sed 's/^/# /'
check "D's \`k_ncpus, \`ncpus, \`ncpus_online ($dn $dn2 $dn3) and \`next_pid ($dp) equal gdb's reads of k_ncpus ($gn) and next_pid ($gp); \`mpid ($dp2) is next_pid - 1" \
    '[ "$dn" = "$gn" ] && [ "$dn2" = "$gn" ] && [ "$dn3" = "$gn" ] && [ "$dp" = "$gp" ] && [ "$dp2" = "$((gp - 1))" ] && [ "$gp" -gt 1 ]'
[ -n "$g" ] || sed 's/^/# gdb: /' "$tmp/gdb.out" | tail -5
