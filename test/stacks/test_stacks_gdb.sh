#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The oracle for ustack( ): gdb-multiarch attached to QEMU stops user/apps/stackchain where its
# chain main -> chain_a .. chain_e makes its first ThreadSelf kernel call, and takes `bt`; the
# same boot's dtrace prints ustack( ) for kercall::ThreadSelf:entry of that call, and
# stacksym names its frames. The two must agree: the same functions, frame by frame (gdb's
# DWARF names; the ELF's clone suffixes such as .constprop.0 dropped), and for every caller
# frame the same return address. gdb unwinds with the DWARF CFI of .debug_frame, the kernel
# with EHABI tables (ARMv7-M) or frame records: independent walks of the same stack.
#   test/stacks/test_stacks_gdb.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)    # (QEMU runs in $tmp, below)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/stacks/stacks_lib.sh"
img=$B/stacks.elf
prog=$B/stacks/stackchain.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap 'kill $qpid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..4"
D='kercall::ThreadSelf:entry /execname == "stackchain" && ++n == 1/ { ustack(); }'
obj=$B/stacks-gdb.dobj
"$H/dcompile" -n "$D" -o "$obj" || { echo "not ok 1 - dcompile"; exit 1; }
gdb=$tmp/gdb.sock   # QEMU's gdbstub: a UNIX socket of this run's own
# boards without host files (x86-pc) compile on the board: the text on the command line
if uart_board "${BOARD:-mps2-an385}"; then
    args="dtrace -c appinit -n '$D' ;; appinit stackchain"
else
    args="dtrace -c appinit $obj ;; appinit stackchain"
fi
# QEMU runs in $tmp: the image's tracelogger writes tracebuffer.kev where QEMU runs.
(cd "$tmp" && QEMU_ARGS=$args QEMU_TIMEOUT=120 \
    exec "$here/scripts/qemu-run.sh" "$img" -S -gdb "unix:$gdb,server=on,wait=off") > "$tmp/run.out" 2>&1 &
qpid=$!
gdb_bt "$gdb" "$prog" ThreadSelf "$tmp/gdb.out"
wait $qpid
rc=$?
if [ $rc = 0 ]; then echo "ok 1 - the image ran to its end under gdb"; else
    echo "not ok 1 - the image exited with status $rc"; sed 's/^/# /' "$tmp/run.out"; fi

# gdb's frames (stacks_lib.sh)
gdb_frames < "$tmp/gdb.out" > "$tmp/gdb.frames"
# ustack( )'s frames, raw and named
# (dtrace's own lines, without the source the kernel puts before each: scripts/console.sh)
con_of dtrace < "$tmp/run.out" |
    awk '/ThreadSelf:entry/ { on = 1; next } on && /^ +0x[0-9a-f]+$/ { print $1; next } on && NF == 0 && n++ { exit }' \
    > "$tmp/d.pcs"
sed 's/^/              /' "$tmp/d.pcs" | "$H/stacksym" -k "$img" "$B"/stacks/*.elf |
    stack_names > "$tmp/d.names"
cut -d' ' -f3 "$tmp/gdb.frames" > "$tmp/gdb.names"
ngdb=$(wc -l < "$tmp/gdb.names")
if [ "$ngdb" -ge 7 ] && [ "$(sed -n 2p "$tmp/gdb.names")" = chain_e ]; then
    echo "ok 2 - gdb's bt has the chain ($ngdb frames)"
else
    echo "not ok 2 - gdb's bt: $ngdb frames"; sed 's/^/# /' "$tmp/gdb.out"
fi
if [ "$ngdb" -ge 7 ] && diff <(head -n "$ngdb" "$tmp/d.names") "$tmp/gdb.names" > "$tmp/names.diff"; then
    echo "ok 3 - ustack( ) names gdb's $ngdb frames, in order"
else
    echo "not ok 3 - ustack( ) and gdb's bt name different functions (ustack <, gdb >)"
    sed 's/^/# /' "$tmp/names.diff"
fi
# caller frames: gdb's pc is the return address, as ustack( )'s
bad=0
while read -r k pc _; do
    [ "$k" = 0 ] || [ "$pc" = - ] && continue
    d=$(sed -n "$((k + 1))p" "$tmp/d.pcs")
    [ $((pc)) = $((d)) ] || { echo "# frame $k: gdb $pc, ustack $d"; bad=1; }
done < "$tmp/gdb.frames"
if [ $bad = 0 ] && [ "$ngdb" -ge 7 ]; then
    echo "ok 4 - every caller frame's return address is gdb's"
else
    echo "not ok 4 - return addresses differ from gdb's"
fi
