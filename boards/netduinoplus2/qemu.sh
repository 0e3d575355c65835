# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh: sets `cmd` to boot image "$img" on this board in QEMU, with
# the console (USART1, QEMU's first -serial) and the semihosting console muxed onto standard
# output, and `sh_cfg` to the -semihosting-config value (qemu-run.sh appends arg=... words).
cmd=(qemu-system-arm -M netduinoplus2 -nographic -monitor none
     -chardev stdio,id=con,mux=on -serial chardev:con -kernel "$img")
sh_cfg="enable=on,target=native,chardev=con"
# The trace stream UART (USART2) is QEMU's second -serial.
uart1_opt() { cmd+=(-serial "file:$1"); }

# The chip's pool holds 2 trace buffers of 16 KB (board_config.h); the tracelogger asks for
# 32 unless told otherwise, and the scripts ask for up to 32. Until the tracelogger takes its
# default from the board, a tracelogger command line gets -k 2 when it names no -k, and a
# -k of 3 to 64 becomes -k 2 (said on stderr); other values pass unchanged, to be refused.
np2_trace_bufs=2
np2_fix_kbufs() {
    local out=() prev="" w seen=0
    set -- ${QEMU_ARGS:-}
    [ "${1:-}" = tracelogger ] || return 0
    for w in "$@"; do
        if [ "$prev" = -k ]; then
            seen=1
            if [[ $w =~ ^[0-9]+$ ]] && [ "$w" -gt $np2_trace_bufs ] && [ "$w" -le 64 ]; then
                echo "qemu-run: netduinoplus2 has room for $np2_trace_bufs trace buffers: -k $w becomes -k $np2_trace_bufs" >&2
                w=$np2_trace_bufs
            fi
        fi
        out+=("$w")
        prev=$w
    done
    [ $seen = 1 ] || out=(tracelogger -k $np2_trace_bufs "${out[@]:1}")
    QEMU_ARGS="${out[*]}"
}
np2_fix_kbufs
