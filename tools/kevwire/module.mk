# SPDX-License-Identifier: MIT
# kevwire: the tracelogger's compact stream of a .kev file, and its bytes an event.
HOST_TOOLS += $(H)/kevwire
$(H)/kevwire: $(call kevhost_objs,tools/kevwire/kevwire.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lz
