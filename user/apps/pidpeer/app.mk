# SPDX-License-Identifier: MIT
# pidpeer: the program pidself may not trace (docs/pid.md, "Who may";
# test/qemu/test_pid_perm.sh). pidself starts it; it needs no flag.
PRIO  := 20
FLAGS := 0
