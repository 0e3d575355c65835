# SPDX-License-Identifier: MIT
# pidops: one function for each i386 instruction a pid probe displaces, and its own check of
# what each did (docs/pid.md; test/qemu/test_pid_i386.sh). Its functions are i386 assembly
# (user/arch/x86/pidops_arch.c), so its image is x86's alone: the board's dtrace, which
# starts appinit, which starts it and the tracelogger (a capture of the same run).
EXTRA := user/arch/x86/pidops_arch.c
IMAGES      += $(if $(filter x86,$(ARCH)),$(if $(filter dtrace,$(BOARD_NO_IMAGES)),,pidops))
pidops_APPS := dtrace appinit pidops tracelogger
