# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh: sets `cmd` to boot image "$img" on this board in QEMU, with
# the console (UART 0) and the semihosting console muxed onto standard output, and `sh_cfg`
# to the -semihosting-config value (qemu-run.sh appends arg=... words to it).
cmd=(qemu-system-arm -M mps2-an385 -nographic -monitor none
     -chardev stdio,id=con,mux=on -serial chardev:con -kernel "$img")
sh_cfg="enable=on,target=native,chardev=con"
# The trace stream UART (UART 1) is QEMU's second -serial.
uart1_opt() { cmd+=(-serial "$1"); }
# QEMU_ICOUNT=exact (scripts/qemu-run.sh): repeatable, with the idle thread spinning (QEMU 7.2
# wakes a Cortex-M waiting in WFI at every second timer deadline only under sleep=off); shift=4
# (62.5 million instructions a second) so that idle time costs the host a sixteenth of shift=0's.
exact_icount=shift=4,sleep=off
exact_kopts=idle=poll
# QEMU_SHARED_RAM=FILE (scripts/qemu-run.sh): the machine's RAM, which is the PSRAM at
# 0x21000000 (16 MB: the board's BOARD_SHARED_RAM, where the kernel places the trace pool and
# the probe area), backed by FILE and shared with the host (make live's probe path).
shared_ram_opt() {
    cmd+=(-object "memory-backend-file,id=shram,mem-path=$1,size=16M,share=on"
          -machine memory-backend=shram)
}
