# SPDX-License-Identifier: MIT
# QEMU integration tests: boot images (defined in user/module.mk) whose pid 1 prints TAP.
QEMU_TESTS     := ktest
QEMU_TESTS_ELF := $(patsubst %,$(B)/%.elf,$(QEMU_TESTS))
