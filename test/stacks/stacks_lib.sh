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
