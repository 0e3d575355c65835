# SPDX-License-Identifier: MIT
# kevrtt (the stand-in RTT probe) and kevdump (the trace ring of a halted target), both over
# the GDB remote protocol client in gdb_remote.c.
HOST_TOOLS += $(H)/kevrtt
$(H)/kevrtt: $(call host_objs,tools/kevdump/kevrtt.c tools/kevdump/rtt_find.c tools/kevdump/gdb_remote.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
