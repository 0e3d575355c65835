#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pid_entry_count_insns (docs/pid.md, docs/PERFORMANCE.md): the instructions of one firing of
# an enabled `pid$target::step_plain:entry { @ = count(); }` (the whole firing: the trap's
# exception entry, the probe, the displaced instruction run by the kernel, the exception
# return), beside usdt_count_insns, the same clause on usdtdemo's static probe demo:::step.
# Counted by scripts/insns-per-function.sh from QEMU's execution log of the usdt image running
# usdtdemo under the board's dtrace: an operation is one reach of kernel_fault to the next
# (one firing and the program's code up to the next), the most frequent shape is the loop's
# steady state, and the program's own instructions ("user") are taken off.
#   scripts/bench-pid.sh BUILD_DIR HOST_DIR     (BOARD in the environment, else BUILD_DIR's name)
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=$1 h=$2
board=${BOARD:-$(basename "$b")}     # (make bench exports it; else the build directory's)
prog=$b/usdt/usdtdemo.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
firing() {   # firing NAME CLAUSE: the kernel's instructions a firing of CLAUSE's probe
    "$h/dcompile" --elf "$prog" -T usdtdemo -q -n "$2" -o "$tmp/$1.dobj" || return 1
    BOARD=$board QEMU_ARGS="dtrace -c appinit $tmp/$1.dobj ;; appinit usdtdemo" \
        "$here/insns-per-function.sh" -e kernel_fault -s 3 -n 5 "$b/usdt.elf" 2>&1 |
        awk '$1 == "INSNS" && $2 == "op" { n++; if (n == 1) total = $4; next }
             n == 1 && $1 == "INSNS" && $2 == "user" { user = $3 }
             END { if (total) print total - user }'
}
pid=$(firing pid 'pid$target::step_plain:entry { @ = count(); }')
usdt=$(firing usdt 'demo:::step { @ = count(); }')
[ -n "$pid" ] && [ -n "$usdt" ] || { echo "bench-pid: no firing counted" >&2; exit 1; }
echo "BENCH pid_entry_count_insns $pid insns"
echo "BENCH usdt_count_insns $usdt insns"
