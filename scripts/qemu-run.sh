#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots an image in QEMU and returns the exit status the image's pid 1 gave (semihosting exit).
#   scripts/qemu-run.sh IMAGE.elf [extra qemu args...]
# Environment: BOARD (default mps2-an385), QEMU_TIMEOUT seconds (default 60; 0 = none),
# QEMU_ICOUNT: 1 for instruction-counted time (-icount shift=0: a run's instruction counts
# repeat, but a CPU's idle time passes on the host's clock), exact for the board's repeatable
# mode (-icount shift=N,sleep=off, and the kernel options the board needs for it, below: the
# same boot twice gives the same trace, event for event), none on a board whose qemu.sh
# otherwise sets an icount of its own (for the host's clock), QEMU_ARGS (the
# semihosting command line), QEMU_UART1 (file for the trace stream UART), QEMU_SHARED_RAM (a file
# that backs the guest RAM a host reader may read while the guest runs: the board's
# shared_ram_opt in its qemu.sh, its BOARD_SHARED_RAM in board.mk), QEMU_HANG seconds
# (default 0 = off; scripts/run-tests.sh sets 45): a run with no console output and no trace
# progress (the -f file in QEMU_ARGS, the QEMU_UART1 file) for that long is reported as hung
# and killed, instead of waiting out QEMU_TIMEOUT (scripts/qemu-watch.sh).
# QEMU_EXTRA: more QEMU arguments, words split at spaces, after the board's own; the one
# variable that `make run`, `make live` and `make dtrace` pass through to QEMU (docs/boards.md,
# "Devices for programs"). A -serial in it is the board's next UART after the trace stream's
# (whose place is kept, with `-serial null` when nothing else takes it), e.g. a UART of a
# program's on a TCP socket:
#   QEMU_EXTRA="-chardev socket,id=peer,host=127.0.0.1,port=5555,server=on,wait=off
#               -serial chardev:peer"
# QEMU_STREAM=tcp:PORT|fifo:PATH|-: the trace stream UART live, while the system runs, to one
# reader on 127.0.0.1:PORT (0: a free port, said on stderr), a named pipe, or standard output,
# through build/host/kevrelay, which never lets a reader that stops stall QEMU (it sends the
# board XOFF; the tracelogger drops and counts whole buffers). QEMU_STREAM_OPTS: kevrelay's
# options (-b BYTES its buffer, -w SEC the wait for a reader after QEMU's end, -s a summary).
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
img=$1; shift
board=${BOARD:-mps2-an385}
tmo=${QEMU_TIMEOUT:-60}
# Each board says how QEMU boots it (boards/<board>/qemu.sh: sets cmd, sh_cfg, and uart1_opt,
# which adds the trace stream UART as `-serial SPEC`).
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$here/boards/$board/qemu.sh" ]; then
    echo "qemu-run: board '$board' has no boards/$board/qemu.sh" >&2
    exit 2
