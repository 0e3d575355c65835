#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots an image in QEMU and returns the exit status the image's pid 1 gave (semihosting exit).
#   scripts/qemu-run.sh IMAGE.elf [extra qemu args...]
# Environment: BOARD (default mps2-an385), QEMU_TIMEOUT seconds (default 60; 0 = none),
# QEMU_ICOUNT=1 for deterministic instruction counting (-icount shift=0).
set -u
img=$1; shift
board=${BOARD:-mps2-an385}
tmo=${QEMU_TIMEOUT:-60}
case $board in
mps2-an385)
    # One muxed stdio chardev for the UART and the semihosting console keeps kernel and
    # program output in the order it was written.
    cmd=(qemu-system-arm -M mps2-an385 -nographic -monitor none
         -chardev stdio,id=con,mux=on -serial chardev:con
         -semihosting-config enable=on,target=native,chardev=con -kernel "$img") ;;
*)
    echo "qemu-run: unknown board '$board'" >&2; exit 2 ;;
esac
[ "${QEMU_ICOUNT:-0}" = 1 ] && cmd+=(-icount shift=0)
# QEMU_ARGS: the command line programs read through semihosting (the tracelogger's options),
# words separated by spaces. QEMU_UART1: a file that receives UART 1 (the framed trace stream).
if [ -n "${QEMU_ARGS:-}" ]; then
    sh_args=""
    for w in $QEMU_ARGS; do sh_args="$sh_args,arg=$w"; done
    cmd=("${cmd[@]/target=native,chardev=con/target=native,chardev=con$sh_args}")
fi
[ -n "${QEMU_UART1:-}" ] && cmd+=(-serial "file:$QEMU_UART1")
if [ "$tmo" != 0 ]; then
    timeout -k 5 "$tmo" "${cmd[@]}" "$@" </dev/null
    rc=$?
    [ $rc = 124 ] && echo "qemu-run: $img did not finish within ${tmo}s (killed)" >&2
    exit $rc
fi
exec "${cmd[@]}" "$@"
