# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh: sets `cmd` to boot image "$img" on this board in QEMU, with
# the console (USART1, QEMU's first -serial) and the semihosting console muxed onto standard
# output, and `sh_cfg` to the -semihosting-config value (qemu-run.sh appends arg=... words).
cmd=(qemu-system-arm -M netduinoplus2 -nographic -monitor none
     -chardev stdio,id=con,mux=on -serial chardev:con -kernel "$img")
sh_cfg="enable=on,target=native,chardev=con"
# The trace stream UART (USART2) is QEMU's second -serial.
uart1_opt() { cmd+=(-serial "file:$1"); }

