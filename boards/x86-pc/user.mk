# SPDX-License-Identifier: MIT
# Programs and images on x86-pc (included by user/module.mk after its defaults). ALL_APPS and
# its order stay as they are (a program's slot is its position). Only the images whose
# programs need nothing the PC lacks are built: programs that write host files (through
# semihosting on the ARM boards) cannot run here; see docs/x86.md.
IMAGES := ktest
