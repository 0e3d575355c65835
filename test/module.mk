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

# The kernel's layers as docs/ARCHITECTURE.md draws them, held against the code's calls and
# includes (scripts/kernel_graph.py): the gates, the cycles, the multiprocessor #ifs. A second.
SCRIPT_TESTS_HOST += kernel-layers|60|test/tools/test_kernel_layers.py

# At most 30 functions over 100 lines in the tracked .c files outside test/
# (scripts/long-functions.sh, checked first on a scratch tree of known lengths). Seconds.
SCRIPT_TESTS_HOST += long-functions|60|test/tools/test_long_functions.sh

# Every script in scripts/ answers --help before it does anything (scripts/script_help.sh). A
# few seconds.
SCRIPT_TESTS_HOST += script-help|120|test/tools/test_script_help.sh

# The event table test (read after the tools' module.mk files, whose source lists it uses): a
# capture of every event read by every consumer, and the consumers
# built again with a test-only row (test/tools/test_event_row.c, added before main through
# kev_events_add) in $(HT)/evrow/, their own code unchanged; dtrace -i fires its D probe.
EVROW_OBJ := $(call host_objs,test/tools/test_event_row.c test/tools/test_event_row_add.c)
EVROW_TOOLS := kevscen kevtable traceprinter kev2ctf kev2json kev2perfetto
$(HT)/evrow/kevscen: $(EVROW_OBJ) $(call kevhost_objs,$(KC_SCEN_SRCS))
$(HT)/evrow/kevtable: $(EVROW_OBJ) $(call kevhost_objs,$(KC_TABLE_SRCS))
$(HT)/evrow/traceprinter: $(EVROW_OBJ) $(call kevhost_objs,$(TP_SRCS))
$(HT)/evrow/kev2ctf: $(EVROW_OBJ) $(call kevhost_objs,$(KC_CTF_SRCS))
$(HT)/evrow/kev2json: $(EVROW_OBJ) $(call kevhost_objs,$(KC_JSON_SRCS))
$(HT)/evrow/kev2perfetto: $(EVROW_OBJ) $(call kevhost_objs,$(KC_PF_SRCS))
$(addprefix $(HT)/evrow/,$(EVROW_TOOLS)):
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf
$(HT)/evrow/dtrace: $(EVROW_OBJ) $(call kevhost_objs,$(DTRACE_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf -lcapstone -lz
$(HT)/evrow/dcompile: $(EVROW_OBJ) $(call kevhost_objs,$(DCOMPILE_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf -lcapstone
$(HT)/evrow/kevsql: $(EVROW_OBJ) $(call kevhost_pic_objs,$(KS)/kevsql.c $(KS)/kevsql_fleet.c $(KS_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lsqlite3 $(KS_LIBS)
TEST_DEPS_HOST += $(addprefix $(HT)/evrow/,$(EVROW_TOOLS) kevsql dtrace) $(H)/kevtable $(H)/kevscen $(H)/kevsql
# The test-only row's emit helper, generated from it as the table's are (tools/emitgen/module.mk).
$(HT)/evrow/emitgen: $(EVROW_OBJ) $(call kevhost_objs,$(EMITGEN_SRCS))
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
$(eval $(call emitgen_header,$(KEV_EMIT_GEN_ADDED_H),$(HT)/evrow/emitgen,-a))
SCRIPT_TESTS_HOST += event-table|300|test/tools/test_event_table.sh

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
