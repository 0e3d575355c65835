#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The user-event inserts fit their alignment (a build check, user/module.mk). Where the
# architecture asks for one (user/arch/<arch>/include/arch_ring_hint.h: ARCH_URING_TEXT_ALIGN,
# 1024 on AArch64), each insert of user/lib/trace_uring.c starts on that boundary and, being
# smaller, never crosses a 4 KB page: QEMU chains its translated blocks only within a page,
# and an insert straddling one ran 25 % slower (docs/smp.md). Fails, naming the insert and its
# size, when one has grown to the alignment or past it; does nothing where no alignment is set.
#   scripts/check-uring-text.sh OBJECT HEADER NM [ALIGN]
#     OBJECT  the compiled trace_uring.c; HEADER  the arch's arch_ring_hint.h (may not exist);
#     NM      the target's nm; ALIGN  the alignment to check against instead of HEADER's
set -u
if [ $# -lt 3 ] || [ "$1" = --help ]; then
    sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'
    [ "${1:-}" = --help ]; exit
fi
obj=$1 hdr=$2 nm=$3
align=${4:-}
if [ -z "$align" ] && [ -f "$hdr" ]; then
    align=$(sed -n 's/^#define ARCH_URING_TEXT_ALIGN \([0-9][0-9]*\).*/\1/p' "$hdr")
fi
[ -n "$align" ] || exit 0
syms=$("$nm" -S "$obj") || { echo "check-uring-text: cannot read $obj with $nm" >&2; exit 1; }
bad=0
for f in trace_uring_insert TraceUserEventAt; do
    size=$(printf '%s\n' "$syms" | awk -v f="$f" '$4 == f && ($3 == "T" || $3 == "t") { print $2 }')
    if [ -z "$size" ]; then
        echo "check-uring-text: $obj has no $f (its size is checked against $align bytes)" >&2
        bad=1
    elif [ $((16#$size)) -ge "$align" ]; then
        echo "$obj: $f is $((16#$size)) bytes, not under its $align-byte alignment" \
             "(ARCH_URING_TEXT_ALIGN): it may straddle a 4 KB page and slow every insert;" \
             "make it smaller or the alignment larger (docs/smp.md)" >&2
        bad=1
    fi
done
exit $bad
