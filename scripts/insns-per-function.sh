#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions per function of one operation of a benchmark loop, counted from QEMU's own
# execution log (-singlestep, -icount shift=0, one CPU) over a window gdb-multiarch marks on
# QEMU's gdbstub: how the traced paths' costs are taken apart (docs/PERFORMANCE.md, "How
# figures are measured"). For each distinct operation (from one reach of ENTRY to the next),
# most frequent first, prints "INSNS op total T seen K" and one "INSNS   function count" line
# per function reached. The most frequent is the loop's steady state; the rarer ones met a
# timer tick or a buffer switch (scripts/insns_per_function.py says why ticks come often).
#   BOARD=qemu-virt-a53 scripts/insns-per-function.sh [-p PHASE] [-e ENTRY] [-s SKIP] [-n OPS]
#       [-c CPUS] [-u USER.elf] IMAGE.elf
# -p PHASE  a gdb location hit once when the phase to measure starts, e.g. ktrace.c:NNN (the
#           line of KTRACE_SETALLCLASSESFAST for kbench's traced fast-mode loops); default none
# -e ENTRY  the function that starts each operation (default a64_kernel_entry_traced; for an
#           untraced loop a64_kernel_entry)
# -s SKIP   hits of ENTRY to let pass first, into the loop (default 300)
# -n OPS    operations to log (default 200)
# -c CPUS   CPUs online (QEMU_SMP; default 1). Every CPU's instructions count (under -icount
#           they are all virtual time): those of a CPU other than the one that reached ENTRY
#           are listed as "cpuK:function" (an IPI's entry, a woken idle loop).
# -u ELF    a program's own ELF, for its symbols (PHASE and ENTRY may then be its functions,
#           e.g. -e MsgSend: one round trip of smpbench's loop an operation)
# Example: a traced null call of kbench against the untraced one:
#   BOARD=qemu-virt-a53 scripts/insns-per-function.sh \
#       -p ktrace.c:$(grep -n 'case KTRACE_SETALLCLASSESFAST' kernel/ktrace.c | cut -d: -f1) \
#       build/qemu-virt-a53/kbench.elf
#   BOARD=qemu-virt-a53 scripts/insns-per-function.sh -e a64_kernel_entry build/qemu-virt-a53/kbench.elf
set -u
usage() { sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'; }
phase="" entry=a64_kernel_entry_traced skip=300 ops=200 cpus=1 user=""
[ "${1:-}" = --help ] && { usage; exit 0; }
while getopts "p:e:s:n:c:u:h" o; do
    case $o in
    p) phase=$OPTARG ;;
    e) entry=$OPTARG ;;
    s) skip=$OPTARG ;;
    n) ops=$OPTARG ;;
    c) cpus=$OPTARG ;;
    u) user=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 1 ] && [ -f "$1" ] || { echo "insns-per-function: give one image (.elf) that exists" >&2; usage >&2; exit 2; }
command -v gdb-multiarch >/dev/null || { echo "insns-per-function: gdb-multiarch is not installed (scripts/setup.sh)" >&2; exit 2; }
img=$1
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp) exec_log=$(mktemp) sockdir=$(mktemp -d)
gdb=$sockdir/gdb.sock   # QEMU's gdbstub: a UNIX socket of this run's own
QEMU_SMP=$cpus QEMU_ICOUNT=1 QEMU_TIMEOUT=600 "$here/qemu-run.sh" "$img" -singlestep -D "$exec_log" \
    -gdb "unix:$gdb,server=on,wait=off" -S >"$log" 2>&1 &
qpid=$!
for _ in $(seq 50); do [ -S "$gdb" ] && break; sleep 0.1; done   # until QEMU listens
INSNS_GDB=$gdb INSNS_LOG=$exec_log INSNS_PHASE=$phase INSNS_ENTRY=$entry INSNS_SKIP=$skip INSNS_OPS=$ops INSNS_USER=$user \
    timeout 600 gdb-multiarch -q -batch -nx -x "$here/insns_per_function.py" "$img" 2>&1 |
    grep '^INSNS'
rc=${PIPESTATUS[0]}
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
rm -rf "$log" "$exec_log" "$sockdir"
exit "$rc"
