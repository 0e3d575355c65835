# SPDX-License-Identifier: MIT
# pfcheck: the printf family against the host's (test/qemu/test_printf.sh), alone in its image.
PRIO  := 10
FLAGS := 0
# AArch64 passes a double to printf in an FP register, which programs are compiled not to use
# (-mgeneral-regs-only; the kernel saves the FP/SIMD registers of every thread): this one does.
pfcheck_UCFLAGS_OUT := -mgeneral-regs-only

IMAGES       += pfcheck
pfcheck_APPS := pfcheck
