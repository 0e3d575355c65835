# SPDX-License-Identifier: MIT
# QEMU integration tests: boot images (defined in user/module.mk) whose pid 1 prints TAP.
QEMU_TESTS     := ktest
QEMU_TESTS_ELF := $(patsubst %,$(B)/%.elf,$(QEMU_TESTS))

# Kernel benchmarks: deterministic instruction counts under -icount shift=0.
BENCHES    += QEMU_ICOUNT=1|QEMU_TIMEOUT=300|scripts/qemu-run.sh|$(B)/kbench.elf
BENCH_DEPS += $(B)/kbench.elf
