# SPDX-License-Identifier: MIT
# dcompile: D programs compiled on the host for the target's dtrace program.
HOST_TOOLS += $(H)/dcompile
DCOMPILE_SRCS := tools/dcompile/dcompile.c tools/common/tool_file.c tools/common/tool_elfsym.c tools/common/tool_elf.c \
                 tools/common/tool_fbt.c tools/common/tool_usdt.c tools/common/fbt_thumb.c tools/common/fbt_a64.c tools/common/fbt_i386.c $(D_CC_SRCS) trace/d/verify.c trace/d/probes.c \
                 trace/d/dfbt.c tools/common/row_probes.c trace/d/row_probes.c
$(H)/dcompile: $(call kevhost_objs,$(DCOMPILE_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf -lcapstone
