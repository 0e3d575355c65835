# SPDX-License-Identifier: MIT
# Host tools over the shared trace code: traceprinter (prints .kev files), kevgen (writes
# synthetic .kev files through the real ring and writer, for tests), kevbench (host figures).
# kevgen and kevbench drive trace_ring with the host port from test/unit (a fake clock).
TP := tools/traceprinter
KEV_DECODE_SRCS := trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c trace/kev_panic.c \
                   trace/kev_stack.c trace/kev_image.c
KEV_GEN_SRCS    := tools/common/kev_capture.c trace/trace_ring.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c

$(call host_objs,$(TP)/kevgen.c $(TP)/kevbench.c tools/common/kev_capture.c trace/trace_ring.c): \
    HOST_CFLAGS += -Itest/unit

HOST_TOOLS += $(H)/traceprinter $(H)/kevgen $(H)/kevbench
TP_SRCS := $(TP)/traceprinter.c $(TP)/qnx_kercall.c $(TP)/text_line.c tools/common/tool_file.c tools/common/tool_map.c \
           $(SYMS_SRCS) $(KEV_DECODE_SRCS)
$(H)/traceprinter: $(call kevhost_objs,$(TP_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf

$(H)/kevgen: $(call kevhost_objs,$(TP)/kevgen.c $(KEV_GEN_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^

$(H)/kevbench: $(call kevhost_objs,$(TP)/kevbench.c $(KEV_GEN_SRCS) trace/kev_decode.c trace/kev_fields.c trace/kev_text.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^

# Script tests: traceprinter on generated and on damaged traces (TAP lines).
TEST_DEPS_HOST += $(H)/traceprinter $(H)/kevgen
# (list entries cannot hold spaces: the script's defaults are build/host and build/host-test/kev)
SCRIPT_TESTS_HOST += traceprinter|120|$(TP)/test_traceprinter.sh
# Our lines against QNX's real traceprinter's (golden/, recorded with ../shared/qnx-tools).
SCRIPT_TESTS_HOST += qnx-golden|60|$(TP)/test_qnx_golden.sh

BENCH_DEPS += $(H)/kevbench
BENCHES += $(H)/kevbench
