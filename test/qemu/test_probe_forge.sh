#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What kevprobe's scan believes, against a program of our own (TAP; docs/probe-path.md, "What a
# scan trusts"): probeforge, unprivileged, plants the probe block's magic in its image and a
# whole forged block (a valid check, 13 events of its making) in its RAM, while deadline runs
# under a passive tracelogger that publishes the real capture (-x probe=keep: the board also
# saves every buffer through semihosting). kevprobe scans all of RAM (-s) and believes only the
# kernel's: the truth is the board's own semihosted copy, which the live file must equal byte
# for byte, and the forger's line on the console, which says where the forgery lay: one of its
# plants inside the range scanned and below the kernel's block (the image's symbol), so that a
# scan from the bottom of RAM meets it first.
#   BOARD=<board> test/qemu/test_probe_forge.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
out=$b/test-probe-forge
gdbdir=$(mktemp -d)
trap 'rm -rf "$gdbdir"' EXIT
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
top=$here/../..
. "$here/tap_lib.sh"
img=$b/probeforge.elf
case $board in
    qemu-virt-a53) ram=0x40000000:0x1000000 kram=0x40600000:0x200000 ;;   # board_config.h
    # (SRAM to the PSRAM's probe area, where the kernel's block, table and host words lie)
    *) ram=0x20000000:0x1210000 kram=0x21200000:0x10000 ;;
esac
echo "1..5"

# boot NAME KEVPROBE-ARGS...: the image paused until kevprobe attaches through the gdbstub (-H:
# QEMU's stops the VM for any packet); the
# console in NAME.console, the board's copy in NAME-board.kev, kevprobe's file in NAME.kev, its
# stderr in NAME.probe, its exit status in prc.
boot() {
    local name=$1 sock=$gdbdir/$1 q
    shift
    BOARD=$board QEMU_ICOUNT=exact QEMU_TIMEOUT=100 \
        QEMU_ARGS="appinit probeforge deadline ;; tracelogger -d1 -x probe=keep -k 48 -f $out/$name-board.kev" \
        "$top/scripts/qemu-run.sh" "$img" -S -gdb "unix:$sock,server=on,wait=off" >"$out/$name.console" 2>&1 &
    q=$!
    "$h/kevprobe" -q -H "$@" -o "$out/$name.kev" "unix:$sock" 2>"$out/$name.probe"
    prc=$?
    wait $q
}

forged() { grep -a -o 'probeforge: a forged probe block at 0x[0-9a-f]*, the magic in the image at 0x[0-9a-f]*' "$1"; }

boot image -w 60 -s "$ram" -e "$img"
check "-s over all RAM with the image's map of the kernel's RAM: the real capture, the board's copy byte for byte ($(forged "$out/image.console"); kevprobe exit $prc)" \
    "[ $prc = 0 ] && [ -n \"\$(forged $out/image.console)\" ] && [ -s $out/image.kev ] && cmp $out/image.kev $out/image-board.kev"
at=$(forged "$out/image.console" | sed -n 's/.*block at \(0x[0-9a-f]*\),.*/\1/p')
mg=$(forged "$out/image.console" | sed -n 's/.*in the image at \(0x[0-9a-f]*\).*/\1/p')
blk=$(nm "$img" | sed -n 's/^\([0-9a-f]*\) [BbDd] kev_probe_block$/0x\1/p')
# The forger's plant a scan from the bottom meets first: the lowest of the forged block and its
# image's magic inside the range scanned (mps2-an385: the block, in SRAM; qemu-virt-a53: the
# image's magic, loaded below the kernel's data).
first=$(python3 -c 'import sys
lo, n = (int(x, 0) for x in sys.argv[1].split(":"))
p = [int(a, 0) for a in sys.argv[2:] if a and lo <= int(a, 0) < lo + n]
print(hex(min(p)) if p else "")' "$ram" "$at" "$mg")
check "a scan from the bottom meets a forgery first: the forger's lowest plant in the range scanned ($ram: block $at, image's magic $mg) is $first, below the kernel's block ($blk)" \
    "[ -n '$first' ] && [ -n '$blk' ] && [ \$(($first)) -lt \$(($blk)) ]"
boot map -w 60 -s "$ram" -k "$kram"
check "-s with the board's map (-k $kram): the same (kevprobe exit $prc)" \
    "[ $prc = 0 ] && [ -s $out/map.kev ] && cmp $out/map.kev $out/map-board.kev"
"$h/traceprinter" "$out/map.kev" >"$out/map.txt" 2>&1
check "the file holds the kernel's capture, not the forger's 13 events (traceprinter: $(grep -a '^events: ' "$out/map.txt"))" \
    "grep -q '^events: ' $out/map.txt && ! grep -q '^events: 13 ' $out/map.txt"
"$h/kevprobe" -s "$ram" "unix:$gdbdir/none" >/dev/null 2>"$out/usage.probe"
check "a scan without the kernel's RAM is refused as bad usage ($(head -1 "$out/usage.probe"))" \
    "grep -q \"kernel's RAM\" $out/usage.probe"
