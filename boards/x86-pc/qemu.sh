# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh: sets `cmd` to boot image "$img" on this board in QEMU, with
# the console (COM1) on standard output. No semihosting on x86 (sh_cfg stays empty): QEMU_ARGS,
# the programs' command line (the tracelogger's options), goes to the kernel as the Multiboot
# command line (-append), which the kernel hands out for SYS_GET_CMDLINE. The CPU
# model is qemu32 with the NX bit, which the kernel uses to keep program RAM non-executable.
# The RTC (the programs' device timer) runs on the virtual clock, like everything else.
# The exit status comes through QEMU's isa-debug-exit device, which makes QEMU exit with
# (value << 1) | 1. board_halt() writes 64 + the status (statuses above 63 are sent as 63), so
# QEMU exits with 129 + 2 * status, and a QEMU that fails by itself (1: bad option, missing
# image; 0: the guest reset; 124: the timeout) is never mistaken for a status.
# `qemu_status` below maps QEMU's exit code back to the image's status.
cmd=(qemu-system-i386 -M pc -cpu qemu32,+nx -m 128 -rtc clock=vm -nic none -vga none
     -nographic -monitor none -no-reboot
     -chardev stdio,id=con,mux=on -serial chardev:con
     -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel "$img")
# Time from the instruction count (unless qemu-run.sh asks for shift=0 itself): without it the
# TSC follows the host's clock while QEMU's PIT catches up on ticks it was late with after a host
# stall, so under load a few ticks come in a burst and 5 ms of timers take 4 ms of TSC time.
case ${QEMU_ICOUNT:-0} in 1|exact|none) ;; *) cmd+=(-icount shift=auto) ;; esac
# QEMU_ICOUNT=exact (scripts/qemu-run.sh): repeatable, with the idle thread spinning: under
# sleep=off QEMU 7.2 lets a CPU halted in HLT sleep through the RTC's and the local APIC
# timer's interrupts (the RTC at 2048 Hz served 1621 periods in 1.5 s; with idle=poll all
# 3072). The option goes on the -append line, the first part.
exact_icount=shift=2,sleep=off
kargs=${QEMU_ARGS:-}
[ "${QEMU_ICOUNT:-0}" = exact ] && kargs="kernel idle=poll ;; $kargs"
[ -n "$kargs" ] && cmd+=(-append "$kargs")
# Host files: no semihosting, so every word of QEMU_ARGS that names an existing file (a D
# object for the board's dtrace, a D script) goes to the kernel as a Multiboot module, its
# command line the word itself, which the kernel serves to the program that opens that name
# (docs/x86.md, "Host files"). QEMU's -initrd separates modules with commas (doubled in a name).
mods=
read -ra qwords <<< "${QEMU_ARGS:-}"      # (words, never globbed: a D program may hold a *)
for w in "${qwords[@]}"; do
    [ -f "$w" ] && [ -r "$w" ] && mods="${mods:+$mods,}${w//,/,,}"
done
[ -n "$mods" ] && cmd+=(-initrd "$mods")
# The trace stream UART (COM2) is QEMU's second -serial.
uart1_opt() { cmd+=(-serial "$1"); }
qemu_status() {
    if [ "$1" -ge 129 ] && [ "$1" -le 255 ] && [ $(( $1 & 1 )) -eq 1 ]; then
        echo $(( ($1 - 129) / 2 ))
    else
        echo "$1"
    fi
}
