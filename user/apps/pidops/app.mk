# SPDX-License-Identifier: MIT
# pidops: one function for each instruction a pid probe displaces on the board's architecture,
# and its own check of what each did (docs/pid.md; test/qemu/test_pid_ops.sh). Its functions
# are assembly (user/arch/<arch>/pidops_arch.c), so its image is only on an architecture with
# that file (i386, Thumb): the board's dtrace, which starts appinit, which starts it and the
# tracelogger (a capture of the same run).
EXTRA := user/arch/$(ARCH)/pidops_arch.c
IMAGES      += $(if $(wildcard user/arch/$(ARCH)/pidops_arch.c),$(if $(filter dtrace,\
                   $(BOARD_NO_IMAGES)),,pidops))
pidops_APPS := dtrace appinit pidops tracelogger
