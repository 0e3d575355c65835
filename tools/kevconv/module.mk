# SPDX-License-Identifier: MIT
# Post-capture analysis tools over the shared decoder (trace/kev_decode.c trace/kev_fields.c):
#   kev2ctf    .kev -> CTF 1.8 directory (babeltrace2, Trace Compass)
#   kev2json   .kev -> Chrome trace-event JSON (Perfetto UI)
#   kev2perfetto .kev -> Perfetto protobuf (ftrace sched_switch etc.: CPU tracks)
#   kevstat    analyses (CPU, states, kernel calls, interrupts, messages, losses), text or JSON
#   kevtable   the event table, or a capture's events with their named fields
#   kevreport  one self-contained HTML report: timeline with zoom and pan, tables, histograms
# What they compute and share is the analysis model, tools/analysis/ (its module.mk, read
# before this one, sets AN_MODEL, AN_MSG, AN_STATS, AN_STACKS).
KC := tools/kevconv
$(if $(AN_MODEL),,$(error tools/analysis/module.mk must be read before tools/kevconv/module.mk))
KC_DECODE := $(AN_MODEL)

HOST_TOOLS += $(H)/kev2ctf $(H)/kev2json $(H)/kev2perfetto $(H)/kevstat $(H)/kevreport
# code addresses named from the ELF files a capture ran, found by build id (libdwfl)
KC_SYMS   := $(SYMS_SRCS)
# the profile views (kevstat --folded, kev2perfetto, kevreport): the model's stack samples,
# named the same way ($(AN_STACKS) holds KC_SYMS)
KC_STACKS := $(AN_STACKS)
KC_STATS := $(AN_STATS) $(AN)/kx_wait_text.c $(AN)/kx_faults.c $(AN)/kx_usdt.c
KC_CTF := $(KC)/kev2ctf.c $(KC)/ctf_meta.c $(KC)/ctf_exec.c $(AN_STATS)
KC_CTF_SRCS := $(KC)/kev2ctf_dir.c $(KC_CTF) $(KC_SYMS) $(KC_DECODE)
KC_JSON_SRCS := $(KC)/kev2json.c $(KC)/conv_args.c $(AN_MSG) $(AN)/conv_fault.c $(KC_SYMS) $(KC_DECODE)
KC_PF := $(KC)/kev2perfetto.c $(KC)/conv_args.c $(KC)/kev2perfetto_writer.c $(KC)/kev2perfetto_sched.c \
         $(KC)/kev2perfetto_slices.c $(KC)/kev2perfetto_funcs.c $(KC)/kev2perfetto_instants.c \
         $(KC)/kev2perfetto_counters.c $(KC)/kev2perfetto_system.c
KC_PF_SRCS := $(KC_PF) $(AN_MSG) $(AN)/kx_funcs.c $(AN)/kx_pf_stacks.c $(AN)/conv_fault.c $(KC_STACKS) \
              $(KC_DECODE)
