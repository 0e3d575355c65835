# SPDX-License-Identifier: MIT
# kevrtt (the stand-in RTT probe) and kevdump (the trace ring of a halted target), both over
# the GDB remote protocol client (tools/common/gdb_remote.c); their -g/-a/-s in gdb_target.c.
HOST_TOOLS += $(H)/kevrtt
$(H)/kevrtt: $(call kevhost_objs,tools/kevdump/kevrtt.c tools/kevdump/rtt_find.c tools/kevdump/gdb_target.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
HOST_TOOLS += $(H)/kevdump
$(H)/kevdump: $(call kevhost_objs,tools/kevdump/kevdump.c tools/kevdump/kevdump_incident.c tools/kevdump/gdb_target.c trace/kev_file.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
