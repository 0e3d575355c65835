# SPDX-License-Identifier: MIT
# pidself: a D consumer without KAPP_F_PRIV, for the pid provider's rule of who may trace a
# process (docs/pid.md, "Who may"; test/qemu/test_pid_perm.sh). Its image: itself as pid 1
# and pidpeer, the other program it starts, on the boards that place pid probes (KPID).
PRIO  := 10
FLAGS := KAPP_F_TRACE|KAPP_F_HOSTFS
IMAGES        += $(if $(KPID),pidperm)
pidperm_APPS  := pidself pidpeer