fi
# An image built for another board would exit 99 without a word or stop QEMU with a register
# dump: every image carries its board's name (BOARD_NAME), so say which board it is for.
if [ -f "$img" ] && ! grep -qa -- "$board" "$img"; then
    for b in "$here"/boards/*/; do
        b=$(basename "$b")
        if [ -f "$here/boards/$b/qemu.sh" ] && grep -qa -- "$b" "$img"; then
            echo "qemu-run: $img was built for board '$b', not '$board': run it with BOARD=$b" >&2
            exit 2
        fi
    done
fi
# board_cmd: the board's QEMU command for QEMU_ARGS (cmd, sh_cfg, uart1_opt, qemu_status),
# with QEMU_ICOUNT's -icount.
# QEMU_ICOUNT=exact: the board's qemu.sh may set exact_icount (the -icount value; default
# shift=0,sleep=off) and exact_kopts (kernel options, kernel/kopts.h: idle=poll on the Cortex-M
# boards, whose CPU waiting in WFI QEMU 7.2 wakes at every second timer deadline only under
# sleep=off, docs/boards.md). The options go first on the semihosting command line, as the part
# named "kernel" (below; a qemu.sh that passes QEMU_ARGS another way, as x86-pc's -append, adds
# them itself).
board_cmd() {
    sh_cfg=""
    uart1_opt() { echo "qemu-run: board '$board' has no trace UART" >&2; exit 2; }
    shared_ram_opt() { echo "qemu-run: board '$board' shares no RAM with the host" >&2; exit 2; }
    exact_icount=shift=0,sleep=off
    exact_kopts=
    # qemu_status RC: the image's exit status from QEMU's exit code (a board whose QEMU
    # encodes it, e.g. x86-pc's isa-debug-exit, redefines it).
    qemu_status() { echo "$1"; }
    . "$here/boards/$board/qemu.sh"
    [ "${QEMU_ICOUNT:-0}" = 1 ] && cmd+=(-icount shift=0)
    [ "${QEMU_ICOUNT:-0}" = exact ] && cmd+=(-icount "$exact_icount")
    return 0
}
# qemu_clock ARG...: how QEMU keeps time for these arguments: "host" (no -icount: the host's
# clock), else "icount," and the -icount options as QEMU merges them (a later value of a key
# wins; a bare number is shift), e.g. icount,shift=4,sleep=off.
qemu_clock() {
    local prev= a o k v i keys=() vals=() opts out=icount
    for a in "$@"; do
        if [ "$prev" = -icount ]; then
            IFS=, read -ra opts <<<"$a"
            for o in "${opts[@]}"; do
                case $o in *=*) k=${o%%=*} v=${o#*=} ;; *) k=shift v=$o ;; esac
                for ((i = 0; i < ${#keys[@]}; i++)); do [ "${keys[i]}" = "$k" ] && break; done
                keys[i]=$k vals[i]=$v
            done
        fi
        prev=$a
    done
    [ ${#keys[@]} = 0 ] && { echo host; return; }
    for ((i = 0; i < ${#keys[@]}; i++)); do out+=",${keys[i]}=${vals[i]}"; done
    echo "$out"
}
# clock_item ARGS CLOCK: the command line ARGS with "-A QEMU_CLOCK=CLOCK" at the end of the
# tracelogger's part (docs/kev-format.md: the capture's header says how its time was kept,
# which the guest cannot tell); fails when ARGS has no such part or it names the item itself.
clock_item() {
    local rest=$1 part out= found=1
    while :; do
        part=${rest%%;;*}
        if [ $found = 1 ] && [[ $part =~ ^\ *tracelogger(\ |$) ]] && [[ $part != *QEMU_CLOCK=* ]]; then
            part="${part%"${part##*[! ]}"} -A QEMU_CLOCK=$2"
            [[ $rest == *";;"* ]] && part+=" "
            found=0
        fi
        out+=$part
        [[ $rest == *";;"* ]] || break
        out+=";;"
        rest=${rest#*;;}
    done
    echo "$out"
    return $found
}
# QEMU_EXTRA's words (no glob, no quotes: a word holds no space).
extra=()
[ -n "${QEMU_EXTRA:-}" ] && read -ra extra <<< "$QEMU_EXTRA"
board_cmd
# The capture records QEMU's clock (QEMU_CLOCK_ITEM=0: not, for a test that measures the
# command line itself): the board's command is built again with the item on the logger's line.
if [ "${QEMU_CLOCK_ITEM:-1}" != 0 ] &&
   args=$(clock_item "${QEMU_ARGS:-}" "$(qemu_clock "${cmd[@]}" "${extra[@]}" "$@")"); then
    QEMU_ARGS=$args
    board_cmd
fi
if [ "${QEMU_ICOUNT:-0}" = exact ] && [ -n "$exact_kopts" ] && [ -n "$sh_cfg" ]; then
    QEMU_ARGS="kernel $exact_kopts ;; ${QEMU_ARGS:-}"
fi
# QEMU_ARGS: the command line programs read through semihosting (the tracelogger's options),
# words separated by spaces (line breaks stay inside words); QEMU joins them again with single
# spaces, and quotes inside stay for the program to read (the target's dtrace -n '...'). Words are not globbed, and commas
# are doubled as -semihosting-config requires. QEMU_UART1: a file that receives the trace
# stream UART.
if [ -n "$sh_cfg" ]; then
    set -f
    IFS=' ' # only spaces split words: a line break inside a quoted D program stays in it
    for w in ${QEMU_ARGS:-}; do sh_cfg="$sh_cfg,arg=${w//,/,,}"; done
    unset IFS
    set +f
    cmd+=(-semihosting-config "$sh_cfg")
fi
[ -n "${QEMU_UART1:-}" ] && uart1_opt "file:$QEMU_UART1"
[ -n "${QEMU_SHARED_RAM:-}" ] && shared_ram_opt "$QEMU_SHARED_RAM"
relay_pid=
if [ -n "${QEMU_STREAM:-}" ]; then
    if [ -n "${QEMU_UART1:-}" ]; then
        echo "qemu-run: QEMU_STREAM and QEMU_UART1 both take the trace stream UART: give one" >&2
        exit 2
    fi
    relay=$here/build/host/kevrelay
    [ -x "$relay" ] || { echo "qemu-run: QEMU_STREAM needs $relay (make)" >&2; exit 2; }
    sdir=$(mktemp -d "${TMPDIR:-/tmp}/qemu-stream.XXXXXX")
    # shellcheck disable=SC2086  # QEMU_STREAM_OPTS: words
    "$relay" -q "$sdir/uart.sock" ${QEMU_STREAM_OPTS:-} "$QEMU_STREAM" </dev/null &
    relay_pid=$!
    trap 'kill $relay_pid 2>/dev/null; rm -rf "$sdir"' EXIT
    for _ in $(seq 200); do
        [ -S "$sdir/uart.sock" ] || ! kill -0 $relay_pid 2>/dev/null && break
        sleep 0.05
    done
    [ -S "$sdir/uart.sock" ] || { echo "qemu-run: kevrelay did not start" >&2; exit 2; }
    cmd+=(-chardev "socket,id=kevstream,path=$sdir/uart.sock")
    uart1_opt chardev:kevstream
fi
# QEMU_EXTRA after the trace UART: its first -serial is the board's next UART.
if [ ${#extra[@]} -gt 0 ]; then
    if [[ " ${extra[*]} " == *" -serial "* ]] && [ -z "${QEMU_UART1:-}${QEMU_STREAM:-}" ]; then
        uart1_opt null
    fi
    cmd+=("${extra[@]}")
fi
# finish RC: after QEMU, the relay delivers what it holds (it ends with its reader, or after
# its wait for one); then the image's status.
finish() {
    if [ -n "$relay_pid" ]; then
        wait "$relay_pid"
        relay_pid=
        rm -rf "$sdir"
    fi
    exit "$(qemu_status "$1")"
}
if [ "${QEMU_HANG:-0}" != 0 ]; then
    . "$here/scripts/qemu-watch.sh"
    qemu_watch "$tmo" "$QEMU_HANG" "$@"
    finish $?
fi
if [ "$tmo" != 0 ]; then
    timeout -k 5 "$tmo" "${cmd[@]}" "$@" </dev/null
    rc=$?
    [ $rc = 124 ] && echo "qemu-run: $img did not finish within ${tmo}s (killed)" >&2
    finish $rc
fi
"${cmd[@]}" "$@"
finish $?
