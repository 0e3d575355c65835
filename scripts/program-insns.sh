#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every instruction one program's own code runs over a whole boot, per function: QEMU's
# execution log (-singlestep -d exec,nochain, one line an instruction) filtered to the
# program's text (-dfilter; each program is linked at addresses of its own) and counted as it
# is written (a pipe, no log file), each pc then named from the program's ELF. Under -icount
# an instruction that touches a device other than last in its block is run again (QEMU
# recompiles the block to end there) and logged twice, in a row, at the same pc, but counted
# once by the instruction count: a pc logged twice in a row counts once here too. How the
# tracelogger's cost an event is taken apart (docs/wire.md, "The figures"): the demo streamed
# on the UART under QEMU_ICOUNT=exact, as scripts/bench-stream.sh runs it, prints
#   PROG total T per_event E          the program's own instructions (kernel calls excluded)
#   PROG function count per_event     its functions, most first
#   PROG logger_all T per_event E     the logger thread's CPU time from the capture
#                                     (kevstat -s cpu: its kernel calls included)
#   PROG stream_bytes B per_event E   the UART's bytes
#   scripts/program-insns.sh BUILD_DIR HOST_DIR [TRACELOGGER_ARGS]
# e.g. scripts/program-insns.sh build/mps2-an385 build/host "-x wire=raw"
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
[ $# -ge 2 ] && [ -f "$1/demo.elf" ] && [ -x "$2/kevstat" ] ||
    { echo "program-insns: give a board's build directory (with demo.elf) and the host tools' (with kevstat)" >&2; exit 2; }
b=$1 h=$2 tlargs=${3:-}
board=${BOARD:-mps2-an385}
here=$(cd "$(dirname "$0")/.." && pwd)
prog=$b/demo/tracelogger.elf
case $board in qemu-virt-a53 | raspi3b) tp=aarch64-linux-gnu- ;; x86-pc) tp= ;; *) tp=arm-none-eabi- ;; esac
lo=$("${tp}objdump" -h "$prog" | awk '$2 == ".init" || $2 == ".text" { print $4; exit }')
[ -n "$lo" ] || { echo "program-insns: no text section in $prog" >&2; exit 1; }
shift_n=$(sed -n 's/^exact_icount=shift=\([0-9]*\).*/\1/p' "$here/boards/$board/qemu.sh")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkfifo "$out/exec"
python3 -c '
import collections, sys
c = collections.Counter()
last = None
for line in open(sys.argv[1]):
    if line.startswith("Trace "):
        pc = line.split(None, 4)[3].split("/")[1]
        if pc != last:     # (an MMIO access run again: once in the instruction count)
            c[pc] += 1
        last = pc
for k, v in c.items():
    print(k, v)' "$out/exec" >"$out/pcs" &
cpid=$!
QEMU_UART1=$out/uart.raw QEMU_ICOUNT=exact QEMU_TIMEOUT=1200 \
    QEMU_ARGS="init loop=3 idle=200 ;; tracelogger -d1 -u -f - $tlargs" \
    "$here/scripts/qemu-run.sh" "$b/demo.elf" -singlestep -d exec,nochain \
    -dfilter "0x$lo+0x100000" -D "$out/exec" >"$out/run.log" 2>&1 ||
    { echo "program-insns: the run failed: $(tail -3 "$out/run.log")" >&2; exit 1; }
wait $cpid
"$h/kevcapture" -q -o "$out/uart.kev" "$out/uart.raw" || { echo "program-insns: the stream is damaged" >&2; exit 1; }
ev=$("$h/kevstat" "$out/uart.kev" 2>/dev/null | awk 'NR == 1 { print $1 }')
python3 - "${tp}nm" "$prog" "$out/pcs" "$ev" <<'PY'
import bisect, collections, subprocess, sys
nm, elf, pcs, ev = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
syms = []
for l in subprocess.run([nm, "-n", "-S", elf], capture_output=True, text=True).stdout.splitlines():
    w = l.split()
    if len(w) == 4 and w[2] in "tTwW":
        syms.append((int(w[0], 16), int(w[1], 16), w[3]))
starts = [s[0] for s in syms]
fn, total = collections.Counter(), 0
for l in open(pcs):
    pc, n = l.split()
    pc, n = int(pc, 16), int(n)
    total += n
    i = bisect.bisect_right(starts, pc) - 1
    fn[syms[i][2] if i >= 0 and pc < syms[i][0] + max(syms[i][1], 1) else "?"] += n
print("PROG total %d per_event %.2f" % (total, total / ev))
for name, n in fn.most_common():
    if n / ev >= 0.05:
        print("PROG   %-28s %9d %7.2f" % (name, n, n / ev))
PY
"$h/kevstat" -s cpu "$out/uart.kev" 2>/dev/null | awk -v ev="$ev" -v ns=$((1 << ${shift_n:-0})) '
    $1 == "tracelogger/main" { us += $2 }
    END { printf "PROG logger_all %d per_event %.2f\n", us * 1000 / ns, us * 1000 / ns / ev }'
bytes=$(stat -c %s "$out/uart.raw")
awk -v b="$bytes" -v ev="$ev" 'BEGIN { printf "PROG stream_bytes %d per_event %.3f\n", b, b / ev }'
