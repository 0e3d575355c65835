# SPDX-License-Identifier: MIT
# What the stack tests share (sourced): gdb's frames from its `bt`, and the binutils
# addr2line of an ELF file's machine.

# gdb_frames: gdb's `bt` lines on stdin ("#0  ThreadSelf () at ..." / "#1  0x000c009a in
# chain_e (n=...) at ...") as "index pc name" lines, pc "-" for frame 0. A caller frame
# without an address is the function a callee was inlined into (the same pc): it replaces
# that callee, as one machine frame is one ustack( ) frame.
gdb_frames() {
    sed -n 's/^#\([0-9]*\) *\(0x[0-9a-f]*\)\{0,1\}\( in \)\{0,1\}\([A-Za-z_][A-Za-z_0-9.]*\) .*/\1 \2 \4/p' |
        awk 'BEGIN { n = 0 } NF == 2 && n { name[n - 1] = $2; next }
             { pc[n] = (NF == 3) ? $2 : "-"; name[n] = $NF; n++ }
             END { for (i = 0; i < n; i++) print i, pc[i], name[i] }'
}

# addr2line_of ELF: the binutils addr2line for the ELF file's machine.
addr2line_of() {
    case $(readelf -h "$1" | sed -n 's/ *Machine: *//p') in
        ARM) echo arm-none-eabi-addr2line ;;
        AArch64) echo aarch64-linux-gnu-addr2line ;;
        *80386*) echo i686-linux-gnu-addr2line ;;
        *) echo addr2line ;;
    esac
}

# stack_names: stacksym's frame lines on stdin ("  prog`func+0x6") as bare function names,
# clone suffixes (.constprop.0 ...) dropped, as gdb names them.
stack_names() {
    sed 's/^ *[^`]*`//; s/+0x[0-9a-f]*$//; s/\.\(constprop\|isra\|part\|cold\)\.[0-9]*//g'
}

# uart_board BOARD: the board has no semihosting files (x86-pc): dtrace compiles its program
# on the board (-n text on the command line), the tracelogger streams to UART 1 (kevcapture).
uart_board() {
    grep -qs 'BOARD_TRACE_STORAGE *:= *uart' "$(dirname "${BASH_SOURCE[0]}")/../../boards/$1"/*.mk
}

# gdb_bt SOCK PROG FUNCTION OUT: once QEMU (started with -S -gdb unix:SOCK,server=on,wait=off)
# listens, gdb-multiarch stops PROG's code at FUNCTION, writes its `bt` to OUT and lets the boot
# go on.
gdb_bt() {
    sock_wait "$1"
    timeout 60 gdb-multiarch -batch -nx -ex "file $2" -ex "target remote $1" \
        -ex "break $3" -ex "continue" -ex "bt" -ex "delete" -ex "detach" > "$4" 2>&1
}

# ok STATUS TEXT: the next TAP line (n counts them).
. "$(dirname "${BASH_SOURCE[0]}")/../qemu/tap_lib.sh"
