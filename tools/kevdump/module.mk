# SPDX-License-Identifier: MIT
# kevrtt (the stand-in RTT probe) and kevdump (the trace ring of a halted target), both over
# the GDB remote protocol client (tools/common/gdb_remote.c); their -g/-a/-s in gdb_target.c.
HOST_TOOLS += $(H)/kevrtt
$(H)/kevrtt: $(call kevhost_objs,tools/kevdump/kevrtt.c tools/kevdump/rtt_find.c tools/kevdump/gdb_target.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
HOST_TOOLS += $(H)/kevdump
$(H)/kevdump: $(call kevhost_objs,tools/kevdump/kevdump.c tools/kevdump/flight_read.c \
                                  tools/kevdump/kevdump_incident.c tools/kevdump/gdb_target.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^

# kevdump against a GDB server of the test's own over a halted target's memory (a kevgen
# capture's buffers under the kernel's map and ring, test/tools/flight_image.py): kevgen's
# buffers byte for byte, each field of the map and the ring's words damaged refused with a
# sentence naming it and exit 1, nothing read past a refused map (about 3 s). Again with kevdump
# and its GDB client built with the test flags (ASan + UBSan): no read outside what it fetched.
SCRIPT_TESTS_HOST += kevdump-map|60|test/tools/test_kevdump_map.py|$(H)
TEST_DEPS_HOST    += $(H)/kevdump $(H)/kevgen $(H)/traceprinter
$(LIVE_SAN)/kevdump: $(call host_test_objs,tools/kevdump/kevdump.c tools/kevdump/flight_read.c \
                                           tools/kevdump/kevdump_incident.c \
                                           tools/kevdump/gdb_target.c) $(LIVE_SAN)/libkevhost.a
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^
TEST_DEPS_HOST    += $(LIVE_SAN)/kevdump
SCRIPT_TESTS_HOST += kevdump-map-asan|120|test/tools/test_kevdump_map.py|$(H)|$(LIVE_SAN)/kevdump

# libFuzzer target for kevdump's reading of a halted target's memory (the map's checks, the
# ring's words, the buffers' table): any memory read or refused with a sentence, nothing read
# outside what was fetched. Seeds: small kevgen captures laid out as a target's memory.
FUZZ_BINS += $(FZ)/fuzz_kevdump
$(FZ)/fuzz_kevdump: test/fuzz/fuzz_kevdump.c tools/kevdump/flight_read.c tools/common/kev_ring_desc.c \
                    trace/kev_ring_walk.c trace/kev_file.c $(H)/kevgen test/tools/flight_image.py
	@mkdir -p $(dir $@) $(dir $@)seeds-fuzz_kevdump
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Itools/kevdump -o $@ $(filter %.c,$^)
	$(Q)python3 test/tools/flight_image.py $(H) $(dir $@)seeds-fuzz_kevdump
# make test's short run of it (make fuzz runs it for FUZZ_SECONDS or FUZZ_RUNS)
TEST_DEPS_HOST += $(FZ)/fuzz_kevdump
SCRIPT_TESTS_HOST += fuzz/kevdump|300|test/fuzz/test_fuzz_short.sh|$(FZ)/fuzz_kevdump|20000
