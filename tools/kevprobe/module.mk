# SPDX-License-Identifier: MIT
# kevprobe: the probe path's reader (GDB's remote protocol, the kernel's probe block).
HOST_TOOLS += $(H)/kevprobe
$(H)/kevprobe: $(call kevhost_objs,tools/kevprobe/kevprobe.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf -lz

# kevprobe against a GDB server written from the protocol's documents, over a kevgen capture's
# memory: kevgen's file byte for byte, each damaged input refused with its sentence (about 2 s).
SCRIPT_TESTS_HOST += kevprobe|60|test/tools/test_kevprobe.py|$(H)
TEST_DEPS_HOST    += $(H)/kevprobe $(H)/kevgen $(H)/kevcapture

# What kevprobe believes, against a GDB server that lies: a program's forged block, a table
# outside the kernel's RAM, a description changed within a capture, a server that talks
# without answering (garbage, an endless packet, console output, a drip), a block that stays
# idle (about 15 s).
SCRIPT_TESTS_HOST += kevprobe-trust|90|test/tools/test_kevprobe_trust.py|$(H)

# The same lying servers against kevprobe and its GDB client built with the test flags (ASan +
# UBSan), beside the other sanitized live tools in $(LIVE_SAN) (tools/kevconv/module.mk, with
# kevgen): no sanitizer report, its resident set bounded, a sentence each (about 40 s).
$(LIVE_SAN)/kevprobe: $(call host_test_objs,tools/kevprobe/kevprobe.c) $(LIVE_SAN)/libkevhost.a
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -ldw -lelf -lz
TEST_DEPS_HOST += $(LIVE_SAN)/kevprobe $(LIVE_SAN)/kevgen
SCRIPT_TESTS_HOST += kevprobe-trust-asan|180|test/tools/test_kevprobe_trust.py|$(LIVE_SAN)
