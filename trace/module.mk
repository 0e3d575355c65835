# SPDX-License-Identifier: MIT
# trace/: the portable trace format, producer ring, .kev writer and decoder (freestanding C,
# compiled into the kernel by the lead's makefiles and into host tools and tests here).
TRACE_PORTABLE_SRCS := trace/kev_events.c trace/kev_kercall.c trace/trace_ring.c trace/kev_derived.c
TRACE_HOST_SRCS     := trace/kev_events.c trace/kev_kercall.c trace/kev_file.c trace/kev_decode.c trace/kev_fields.c trace/kev_stack.c \
                       trace/kev_text.c trace/kev_image.c

# Host unit tests (cmocka, ASan + UBSan). trace_ring.c reads the host port from test/unit.
HOST_TESTS += $(HT)/test_trace_ring
$(HT)/test_trace_ring: $(call host_test_objs,test/unit/test_trace_ring.c trace/trace_ring.c \
                                              trace/kev_events.c trace/kev_kercall.c \
                                              trace/kev_ring_walk.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

HOST_TESTS += $(HT)/test_trace_kev
$(HT)/test_trace_kev: $(call host_test_objs,test/unit/test_trace_kev.c trace/trace_ring.c \
                         trace/kev_events.c trace/kev_kercall.c trace/kev_file.c trace/kev_decode.c trace/kev_fields.c trace/kev_text.c \
                         trace/kev_stream.c trace/kev_crc32.c tools/common/kev_capture.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The compact wire encoding and its expansion by the live reader, a damaged stream's included.
HOST_TESTS += $(HT)/test_kev_wire
$(HT)/test_kev_wire: $(call host_test_objs,test/unit/test_kev_wire.c tools/common/kev_live.c \
                         tools/common/kev_wire_stream.c \
                         tools/common/kev_capture.c trace/trace_ring.c trace/kev_stream.c \
                         trace/kev_crc32.c trace/kev_wire.c trace/kev_wire_rows.c \
                         trace/kev_events.c trace/kev_kercall.c trace/kev_file.c \
                         trace/kev_decode.c trace/kev_fields.c trace/kev_text.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka -lz $(HOST_TLDFLAGS)

# libFuzzer target for the compact wire encoding: any stream's KEY and SLOTS frames decoded, any
# slots encoded and decoded back; seeds: kevwire's stream of a kevgen trace (0 first), the
# trace as slots (1, then the frame size's byte).
FUZZ_BINS += $(FZ)/fuzz_kev_wire
$(FZ)/fuzz_kev_wire: test/fuzz/fuzz_kev_wire.c trace/kev_wire.c trace/kev_wire_rows.c \
                     trace/kev_stream.c trace/kev_crc32.c trace/kev_events.c trace/kev_kercall.c \
                     $(H)/kevgen $(H)/kevwire
	@mkdir -p $(dir $@) $(dir $@)seeds-fuzz_kev_wire
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)
	$(Q)d=$(dir $@)seeds-fuzz_kev_wire; $(H)/kevgen -n 2000 -o $$d/t.kev >/dev/null && \
	    $(H)/kevwire -o $$d/t.stream $$d/t.kev >/dev/null && \
	    (printf '\000'; cat $$d/t.stream) >$$d/s-stream && \
	    (printf '\001\060'; tail -c 20000 $$d/t.kev) >$$d/s-slots && rm $$d/t.kev $$d/t.stream
TEST_DEPS_HOST += $(FZ)/fuzz_kev_wire
SCRIPT_TESTS_HOST += fuzz/kev-wire|300|test/fuzz/test_fuzz_short.sh|$(FZ)/fuzz_kev_wire|5000

# libFuzzer target for the decoder; seeds are small kevgen traces (both byte orders, losses).
FUZZ_BINS += $(FZ)/fuzz_kev_decode
$(FZ)/fuzz_kev_decode: test/fuzz/fuzz_kev_decode.c trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c \
                            trace/kev_events.c trace/kev_kercall.c $(H)/kevgen
	@mkdir -p $(dir $@) $(dir $@)seeds-fuzz_kev_decode
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)
	$(Q)$(H)/kevgen -n 60 -o $(dir $@)seeds-fuzz_kev_decode/le.kev >/dev/null
	$(Q)$(H)/kevgen -b -n 60 -o $(dir $@)seeds-fuzz_kev_decode/be.kev >/dev/null
	$(Q)$(H)/kevgen -k 1 -d 0 -n 1100 -o $(dir $@)seeds-fuzz_kev_decode/lost.kev >/dev/null

# The same producer built for 4 CPUs: its objects get their own directory and -D.
TRACE_SMP_SRCS := test/unit/test_trace_smp.c trace/trace_ring.c tools/common/kev_capture.c
TRACE_SMP_OBJS := $(patsubst %.c,$(HT)/obj-smp/%.o,$(TRACE_SMP_SRCS))
$(HT)/obj-smp/%.o: %.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	@echo "  TESTCC  $< (4 CPUs)"
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -DTRACE_MAX_CPUS=4u -c $< -o $@

HOST_TESTS += $(HT)/test_trace_smp
$(HT)/test_trace_smp: $(TRACE_SMP_OBJS) $(call host_test_objs,trace/kev_events.c trace/kev_kercall.c \
                         trace/kev_file.c trace/kev_decode.c trace/kev_fields.c trace/kev_text.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The STACK / FAULT / IMAGE decoders on hand-built payloads (docs/trace-events.md's layout).
HOST_TESTS += $(HT)/test_kev_stack
$(HT)/test_kev_stack: $(call host_test_objs,test/unit/test_kev_stack.c trace/kev_stack.c trace/kev_image.c \
                         trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# Which part of a kernel call an event is, for every number, against the table and QNX's numbering.
HOST_TESTS += $(HT)/test_kev_kcall
$(HT)/test_kev_kcall: $(call host_test_objs,test/unit/test_kev_kcall.c trace/kev_decode.c \
                         trace/kev_events.c trace/kev_kercall.c trace/kev_fields.c trace/kev_text.c \
                         trace/kev_file.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The field API (kev_fields.c: by descriptor and by name) on hand-built events, and the table's lookup.
HOST_TESTS += $(HT)/test_kev_fields
$(HT)/test_kev_fields: $(call host_test_objs,test/unit/test_kev_fields.c trace/kev_fields.c trace/kev_events.c \
                         trace/kev_kercall.c trace/kev_decode.c trace/kev_text.c trace/kev_file.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# Names made safe to print (kev_text.c): the console's escapes, UTF-8 kept, nothing cut.
HOST_TESTS += $(HT)/test_kev_text
$(HT)/test_kev_text: $(call host_test_objs,test/unit/test_kev_text.c trace/kev_text.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The kernel's build date as SysInfo gives it and a capture's header says it (kev_ident.h).
HOST_TESTS += $(HT)/test_kev_ident
$(HT)/test_kev_ident: $(call host_test_objs,test/unit/test_kev_ident.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The incident record's check and writers on a record built by hand (trace/kev_incident.h).
HOST_TESTS += $(HT)/test_kev_incident
$(HT)/test_kev_incident: $(call host_test_objs,test/unit/test_kev_incident.c trace/kev_incident.c \
                         trace/kev_incident_kev.c trace/kev_incident_core.c trace/kev_crc32.c \
                         trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The KPANIC decoder on hand-built payloads: today's layout and a capture from before it.
HOST_TESTS += $(HT)/test_kev_panic
$(HT)/test_kev_panic: $(call host_test_objs,test/unit/test_kev_panic.c trace/kev_panic.c \
                         trace/kev_stack.c trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The ring's locks under real threads (test_trace_threads.c): a port of its own (one host
# thread per CPU, test/unit/trace_port_threads) and ThreadSanitizer, which fails on any race.
TRACE_THR_CFLAGS := -std=gnu11 -O1 -g $(HOST_WARN) -Wno-missing-prototypes \
                    -Itest/unit/trace_port_threads -Itrace/include -DTRACE_MAX_CPUS=4u \
                    -fsanitize=thread -fno-omit-frame-pointer
HOST_TESTS += $(HT)/test_trace_threads
$(HT)/test_trace_threads: test/unit/test_trace_threads.c trace/trace_ring.c \
                          test/unit/trace_port_threads/trace_port.h trace/include/trace/trace_ring.h
	@mkdir -p $(dir $@)
	@echo "  TSANCC  $@"
	$(Q)$(HOST_CC) $(TRACE_THR_CFLAGS) -o $@ $(filter %.c,$^) -fsanitize=thread -pthread

# The probe path's protocol (test_probe_threads.c): the ring's writers and the host's reader
# (tools/common/kev_probe.c) in threads at once, every policy, under ThreadSanitizer.
HOST_TESTS += $(HT)/test_probe_threads
PROBE_THR_SRCS := test/unit/test_probe_threads.c trace/trace_ring.c tools/common/kev_probe.c \
                  trace/kev_ring_walk.c tools/common/kev_ring_desc.c \
                  trace/kev_file.c trace/kev_stream.c trace/kev_crc32.c
$(HT)/test_probe_threads: $(PROBE_THR_SRCS) test/unit/trace_port_threads/trace_port.h \
                          trace/include/trace/trace_ring.h trace/include/trace/kev_probe.h \
                          tools/include/kevhost/kev_probe.h
	@mkdir -p $(dir $@)
	@echo "  TSANCC  $@"
	$(Q)$(HOST_CC) $(TRACE_THR_CFLAGS) -Itools/include -Ikernel/include -o $@ \
	    $(filter %.c,$^) -fsanitize=thread -pthread

# The derived D probes' rules (trace/kev_derived.c), which the kernel and dtrace -i both fire:
# every transition between the table's states, and each other rule, in and out, against the
# map docs/d-probes.md gives, and the rules' probes against the thread states' rows.
HOST_TESTS += $(HT)/test_kev_derived
$(HT)/test_kev_derived: $(call host_test_objs,test/unit/test_kev_derived.c trace/kev_derived.c \
                         trace/kev_events.c trace/kev_kercall.c trace/d/probes.c trace/d/dfbt.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The kernel's emit helpers (kernel/include/kernel/kev_emit.h) against the event table's rows:
# each helper's ring event read back by the table's decoder, its D firings by the row's D
# column, so that the table and the kernel's emit sites cannot drift.
HOST_TESTS += $(HT)/test_kev_emit
$(call host_test_objs,test/unit/test_kev_emit.c): HOST_TCFLAGS += -I$(dir $(KEV_EMIT_GEN_ADDED_H))
$(call host_test_objs,test/unit/test_kev_emit.c): | $(KEV_EMIT_GEN_ADDED_H)
$(HT)/test_kev_emit: $(call host_test_objs,test/unit/test_kev_emit.c trace/trace_ring.c trace/kev_events.c \
                       trace/kev_kercall.c trace/kev_file.c trace/kev_decode.c trace/kev_fields.c \
                       trace/kev_text.c trace/d/probes.c trace/d/dfbt.c tools/common/kev_capture.c \
                       trace/d/row_probes.c tools/common/row_probes.c trace/kev_derived.c \
                       test/tools/test_event_row.c test/tools/test_event_row_add.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)
