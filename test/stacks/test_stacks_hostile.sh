#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ustack( ) over hostile stacks on the board: user/apps/stackbad makes six ThreadSelf calls,
# five over a corrupt stack (a loop of frame records, an unaligned frame pointer, one into
# device/kernel memory, one into another process's memory, one into unmapped memory; on
# ARMv7-M a return address that is no code) and one over a stack that simply ends. Each
# firing must give a short stack (no more than the three frames in front of the corruption),
# the kernel must count exactly ten walks cut short (each firing walks twice: ustackdepth,
# then ustack( )), and the program and the system must carry on to their ends.
#   test/stacks/test_stacks_hostile.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
img=$B/stackbad.elf
D='kercall::ThreadSelf:entry /execname == "stackbad"/ { printf("depth %d", ustackdepth); ustack(); }'
echo "1..4"
if grep -qs 'BOARD_TRACE_STORAGE *:= *uart' "$here/boards/${BOARD:-mps2-an385}"/*.mk; then
    args="dtrace -c appinit -n '$D' ;; appinit stackbad"
else
    obj=$B/stacks-hostile.dobj
    "$H/dcompile" -n "$D" -o "$obj" || { echo "not ok 1 - dcompile"; exit 1; }
    args="dtrace -c appinit $obj ;; appinit stackbad"
fi
# QEMU runs in a directory of its own: the image's tracelogger writes tracebuffer.kev where
# QEMU runs (the tree's root, before).
run=$(mktemp -d); trap 'rm -rf "$run"' EXIT
out=$(cd "$run" && QEMU_ARGS=$args QEMU_TIMEOUT=120 "$here/scripts/qemu-run.sh" "$img" 2>&1)
rc=$?
if [ $rc = 0 ] && grep -q 'stackbad: survived' <<< "$out"; then
    echo "ok 1 - the program and the system ran to their ends"
else
    echo "not ok 1 - status $rc"; sed 's/^/# /' <<< "$out"
fi
firings=$(grep -c 'ThreadSelf:entry depth' <<< "$out")
if [ "$firings" = 6 ]; then echo "ok 2 - six firings"; else
    echo "not ok 2 - $firings firings, not 6"; sed 's/^/# /' <<< "$out"; fi
deep=$(grep -o 'ThreadSelf:entry depth [0-9]*' <<< "$out" | awk '$3 > 3' | wc -l)
frames=$(awk '/ThreadSelf:entry depth/ { if (n > m) m = n; n = 0; on = 1; next }
              on && /^ +0x[0-9a-f]+$/ { n++; next } END { if (n > m) m = n; print m + 0 }' <<< "$out")
if [ "$deep" = 0 ] && [ "$frames" -le 3 ]; then
    echo "ok 3 - every stack is short (at most 3 frames)"
else
    echo "not ok 3 - $deep depths over 3, up to $frames frames printed"; sed 's/^/# /' <<< "$out"
fi
cut=$(sed -n 's/.*kernel: \([0-9]*\) stack walks cut short: .*/\1/p' <<< "$out" | awk '{ s += $1 } END { print s + 0 }')
if [ "$cut" = 10 ]; then echo "ok 4 - ten walks cut short, counted and reported"; else
    echo "not ok 4 - $cut walks reported cut short, not 10"; grep 'cut short' <<< "$out" | sed 's/^/# /'; fi
