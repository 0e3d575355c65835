#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a D trigger costs (docs/incidents.md), on QEMU with -icount shift=0 (one instruction a
# nanosecond): the incident image's overrun misses its last deadline under freeze( ) with the
# flight recorder running (tracelogger -r, the board's default ring); the kernel says the
# cycles its freeze took (the TRIGGER event and trace_ring_freeze) and those the record's
# write took, and its bytes. Printed as instructions: cycles * 1e9 / the counter's rate.
#   scripts/bench-incident.sh BUILD_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
b=$(cd "$1" && pwd)
run=$(cd "$(dirname "$0")" && pwd)/qemu-run.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cat >"$d/miss.d" <<'D'
user:::event /arg0 == 1/ { start[arg1] = timestamp; }
user:::event /arg0 == 2 && timestamp - start[arg1] > 2000000/ { freeze(); }
D
log=$(cd "$d" && QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=300 \
      QEMU_ARGS="dtrace -q -K -c overrun -s miss.d ;; tracelogger -d1 -r -f trace.kev ;; overrun 100 99 0" \
      "$run" "$b/incident.elf" 2>&1)
hz=$(printf '%s\n' "$log" | sed -n 's/.*booting on .*, \([0-9]*\) Hz cycle counter.*/\1/p')
fr=$(printf '%s\n' "$log" | sed -n 's/^kernel: D trigger .*(\([0-9]*\) cycles)$/\1/p')
rec=$(printf '%s\n' "$log" | sed -n 's/^kernel: incident record 1 written: .*(\([0-9]*\) bytes in \([0-9]*\) cycles.*/\1 \2/p')
[ -n "$hz" ] && [ -n "$fr" ] && [ -n "$rec" ] || { printf '%s\n' "$log" >&2; echo "bench-incident: no trigger seen" >&2; exit 1; }
awk -v c="$fr" -v hz="$hz" 'BEGIN { printf "BENCH incident_freeze_insns %.0f insns\n", c * 1e9 / hz }'
set -- $rec
echo "BENCH incident_record_bytes $1 bytes"
awk -v c="$2" -v hz="$hz" 'BEGIN { printf "BENCH incident_record_write_insns %.0f insns\n", c * 1e9 / hz }'
