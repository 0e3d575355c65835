# SPDX-License-Identifier: MIT
# Collects every test into $(B)/tests.list for scripts/run-tests.sh:
#   HOST_TESTS    cmocka binaries (TAP via CMOCKA_MESSAGE_OUTPUT)
#   SCRIPT_TESTS_HOST  entries "name|timeout|command|arg|arg..." for script tests needing only
#                 the host (make splits lists on spaces, so arguments are separated by |)
#   SCRIPT_TESTS  entries "name|timeout|command" for tests driven by a script
#   QEMU_TESTS    boot images whose programs print TAP lines; run by scripts/qemu-test.sh
include test/unit/module.mk
include test/fuzz/module.mk
-include test/qemu/module.mk

# What make bench installs (scripts/setup.sh --bench).
SCRIPT_TESTS_HOST += setup/bench|60|test/tools/test_setup.sh

# The docs' sizes, lines, named paths and index, no history named in docs or code, and every
# sh block of the docs run as written (docs/README.md, "How the pages are kept").
SCRIPT_TESTS_HOST += docs|600|test/tools/test_docs.py

.PHONY: test-build bench-build check-host $(B)/tests.list $(HT)/tests.list
test-build: $(HOST_TESTS) $(QEMU_TESTS_ELF) $(TEST_DEPS) $(TEST_DEPS_HOST) $(B)/tests.list
bench-build: $(BENCH_DEPS)

$(B)/tests.list:
	@mkdir -p $(dir $@)
	@: > $@
	@$(foreach t,$(HOST_TESTS),printf '%s\t%s\t%s\n' 'unit/$(notdir $(t))' 300 '$(t)' >> $@;)
	@$(foreach t,$(QEMU_TESTS),printf '%s\t%s\t%s\n' 'qemu/$(t)' 120 \
	    'scripts/qemu-test.sh $(B)/$(t).elf' >> $@;)
	@$(foreach s,$(SCRIPT_TESTS) $(SCRIPT_TESTS_HOST),printf '%s\n' '$(s)' | sed 's/|/\t/; s/|/\t/; s/|/ /g' >> $@;)

# Host-only subset (no cross toolchain needed): unit tests and script tests.
check-host: $(HOST_TESTS) $(HOST_TOOLS) $(TEST_DEPS_HOST) $(HT)/tests.list
	$(Q)scripts/run-tests.sh $(HT)/tests.list

$(HT)/tests.list:
	@mkdir -p $(dir $@)
	@: > $@
	@$(foreach t,$(HOST_TESTS),printf '%s\t%s\t%s\n' 'unit/$(notdir $(t))' 300 '$(t)' >> $@;)
	@$(foreach s,$(SCRIPT_TESTS_HOST),printf '%s\n' '$(s)' | sed 's/|/\t/; s/|/\t/; s/|/ /g' >> $@;)
