# SPDX-License-Identifier: MIT
# Used by `make debug`: gdb-multiarch -x .gdbinit build/mps2-an385/demo.elf
# The kernel's symbols come from the image named on the command line. Programs are linked at
# their final addresses, so their symbols load with no offset, e.g.:
#   add-symbol-file build/mps2-an385/apps/srv.elf
set confirm off
set pagination off
target remote localhost:1234
break kpanic
