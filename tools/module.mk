# SPDX-License-Identifier: MIT
# The host library, build/host/libkevhost.a: what the host tools share, compiled once and linked
# by every tool (docs/ARCHITECTURE.md, "The host side"). It holds
#   trace/          the .kev reader: the decoder, the event table, the field decoder, the
#                   stream and the stack, fault, image and panic records; the derived D
#                   probes' rules (dtrace -i's replay)
#   tools/common/   files, ELF symbols by build id, the fbt/pid/USDT tables of ELF files and the
#                   instruction decoders they use, stacksym's address naming
#   tools/analysis/ the analysis model and every analysis the tools print or serve
# Its public headers are tools/include/kevhost/ (<kevhost/kx.h>) beside trace/include
# (<trace/kev_decode.h>); a tool includes its own folder's headers and these, never another
# tool's. The objects are position-independent (obj-pic/) so that kevsql.so links the same
# archive; -fno-semantic-interposition lets calls inside it be inlined as in an executable.
# A tool links it after its own objects: $(H)/tool: $(call kevhost_objs,its sources).
# Libraries its members need: -ldw -lelf (ELF symbols), -lcapstone (fbt_i386.c), -lz (the
# live reader's CRC-32, kev_live.c).
KEVHOST_LIB  := $(H)/libkevhost.a
KEVHOST_SRCS := trace/kev_events.c trace/kev_kercall.c trace/kev_file.c trace/kev_decode.c \
                trace/d/dusdt_note.c \
                trace/kev_fields.c trace/kev_text.c trace/kev_stack.c trace/kev_image.c \
                trace/kev_panic.c trace/kev_userreg.c trace/kev_stream.c trace/kev_crc32.c \
                trace/kev_wire.c trace/kev_wire_rows.c \
                trace/kev_derived.c trace/kev_ring_walk.c \
                trace/kev_incident.c trace/kev_incident_kev.c trace/kev_incident_core.c \
                $(filter-out tools/common/kev_capture.c,$(wildcard tools/common/*.c)) \
                $(wildcard tools/analysis/*.c)

# Naming a capture's code addresses and USDT sites from the ELF files it ran, found by build id
# (tools/include/kevhost/tool_syms.h, syms_usdt.h): the sources a tool's list names for it (link
# with -ldw -lelf).
SYMS_SRCS := tools/common/tool_elfsym.c tools/common/tool_elf.c tools/common/tool_syms.c tools/common/syms_usdt.c \
             trace/d/dusdt_note.c tools/common/tool_opts.c

pic_objs = $(patsubst %.c,$(H)/obj-pic/%.o,$(1))
# kevhost_objs, kevhost_pic_objs: a tool's objects for a list of sources, those the library
# holds taken from it instead (the lists stay whole for the ASan + UBSan and fuzzing builds,
# which compile every source with their own flags).
kevhost_objs     = $(call host_objs,$(filter-out $(KEVHOST_SRCS),$(1))) $(KEVHOST_LIB)
kevhost_pic_objs = $(call pic_objs,$(filter-out $(KEVHOST_SRCS),$(1))) $(KEVHOST_LIB)
$(H)/obj-pic/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (PIC)"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -fPIC -fno-semantic-interposition -c $< -o $@

$(KEVHOST_LIB): $(call pic_objs,$(KEVHOST_SRCS))
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

# No tool includes another tool's files: every "../" include is a test's (test/tools/test_host_layout.sh).
TEST_DEPS_HOST    += $(KEVHOST_LIB)
SCRIPT_TESTS_HOST += host-layout|30|test/tools/test_host_layout.sh
# The option loop (tools/common/tool_opts.c) as each tool over a capture answers it.
TEST_DEPS_HOST    += $(H)/kev2ctf $(H)/kev2json $(H)/kev2perfetto $(H)/kevstat $(H)/kevreport \
                     $(H)/kevtable $(H)/traceprinter $(H)/kevgen $(H)/dcompile \
                     $(H)/kevsql $(H)/kevcapture $(H)/kevtop $(H)/kevlive $(H)/stacksym $(H)/kevdump $(H)/kevrtt $(H)/kevrelay $(H)/dtrace
SCRIPT_TESTS_HOST += tool-opts|60|test/tools/test_tool_opts.sh

# The live tools against frames that lie and peers that hold on: kevcapture (a payload changed
# under a good frame CRC, an early END, a damaged LOSS frame, 500 resets), kevlive (connections
# that never speak, a cut file), kevrelay (readers that leave, come back, come twice, never read).
TEST_DEPS_HOST    += $(H)/kevcapture $(H)/kevlive $(H)/kevrelay $(H)/kevgen
SCRIPT_TESTS_HOST += live-hostile|120|test/tools/test_live_hostile.sh

# libFuzzer target for the live reader and the stream's framing; seeds: kevgen traces, raw and
# framed (a LOSS frame, a heartbeat), each after the byte that picks the target's piece size.
FUZZ_BINS += $(FZ)/fuzz_kev_live
$(FZ)/fuzz_kev_live: test/fuzz/fuzz_kev_live.c tools/common/kev_live.c trace/kev_stream.c trace/kev_crc32.c trace/kev_wire.c \
                     trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c \
                     trace/kev_events.c trace/kev_kercall.c $(H)/kevgen $(H)/kevwire test/tools/kev_stream.py
	@mkdir -p $(dir $@) $(dir $@)seeds-fuzz_kev_live
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^) -lz
	$(Q)d=$(dir $@)seeds-fuzz_kev_live; $(H)/kevgen -n 300 -o $$d/t.kev >/dev/null && \
	    $(H)/kevgen -b -n 300 -o $$d/b.kev >/dev/null && \
	    python3 test/tools/kev_stream.py $$d/t.kev $$d/t.stream --fault loss:3 >/dev/null && \
	    python3 test/tools/kev_stream.py $$d/t.kev $$d/beat.stream --beat 1000000 >/dev/null && \
	    $(H)/kevwire -o $$d/wire.stream $$d/t.kev >/dev/null && \
	    for f in t.kev b.kev t.stream beat.stream wire.stream; do (printf '\003'; cat $$d/$$f) >$$d/s-$$f; \
	        rm $$d/$$f; done
# make test's short run of it (make fuzz runs it for FUZZ_SECONDS or FUZZ_RUNS)
TEST_DEPS_HOST += $(FZ)/fuzz_kev_live
SCRIPT_TESTS_HOST += fuzz/kev-live|300|test/fuzz/test_fuzz_short.sh|$(FZ)/fuzz_kev_live|5000

# symaddr_flush with no row and with rows (ASan + UBSan: no qsort of a NULL array).
HOST_TESTS += $(HT)/test_symaddr_flush
$(HT)/test_symaddr_flush: $(call host_test_objs,test/unit/test_symaddr_flush.c tools/common/symaddr.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The live reader against the file decoder over the same captures, with every fault injected.
HOST_TESTS += $(HT)/test_kev_live
$(HT)/test_kev_live: $(call host_test_objs,test/unit/test_kev_live.c tools/common/kev_live.c \
                         tools/common/kev_capture.c trace/trace_ring.c trace/kev_stream.c trace/kev_crc32.c trace/kev_wire.c \
                         trace/kev_events.c trace/kev_kercall.c trace/kev_file.c trace/kev_decode.c \
                         trace/kev_fields.c trace/kev_text.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka -lz $(HOST_TLDFLAGS)
# The one JSON string writer against strings written by hand from RFC 8259 and the page rules.
HOST_TESTS += $(HT)/test_json_out
$(HT)/test_json_out: $(call host_test_objs,test/unit/test_json_out.c tools/common/json_out.c trace/kev_text.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)
