# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh: sets `cmd` to boot image "$img" on QEMU's virt machine with a
# Cortex-A53, the console (PL011 UART 0) and the semihosting console muxed onto standard
# output, and `sh_cfg` to the -semihosting-config value (qemu-run.sh appends arg=... words).
# QEMU loads the ELF at its addresses and enters it at EL1 (virt without virtualization=on).
# The exit status comes through semihosting's SYS_EXIT_EXTENDED, as on the Cortex-M boards.
# No trace stream UART (QEMU 7.2's virt has one non-secure PL011): uart1_opt stays undefined.
cmd=(qemu-system-aarch64 -M virt,gic-version=2 -cpu cortex-a53 -m 128 -nographic -monitor none
     -chardev stdio,id=con,mux=on -serial chardev:con -kernel "$img")
sh_cfg="enable=on,target=native,chardev=con"
