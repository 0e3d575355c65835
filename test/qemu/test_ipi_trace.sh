#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reschedule IPIs in a capture (TAP), on a board with several CPUs: the demo traced by the
# tracelogger under -icount on every CPU. Each wake-up of an idle CPU by a thread another CPU
# made ready must show, on the woken CPU, the interrupt that woke it (an idle CPU waits in WFI
# until one comes: the architecture's truth, test/qemu/ipi_wake_check.py), and with IPIs
# recorded (INT 0x102, KIRQ_IPI) they are IPIs; before IPIs were recorded every such wake-up
# had no cause in the capture. kevstat's interrupt table names the row and counts every IPI
# event traceprinter prints. LTTng's own analyses over the capture's CTF agree with kevstat
# (test/tools/check_lttng.py: per-thread CPU, interrupts, kernel calls on 4 CPUs).
#   BOARD=<board> test/qemu/test_ipi_trace.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
out=$b/test-ipi-trace
rm -rf "$out" && mkdir -p "$out"
. "$here/tap_lib.sh"
QEMU_ARGS="tracelogger -d1 -f $out/demo.kev" QEMU_TIMEOUT=120 \
    "$here/../../scripts/qemu-run.sh" "$b/demo.elf" -icount shift=0,sleep=off >"$out/demo.log" 2>&1
check "the traced demo on every CPU exits 0 with no event lost" \
    "[ $? = 0 ] && grep -q 'tracelogger: no events lost' $out/demo.log"
"$h/traceprinter" -m "$out/demo.kev" >"$out/demo.txt" 2>"$out/tp.err"
check "traceprinter reads the capture, with more than one CPU" \
    "[ $? = 0 ] && ! grep -q 'TRACE_CPU_NUM:: 1\$' $out/demo.txt"
python3 "$here/ipi_wake_check.py" "$out/demo.txt" --want-ipi 1 >"$out/wake.txt" 2>&1
rc=$?
sed 's/^/# /' "$out/wake.txt"
ok $rc "every wake-up of an idle CPU by another shows what woke it, IPIs among them ($(head -1 "$out/wake.txt"))"
ipis=$(grep -c 'INT_ENTR:0x00000102 ' "$out/demo.txt")
"$h/kevstat" "$out/demo.kev" >"$out/stat.txt" 2>&1
row=$(sed -n 's/^  irq 258 (reschedule IPI): \([0-9]*\) interrupts.*/\1/p' "$out/stat.txt")
check "kevstat names the IPI row and counts every IPI traceprinter prints ($ipis events, row ${row:-none})" \
    "[ '$ipis' -gt 0 ] && [ '${row:-x}' = '$ipis' ]"
exits=$(grep -c 'INT_EXIT:0x00000102 ' "$out/demo.txt")
check "each IPI's INT_ENTR has its INT_EXIT ($ipis / $exits)" "[ '$ipis' = '$exits' ]"
python3 "$here/thread_states_check.py" "$out/demo.txt" >"$out/states.txt" 2>&1
rc=$?
sed 's/^/# /' "$out/states.txt"
ok $rc "every thread's states in the capture are a scheduler's ($(head -1 "$out/states.txt"))"
python3 "$here/../tools/check_lttng.py" "$h" "$out/demo.kev" "$out/lttng" >"$out/lttng.tap" 2>&1
relay "$out/lttng.tap"
echo "1..$n"
