# SPDX-License-Identifier: MIT
# kevrtt (the stand-in RTT probe) and kevdump (the trace ring of a halted target), both over
# the GDB remote protocol client (tools/common/gdb_remote.c).
HOST_TOOLS += $(H)/kevrtt
$(H)/kevrtt: $(call kevhost_objs,tools/kevdump/kevrtt.c tools/kevdump/rtt_find.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
HOST_TOOLS += $(H)/kevdump
$(H)/kevdump: $(call kevhost_objs,tools/kevdump/kevdump.c trace/kev_file.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
