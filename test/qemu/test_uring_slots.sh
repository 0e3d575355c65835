#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Per-thread user-event rings reused after their thread ended (TAP; docs/smp.md, "Per-thread
# rings"): tflood -A respawn=12 runs 12 threads one after another on 12 different stacks, three
# times the board's ring slots (BOARD_USER_RING_THREADS), each inserting 500 user events
# (payload (k << 24) | sequence). The truths: the kernel's word to each thread on whether it
# holds a ring of its own (TPIDRRO_EL0 on AArch64, which the library cannot write), and what
# each thread inserted: every event in the capture, in its thread's order, none lost, read by
# our traceprinter and, as independent readers, by babeltrace2 (kev2ctf) and QNX's own
# traceprinter (QNX_TRACEPRINTER, ../shared/qnx-tools/build.sh; skipped when unset).
#   BOARD=qemu-virt-a53 test/qemu/test_uring_slots.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-uring-slots
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
. "$here/tap_lib.sh"
. "$here/../../scripts/console.sh"
T=12 N=500
echo "1..7"

QEMU_SMP=4 QEMU_ARGS="tracelogger -d1 -k 4 -f $out/respawn.kev -A respawn=$T -A flood=$N" \
    QEMU_TIMEOUT=120 "$here/../../scripts/qemu-run.sh" "$b/tflood.elf" >"$out/respawn.log" 2>&1
check "tflood -A respawn=$T runs and exits 0 on 4 CPUs" "[ $? = 0 ] && grep -q '^kernel: 4 CPUs$' $out/respawn.log"

# The kernel's word, thread by thread: a ring of its own (non-zero), on a stack of its own.
TF=$(con_from tflood)tflood
sed -nE "s#${TF}: respawn: thread ([0-9]+) stack (0x[0-9a-f]+) ring (0x[0-9a-f]+|0)\$#\1 \2 \3#p" \
    "$out/respawn.log" >"$out/rings.txt"
own=$(awk '$3 != "0" && $3 != "0x0"' "$out/rings.txt" | wc -l)
stacks=$(awk '{ print $2 }' "$out/rings.txt" | sort -u | wc -l)
check "$T threads on $stacks stacks, one after another: $own have a ring of their own (the kernel's TPIDRRO_EL0)" \
    "[ $stacks = $T ] && [ $own = $T ]"

# What they inserted, as the host reads the capture.
want=$out/want.txt
for k in $(seq 1 $T); do for i in $(seq 0 $((N - 1))); do printf '0x%08x\n' $(( k << 24 | i )); done; done >"$want"
"$h/traceprinter" -m "$out/respawn.kev" >"$out/respawn.txt" 2>&1
rc=$?
lost=$(sed -n 's/^lost events: \([0-9]*\).*/\1/p' "$out/respawn.txt")
grep USREVENT "$out/respawn.txt" | sed -n 's/.* d0:\(0x[0-9a-f]*\) .*/\1/p' >"$out/ours.txt"
# each thread's events in its own order: stable-sorted by thread, they are the list inserted
bad=$(awk '{ print substr($1, 1, 4) }' "$out/ours.txt" | paste - "$out/ours.txt" | sort -s -k1,1 |
      awk '{ print $2 }' | cmp -s - "$want"; echo $?)
check "traceprinter: all $((T * N)) events, each thread's in its order, none lost ($(wc -l <"$out/ours.txt") events, lost ${lost:-?})" \
    "[ $rc = 0 ] && [ '$bad' = 0 ] && [ '${lost:-x}' = 0 ]"
check "the logger's count agrees: the kernel generated $((T * N)), recorded all, none lost" \
    "grep -qE '$(con_from tracelogger)tracelogger: the kernel generated $((T * N)) events: recorded $((T * N)), dropped 0, overwritten 0' $out/respawn.log"

# babeltrace2, through kev2ctf: the same events, every one once.
"$h/kev2ctf" -o "$out/ctf" "$out/respawn.kev" >"$out/kev2ctf.log" 2>&1 &&
    babeltrace2 "$out/ctf" 2>"$out/bt2.err" | sed -n 's/.* kev_user: .* words = \[ \[0\] = \([0-9]*\), .*/\1/p' |
    awk '{ printf "0x%08x\n", $1 }' | sort >"$out/bt2.txt"
check "babeltrace2 reads the same $((T * N)) events ($(wc -l <"$out/bt2.txt"))" \
    "sort $want | cmp -s - $out/bt2.txt"

if [ -n "${QNX_TRACEPRINTER:-}" ] && [ -x "$QNX_TRACEPRINTER" ]; then
    "$QNX_TRACEPRINTER" -f "$out/respawn.kev" >"$out/qnx.txt" 2>&1
    sed -n 's/.*USREVENT:EVENT:1, d0:\(0x[0-9a-f]*\) .*/\1/p' "$out/qnx.txt" | sort >"$out/qnx-events.txt"
    check "QNX's own traceprinter reads the same $((T * N)) events ($(wc -l <"$out/qnx-events.txt"))" \
        "sort $want | cmp -s - $out/qnx-events.txt"
else
    ok 0 "QNX's traceprinter # SKIP QNX_TRACEPRINTER unset (../shared/qnx-tools/build.sh builds it)"
fi

# More threads than slots over the program's life, never more than one at a time: one slot
# serves them all in turn (the library's table is not used up by dead threads).
rings=$(awk '$3 != "0" && $3 != "0x0" { print $3 }' "$out/rings.txt" | sort -u | wc -l)
check "the threads' rings are reused slots: $rings distinct ring(s) for $T threads" "[ $rings -ge 1 ] && [ $rings -le 4 ]"
