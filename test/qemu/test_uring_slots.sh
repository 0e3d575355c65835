#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Per-thread user-event rings reused after their thread ended (TAP; docs/smp.md, "User
# events"): tflood -A respawn=12 runs 12 threads one after another on 12 different
# stacks, three times the board's ring slots (BOARD_USER_RING_THREADS), each inserting 500 user
# events (payload (k << 24) | sequence); then the same created by two threads at once. The
# truths: the kernel's word to each thread on whether it
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
echo "1..12"
TF=$(con_from tflood)tflood
want=$out/want.txt
for k in $(seq 1 $T); do for i in $(seq 0 $((N - 1))); do printf '0x%08x\n' $(( k << 24 | i )); done; done >"$want"

# respawn NAME WHAT TFLOOD-OPTIONS: one capture, its 6 checks. The logger's 16 buffers hold the
# whole capture even if it saved none until the end (6000 events, 1022 to a buffer, is 6 full
# buffers and at most one part-filled per CPU), so how fast a loaded host runs the logger cannot
# drop an event: what the checks judge is the rings, not the logger's pace. With 4 buffers a
# host busy on both cores made the kernel drop 166 (counted: "dropped 166").
respawn() {
    local c=$out/$1
    QEMU_SMP=4 QEMU_ARGS="tracelogger -d1 -k 16 -f $c.kev -A respawn=$T -A flood=$N $3" \
        QEMU_TIMEOUT=120 "$here/../../scripts/qemu-run.sh" "$b/tflood.elf" >"$c.log" 2>&1
    check "$1: tflood -A respawn=$T${3:+ $3} runs and exits 0 on 4 CPUs" \
        "[ $? = 0 ] && grep -q '^kernel: 4 CPUs$' $c.log"

    # The kernel's word, thread by thread: a ring of its own (non-zero), on a stack of its own.
    sed -nE "s#${TF}: respawn: thread ([0-9]+) stack (0x[0-9a-f]+) ring (0x[0-9a-f]+|0)\$#\1 \2 \3#p" \
        "$c.log" >"$c-rings.txt"
    local own stacks rings
    own=$(awk '$3 != "0" && $3 != "0x0"' "$c-rings.txt" | wc -l)
    stacks=$(awk '{ print $2 }' "$c-rings.txt" | sort -u | wc -l)
    rings=$(awk '$3 != "0" && $3 != "0x0" { print $3 }' "$c-rings.txt" | sort -u | wc -l)
    check "$1: $T threads on $stacks stacks, $2: $own had a ring of their own (the kernel's TPIDRRO_EL0), $rings ring(s) reused" \
        "[ $stacks = $T ] && [ $own = $T ] && [ $rings -le 4 ]"

    # What they inserted, as the host reads the capture.
    "$h/traceprinter" -m "$c.kev" >"$c.txt" 2>&1
    local rc=$? lost bad
    lost=$(sed -n 's/^lost events: \([0-9]*\).*/\1/p' "$c.txt")
    grep USREVENT "$c.txt" | sed -n 's/.* d0:\(0x[0-9a-f]*\) .*/\1/p' >"$c-ours.txt"
    # each thread's events in its own order: stable-sorted by thread, they are the list inserted
    bad=$(awk '{ print substr($1, 1, 4) }' "$c-ours.txt" | paste - "$c-ours.txt" | sort -s -k1,1 |
          awk '{ print $2 }' | cmp -s - "$want"; echo $?)
    check "$1: traceprinter: all $((T * N)) events, each thread's in its order, none lost ($(wc -l <"$c-ours.txt") events, lost ${lost:-?})" \
        "[ $rc = 0 ] && [ '$bad' = 0 ] && [ '${lost:-x}' = 0 ]"
    check "$1: the logger's count agrees: the kernel generated $((T * N)), recorded all, none lost" \
        "grep -qE '$(con_from tracelogger)tracelogger: the kernel generated $((T * N)) events: recorded $((T * N)), dropped 0, overwritten 0' $c.log"

    # babeltrace2, through kev2ctf: the same events, every one once.
    "$h/kev2ctf" -o "$c-ctf" "$c.kev" >"$c-kev2ctf.log" 2>&1 &&
        babeltrace2 "$c-ctf" 2>"$c-bt2.err" | sed -n 's/.* kev_user: .* data = \[ \[0\] = \([0-9]*\), .*/\1/p' |
        awk '{ printf "0x%08x\n", $1 }' | sort >"$c-bt2.txt"
    check "$1: babeltrace2 reads the same $((T * N)) events ($(wc -l <"$c-bt2.txt"))" \
        "sort $want | cmp -s - $c-bt2.txt"

    if [ -n "${QNX_TRACEPRINTER:-}" ] && [ -x "$QNX_TRACEPRINTER" ]; then
        "$QNX_TRACEPRINTER" -f "$c.kev" >"$c-qnx.txt" 2>&1
        sed -n 's/.*USREVENT:EVENT:1, d0:\(0x[0-9a-f]*\) .*/\1/p' "$c-qnx.txt" | sort >"$c-qnx-events.txt"
        check "$1: QNX's own traceprinter reads the same $((T * N)) events ($(wc -l <"$c-qnx-events.txt"))" \
            "sort $want | cmp -s - $c-qnx-events.txt"
    else
        ok 0 "$1: QNX's traceprinter # SKIP QNX_TRACEPRINTER unset (../shared/qnx-tools/build.sh builds it)"
    fi
}

# One after another from one thread, as a pool respawning its workers: without reuse, the
# threads past the 4th had no ring.
respawn sequential "one after another" ""
# Two spawners on CPUs 1 and 2 create threads at the same time, each after an idle thread that
# never registers its ring (the library frees that slot as the thread ends): two threads
# created at once never share a slot, and an unused slot is not lost.
respawn concurrent "two created at once, idle threads between" "-A spawners=2 -A idle=1"
