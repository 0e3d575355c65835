#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The capture says how QEMU kept its time (TAP): scripts/qemu-run.sh puts -A QEMU_CLOCK=... on
# the tracelogger's part of the boot's command line (semihosting's, or x86-pc's -append), and
# kevstat names the mode and warns of what the emulator did (tools/analysis/kx_emul.c). Short
# boots of the demo in each mode, each held against the -icount options QEMU itself was given
# (read by a stand-in for qemu-system-* on PATH that logs its arguments) and against the
# board's modes as docs/boards.md gives them: the board's default and QEMU_ICOUNT=exact (the
# board's shift, sleep=off); on mps2-an385 also QEMU_ICOUNT=1 (shift=0), an -icount of the
# caller's after the image (as capture_boot.sh passes one) and QEMU_CLOCK_ITEM=0 (no item:
# kevstat says "not recorded"). The exact
# mode's capture on one CPU has no warning; on qemu-virt-a53's four CPUs the exact mode's
# capture shows CPUs QEMU did not run for a tick period or more, and kevstat says so.
#   BOARD=<board> test/qemu/test_clock_item.sh BUILD_DIR HOST_DIR   (3 to 10 s a board)
set -u
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
board=${BOARD:-mps2-an385}
out=$b/test-clock-item
rm -rf "$out" && mkdir -p "$out/bin"
. "$here/tap_lib.sh"
TAP_PREFIX="$board: "
storage=$(sed -n 's/^BOARD_TRACE_STORAGE *:= *\([a-z]*\).*/\1/p' "$here/../../boards/$board/board.mk")
# QEMU's -icount as docs/boards.md gives it: the board's default and its exact mode's shift.
case $board in
    mps2-an385) default=host exact=icount,shift=4,sleep=off ;;
    x86-pc) default=icount,shift=auto exact=icount,shift=2,sleep=off ;;
    *) default=icount,shift=auto exact=icount,shift=0,sleep=off ;;
esac
# The stand-in: logs its arguments, one a line, then runs the real QEMU.
for q in qemu-system-arm qemu-system-aarch64 qemu-system-i386; do
    real=$(command -v $q) || continue
    printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/argv"\nexec %s "$@"\n' "$out" "$real" >"$out/bin/$q"
    chmod +x "$out/bin/$q"
done

# boot NAME [qemu args...]: the demo traced, its capture in $out/NAME.kev, QEMU's arguments in
# $out/NAME.argv (the environment says the mode).
boot() {
    local name=$1; shift
    rm -f "$out/argv"
    if [ "$storage" = uart ]; then
        PATH=$out/bin:$PATH QEMU_ARGS="tracelogger -d1 -u" QEMU_UART1=$out/$name.uart \
            QEMU_TIMEOUT=120 "$here/../../scripts/qemu-run.sh" "$b/demo.elf" "$@" >"$out/$name.log" 2>&1
        "$h/kevcapture" -q -o "$out/$name.kev" "$out/$name.uart" >>"$out/$name.log" 2>&1
    else
        PATH=$out/bin:$PATH QEMU_ARGS="tracelogger -d1 -f $out/$name.kev" \
            QEMU_TIMEOUT=120 "$here/../../scripts/qemu-run.sh" "$b/demo.elf" "$@" >"$out/$name.log" 2>&1
    fi
    mv "$out/argv" "$out/$name.argv" 2>/dev/null
}
# given NAME: the -icount QEMU was given, as QEMU merges repeated ones (a later key wins; a
# bare number is shift): "icount,k=v,..." or "host".
given() {
    python3 - "$out/$1.argv" <<'PY'
import sys
a = open(sys.argv[1]).read().split("\n")
keys = {}
for i in range(len(a) - 1):
    if a[i] == "-icount":
        for o in a[i + 1].split(","):
            k, v = o.split("=", 1) if "=" in o else ("shift", o)
            keys[k] = v
print("icount," + ",".join("%s=%s" % kv for kv in keys.items()) if keys else "host")
PY
}
item() { "$h/traceprinter" "$out/$1.kev" 2>/dev/null | sed -n 's/^ *TRACE_QEMU_CLOCK:: *//p'; }
stat() { "$h/kevstat" -s cpu "$out/$1.kev" 2>/dev/null; }

# mode NAME WANT [qemu args...]: a boot whose item must be WANT and what QEMU was given.
mode() {
    local name=$1 want=$2 got q
    shift 2
    boot "$name" "$@"
    got=$(item "$name") q=$(given "$name")
    check "$name: the header says QEMU_CLOCK $want, the -icount QEMU was given ($got; QEMU: $q)" \
        "[ '$got' = '$want' ] && [ '$q' = '$want' ]"
}
mode default "$default"
QEMU_ICOUNT=exact mode exact "$exact"
# (the same script's handling of the other modes on one board: x86-pc takes 10 s and more a
# boot under shift=0)
if [ "$board" = mps2-an385 ]; then
    QEMU_ICOUNT=1 mode icount1 icount,shift=0
    mode caller icount,shift=0,sleep=off -icount shift=0,sleep=off
fi

case $default in
    host) says="QEMU on the host's clock" ;;
    *) says="QEMU -icount shift=auto" ;;
esac
check "default: kevstat names the mode ($says)" "stat default | grep -q \"^time: $says\""
txt=$(stat exact)
check "exact: kevstat names the exact mode" "grep -q '^time: QEMU exact mode, -icount ${exact#icount,}' <<<\"\$txt\""
ncpu=$("$h/traceprinter" "$out/exact.kev" 2>/dev/null | sed -n 's/^ *TRACE_CPU_NUM:: *//p')
stalls=$(grep -c "^WARNING: .* runs on [0-9]* CPUs held a stall of their CPU" <<<"$txt")
if [ "${ncpu:-1}" = 1 ]; then
    check "exact on one CPU: no warning" "! grep -q '^WARNING' <<<\"\$txt\""
else
    check "exact on $ncpu CPUs: the CPUs QEMU did not run for a period are warned of ($stalls)" \
        "[ '$stalls' = 1 ]"
    grep '^WARNING' <<<"$txt" | cut -c1-300 | sed 's/^/# /'
fi
if [ "$board" = mps2-an385 ]; then
    QEMU_CLOCK_ITEM=0 boot none
    check "QEMU_CLOCK_ITEM=0: no item, and kevstat says the time is not recorded" \
        "[ -z \"\$(item none)\" ] && stat none | grep -q '^time: not recorded'"
fi
echo "1..$n"
