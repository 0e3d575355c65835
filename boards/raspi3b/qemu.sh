# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh: sets `cmd` to boot image "$img" on QEMU's raspi3b (the
# Raspberry Pi 3 Model B: 1 GB, 4 Cortex-A53s of which the kernel uses core 0; QEMU loads the
# ELF at its addresses, enters core 0 at its entry and parks the others as the firmware does),
# the console (PL011, the first -serial) and the semihosting console muxed onto standard
# output, and `sh_cfg` to the -semihosting-config value. The trace stream (tracelogger -u) is the
# mini UART, QEMU's second -serial. Time from the instruction count, as on qemu-virt-a53.
cmd=(qemu-system-aarch64 -M raspi3b -m 1G -nographic -monitor none
     -chardev stdio,id=con,mux=on -serial chardev:con -kernel "$img")
sh_cfg="enable=on,target=native,chardev=con"
uart1_opt() { cmd+=(-serial "$1"); }
case ${QEMU_ICOUNT:-0} in 1|exact|none) ;; *) cmd+=(-icount shift=auto) ;; esac