$(H)/kev2ctf: $(call kevhost_objs,$(KC_CTF_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf

# libFuzzer target for kevlive's viewer protocol over a real socket (two viewers at a time);
# seeds: command sequences of LTTng's live protocol (test/fuzz/lv_seeds.py).
FUZZ_BINS += $(FZ)/fuzz_lv_protocol
$(FZ)/fuzz_lv_protocol: test/fuzz/fuzz_lv_protocol.c $(KC)/live_viewer.c $(KC)/live_store.c \
                        test/fuzz/lv_seeds.py
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(KC) -o $@ $(filter %.c,$^)
	$(Q)python3 test/fuzz/lv_seeds.py $(dir $@)seeds-fuzz_lv_protocol
TEST_DEPS_HOST += $(FZ)/fuzz_lv_protocol
SCRIPT_TESTS_HOST += fuzz/lv-protocol|300|test/fuzz/test_fuzz_short.sh|$(FZ)/fuzz_lv_protocol|2000

# kevlive: the trace served live to LTTng's viewers, packets by kev2ctf's encoder.
HOST_TOOLS += $(H)/kevlive
$(H)/kevlive: $(call kevhost_objs,$(KC)/kevlive.c $(KC)/live_store.c $(KC)/live_viewer.c $(KC_CTF) \
                  $(KC_SYMS) $(KC_DECODE))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf -lz
# babeltrace2 attached live against babeltrace2 over kev2ctf's conversion, with bad viewers and
# losses (about 25 s: the paced writers).
SCRIPT_TESTS_HOST += kevlive|120|test/tools/test_kevlive.sh
TEST_DEPS_HOST    += $(H)/kevlive $(H)/kev2ctf $(H)/kevscen $(H)/kevgen $(H)/kevtop $(H)/traceprinter \
                     $(HT)/kevscen4

$(H)/kev2json: $(call kevhost_objs,$(KC_JSON_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf

$(H)/kev2perfetto: $(call kevhost_objs,$(KC_PF_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf

$(H)/kevstat: $(call kevhost_objs,$(KC)/kevstat.c $(KC_STATS) $(KC_STACKS) $(KC_DECODE))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf

# kevtable: the event table, and any capture decoded by it (trace/kev_events.h).
HOST_TOOLS += $(H)/kevtable
KC_TABLE_SRCS := $(KC)/kevtable.c tools/common/tool_file.c tools/common/tool_opts.c trace/kev_decode.c trace/kev_fields.c \
                 trace/kev_text.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c
$(H)/kevtable: $(call kevhost_objs,$(KC_TABLE_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^

# The report's page template is embedded with .incbin: rebuild when it changes.
$(call host_objs,$(KC)/report_assets.c): $(KC)/report.css $(KC)/report.js $(KC)/report_analysis.js $(KC)/report_flame.js \
    $(KC)/report_contents.js $(KC)/report_tasks.js $(wildcard tools/viewer/*.js)
$(H)/kevreport: $(call kevhost_objs,$(KC)/kevreport.c $(KC)/report_rows.c $(KC)/report_assets.c $(KC_STATS) \
                               $(KC_STACKS) $(KC_DECODE))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf

# kevscen: scripted traces with known analysis results (the host port's fake clock, like kevgen).
$(call host_objs,$(KC)/kevscen.c $(KC)/kevscen_sync.c $(KC)/kevscen_events.c $(KC)/kevscen_emul.c): HOST_CFLAGS += -Itest/unit
HOST_TOOLS += $(H)/kevscen
KC_SCEN_SRCS := $(KC)/kevscen.c $(KC)/kevscen_sync.c $(KC)/kevscen_events.c $(KC)/kevscen_emul.c tools/common/kev_capture.c \
                trace/trace_ring.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c
$(H)/kevscen: $(call kevhost_objs,$(KC_SCEN_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^

# Script tests (TAP); they need babeltrace2 and chromium and fail if those are missing.
TEST_DEPS_HOST += $(H)/kev2ctf $(H)/kevscen $(H)/kevgen $(H)/traceprinter
SCRIPT_TESTS_HOST += kev2ctf|300|test/tools/test_kev2ctf.sh
SCRIPT_TESTS_HOST += lttng-analyses|60|test/tools/test_lttng_analyses.sh
TEST_DEPS_HOST += $(H)/kev2json
SCRIPT_TESTS_HOST += kev2json|300|test/tools/test_kev2json.sh
TEST_DEPS_HOST += $(H)/kevstat
SCRIPT_TESTS_HOST += kevstat|300|test/tools/test_kevstat.sh
SCRIPT_TESTS_HOST += kevwait|120|test/tools/test_kevwait.sh
# Names with terminal control sequences reach no terminal through any tool (kev_text.c).
SCRIPT_TESTS_HOST += hostile-names|60|test/tools/test_hostile_names.sh
TEST_DEPS_HOST += $(H)/kevreport
SCRIPT_TESTS_HOST += kevreport|300|test/tools/test_kevreport.sh
SCRIPT_TESTS_HOST += kevreport-ui|300|test/tools/test_kevreport_ui.sh
# make run's report step names the report it wrote, of a capture cut short too (QEMU_TIMEOUT).
SCRIPT_TESTS_HOST += run-report|60|test/tools/test_run_report.sh

# Benchmark: throughput of each tool and of babeltrace2 on a 10-million-event trace.
BENCH_DEPS += $(H)/kev2ctf $(H)/kev2json $(H)/kev2perfetto $(H)/kevstat $(H)/kevreport $(H)/kevgen
BENCHES += tools/kevconv/bench_kevconv.sh
SCRIPT_TESTS_HOST += kevconv-damage|300|test/tools/test_kevconv_damage.sh
TEST_DEPS_HOST += $(H)/kev2perfetto
SCRIPT_TESTS_HOST += kev2perfetto|300|test/tools/test_kev2perfetto.sh


# kevscen4: kevscen over the producer built for 4 CPUs (the "smp" scenario); its objects get
# their own directory and -D, with the test flags (ASan + UBSan).
KC4_SRCS := $(KC)/kevscen.c $(KC)/kevscen_sync.c $(KC)/kevscen_events.c $(KC)/kevscen_emul.c trace/trace_ring.c tools/common/kev_capture.c trace/kev_file.c \
            trace/kev_events.c trace/kev_kercall.c
$(HT)/obj-kc4/%.o: %.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	@echo "  TESTCC  $< (4 CPUs)"
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -DTRACE_MAX_CPUS=4u -c $< -o $@
$(HT)/kevscen4: $(patsubst %.c,$(HT)/obj-kc4/%.o,$(KC4_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^
TEST_DEPS_HOST += $(HT)/kevscen4

# The tools again with the test flags (ASan + UBSan) in $(HT)/, for the damaged-input sweep.
KC_SAN_TOOLS := kev2ctf kev2json kev2perfetto kevstat kevreport
define KC_SAN_template
$(HT)/$(1): $(call host_test_objs,$(2))
	@echo "  TESTLD  $$@"
	$$(Q)$$(HOST_CC) $$(HOST_TLDFLAGS) -o $$@ $$^ -ldw -lelf
endef
$(eval $(call KC_SAN_template,kev2ctf,$(KC_CTF_SRCS)))
$(eval $(call KC_SAN_template,kev2json,$(KC_JSON_SRCS)))
$(eval $(call KC_SAN_template,kev2perfetto,$(KC_PF_SRCS)))
$(eval $(call KC_SAN_template,kevstat,$(KC)/kevstat.c $(KC_STATS) $(KC_STACKS) $(KC_DECODE)))
$(eval $(call KC_SAN_template,kevreport,$(KC)/kevreport.c $(KC)/report_rows.c $(KC)/report_assets.c \
                                        $(KC_STATS) $(KC_STACKS) $(KC_DECODE)))
$(eval $(call KC_SAN_template,kevscen,$(KC_SCEN_SRCS)))
$(call host_test_objs,$(KC)/report_assets.c): $(KC)/report.css $(KC)/report.js \
                                              $(KC)/report_analysis.js $(KC)/report_flame.js \
                                              $(KC)/report_contents.js $(KC)/report_tasks.js \
                                              $(wildcard tools/viewer/*.js)
TEST_DEPS_HOST += $(addprefix $(HT)/,$(KC_SAN_TOOLS) kevscen)
SCRIPT_TESTS_HOST += kevconv-damage-asan|300|test/tools/test_kevconv_damage.sh|$(HT)

# kev2perfetto's protobuf encoder (kx_pb.h): fields written in place against protobuf's encoding.
$(HT)/test_kx_pb: $(call host_test_objs,test/unit/test_kx_pb.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_kx_pb

# The live tools again with the test flags (ASan + UBSan) in $(HT)/live-san/, for the hostile
# streams and peers of test_live_hostile.sh (kevgen copied beside them: the script's BINDIR).
LIVE_SAN := $(HT)/live-san
$(LIVE_SAN)/libkevhost.a: $(call host_test_objs,$(KEVHOST_SRCS))
	@mkdir -p $(dir $@)
	@echo "  TESTAR  $@"
	$(Q)rm -f $@ && ar rcs $@ $^
$(LIVE_SAN)/kevcapture: $(call host_test_objs,tools/kevcapture/kevcapture.c) $(LIVE_SAN)/libkevhost.a
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lz
$(LIVE_SAN)/kevrelay: $(call host_test_objs,tools/kevrelay/kevrelay.c) $(LIVE_SAN)/libkevhost.a
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lz
$(LIVE_SAN)/kevlive: $(call host_test_objs,$(filter-out $(KEVHOST_SRCS),$(KC)/kevlive.c $(KC)/live_store.c \
                         $(KC)/live_viewer.c $(KC_CTF) $(KC_SYMS) $(KC_DECODE))) $(LIVE_SAN)/libkevhost.a
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -ldw -lelf -lz
$(LIVE_SAN)/kevgen: $(H)/kevgen
	@mkdir -p $(dir $@)
	$(Q)cp $< $@
TEST_DEPS_HOST += $(addprefix $(LIVE_SAN)/,kevcapture kevrelay kevlive kevgen)
SCRIPT_TESTS_HOST += live-hostile-asan|300|test/tools/test_live_hostile.sh|$(LIVE_SAN)
