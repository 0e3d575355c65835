# SPDX-License-Identifier: MIT
# kevtop: a live view of a running target's threads (the live reader and the analysis model).
HOST_TOOLS += $(H)/kevtop
$(H)/kevtop: $(call kevhost_objs,tools/kevtop/kevtop.c tools/kevtop/top.c tools/kevtop/top_print.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lm -lz

# Its frames against kevstat's totals and kevsql's slices over the same files, read whole, as
# they grow and as the framed stream with each fault injected (about 15 s: the paced writers).
SCRIPT_TESTS_HOST += kevtop|200|test/tools/test_kevtop.sh
TEST_DEPS_HOST    += $(H)/kevtop $(H)/kevstat $(H)/kevgen $(H)/kevsql $(H)/traceprinter $(HT)/kevscen4
