#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tracelogger reads the whole boot command line (every program's part) into a buffer of
# BOARD_TRACELOGGER_CMDLINE_BYTES (2048, netduinoplus2 512: board_user.h). A line longer than
# that must be a clear error, never a run with the image's built-in options (which captured
# with other options than the user gave). Boots the demo twice at the edge, the line's length
# made up by a part for no program in front of the tracelogger's: a line of exactly the longest
# length that fits (the buffer less its NUL and the host's count) must be read whole, which the
# capture shows (it is written where the line's last part says, with the -A attribute that ends
# the line in its header, as traceprinter decodes it); one byte more must stop the tracelogger
# with its message and status 2 (the demo's init reports the wait status), and capture nothing.
# On x86-pc the kernel keeps the Multiboot line in a buffer of its own (X86_BOOT_CMDLINE_MAX,
# kernel/arch/x86): a line one byte over that must be refused whole with the kernel's word
# naming the limit, never cut to the limit and handed out as if it were the user's.
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
bytes=$(sed -n 's/^#define BOARD_TRACELOGGER_CMDLINE_BYTES \([0-9]*\).*/\1/p' "boards/$board/board_user.h")
MAX=$(( ${bytes:-2048} - 2 ))       # tracelogger/main.c's buffer, less the NUL and the count
storage=$(sed -n 's/^BOARD_TRACE_STORAGE *:= *\([a-z]*\).*/\1/p' "boards/$board/board.mk")
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
# line LENGTH: a boot command line of exactly LENGTH bytes: "padding xxx... ;; tracelogger ..."
line() {
    local tail=" ;; tracelogger -d1 -f $out/t.kev -A end=read"
    [ "$storage" = uart ] && tail=" ;; tracelogger -d1 -u -A end=read"
    local fill=$(( $1 - ${#tail} - 8 ))
    printf 'padding %s%s' "$(head -c $fill /dev/zero | tr '\0' p)" "$tail"
}
# (QEMU_CLOCK_ITEM=0: the line exactly as given, without qemu-run.sh's -A QEMU_CLOCK item)
boot() {    # boot LINE LOG
    rm -f "$out/t.kev" "$out/t.uart"
    export QEMU_CLOCK_ITEM=0
    if [ "$storage" = uart ]; then
        BOARD=$board QEMU_ARGS="$1" QEMU_UART1=$out/t.uart QEMU_TIMEOUT=90 \
            scripts/qemu-run.sh "$b/demo.elf" > "$2" 2>&1
        [ -s "$out/t.uart" ] && "$h/kevcapture" -q -o "$out/t.kev" "$out/t.uart" >> "$2" 2>&1
    else
        BOARD=$board QEMU_ARGS="$1" QEMU_TIMEOUT=90 scripts/qemu-run.sh "$b/demo.elf" > "$2" 2>&1
    fi
}
kmax=$(sed -n 's/^#define X86_BOOT_CMDLINE_MAX \([0-9]*\).*/\1/p' kernel/arch/x86/include/x86.h)
[ "$board" = x86-pc ] && echo "1..6" || echo "1..4"

fits=$(line $MAX)
boot "$fits" "$out/fits.log"
grep -qE "$(con_from tracelogger)tracelogger: boot command line over" "$out/fits.log"
[ $? != 0 ] && ! grep -q "tracelogger ended early" "$out/fits.log"
ok $? "a command line of $MAX bytes (${#fits}) is read: no error, the logger runs to its end"
got=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | sed -n "s/^ *TRACE_END:: *\\(.*\\)\$/\\1/p" | head -1)
[ "$got" = read ]
ok $? "its capture is where the line's last part says, with that part's last option (TRACE_END::$got)"

long=$(line $((MAX + 1)))
boot "$long" "$out/long.log"
sed 's/^/# /' "$out/long.log" | grep -v "^# *$" | tail -4
grep -qE "$(con_from tracelogger)tracelogger: boot command line over $MAX bytes: options not read" "$out/long.log" &&
    grep -q "init: tracelogger ended early, wait status 0x200" "$out/long.log"
ok $? "one byte more (${#long}): the tracelogger says the line is too long and exits 2"
# (The image's built-in options would have written tracebuffer.kev and said so.)
[ ! -s "$out/t.kev" ] && [ ! -s "$out/t.uart" ] && ! grep -q "tracelogger: .* written to" "$out/long.log"
ok $? "and captures nothing under options it did not read (no file, no stream, no report)"

[ "$board" = x86-pc ] || exit 0
# One byte over the kernel's own buffer: the kernel says so, naming its limit, and hands the
# line to no program (before, it cut the line to its limit and said nothing).
over=$(line $((kmax + 1)))
boot "$over" "$out/over.log"
sed 's/^/# /' "$out/over.log" | grep -v "^# *$" | grep -E "kernel: boot command|tracelogger" | head -4
grep -qE "${CON_KERNEL}boot command line of ${#over} bytes is over the $kmax the kernel keeps: not given to programs" "$out/over.log"
ok $? "a Multiboot line over the kernel's $kmax bytes (${#over}): the kernel says so, naming the limit"
grep -qE "$(con_from tracelogger)tracelogger: boot command line over $MAX bytes: options not read" "$out/over.log" &&
    grep -q "init: tracelogger ended early, wait status 0x200" "$out/over.log" &&
    [ ! -s "$out/t.kev" ] && ! grep -q "tracelogger: .* written to" "$out/over.log"
ok $? "and the tracelogger is refused the line: its message, status 2, no capture"
