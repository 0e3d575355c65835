# SPDX-License-Identifier: MIT
# QEMU integration tests: boot images (defined in user/module.mk) whose pid 1 prints TAP.
QEMU_TESTS     := ktest
QEMU_TESTS_ELF := $(patsubst %,$(B)/%.elf,$(QEMU_TESTS))

# Kernel benchmarks: deterministic instruction counts under -icount shift=0.
BENCHES    += QEMU_ICOUNT=1|QEMU_TIMEOUT=300|scripts/qemu-run.sh|$(B)/kbench.elf
BENCH_DEPS += $(B)/kbench.elf

# The demo system that `make run` boots, checked for what it reports.
SCRIPT_TESTS += qemu/demo|120|test/qemu/test_demo.sh|$(B)/demo.elf
TEST_DEPS    += $(B)/demo.elf
