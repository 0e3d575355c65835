#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where QEMU takes its global lock (the BQL) while it runs an image: every take, counted by the
# line of QEMU's source that takes it. On the host's clock the virtual CPUs of one QEMU run in
# parallel only between takes of that lock, so a kernel path that makes QEMU take it more
# (an exception, an exception return, a system register QEMU marks as I/O such as the generic
# timer's counter, a device register) scales worse across CPUs than its instruction count
# says, and -icount cannot show it (docs/smp.md, "QEMU's host-clock ceiling").
# It uses QEMU's own trace point qemu_mutex_lock (file and line of each take), which every
# QEMU built with the log trace backend has (Debian's does), and counts only the mutex that
# accel/tcg/cpu-exec.c takes (the BQL), so the figure needs no symbols.
#   scripts/qemu-lock-sites.sh IMAGE.elf [extra qemu args...]
# Environment as for scripts/qemu-run.sh (BOARD, QEMU_SMP, QEMU_ARGS, QEMU_ICOUNT=none for the
# host's clock; QEMU_TIMEOUT defaults to 900 here: tracing every take slows QEMU 5 to 10 x).
# Prints "BQL <takes> <site>" per site, most first, then "BQL_TOTAL <takes>", and the image's
# own console lines (BENCH lines among them) prefixed "console: "; exits with the image's
# status, or 3 when QEMU printed no take of the lock (a QEMU without the trace point).
#   e.g. BOARD=qemu-virt-a53 QEMU_SMP=2 QEMU_ICOUNT=none QEMU_ARGS="smpbench pairs" \
#        scripts/qemu-lock-sites.sh build/qemu-virt-a53/smpbench.elf
set -u
if [ $# -lt 1 ] || [ "$1" = --help ] || [ "$1" = -h ]; then
    sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'
    [ $# -lt 1 ] && exit 2 || exit 0
fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
img=$1
shift
# The trace lines ("... qemu_mutex_lock waiting on mutex 0x... (file:line)") and the console
# both come out of QEMU; awk tells them apart and counts as they come (a run takes the lock
# millions of times: nothing is kept but the counts).
QEMU_TIMEOUT=${QEMU_TIMEOUT:-900} QEMU_HANG=0 "$here/qemu-run.sh" "$img" "$@" \
    -trace qemu_mutex_lock > "$tmp/console" 2> >(awk '
    /qemu_mutex_lock waiting on mutex / {
        for (i = 1; i <= NF; i++) if ($i == "mutex") { m = $(i + 1); break }
        site = $NF; gsub(/[()]/, "", site); sub(/^(\.\.\/)+/, "", site)
        n[m "|" site]++
        if (site ~ /accel\/tcg\/cpu-exec\.c:/) bql = m
        next
    }
    { print > "/dev/stderr" }
    END {
        for (k in n) {
            split(k, p, "|")
            if (p[1] == bql) { print "BQL " n[k] " " p[2]; total += n[k] }
        }
        print "BQL_TOTAL " total + 0
    }' > "$tmp/sites")
rc=$?
wait
sort -k2,2nr "$tmp/sites" | grep '^BQL ' || true
grep '^BQL_TOTAL' "$tmp/sites"
sed 's/^/console: /' "$tmp/console"
if ! grep -q '^BQL_TOTAL [1-9]' "$tmp/sites"; then
    echo "qemu-lock-sites: QEMU printed no take of its global lock (no qemu_mutex_lock trace point in this QEMU?)" >&2
    exit 3
fi
exit $rc
