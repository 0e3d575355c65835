# SPDX-License-Identifier: MIT
# Host dtrace front end: build/host/dtrace.
DTRACE_SRCS := tools/dtrace/dtrace.c $(D_ALL_SRCS)
HOST_TOOLS  += $(H)/dtrace

$(H)/dtrace: $(call host_objs,$(DTRACE_SRCS))
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $^ -o $@
