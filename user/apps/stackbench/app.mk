# SPDX-License-Identifier: MIT
# stackbench: the cost of stacks at a profile tick, in D and in a capture (make bench,
# scripts/bench-stacks.sh) (user/module.mk reads this file: docs/applications.md).
PRIO  := 10
FLAGS := KAPP_F_TRACE

IMAGES           += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,stackbench)
stackbench_APPS  := dtrace stackbench

# make bench: its figures on this board and, from the other boards, on the Cortex-A53
# (another board's image, built by a make of its own). scripts/bench-stacks.sh; boards whose
# dtrace reads its program from the host (semihosting: not x86-pc).
STACKBENCH_A53 := $(if $(filter qemu-virt-a53,$(BOARD)),,build/qemu-virt-a53)
ifeq ($(filter stackbench,$(IMAGES))-$(strip $(BOARD_TRACE_STORAGE)),stackbench-)
BENCHES    += scripts/bench-stacks.sh|$(B)$(if $(STACKBENCH_A53),|$(STACKBENCH_A53))
BENCH_DEPS += $(B)/stackbench.elf $(H)/dcompile $(if $(STACKBENCH_A53),stackbench-a53)
.PHONY: stackbench-a53
stackbench-a53: | $(KEV_EMIT_GEN_H)
	$(Q)$(MAKE) --no-print-directory BOARD=qemu-virt-a53 build/qemu-virt-a53/stackbench.elf
endif
