# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh: sets `cmd` to boot image "$img" on QEMU's virt machine with a
# Cortex-A53, the console (PL011 UART 0) and the semihosting console muxed onto standard
# output, and `sh_cfg` to the -semihosting-config value (qemu-run.sh appends arg=... words).
# QEMU loads the ELF at its addresses and enters it at EL3 (secure=on), EL2 or EL1.
# The exit status comes through semihosting's SYS_EXIT_EXTENDED, as on the Cortex-M boards.
# secure=on: QEMU enters at EL3 and the kernel runs in the secure world, where virt's secure
# PL011 (the second -serial) carries the trace stream (QEMU 7.2's virt has one non-secure UART).
# QEMU_SMP=N: N CPUs (the kernel takes up to 4; PSCI starts the others). QEMU's PSCI starts
# them in the non-secure world, so a multiprocessor run is non-secure throughout (secure=off)
# and has no trace stream UART; the stream runs on one CPU, in the secure world.
smp=${QEMU_SMP:-4}
if [ -n "${QEMU_UART1:-}${QEMU_STREAM:-}" ] || [ "$smp" = 1 ]; then
    cmd=(qemu-system-aarch64 -M virt,secure=on,gic-version=2 -cpu cortex-a53 -m 128)
else
    cmd=(qemu-system-aarch64 -M virt,gic-version=2 -cpu cortex-a53 -smp "$smp" -m 128)
fi
cmd+=(-nographic -monitor none -chardev stdio,id=con,mux=on -serial chardev:con -kernel "$img")
sh_cfg="enable=on,target=native,chardev=con"
# QEMU_SHARED_RAM=FILE (scripts/qemu-run.sh): all the guest's RAM (-m 128, from 0x40000000:
# BOARD_SHARED_RAM) backed by FILE and shared with the host (make live's probe path).
shared_ram_opt() {
    cmd+=(-object "memory-backend-file,id=shram,mem-path=$1,size=128M,share=on"
          -machine memory-backend=shram)
}
# The trace stream UART is QEMU's second -serial.
uart1_opt() { cmd+=(-serial "$1"); }
# Time from the instruction count (unless qemu-run.sh asks for shift=0 itself), as on x86-pc:
# on the host clock the generic timer follows the host, and under make test's load a stalled
# host lets the demo's threads run in another order from run to run (the console lines of two
# programs interleaved). Under icount the order is the same every time. QEMU_ICOUNT=none: no
# icount at all, so QEMU runs the CPUs at once, a host thread each, on the host's clock
# (scripts/bench-smp.sh's events per second of several writers).
case ${QEMU_ICOUNT:-0} in
1|exact|none) ;;
*) cmd+=(-icount shift=auto) ;;
esac
