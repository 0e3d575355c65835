#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The highest event rate the tracelogger sustains with zero loss: tflood inserts 200000 user
# events as fast as it can while the logger (higher priority, the board's kernel buffers: 32 on
# mps2-an385) saves them to
# a host file through semihosting. Under -icount shift=0 the figure counts the target's
# instructions only (semihosting itself takes no virtual time), so it is the CPU-bound rate
# of the kernel + logger path, deterministic; tflood prints it only when nothing was lost.
#   scripts/bench-logger.sh BUILD_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/console.sh"  # BENCH lines as the programs' text (scripts/console.sh)
b=$1
# One CPU (QEMU_SMP=1), as before multiprocessor boards: scripts/bench-smp.sh has those.
out=$(QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=600 \
      QEMU_ARGS="tracelogger -d1 -f $b/bench-logger.kev -A flood=200000 -A bench=1" \
      con_run_text "$b/tflood.elf" 2>&1)
rc=$?
printf '%s\n' "$out" | grep '^BENCH '
if [ $rc != 0 ] || ! printf '%s\n' "$out" | grep -q '^BENCH logger_lossless_events_per_s'; then
    printf '%s\n' "$out" | tail -5 >&2
    echo "bench-logger: the capture lost events or failed" >&2
    exit 1
fi
