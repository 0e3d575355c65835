#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tracelogger reads its options from a 512-byte buffer (the whole boot command line, every
# program's part): a line longer than that must be a clear error, never a run with the image's
# built-in options instead (which captured with other options than the user gave, or none).
# Boots the demo twice at the edge: a command line of exactly the longest length that fits
# (510 bytes: the buffer less its NUL and the host's count) must be read whole, which the
# capture's header shows (the -A attribute that fills the line, byte for byte, as traceprinter
# decodes it); one byte more must stop the tracelogger with its message and status 2 (the
# demo's init reports the wait status), and write no capture.
#   test/qemu/test_tracelogger_cmdline.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
cd "$(dirname "$0")/../.." || exit 1
. scripts/console.sh
b=build/$board
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
MAX=510             # tracelogger/main.c: cmd[512], less the NUL and less the host's count
storage=$(sed -n 's/^BOARD_TRACE_STORAGE *:= *\([a-z]*\).*/\1/p' "boards/$board/board.mk")
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $board: $2"; else echo "not ok $n - $board: $2"; fi; }
# line LENGTH: a tracelogger command line of exactly LENGTH bytes, filled by -A pad=xxx...
line() {
    local head="tracelogger -d1 -f $out/t.kev -A pad=" pad
    [ "$storage" = uart ] && head="tracelogger -d1 -u -A pad="
    pad=$(head -c $(( $1 - ${#head} )) /dev/zero | tr '\0' 'p')
    printf '%s%s' "$head" "$pad"
}
boot() {    # boot LINE LOG
    rm -f "$out/t.kev" "$out/t.uart"
    if [ "$storage" = uart ]; then
        BOARD=$board QEMU_ARGS="$1" QEMU_UART1=$out/t.uart QEMU_TIMEOUT=90 \
            scripts/qemu-run.sh "$b/demo.elf" > "$2" 2>&1
        [ -s "$out/t.uart" ] && "$h/kevcapture" -q -o "$out/t.kev" "$out/t.uart" >> "$2" 2>&1
    else
        BOARD=$board QEMU_ARGS="$1" QEMU_TIMEOUT=90 scripts/qemu-run.sh "$b/demo.elf" > "$2" 2>&1
    fi
}
echo "1..4"

fits=$(line $MAX)
boot "$fits" "$out/fits.log"
grep -qE "$(con_from tracelogger)tracelogger: boot command line over" "$out/fits.log"
[ $? != 0 ] && ! grep -q "tracelogger ended early" "$out/fits.log"
ok $? "a command line of $MAX bytes (${#fits}) is read: no error, the logger runs to its end"
pad=${fits##*pad=}
got=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | sed -n "s/^ *TRACE_PAD:: *\\(.*\\)\$/\\1/p" | head -1)
[ -n "$got" ] && [ "$got" = "$pad" ]
ok $? "the capture's header holds the line's last option whole (-A pad=, ${#pad} bytes; got ${#got})"

long=$(line $((MAX + 1)))
boot "$long" "$out/long.log"
sed 's/^/# /' "$out/long.log" | grep -v "^# *$" | tail -4
grep -qE "$(con_from tracelogger)tracelogger: boot command line over $MAX bytes: options not read" "$out/long.log" &&
    grep -q "init: tracelogger ended early, wait status 0x200" "$out/long.log"
ok $? "one byte more (${#long}): the tracelogger says the line is too long and exits 2"
# (The image's built-in options would have written tracebuffer.kev and said so.)
[ ! -s "$out/t.kev" ] && [ ! -s "$out/t.uart" ] && ! grep -q "tracelogger: .* written to" "$out/long.log"
ok $? "and captures nothing under options it did not read (no file, no stream, no report)"
